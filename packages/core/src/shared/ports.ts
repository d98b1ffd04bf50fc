import type { DnsResolver } from './dns';
import type { MailVerifier } from './mail-verifier';
import type { MailSender } from './mail-sender';
import type { MailboxReader } from './mailbox-reader';
import type { WarmupMailbox } from './warmup-mailbox';
import type { WebhookHttp } from './webhook-http';
import type { OAuthClient } from './oauth/oauth-client.service';

// The external systems the domain talks to. Each sits behind a small interface so
// that tests can run real local servers (or an injected clock) in their place.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Ports {
  clock: Clock;
  dns: DnsResolver;
  mail: MailVerifier;
  /** Sends e-mail through mailboxes' SMTP servers. */
  smtp: MailSender;
  /** Reads mailboxes' INBOX over IMAP. */
  imap: MailboxReader;
  /** POSTs webhook deliveries to their receivers (through the outbound guard). */
  webhookHttp: WebhookHttp;
  /** The OAuth providers of Google and Microsoft mailboxes (authorization URLs, code exchange, refresh). */
  oauth: OAuthClient;
  /** The warmup scan's IMAP sessions (folders, moves, flags); the warmup worker makes one when absent. */
  warmupImap?: WarmupMailbox;
}
