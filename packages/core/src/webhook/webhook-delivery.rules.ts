// The webhook worker's policy (pure: no database, no I/O, the time always a parameter): the
// retry backoff and window, a claim's lease and a round's budget, when a webhook is disabled,
// the order a round POSTs its deliveries in, and what a delivery's request and recorded answer
// look like. webhook-delivery.service.ts applies it.
import { unitFraction } from '../shared/hash';
import { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from './webhook-signature.rules';

export const WEBHOOK_USER_AGENT = 'Outreach-Webhooks/1';
/** What an attempt may take beyond the timeout (recording its outcome), allowed for by a claim's lease. */
export const WEBHOOK_LEASE_MARGIN_MS = 5_000;
/** The first retry waits up to this long; each further one up to twice as long as the one before… */
export const WEBHOOK_RETRY_BASE_MS = 30_000;
/** …but never more than an hour. */
export const WEBHOOK_RETRY_CAP_MS = 60 * 60_000;
/** No attempt is scheduled later than this after the event. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** A webhook failing this many times in a row (attempts spaced by the backoff, over all its deliveries) is disabled. */
export const WEBHOOK_MAX_CONSECUTIVE_FAILURES = 20;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Webhooks a round POSTs to at once. */
export const WEBHOOK_CONCURRENCY = 10;
/**
 * The most deliveries of one webhook a round takes (its share of a claim, whose first of every
 * webhook comes before the second of any). A round lasts as long as its longest turn: 10 answers
 * of a receiver taking 200 ms make a round of 2 s. Measured when the worker's loop still waited for
 * every round, a lone event beside such a backlog waited 1.06 s (median), where a share of 25 made
 * it 2.6 s for 5–15% more of one webhook's throughput (`BENCH_ONLY=webhooks`); the loop now waits
 * at most WEBHOOK_ROUND_WAIT_MS for a round. A webhook with more due is served again by the next
 * round, at once.
 */
export const WEBHOOK_TURN_MAX = 10;
/**
 * A round starts no attempt once it has run this long (from the clock reading its claim leases
 * from): the deliveries left go back, due at once, to the next round, which starts at once and
 * takes webhooks in turn again. A receiver answering slowly (each answer well inside the
 * timeout) kept the round, and every other webhook's next event, for its whole turn.
 */
export const WEBHOOK_ROUND_BUDGET_MS = 5_000;
/**
 * How long the worker's loop waits for a round before letting it finish on its own and claiming the
 * next. The round's webhooks stay busy (one worker, one round at a time each), so the next claim
 * serves the others: a receiver slow to answer, up to its timeout, no longer holds every other
 * webhook's next event for its whole turn (up to 20 s).
 */
export const WEBHOOK_ROUND_WAIT_MS = 1_000;
/** Rounds a worker lets finish on their own at most; beyond, its loop waits for one of them. */
export const WEBHOOK_ROUNDS_BEHIND = 2;
/** Characters of a response body kept in `last_resp`. */
const LAST_RESP_BODY_LIMIT = 500;
/** Characters of an error kept in `last_error` and `last_resp`. */
const LAST_ERROR_LIMIT = 1_000;

/**
 * The wait before attempt `attempt + 1`, after `attempt` failures: exponential backoff with
 * full jitter, a fraction of min(1 h, 30 s · 2^(attempt-1)) derived from the delivery id
 * and the attempt (deterministic, yet spread over deliveries), at least a second.
 */
export function webhookRetryDelayMs(options: { deliveryId: string; attempt: number }): number {
  const ceiling = Math.min(WEBHOOK_RETRY_CAP_MS, WEBHOOK_RETRY_BASE_MS * 2 ** Math.max(0, Math.min(options.attempt - 1, 30)));
  return Math.max(1_000, Math.floor(unitFraction(`${options.deliveryId}:${options.attempt}`) * ceiling));
}

/** The longest one attempt may take: the timeout, plus the margin for recording its outcome. */
export function slowestAttemptMs(timeoutMs: number): number {
  return timeoutMs + WEBHOOK_LEASE_MARGIN_MS;
}

/**
 * How long a claim leases its deliveries: the round's budget, and the slowest attempt, one that
 * starts just before the budget runs out. Every attempt a round starts (attemptMayStart) has
 * ended, at the slowest, before its lease passes and another worker may claim it; a worker that
 * dies leaves its deliveries to others after this long.
 */
export function claimLeaseMs(timeoutMs: number): number {
  return WEBHOOK_ROUND_BUDGET_MS + slowestAttemptMs(timeoutMs);
}

/**
 * Whether a round whose claim leased from `roundStart` may start an attempt at `now`: within the
 * round's budget (WEBHOOK_ROUND_BUDGET_MS), so the attempt ends within the lease (claimLeaseMs).
 * The round's first attempts may (unless the claim itself took the whole budget), so every
 * round delivers something.
 */
export function attemptMayStart(options: { roundStart: Date; now: Date }): boolean {
  return options.now.getTime() - options.roundStart.getTime() < WEBHOOK_ROUND_BUDGET_MS;
}

/**
 * After the `attempts`-th failed attempt of a delivery: when it is tried next, and whether
 * that is past the retry window of its event (then it is given up instead).
 */
export function retryAfterFailure(options: { deliveryId: string; attempts: number; now: Date; createdAt: Date }): { nextAttemptAt: Date; giveUp: boolean } {
  const nextAttemptAt = new Date(options.now.getTime() + webhookRetryDelayMs({ deliveryId: options.deliveryId, attempt: options.attempts }));
  return { nextAttemptAt, giveUp: nextAttemptAt.getTime() > options.createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS };
}

/**
 * When a failing webhook's other deliveries wait until `until`: those whose event is older
 * than the instant returned would be attempted past their retry window, so they are given up.
 */
export function retryWindowStart(until: Date): Date {
  return new Date(until.getTime() - WEBHOOK_RETRY_WINDOW_MS);
}

/** Whether a failure that brought an ACTIVE webhook's consecutive failures to `failures` disables it. */
export function disablesWebhook(options: { status: string; failures: number }): boolean {
  return options.status === 'ACTIVE' && options.failures >= WEBHOOK_MAX_CONSECUTIVE_FAILURES;
}

interface Claimed {
  id: string;
  webhook_id: string;
  created_at: Date | string;
  next_attempt_at: Date | string;
}

/**
 * The turns of a round: the claimed deliveries grouped by webhook, webhooks in the order of
 * their oldest due delivery, and each webhook's deliveries in the order of their events
 * (ties by id). The claim's rows come in no order.
 */
export function webhookTurns<T extends Claimed>(claimed: readonly T[]): T[][] {
  const time = (d: Date | string) => new Date(d).getTime();
  const byEvent = (a: T, b: T) => time(a.created_at) - time(b.created_at) || (a.id < b.id ? -1 : 1);
  const due = [...claimed].sort((a, b) => time(a.next_attempt_at) - time(b.next_attempt_at) || byEvent(a, b));
  const byWebhook = new Map<string, T[]>();
  for (const delivery of due) {
    const group = byWebhook.get(delivery.webhook_id);
    if (group) group.push(delivery);
    else byWebhook.set(delivery.webhook_id, [delivery]);
  }
  return [...byWebhook.values()].map((group) => group.sort(byEvent));
}

/**
 * The headers of a delivery's POST: JSON, the user agent, the event id (the delivery id, the
 * same on every attempt), the event and the timestamp (Unix seconds), and the signature when
 * the webhook has a secret.
 */
export function deliveryHeaders(options: { deliveryId: string; event: string; body: string; timestamp: number; secret: string | null }): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(options.body)),
    'User-Agent': WEBHOOK_USER_AGENT,
    [EVENT_ID_HEADER]: options.deliveryId,
    [EVENT_HEADER]: options.event,
    [TIMESTAMP_HEADER]: String(options.timestamp),
  };
  if (options.secret) headers[SIGNATURE_HEADER] = signWebhook({ secret: options.secret, timestamp: options.timestamp, body: options.body });
  return headers;
}

/** What an attempt came to: a 2xx answer, or a failure (another status, or no answer at all). */
export type WebhookOutcome = { ok: true; status: number; body: string } | { ok: false; status: number | null; error: string };

/** A receiver's answer as an outcome: a 2xx delivers; any other status fails, with the answer as its error. */
export function outcomeOfResponse(response: { status: number; body: string }): WebhookOutcome {
  if (response.status >= 200 && response.status < 300) return { ok: true, ...response };
  return { ok: false, status: response.status, error: responseText(response) };
}

/** An answer as `last_resp` keeps it: the status and the start of the body. */
export const responseText = (r: { status: number; body: string }) => `${r.status} ${r.body.slice(0, LAST_RESP_BODY_LIMIT)}`.trimEnd();

/** A failure's error as `last_error` keeps it. */
export const recordedError = (error: string) => error.slice(0, LAST_ERROR_LIMIT);
