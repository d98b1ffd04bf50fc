import nodemailer from 'nodemailer';
import { ImapFlow } from 'imapflow';

export interface MailServerSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  /** Implicit TLS (465 / 993); otherwise plain with STARTTLS when offered. */
  secure?: boolean;
}

/** Why a login check failed: the server refused the credentials, or could not be reached. */
export class MailLoginError extends Error {
  constructor(
    readonly reason: 'auth' | 'connect',
    message: string,
  ) {
    super(message);
    this.name = 'MailLoginError';
  }
}

/** Checks a mailbox's SMTP and IMAP logins (the external systems behind email accounts). */
export interface MailVerifier {
  verifySmtp(settings: MailServerSettings): Promise<void>;
  verifyImap(settings: MailServerSettings): Promise<void>;
}

function isAuthFailure(error: unknown): boolean {
  const e = error as { code?: string; responseCode?: number; authenticationFailed?: boolean; serverResponseCode?: string };
  return e?.code === 'EAUTH' || e?.responseCode === 535 || e?.authenticationFailed === true || e?.serverResponseCode === 'AUTHENTICATIONFAILED';
}

/**
 * Real logins with nodemailer and imapflow. `rejectUnauthorized: false` accepts
 * self-signed certificates (tests, private servers); production keeps it true.
 */
export function createMailVerifier(options: { timeoutMs?: number; rejectUnauthorized?: boolean } = {}): MailVerifier {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const tls = { rejectUnauthorized: options.rejectUnauthorized ?? true };
  const wrap = (error: unknown, what: string) =>
    isAuthFailure(error)
      ? new MailLoginError('auth', `${what} login refused: ${(error as Error).message}`)
      : new MailLoginError('connect', `${what} server unreachable: ${(error as Error).message}`);
  return {
    async verifySmtp(s) {
      const transport = nodemailer.createTransport({
        host: s.host,
        port: s.port,
        secure: s.secure ?? s.port === 465,
        auth: { user: s.username, pass: s.password },
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        tls,
      });
      try {
        await transport.verify();
      } catch (error) {
        throw wrap(error, 'SMTP');
      } finally {
        transport.close();
      }
    },
    async verifyImap(s) {
      const client = new ImapFlow({
        host: s.host,
        port: s.port,
        secure: s.secure ?? s.port === 993,
        auth: { user: s.username, pass: s.password },
        logger: false,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        tls,
      });
      // A failed login also emits 'error'; without a listener it would crash the process.
      client.on('error', () => {});
      try {
        await client.connect();
        await client.logout();
      } catch (error) {
        throw wrap(error, 'IMAP');
      } finally {
        client.close();
      }
    },
  };
}
