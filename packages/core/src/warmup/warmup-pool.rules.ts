// Who warms whom, and how many a day: pure (docs/api.md, "Warmup").
import { hash32 } from '../shared/hash';

export const DAY_MS = 86_400_000;

/**
 * Warmup e-mails a mailbox may send on the day `now` falls in, counted in whole 24-hour days
 * from `startedAt` (when its warmup became ACTIVE): `increment` on the first day, twice that on
 * the second, …, never more than `limit`. An increment of 0 means no ramp-up: `limit` at once.
 */
export function rampTarget(options: { startedAt: Date; now: Date; limit: number; increment: number }): number {
  const limit = Math.max(0, Math.floor(options.limit));
  if (limit === 0) return 0;
  const increment = Math.max(0, Math.floor(options.increment));
  if (increment === 0) return limit;
  const day = Math.max(0, Math.floor((options.now.getTime() - options.startedAt.getTime()) / DAY_MS));
  return Math.min(limit, increment * (day + 1));
}

export interface PoolMailbox {
  id: string;
  organizationId: string;
  email: string;
  /** Its organization opted in to the installation's shared pool. */
  sharedPool: boolean;
}

export const domainOfAddress = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * The mailboxes `sender` may warm with: the other pool mailboxes on another domain, of its own
 * organization; with the installation's shared pool on (`sharedPool`) and the sender's
 * organization opted in, also those of every other organization that opted in.
 */
export function poolFor(options: { sender: PoolMailbox; pool: PoolMailbox[]; sharedPool: boolean }): PoolMailbox[] {
  const { sender } = options;
  const domain = domainOfAddress(sender.email);
  const widened = options.sharedPool && sender.sharedPool;
  return options.pool.filter(
    (m) =>
      m.id !== sender.id &&
      domainOfAddress(m.email) !== domain &&
      (m.organizationId === sender.organizationId || (widened && m.sharedPool)),
  );
}

/**
 * The recipient of a sender's next warmup e-mail among `candidates`: the one it wrote to least
 * today (`sentTodayTo`: recipient id → count), then the one the whole pool wrote to least today
 * (`receivedToday`: recipient id → count), so every mailbox of the pool receives its share and
 * none is left out; remaining ties broken by a hash of the seed and the id, so different senders
 * start at different mailboxes. Null when there is none.
 */
export function pickRecipient(options: {
  candidates: PoolMailbox[];
  sentTodayTo: ReadonlyMap<string, number>;
  receivedToday?: ReadonlyMap<string, number>;
  seed: string;
}): PoolMailbox | null {
  let best: { m: PoolMailbox; key: [number, number, number] } | null = null;
  for (const m of options.candidates) {
    const key: [number, number, number] = [options.sentTodayTo.get(m.id) ?? 0, options.receivedToday?.get(m.id) ?? 0, hash32(`${options.seed}\u0000${m.id}`)];
    if (!best || key[0] < best.key[0] || (key[0] === best.key[0] && (key[1] < best.key[1] || (key[1] === best.key[1] && key[2] < best.key[2])))) best = { m, key };
  }
  return best?.m ?? null;
}

/**
 * Whether the `index`-th warmup e-mail a mailbox receives (0-based, in the order it finds them) is
 * answered under `replyRate` percent: spread evenly (50 % answers every other one), so over any
 * run of e-mails the share answered is the rate within one e-mail.
 */
export function answers(options: { index: number; replyRate: number }): boolean {
  const rate = Math.min(100, Math.max(0, options.replyRate));
  return Math.floor(((options.index + 1) * rate) / 100) > Math.floor((options.index * rate) / 100);
}

/** The longest conversation: an opening e-mail and at most this many answers. */
export const MAX_THREAD_DEPTH = 3;

export type MailProvider = 'GOOGLE' | 'MICROSOFT' | 'OTHER';

/** The provider behind a domain's MX hosts: Google (google.com, googlemail.com), Microsoft (outlook.com, office365, hotmail), else OTHER. */
export function providerOfMx(exchanges: string[]): MailProvider {
  const hosts = exchanges.map((e) => e.toLowerCase().replace(/\.$/, ''));
  if (hosts.some((h) => /(^|\.)(google\.com|googlemail\.com)$/.test(h))) return 'GOOGLE';
  if (hosts.some((h) => /(^|\.)(outlook\.com|office365\.us|hotmail\.com|microsoft\.com)$/.test(h))) return 'MICROSOFT';
  return 'OTHER';
}
