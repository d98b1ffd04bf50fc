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
  /**
   * How many real milliseconds pass while this clock moves `ms` (a clock that runs faster than
   * real time, in benchmarks and tests); as many when absent. Only waits for a time on this clock use it.
   */
  realMs?(ms: number): number;
}

export const systemClock: Clock = { now: () => new Date() };

/** The longest single timer of untilClock: a clock moved by hand (tests) is looked at again this often. */
const CLOCK_POLL_MS = 1_000;

/**
 * Waits until `clock` reads `at` or later (at once when it does); false when `signal` aborted the wait first. Timers
 * last at most a second, so a clock moved by a test is noticed.
 */
export async function untilClock(clock: Clock, at: Date, signal?: AbortSignal): Promise<boolean> {
  for (;;) {
    const left = at.getTime() - clock.now().getTime();
    if (left <= 0) return true;
    if (signal?.aborted) return false;
    const real = Math.min(CLOCK_POLL_MS, Math.max(1, Math.ceil(clock.realMs ? clock.realMs(left) : left)));
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, real);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

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
