import nodemailer, { type Transporter } from 'nodemailer';
import type { MailServerSettings } from './mail-verifier';

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
   * credentials) replaces the mailbox's pool.
   */
  send(options: { mailboxId: string; version: string; smtp: MailServerSettings; message: OutgoingMessage }): Promise<SendOutcome>;
  /** Closes every pooled connection. */
  close(): Promise<void>;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** Maps a nodemailer failure onto what the engine does next. */
export function classifySendError(error: unknown): Exclude<SendOutcome, { status: 'sent' }> {
  const e = (error ?? {}) as SmtpError;
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  const message = (e.response ?? e.message ?? String(error)).trim();
  // 530 "authentication required", 534/535 credentials refused, 454 temporary auth failure
  // only when nodemailer says the login itself failed.
  if (e.code === 'EAUTH' || code === 535 || code === 534 || code === 530) return { status: 'auth', code, message };
  if (code !== null && code >= 500) return { status: 'rejected', code, message };
  return { status: 'deferred', code, message };
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
 * `rejectUnauthorized: false` accepts self-signed certificates (tests, private servers).
 */
export function createMailSender(options: { timeoutMs?: number; rejectUnauthorized?: boolean; maxConnections?: number } = {}): MailSender {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pools = new Map<string, { version: string; transport: Transporter }>();
  const transportFor = (mailboxId: string, version: string, s: MailServerSettings) => {
    const existing = pools.get(mailboxId);
    if (existing && existing.version === version) return existing.transport;
    existing?.transport.close();
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: options.maxConnections ?? 2,
      maxMessages: 100,
      host: s.host,
      port: s.port,
      secure: s.secure ?? s.port === 465,
      auth: { user: s.username, pass: s.password },
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      tls: { rejectUnauthorized: options.rejectUnauthorized ?? true },
    });
    // A pooled connection dropping while idle is reported here; the next send reconnects.
    transport.on('error', () => {});
    pools.set(mailboxId, { version, transport });
    return transport;
  };
  return {
    async send({ mailboxId, version, smtp, message }) {
      const transport = transportFor(mailboxId, version, smtp);
      try {
        const info = await transport.sendMail(nodemailerMessage(message));
        return { status: 'sent', response: String(info.response ?? '') };
      } catch (error) {
        const outcome = classifySendError(error);
        // A refused login or a broken connection may leave the pool unusable: start afresh next time.
        if (outcome.status !== 'rejected') {
          pools.get(mailboxId)?.transport.close();
          pools.delete(mailboxId);
        }
        return outcome;
      }
    },
    async close() {
      for (const { transport } of pools.values()) transport.close();
      pools.clear();
    },
  };
}
