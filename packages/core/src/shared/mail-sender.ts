import { createHash, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type MailMessage from 'nodemailer/lib/mailer/mail-message';
import { buildRawMessage } from './mail-mime.rules';
import { classifyMailFailure, mailFailureMessage, mailTarget, smtpAuth, type MailConnectionOptions, type MailServerSettings } from './mail-verifier';

/** The domain of an address, lower-cased (the right-hand side of a Message-ID we mint); "localhost" when it has none. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase() || 'localhost';
}

/** One e-mail to hand to a mailbox's SMTP server. */
export interface OutgoingMessage {
  from: { name: string; address: string };
  to: string;
  cc?: string[];
  bcc?: string[];
  replyTo?: string | null;
  subject: string;
  /** Null: a plain-text e-mail. */
  html: string | null;
  text: string;
  /** RFC 5322 Message-ID without angle brackets; chosen by the caller so a retry repeats it. */
  messageId: string;
  inReplyTo?: string;
  references?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post, …). */
  headers?: Record<string, string>;
  attachments?: { filename: string; content: Buffer }[];
}

/**
 * What the server made of a message:
 * - `sent`: accepted (its reply text is kept);
 * - `rejected`: a 5xx answer, a hard bounce (nothing will change on a retry);
 * - `deferred`: a 4xx answer, a timeout or a connection failure (worth a retry later);
 * - `auth`: the mailbox's login was refused (its credentials need fixing; no retry helps).
 */
export type SendOutcome =
  | { status: 'sent'; response: string }
  | { status: 'rejected' | 'deferred' | 'auth'; code: number | null; message: string };

/** Sends through a mailbox's own SMTP server. */
export interface MailSender {
  /**
   * `mailboxId` and `version` name the pooled connection: a new version (changed
   * credentials), or another access token (`smtp.accessToken`), replaces the mailbox's pool.
   */
  send(options: {
    mailboxId: string;
    version: string;
    smtp: MailServerSettings;
    message: OutgoingMessage;
    /**
     * Starts once the server has accepted the envelope (MAIL FROM, RCPT TO) and DATA, as the
     * body starts going out (again on a resend over another pooled connection); the body's
     * end (the final ".", from which on the server may take the message) waits for it. When
     * it fails, the body is cut off before its end: the server discards the transaction and
     * the outcome is `deferred`.
     */
    beforeEndOfData?: () => Promise<void>;
  }): Promise<SendOutcome>;
  /** Closes every pooled connection. */
  close(): Promise<void>;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
  command?: string;
}

/** The commands whose reply is about the message itself (a bounce reason worth keeping). */
const DELIVERY_COMMANDS = new Set(['MAIL FROM', 'RCPT TO', 'DATA']);

/**
 * Maps a nodemailer failure onto what the engine does next. Only the server's reply to the
 * message's own commands (MAIL FROM, RCPT TO, DATA: the bounce reason, after a successful
 * login) is kept, on one line and at most 300 characters; any other failure (connecting,
 * greeting, TLS, login, a host not allowed) is told in a fixed sentence (mailFailureMessage)
 * with nothing the server said.
 */
export function classifySendError(error: unknown): Exclude<SendOutcome, { status: 'sent' }> {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  const failure = classifyMailFailure(error);
  // A mailbox whose host is not allowed cannot send until its settings change: as a refused login.
  if (failure === 'not_allowed') return { status: 'auth', code: null, message: mailFailureMessage('SMTP', failure) };
  // 530 "authentication required", 534/535 credentials refused, 454 temporary auth failure
  // only when nodemailer says the login itself failed.
  if (e.code === 'EAUTH' || code === 535 || code === 534 || code === 530) return { status: 'auth', code, message: mailFailureMessage('SMTP', 'auth') };
  const reply = typeof e.response === 'string' && e.command !== undefined && DELIVERY_COMMANDS.has(e.command) ? oneLine(e.response) : '';
  // nodemailer's own refusals of a message (no recipients, …) carry no server text.
  const local = e.command === 'API' && e.response === undefined && typeof e.message === 'string' ? oneLine(e.message) : '';
  const message = reply || local || mailFailureMessage('SMTP', failure);
  if (code !== null && code >= 500) return { status: 'rejected', code, message };
  return { status: 'deferred', code, message };
}

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** A message as nodemailer's sendMail takes it. */
export function nodemailerMessage(message: OutgoingMessage) {
  return {
    from: { name: message.from.name, address: message.from.address },
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    replyTo: message.replyTo ?? undefined,
    subject: message.subject,
    html: message.html ?? undefined,
    text: message.text,
    messageId: `<${message.messageId}>`,
    inReplyTo: message.inReplyTo,
    references: message.references,
    headers: message.headers,
    attachments: message.attachments,
  };
}

/**
 * nodemailer with a small connection pool per mailbox (2 connections, 100 messages per
 * connection), reused across sends and replaced when the mailbox's settings change.
 * A pool connects to the address its host was vetted at when it was made (see mailTarget):
 * a host not allowed is a refused login (`auth`), and a pool dropped after a failure
 * resolves the host again. `rejectUnauthorized: false` accepts self-signed certificates.
 */
export function createMailSender(options: MailConnectionOptions & { maxConnections?: number } = {}): MailSender {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pools = new Map<string, { version: string; transport: Promise<Transporter> }>();
  const closing = (transport: Promise<Transporter>) => void transport.then((t) => t.close(), () => {});
  const drop = (mailboxId: string, transport: Promise<Transporter>) => {
    if (pools.get(mailboxId)?.transport !== transport) return;
    pools.delete(mailboxId);
    closing(transport);
  };
  const transportFor = (mailboxId: string, mailboxVersion: string, s: MailServerSettings): Promise<Transporter> => {
    // An XOAUTH2 pool logs in with one access token: a refreshed token makes a new pool.
    const version = s.accessToken === undefined ? mailboxVersion : `${mailboxVersion}:${createHash('sha256').update(s.accessToken).digest('base64url').slice(0, 16)}`;
    const existing = pools.get(mailboxId);
    if (existing && existing.version === version) return existing.transport;
    if (existing) closing(existing.transport);
    const transport = mailTarget(s.host, options).then((target) => createPool(s, target));
    pools.set(mailboxId, { version, transport });
    // A host that could not be vetted is tried again at the next send.
    transport.catch(() => drop(mailboxId, transport));
    return transport;
  };
  const createPool = (s: MailServerSettings, target: { address: string; servername: string | undefined }) => {
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: options.maxConnections ?? 2,
      maxMessages: 100,
      host: target.address,
      ...(target.servername ? { servername: target.servername } : {}),
      port: s.port,
      secure: s.secure ?? s.port === 465,
      auth: smtpAuth(s),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      tls: { rejectUnauthorized: options.rejectUnauthorized ?? true },
    });
    // A pooled connection dropping while idle is reported here; the next send reconnects.
    transport.on('error', () => {});
    transport.use('stream', gateEndOfData);
    return transport;
  };
  return {
    async send({ mailboxId, version, smtp, message, beforeEndOfData }) {
      const pending = transportFor(mailboxId, version, smtp);
      try {
        const transport = await pending;
        // Built in one pass (mail-mime.rules.ts); nodemailer composes what that leaves to it (attachments).
        const built = buildRawMessage(message, { date: new Date(), boundary: `--_Outreach-${randomBytes(12).toString('hex')}-Part_1` });
        const mail: SendMailOptions & { beforeEndOfData?: () => Promise<void> } = built
          ? { envelope: built.envelope, raw: built.raw, beforeEndOfData }
          : { ...nodemailerMessage(message), beforeEndOfData };
        const info = await transport.sendMail(mail);
        return { status: 'sent', response: String(info.response ?? '') };
      } catch (error) {
        const outcome = classifySendError(error);
        // A refused login or a broken connection may leave the pool unusable: start afresh next time.
        if (outcome.status !== 'rejected') drop(mailboxId, pending);
        return outcome;
      }
    },
    async close() {
      for (const { transport } of pools.values()) closing(transport);
      pools.clear();
    },
  };
}

/**
 * The nodemailer plugin behind `beforeEndOfData`: the message's stream, as the SMTP
 * connection receives it, becomes one that starts the hook on its first read and ends only
 * once the hook has succeeded. The connection reads it only after the server's answer to
 * DATA (354), and writes the final "." when it ends: so the hook runs while the body goes
 * out, and the server cannot have taken the message before the hook is done. A failing hook
 * errors the stream before its end, and nodemailer drops the connection in the middle of
 * DATA. It must stay the last stream of the message (a DKIM signer reads its input in full
 * before writing, so it would have to come before it).
 */
function gateEndOfData(mail: MailMessage, done: (err?: Error | null) => void) {
  const hook = (mail.data as { beforeEndOfData?: () => Promise<void> }).beforeEndOfData;
  if (hook) {
    mail.message.processFunc((input) => {
      const gate = new EndOfDataGate(hook);
      input.on('error', (error) => gate.destroy(error));
      return input.pipe(gate);
    });
  }
  done();
}

/**
 * The stream of gateEndOfData: a pass-through (no copy, no async iteration per chunk) that
 * starts the hook when the connection starts reading it (pipes it into the DATA stream, which
 * resumes it) and holds its end until the hook has settled. Its input fills its buffer before
 * that (the message is built as soon as the send starts, and a stream reads ahead into its
 * buffer), so neither the first write nor the first _read is what comes after DATA.
 */
class EndOfDataGate extends Transform {
  private settled: Promise<void> | null = null;
  /** The end, when the input ended before the connection started reading. */
  private held: TransformCallback | null = null;
  constructor(private readonly hook: () => Promise<void>) {
    super();
  }
  override resume(): this {
    if (!this.settled) {
      this.settled = this.hook();
      // A rejection that comes while the body is still being read is taken at the end.
      this.settled.catch(() => {});
      if (this.held) this.endAfterHook(this.held);
    }
    return super.resume();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(null, chunk);
  }
  override _flush(callback: TransformCallback): void {
    if (this.settled) this.endAfterHook(callback);
    else this.held = callback;
  }
  private endAfterHook(callback: TransformCallback): void {
    this.settled!.then(() => callback(), callback);
  }
}
