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
 * Locks due deliveries (SKIP LOCKED: another worker's are left to it), oldest due first,
 * and leases them. Served by webhook_deliveries_due_idx. $1 now, $2 how many, $3 the
 * workspaces to serve (null: all), $4 the longest an attempt may take (ms), $5 the runners,
 * $6 the margin for the claim (ms).
 *
 * The lease is the round at its slowest, every attempt taking $4: the webhook with the
 * most deliveries claimed goes one after another, and the others at worst fill the other
 * runners first (list scheduling finishes within (n - g)/runners + g attempts, g that
 * largest group). $6 more covers the time from $1 to the first POST: the k-th attempt
 * (from 0) of a turn of `span` starts by $1 + claim + k·$4, when (span - k)·$4 + $6 - claim
 * of the lease is left, at least $4 as long as the claim took no more than $6.
 */
export const CLAIM_SQL = `
  WITH due AS (
    SELECT id, webhook_id FROM webhook_deliveries
     WHERE status = 'PENDING' AND next_attempt_at <= $1::timestamptz
       AND (lease_until IS NULL OR lease_until <= $1::timestamptz)
       AND ($3::text[] IS NULL OR workspace_id = ANY($3::text[]))
     ORDER BY next_attempt_at, created_at, id
     LIMIT $2
     FOR UPDATE SKIP LOCKED
  ), span AS (
    SELECT MAX(n) + CEIL((SUM(n) - MAX(n)) / $5::numeric) AS attempts
      FROM (SELECT COUNT(*) AS n FROM due GROUP BY webhook_id) per_webhook
  )
  UPDATE webhook_deliveries d SET lease_until = $1::timestamptz + (span.attempts * $4::bigint + $6::bigint) * interval '1 millisecond'
    FROM due, span, webhooks h
   WHERE d.id = due.id AND h.id = d.webhook_id
  RETURNING d.id, d.webhook_id, d.workspace_id, d.event, d.payload, d.attempts, d.created_at,
            d.next_attempt_at, d.lease_until, h.url, h.secret_enc, h.status::text AS webhook_status`;

/** A webhook's status now (no row: deleted, its deliveries with it). $1 webhook. */
export const WEBHOOK_STATUS_SQL = `SELECT status::text AS status FROM webhooks WHERE id = $1`;

/**
 * The webhook held for the transaction recording an attempt's outcome, before its delivery:
 * a delete of the webhook takes the webhook, then (its cascade) the deliveries, and taking them
 * the other way round deadlocked with it. No row: deleted meanwhile. $1 webhook.
 */
export const LOCK_WEBHOOK_SQL = `SELECT id FROM webhooks WHERE id = $1 FOR NO KEY UPDATE`;

/** A delivered attempt: the webhook's failures start again from 0. $1 webhook, $2 now, $3 last_resp. */
export const WEBHOOK_SUCCEEDED_SQL = `UPDATE webhooks SET consecutive_failures = 0, last_run = $2::timestamptz, last_resp = $3 WHERE id = $1`;

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
  slowestAttemptMs: number;
  runners: number;
  claimMarginMs: number;
}): Promise<ClaimedDelivery[]> {
  return options.db.$queryRawUnsafe<ClaimedDelivery[]>(
    CLAIM_SQL,
    options.now.toISOString(),
    options.max,
    options.workspaceIds,
    options.slowestAttemptMs,
    options.runners,
    options.claimMarginMs,
  );
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

export async function markDelivered(options: { tx: Tx; id: string; lease: Date; now: Date; attempts: number; statusCode: number }): Promise<number> {
  const { count } = await options.tx.webhookDelivery.updateMany({
    where: held(options.id, options.lease),
    data: { status: 'DELIVERED', deliveredAt: options.now, attempts: options.attempts, lastStatusCode: options.statusCode, lastError: null, leaseUntil: null },
  });
  return count;
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

export async function recordWebhookSuccess(options: { tx: Tx; webhookId: string; now: Date; lastResp: string }): Promise<void> {
  await options.tx.$executeRawUnsafe(WEBHOOK_SUCCEEDED_SQL, options.webhookId, options.now.toISOString(), options.lastResp);
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
