import { promises as dnsPromises } from 'node:dns';
import nodemailer from 'nodemailer';
import { ImapFlow } from 'imapflow';
import { OutboundTargetRefused, resolvePublicHost, type LookupAll } from './outbound-guard';

export interface MailServerSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  /**
   * An OAuth 2.0 access token (XOAUTH2 mailboxes): when set, the login is SASL XOAUTH2 with
   * `username` and this token, and `password` is not used.
   */
  accessToken?: string;
  /** Implicit TLS (465 / 993); otherwise plain with STARTTLS when offered. */
  secure?: boolean;
}

/** nodemailer's `auth` for a mailbox: its password, or XOAUTH2 with its access token. */
export function smtpAuth(s: MailServerSettings): { user: string; pass: string } | { type: 'OAuth2'; user: string; accessToken: string } {
  return s.accessToken === undefined ? { user: s.username, pass: s.password } : { type: 'OAuth2', user: s.username, accessToken: s.accessToken };
}

/** imapflow's `auth` for a mailbox: its password, or XOAUTH2 with its access token. */
export function imapAuth(s: MailServerSettings): { user: string; pass: string } | { user: string; accessToken: string } {
  return s.accessToken === undefined ? { user: s.username, pass: s.password } : { user: s.username, accessToken: s.accessToken };
}

// Mailbox hosts are chosen by users, so a connection to one must neither reach the
// server's own network nor tell the user what answered there: every failure is told in one
// of a few fixed sentences, and nothing the remote side said (greeting, reply text) is kept.

/** What went wrong reaching a mail server, as far as the user is told. */
export const MAIL_FAILURES = ['not_allowed', 'unresolved', 'auth', 'tls', 'timeout', 'protocol', 'connect'] as const;
export type MailFailure = (typeof MAIL_FAILURES)[number];
export type MailProtocol = 'SMTP' | 'IMAP';

const PRIVATE_ADDRESS = 'a private, loopback, link-local or reserved address (set ALLOW_PRIVATE_TARGETS=true to allow it)';
/** Why a mailbox host given by a user is refused (a field error names the field before it). */
export const PRIVATE_HOST_PROBLEM = `must not be (or resolve to) ${PRIVATE_ADDRESS}`;

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ETIMEOUT', 'CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT', 'SOCKET_TIMEOUT']);
const UNRESOLVED_CODES = new Set(['EDNS', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);
const PROTOCOL_CODES = new Set(['EPROTOCOL', 'InvalidResponse', 'UnexpectedTag', 'ParserError', 'ResponseProcessingFailed']);
const TLS_CODE = /^(ETLS$|EPROTO$|ERR_SSL_|ERR_TLS_|ClosedAfterConnectTLS$|STARTTLS_)|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

interface MailErrorShape {
  code?: unknown;
  originalCode?: unknown;
  responseCode?: unknown;
  authenticationFailed?: unknown;
  serverResponseCode?: unknown;
}

/**
 * Sorts a failure of nodemailer or imapflow (or of the host check) into one of MAIL_FAILURES,
 * from its codes only: never from its text, which may quote the server.
 */
export function classifyMailFailure(error: unknown): MailFailure {
  if (error instanceof OutboundTargetRefused) return error.address === null ? 'unresolved' : 'not_allowed';
  const e = (typeof error === 'object' && error !== null ? error : {}) as MailErrorShape;
  const codes = [e.code, e.originalCode].filter((c): c is string => typeof c === 'string');
  if (codes.includes('EAUTH') || codes.includes('ENOAUTH') || e.responseCode === 535 || e.authenticationFailed === true || e.serverResponseCode === 'AUTHENTICATIONFAILED') return 'auth';
  if (codes.some((c) => UNRESOLVED_CODES.has(c))) return 'unresolved';
  if (codes.some((c) => TLS_CODE.test(c))) return 'tls';
  if (codes.some((c) => TIMEOUT_CODES.has(c))) return 'timeout';
  if (codes.some((c) => PROTOCOL_CODES.has(c))) return 'protocol';
  return 'connect';
}

/** The one sentence a failure is told in. */
export function mailFailureMessage(protocol: MailProtocol, failure: MailFailure): string {
  switch (failure) {
    case 'not_allowed':
      return `${protocol} server not allowed: its host is ${PRIVATE_ADDRESS}`;
    case 'unresolved':
      return `${protocol} server unreachable: its host name could not be resolved`;
    case 'auth':
      return `${protocol} login refused: the server did not accept the username or password`;
    case 'tls':
      return `${protocol} server unreachable: TLS handshake failed`;
    case 'timeout':
      return `${protocol} server unreachable: timed out`;
    case 'protocol':
      return `${protocol} server unreachable: it did not answer as an ${protocol} server`;
    case 'connect':
      return `${protocol} server unreachable: could not connect`;
  }
}

/**
 * Why a login check failed. `reason` is what the caller does about it: `auth`, the mailbox's
 * settings need fixing (credentials refused, or its host is not allowed) and no retry helps;
 * `connect`, the server could not be reached (worth a retry later). `failure` is the finer cause.
 */
export class MailLoginError extends Error {
  readonly failure: MailFailure;
  constructor(
    readonly reason: 'auth' | 'connect',
    message: string,
    failure?: MailFailure,
  ) {
    super(message);
    this.name = 'MailLoginError';
    this.failure = failure ?? (reason === 'auth' ? 'auth' : 'connect');
  }
}

/** A failure of a connection to a mailbox's server as a MailLoginError with a fixed message. */
export function mailLoginError(protocol: MailProtocol, error: unknown): MailLoginError {
  if (error instanceof MailLoginError) return error;
  const failure = classifyMailFailure(error);
  const reason = failure === 'auth' || failure === 'not_allowed' ? 'auth' : 'connect';
  return new MailLoginError(reason, mailFailureMessage(protocol, failure), failure);
}

/** How the mail adapters reach servers. */
export interface MailConnectionOptions {
  timeoutMs?: number;
  /** false accepts self-signed certificates (tests, private servers); production keeps it true. */
  rejectUnauthorized?: boolean;
  /**
   * Whether mailbox hosts may be private, loopback, link-local or reserved addresses
   * (ALLOW_PRIVATE_TARGETS: tests and single-machine installs). Refused by default.
   */
  allowPrivateTargets?: boolean;
  /** Resolves host names (tests); by default the system's resolver. */
  lookup?: LookupAll;
}

/** Where a connection to a mailbox's server goes: the vetted address, and the name TLS checks. */
export interface MailTarget {
  address: string;
  /** The host name for SNI and the certificate check; undefined when the host is an IP address. */
  servername: string | undefined;
}

/**
 * Resolves and vets a mailbox's host (see resolvePublicHost), the lookup bounded by
 * `timeoutMs`. The connection then goes to `address` and nowhere else, so a name that
 * resolves differently later cannot redirect it.
 */
export async function mailTarget(host: string, options: Pick<MailConnectionOptions, 'allowPrivateTargets' | 'lookup' | 'timeoutMs'>): Promise<MailTarget> {
  const lookup: LookupAll = options.lookup ?? ((h, o) => dnsPromises.lookup(h, o));
  const bounded: LookupAll = (h, o) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' })), options.timeoutMs ?? 15_000);
    });
    return Promise.race([lookup(h, o), timeout]).finally(() => clearTimeout(timer));
  };
  const vetted = await resolvePublicHost({ host, allowPrivate: options.allowPrivateTargets ?? false, lookup: bounded });
  return { address: vetted.address, servername: vetted.address === vetted.host ? undefined : vetted.host };
}

/** Checks a mailbox's SMTP and IMAP logins (the external systems behind email accounts). */
export interface MailVerifier {
  verifySmtp(settings: MailServerSettings): Promise<void>;
  verifyImap(settings: MailServerSettings): Promise<void>;
}

/**
 * Real logins with nodemailer and imapflow, to the vetted address of each host; a failure is
 * a MailLoginError with a fixed message.
 */
export function createMailVerifier(options: MailConnectionOptions = {}): MailVerifier {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const tls = { rejectUnauthorized: options.rejectUnauthorized ?? true };
  return {
    async verifySmtp(s) {
      let transport: ReturnType<typeof nodemailer.createTransport> | undefined;
      try {
        const target = await mailTarget(s.host, options);
        transport = nodemailer.createTransport({
          host: target.address,
          ...(target.servername ? { servername: target.servername } : {}),
          port: s.port,
          secure: s.secure ?? s.port === 465,
          auth: smtpAuth(s),
          connectionTimeout: timeoutMs,
          greetingTimeout: timeoutMs,
          socketTimeout: timeoutMs,
          tls,
        });
        await transport.verify();
      } catch (error) {
        throw mailLoginError('SMTP', error);
      } finally {
        transport?.close();
      }
    },
    async verifyImap(s) {
      const client = await connectImap(s, { ...options, timeoutMs, socketTimeoutMs: timeoutMs });
      try {
        await client.logout();
      } catch (error) {
        throw mailLoginError('IMAP', error);
      } finally {
        client.close();
      }
    },
  };
}

/**
 * A connected, logged-in imapflow client for `s`, at the vetted address of its host (mailTarget),
 * IDLE left to the caller; a failure to connect or log in is a MailLoginError with a fixed message.
 */
export async function connectImap(s: MailServerSettings, options: MailConnectionOptions & { socketTimeoutMs?: number } = {}): Promise<ImapFlow> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let c: ImapFlow | undefined;
  try {
    const target = await mailTarget(s.host, options);
    c = new ImapFlow({
      host: target.address,
      ...(target.servername ? { servername: target.servername } : {}),
      port: s.port,
      secure: s.secure ?? s.port === 993,
      auth: imapAuth(s),
      logger: false,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: options.socketTimeoutMs ?? Math.max(timeoutMs, 5 * 60_000),
      tls: { rejectUnauthorized: options.rejectUnauthorized ?? true },
      // IDLE is started explicitly where it is wanted (waitForNews).
      disableAutoIdle: true,
    });
    // Errors also surface from the awaited calls; without a listener they would crash the process.
    c.on('error', () => {});
    await c.connect();
    return c;
  } catch (error) {
    c?.close();
    throw mailLoginError('IMAP', error);
  }
}
