// The webhook worker's statements: the claim, and the recording of each outcome. Timestamps
// travel as ISO strings cast in SQL (the worker's clock is injected, so database now() is never
// used for a decision). A delivery's outcome is written only while the claim still holds: the
// row is PENDING with our lease (`held`); each such statement answers how many rows it changed.
import type { Tx } from '@outreach/db';

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event: string;
  payload: unknown;
  attempts: number;
  created_at: Date | string;
  next_attempt_at: Date | string;
  lease_until: Date | string;
  url: string;
  secret_enc: string | null;
  webhook_status: string;
}

/**
 * Takes webhooks for a round and leases their due deliveries: each webhook's in the order of its
 * events, webhooks in turn, and each webhook to one worker at a time. $1 now, $2 how many
 * deliveries, $3 the workspaces to serve (null: all), $4 the lease (ms, claimLeaseMs), $5 the most
 * of one webhook.
 *
 * - A webhook's queue: its pending deliveries in the order of their events. Only a due head of
 *   it is taken, and its due deliveries from there up to the first one that is not (a delivery
 *   whose retry time has not come holds every later one). A failure holds the webhook's pending
 *   deliveries until its retry, but an event queued while that failure was being recorded was
 *   not held, and was POSTed before the older ones (found by two workers against a flaky
 *   receiver: 2 of 6 rounds).
 * - In turn: at most $5 of each webhook, and the first of every webhook before the second of
 *   any, the webhook whose head is oldest due first. Taken strictly oldest first, one webhook's
 *   backlog filled every claim, and a quiet workspace's lone event waited for the whole of it (a
 *   slow receiver with 500 events queued: 100 s).
 * - One worker at a time: a webhook taken is `busy_until` the lease, and locked meanwhile (SKIP
 *   LOCKED: another claim at the same moment takes other webhooks); a busy webhook is left to the
 *   worker whose turn it is, until that turn ends (releaseWebhook) or the lease passes (the worker
 *   died). So a webhook's deliveries go one after another, in order, with any number of workers,
 *   and a failure holds its other deliveries before another worker POSTs them.
 *
 * The webhooks with deliveries pending are found by skipping through
 * webhook_deliveries_webhook_queue_idx (one probe per such webhook, however long their
 * backlogs), and each one's queue is read from the same index (the order asked for includes
 * `id`, which only it gives: no plan walks a webhook's delivered rows in
 * webhook_deliveries_webhook_id_created_at_idx instead). The deliveries picked are locked SKIP
 * LOCKED too (and their conditions checked again), so the claim never waits on a row lock while
 * it holds webhooks (a delete taking deliveries, then their webhook, would deadlock with it).
 */
export const CLAIM_SQL = `
  WITH RECURSIVE pending AS (
    (SELECT webhook_id FROM webhook_deliveries WHERE status = 'PENDING' ORDER BY webhook_id, created_at, id LIMIT 1)
    UNION ALL
    SELECT (SELECT d.webhook_id FROM webhook_deliveries d
             WHERE d.status = 'PENDING' AND d.webhook_id > pending.webhook_id ORDER BY d.webhook_id, d.created_at, d.id LIMIT 1)
      FROM pending WHERE pending.webhook_id IS NOT NULL
  ), heads AS (
    SELECT pending.webhook_id, f.next_attempt_at, f.created_at, f.id
      FROM pending
     CROSS JOIN LATERAL (
       SELECT d.id, d.next_attempt_at, d.created_at, d.lease_until FROM webhook_deliveries d
        WHERE d.webhook_id = pending.webhook_id AND d.status = 'PENDING'
        ORDER BY d.created_at, d.id
        LIMIT 1
     ) f
     WHERE f.next_attempt_at <= $1::timestamptz AND (f.lease_until IS NULL OR f.lease_until <= $1::timestamptz)
  ), hooks AS (
    SELECT h.id FROM webhooks h JOIN heads ON heads.webhook_id = h.id
     WHERE (h.busy_until IS NULL OR h.busy_until <= $1::timestamptz)
       AND ($3::text[] IS NULL OR h.workspace_id = ANY($3::text[]))
     ORDER BY heads.next_attempt_at, heads.created_at, heads.id
     LIMIT $2
     FOR NO KEY UPDATE OF h SKIP LOCKED
  ), candidates AS (
    SELECT c.id, c.next_attempt_at, c.created_at,
           ROW_NUMBER() OVER queue AS turn,
           bool_and(c.next_attempt_at <= $1::timestamptz AND (c.lease_until IS NULL OR c.lease_until <= $1::timestamptz)) OVER queue AS due
      FROM hooks
     CROSS JOIN LATERAL (
       SELECT d.id, d.webhook_id, d.next_attempt_at, d.created_at, d.lease_until FROM webhook_deliveries d
        WHERE d.webhook_id = hooks.id AND d.status = 'PENDING'
        ORDER BY d.created_at, d.id
        LIMIT $5
     ) c
    WINDOW queue AS (PARTITION BY c.webhook_id ORDER BY c.created_at, c.id)
  ), picked AS (
    SELECT id FROM candidates WHERE due ORDER BY turn, next_attempt_at, created_at, id LIMIT $2
  ), due AS (
    SELECT d.id, d.webhook_id FROM webhook_deliveries d
     WHERE d.id IN (SELECT id FROM picked)
       AND d.status = 'PENDING' AND d.next_attempt_at <= $1::timestamptz
       AND (d.lease_until IS NULL OR d.lease_until <= $1::timestamptz)
     FOR UPDATE SKIP LOCKED
  ), busy AS (
    UPDATE webhooks SET busy_until = $1::timestamptz + $4::bigint * interval '1 millisecond'
     WHERE id IN (SELECT webhook_id FROM due)
  )
  UPDATE webhook_deliveries d SET lease_until = $1::timestamptz + $4::bigint * interval '1 millisecond'
    FROM due, webhooks h
   WHERE d.id = due.id AND h.id = d.webhook_id
  RETURNING d.id, d.webhook_id, d.workspace_id, d.event, d.payload, d.attempts, d.created_at,
            d.next_attempt_at, d.lease_until, h.url, h.secret_enc, h.status::text AS webhook_status`;

/**
 * A webhook's turn is over: another round (of any worker) may take it at once. Only while the
 * turn is ours (`busy_until` still our lease). $1 webhook, $2 the lease.
 */
export const RELEASE_WEBHOOK_SQL = `UPDATE webhooks SET busy_until = NULL WHERE id = $1 AND busy_until = $2::timestamptz`;

/** A webhook's status now (no row: deleted, its deliveries with it). $1 webhook. */
export const WEBHOOK_STATUS_SQL = `SELECT status::text AS status FROM webhooks WHERE id = $1`;

/**
 * The webhook held for the transaction recording an attempt's outcome, before its delivery:
 * a delete of the webhook takes the webhook, then (its cascade) the deliveries, and taking them
 * the other way round deadlocked with it. No row: deleted meanwhile. $1 webhook.
 */
export const LOCK_WEBHOOK_SQL = `SELECT id FROM webhooks WHERE id = $1 FOR NO KEY UPDATE`;

/**
 * A delivered attempt, in one statement (one round trip, where a transaction of three took five):
 * the webhook held first, as LOCK_WEBHOOK_SQL (its InitPlan runs before the delivery's row is
 * touched), then the delivery DELIVERED while the claim holds, then the webhook's failures start
 * again from 0. No row: the webhook or the claim is gone. $1 webhook, $2 delivery, $3 lease,
 * $4 now, $5 attempts, $6 status code, $7 last_resp.
 */
export const DELIVERED_SQL = `
  WITH hook AS MATERIALIZED (SELECT id FROM webhooks WHERE id = $1 FOR NO KEY UPDATE),
  delivered AS (
    UPDATE webhook_deliveries SET status = 'DELIVERED', delivered_at = $4::timestamptz, attempts = $5::int,
           last_status_code = $6::int, last_error = NULL, lease_until = NULL
     WHERE id = $2 AND status = 'PENDING' AND lease_until = $3::timestamptz AND EXISTS (SELECT 1 FROM hook)
    RETURNING webhook_id
  )
  UPDATE webhooks h SET consecutive_failures = 0, last_run = $4::timestamptz, last_resp = $7
    FROM delivered WHERE h.id = delivered.webhook_id
  RETURNING h.id`;

/** A failed attempt: one more consecutive failure (the row stays locked until the transaction ends). $1 webhook, $2 now, $3 last_resp. */
export const WEBHOOK_FAILED_SQL = `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1, last_run = $2::timestamptz, last_resp = $3
        WHERE id = $1 RETURNING consecutive_failures, status::text AS status, url, workspace_id`;

/** A failing webhook's pending deliveries whose event is older than $2 are given up. $1 webhook. */
export const GIVE_UP_HELD_SQL = `UPDATE webhook_deliveries SET status = 'FAILED', lease_until = NULL,
            last_error = COALESCE(last_error || ' / ', '') || 'its webhook is failing, and the next attempt would be more than 24 h after the event'
      WHERE webhook_id = $1 AND status = 'PENDING' AND created_at < $2::timestamptz
      RETURNING id`;

/** A failing webhook's pending deliveries are not attempted before $2. $1 webhook. */
export const HOLD_PENDING_SQL = `UPDATE webhook_deliveries SET next_attempt_at = $2::timestamptz
      WHERE webhook_id = $1 AND status = 'PENDING' AND next_attempt_at < $2::timestamptz`;

/** $1 webhook, $2 now. */
export const DISABLE_WEBHOOK_SQL = `UPDATE webhooks SET status = 'DISABLED', updated_at = $2::timestamptz WHERE id = $1`;

/** A disabled webhook's pending deliveries are given up. $1 webhook. */
export const FAIL_PENDING_SQL = `UPDATE webhook_deliveries SET status = 'FAILED', lease_until = NULL,
            last_error = COALESCE(last_error || ' / ', '') || 'the webhook was disabled'
      WHERE webhook_id = $1 AND status = 'PENDING'
      RETURNING id`;

export function claimDueDeliveries(options: {
  db: Tx;
  now: Date;
  max: number;
  workspaceIds: string[] | null;
  leaseMs: number;
  perWebhook: number;
}): Promise<ClaimedDelivery[]> {
  return options.db.$queryRawUnsafe<ClaimedDelivery[]>(
    CLAIM_SQL,
    options.now.toISOString(),
    options.max,
    options.workspaceIds,
    options.leaseMs,
    options.perWebhook,
  );
}

/** Ends the webhook's turn (RELEASE_WEBHOOK_SQL). */
export async function releaseWebhook(options: { db: Tx; webhookId: string; lease: Date }): Promise<void> {
  await options.db.$executeRawUnsafe(RELEASE_WEBHOOK_SQL, options.webhookId, options.lease.toISOString());
}

/** The webhook's status as it is now, right before a POST; null when it was deleted. */
export async function currentWebhookStatus(options: { db: Tx; webhookId: string }): Promise<string | null> {
  const [row] = await options.db.$queryRawUnsafe<{ status: string }[]>(WEBHOOK_STATUS_SQL, options.webhookId);
  return row?.status ?? null;
}

/** Holds the webhook for the caller's transaction (LOCK_WEBHOOK_SQL); false when it was deleted. */
export async function lockWebhook(options: { tx: Tx; webhookId: string }): Promise<boolean> {
  const rows = await options.tx.$queryRawUnsafe<{ id: string }[]>(LOCK_WEBHOOK_SQL, options.webhookId);
  return rows.length > 0;
}

/** Gives claimed deliveries back unattempted (due as they were); answers how many were still ours. */
export async function releaseDeliveries(options: { db: Tx; ids: string[]; lease: Date }): Promise<number> {
  if (!options.ids.length) return 0;
  const { count } = await options.db.webhookDelivery.updateMany({
    where: { id: { in: options.ids }, status: 'PENDING', leaseUntil: options.lease },
    data: { leaseUntil: null },
  });
  return count;
}

const held = (id: string, lease: Date) => ({ id, status: 'PENDING' as const, leaseUntil: lease });

/** A held delivery of a webhook no longer active: given up. */
export async function failDeliveryOfInactiveWebhook(options: { db: Tx; id: string; lease: Date }): Promise<number> {
  const { count } = await options.db.webhookDelivery.updateMany({
    where: held(options.id, options.lease),
    data: { status: 'FAILED', leaseUntil: null, lastError: 'the webhook is disabled' },
  });
  return count;
}

/** A delivered attempt of a held delivery, recorded with its webhook (DELIVERED_SQL); false when the webhook or the claim is gone. */
export async function recordDelivered(options: { db: Tx; webhookId: string; id: string; lease: Date; now: Date; attempts: number; statusCode: number; lastResp: string }): Promise<boolean> {
  const rows = await options.db.$queryRawUnsafe<{ id: string }[]>(
    DELIVERED_SQL,
    options.webhookId,
    options.id,
    options.lease.toISOString(),
    options.now.toISOString(),
    options.attempts,
    options.statusCode,
    options.lastResp,
  );
  return rows.length > 0;
}

/** A failed attempt of a held delivery: retried at `nextAttemptAt`, or given up (FAILED). */
export async function markAttemptFailed(options: {
  tx: Tx;
  id: string;
  lease: Date;
  attempts: number;
  statusCode: number | null;
  error: string;
  giveUp: boolean;
  nextAttemptAt: Date;
}): Promise<number> {
  const { count } = await options.tx.webhookDelivery.updateMany({
    where: held(options.id, options.lease),
    data: {
      attempts: options.attempts,
      lastStatusCode: options.statusCode,
      lastError: options.error,
      leaseUntil: null,
      ...(options.giveUp ? { status: 'FAILED' as const } : { nextAttemptAt: options.nextAttemptAt }),
    },
  });
  return count;
}

/** The webhook after one more consecutive failure (undefined when it is gone). */
export async function recordWebhookFailure(options: {
  tx: Tx;
  webhookId: string;
  now: Date;
  lastResp: string;
}): Promise<{ consecutive_failures: number; status: string; url: string; workspace_id: string } | undefined> {
  const [hook] = await options.tx.$queryRawUnsafe<{ consecutive_failures: number; status: string; url: string; workspace_id: string }[]>(
    WEBHOOK_FAILED_SQL,
    options.webhookId,
    options.now.toISOString(),
    options.lastResp,
  );
  return hook;
}

/**
 * A failing webhook's other pending deliveries wait until `until`; those whose event is older
 * than `createdBefore` are given up. Answers the ids given up.
 */
export async function holdWebhookDeliveries(options: { tx: Tx; webhookId: string; until: Date; createdBefore: Date }): Promise<string[]> {
  const gaveUp = await options.tx.$queryRawUnsafe<{ id: string }[]>(GIVE_UP_HELD_SQL, options.webhookId, options.createdBefore.toISOString());
  await options.tx.$executeRawUnsafe(HOLD_PENDING_SQL, options.webhookId, options.until.toISOString());
  return gaveUp.map((d) => d.id);
}

/** The webhook DISABLED and its pending deliveries FAILED; answers the ids given up. */
export async function disableWebhookAndFailPending(options: { tx: Tx; webhookId: string; now: Date }): Promise<string[]> {
  await options.tx.$executeRawUnsafe(DISABLE_WEBHOOK_SQL, options.webhookId, options.now.toISOString());
  const gaveUp = await options.tx.$queryRawUnsafe<{ id: string }[]>(FAIL_PENDING_SQL, options.webhookId);
  return gaveUp.map((d) => d.id);
}
