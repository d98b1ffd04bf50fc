/**
 * Who sends what, and when: A/B variation choice, mailbox choice, the pause between two
 * sends of a mailbox, and the threading of follow-ups. All deterministic from their
 * inputs, so a retried tick makes the same decisions.
 */
import { pickIndex, unitFraction } from '../shared/hash';

export interface Variation {
  id: string;
  label: string;
  isActive: boolean;
  isDeleted: boolean;
}

/**
 * The A/B variation a lead gets for a step: hash(leadId, step) mod n over the active,
 * non-deleted variations sorted by label. Hashing instead of round-robin needs no shared
 * counter and gives a retried send the same variation; sorting makes the answer
 * independent of the order the database returns rows in. Null when none is usable.
 *
 * Deactivating a variation reshuffles the leads that have not been sent yet; leads
 * already sent keep what their sent e-mail records.
 */
export function pickVariation(options: { variations: readonly Variation[]; leadId: string; step: number | string }): string | null {
  const usable = options.variations
    .filter((v) => v.isActive && !v.isDeleted)
    // Plain code-unit order, not localeCompare: the same on every server whatever its locale.
    .sort((a, b) => compare(a.label, b.label) || compare(a.id, b.id));
  if (!usable.length) return null;
  return usable[pickIndex(`variation\u0000${options.leadId}\u0000${options.step}`, usable.length)]!.id;
}

/**
 * The variation the scheduler gives a lead's step: among the active, non-deleted ones,
 * the one given to the fewest leads so far (ties: first label), so a step's leads split
 * exactly evenly, and a variation added later catches up. The counts are read and bumped
 * under the campaign's lock, so concurrent workers keep the split exact. Null when none
 * is usable.
 */
export function pickLeastAssignedVariation(options: { variations: readonly (Variation & { assignedCount: number })[] }): string | null {
  let best: (Variation & { assignedCount: number }) | null = null;
  for (const v of options.variations) {
    if (!v.isActive || v.isDeleted) continue;
    if (!best || v.assignedCount < best.assignedCount || (v.assignedCount === best.assignedCount && (compare(v.label, best.label) || compare(v.id, best.id)) < 0)) {
      best = v;
    }
  }
  return best?.id ?? null;
}

/** Jitter bounds around the configured gap: never machine-regular, on average a little slower than asked. */
export const GAP_JITTER_MIN = -0.15;
export const GAP_JITTER_MAX = 0.25;
/** With no gap configured, sends still spread over up to a minute. */
export const ZERO_GAP_JITTER_MS = 60_000;

/**
 * Milliseconds a mailbox waits after a send: `gapMinutes` × 60,000 shifted by a jitter in
 * [−15%, +25%) taken from the seed (use something unique per send, e.g. the sent e-mail's
 * id, so consecutive gaps differ but a retry computes the same one). A gap of 0 gives
 * 0–60 s. A negative or non-finite gap counts as 0. Whole milliseconds, never negative.
 */
export function sendingGapWithJitter(options: { gapMinutes: number; seed: string }): number {
  const gapMinutes = Number.isFinite(options.gapMinutes) && options.gapMinutes > 0 ? options.gapMinutes : 0;
  const u = unitFraction(`gap\u0000${options.seed}`);
  if (gapMinutes === 0) return Math.floor(u * ZERO_GAP_JITTER_MS);
  const factor = 1 + GAP_JITTER_MIN + u * (GAP_JITTER_MAX - GAP_JITTER_MIN);
  return Math.max(0, Math.round(gapMinutes * 60_000 * factor));
}

/** Sends left today under a daily limit; 0 (never negative) once over it, e.g. after the limit was lowered. */
export function remainingToday(options: { limit: number; sentToday: number }): number {
  return Math.max(0, options.limit - options.sentToday);
}

export interface MailboxCandidate {
  id: string;
  /** Sends today, counted per day in the campaign's zone (see localDay). */
  sentToday: number;
  dailyLimit: number;
  /** When the mailbox's gap after its last send ends; null: it has not sent yet. */
  nextAllowedAt: Date | null;
  /** EmailAccountStatus: only ACTIVE mailboxes send. */
  status: string;
}

/**
 * The mailbox to send the next first step from: among ACTIVE mailboxes under their daily
 * limit whose gap has passed (nextAllowedAt ≤ now), the one with the fewest sends today,
 * ties broken by id. Least-used (an absolute count, not a share of the limit) keeps
 * volume level across mailboxes, which is what warm-up reputations need; the id
 * tie-break makes the choice reproducible. Null when none may send now.
 *
 * Follow-ups do not use this: a lead's thread stays with the mailbox that started it.
 */
export function pickMailbox(options: { mailboxes: readonly MailboxCandidate[]; now: Date }): string | null {
  return mailboxesInPickOrder(options)[0] ?? null;
}

/**
 * The mailboxes that may send now, in the order pickMailbox takes them (fewest sends today
 * first, ties by id). A claim orders its free mailboxes once: a send changes only its own
 * mailbox's count, and a mailbox sends once per tick, so the order of those left holds.
 */
export function mailboxesInPickOrder(options: { mailboxes: readonly MailboxCandidate[]; now: Date }): string[] {
  const now = options.now.getTime();
  return options.mailboxes
    .filter(
      (mailbox) =>
        mailbox.status === 'ACTIVE' &&
        remainingToday({ limit: mailbox.dailyLimit, sentToday: mailbox.sentToday }) > 0 &&
        !(mailbox.nextAllowedAt && mailbox.nextAllowedAt.getTime() > now),
    )
    .sort((a, b) => a.sentToday - b.sentToday || compare(a.id, b.id))
    .map((mailbox) => mailbox.id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Attempts at one step before a deferral (4xx, connection failure) counts as a bounce. */
export const MAX_SEND_ATTEMPTS = 3;
/** Base waits after the 1st and 2nd deferral; each is stretched by up to +50% jitter. */
export const RETRY_DELAYS_MS = [5 * 60_000, 30 * 60_000] as const;

/**
 * How long to wait before retrying a deferred send, after `attempt` failures (1-based):
 * 5 minutes, then 30, each × [1, 1.5) from the seed, so mailboxes that failed together
 * (a provider outage) do not all retry in the same second. Deterministic per seed.
 */
export function retryDelayMs(options: { attempt: number; seed: string }): number {
  const index = Math.min(Math.max(1, Math.floor(options.attempt)), RETRY_DELAYS_MS.length) - 1;
  return Math.round(RETRY_DELAYS_MS[index]! * (1 + 0.5 * unitFraction(`retry\u0000${options.seed}\u0000${options.attempt}`)));
}
