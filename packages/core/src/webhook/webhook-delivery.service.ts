// The webhook worker: POSTs the outbox (webhook_deliveries, written by emitWebhookEvent in
// the transaction of the change that caused each event) until each delivery is delivered
// or given up.
//
// - Claiming: due PENDING rows are locked with SKIP LOCKED and leased in one statement, so
//   concurrent workers (and processes) never POST the same row at once; a worker that dies
//   leaves its rows to be taken again when the lease passes. The lease covers the slowest
//   the round can be (every POST timing out), plus a margin for the claim itself (the time
//   from the clock reading it leases from to the first POST), and a delivery is not POSTed
//   once too little of it is left, so no row is POSTed again by another worker while its
//   first POST is running. So every attempt that starts has a slowest attempt's time left,
//   and the last attempt of the slowest webhook's turn can still start.
//   An outcome is recorded only while the claim still holds (the row is PENDING with our lease).
// - Circuit breaking: a webhook's deliveries are POSTed one after another, and its first
//   failure makes all its pending deliveries wait for that failure's retry time. Its
//   consecutive failures are then attempts spaced by the backoff, so a receiver down for a
//   minute while 20 events queue costs one failure, not 20 and the webhook.
// - Delivery is at least once: a receiver that answered but whose answer was not recorded
//   (crash, lost lease) gets the event again, with the same X-Outreach-Event-Id.
// - Time comes from deps.ports.clock only; the timeout is real time.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Tx } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { startWorkerLoop } from '../shared/worker-loop';
import { pinnedLookup, resolvePublicTarget, type LookupAll } from '../shared/outbound-guard';
import { unitFraction } from '../sending/hash';
import { emitWebhookEvent } from './webhook-outbox.service';
import { systemAlertFields } from './webhook-payload.rules';
import { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from './webhook-signature.rules';

export const WEBHOOK_USER_AGENT = 'Outreach-Webhooks/1';
/**
 * What an attempt may take beyond the timeout (recording its outcome): the lease allows the
 * timeout plus this for each attempt, and an attempt starts only with at least that much left.
 * The lease also allows this once more for the claim (the query and the sorting before the
 * first POST): without it the last attempt of the slowest turn, one delivery alone included,
 * would find a hair less than an attempt left on a clock that moves, and never start.
 */
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
const CONCURRENCY = 10;
/** Bytes of a response body read (the rest is dropped with the connection). */
const RESPONSE_BODY_LIMIT = 2048;
/** Characters of a response body kept in `last_resp`. */
const LAST_RESP_BODY_LIMIT = 500;

export interface WebhookRoundResult {
  /** Deliveries claimed this round. */
  claimed: number;
  delivered: number;
  /** Given up: the retry window has passed, or the webhook was disabled. */
  failed: number;
  /** Failed this time, scheduled again. */
  retried: number;
  /** Claimed but not attempted, left for a later round: their webhook failed earlier in the round, or too little of the lease was left. */
  released: number;
  /** Webhooks disabled this round. */
  disabled: number;
}

/**
 * The wait before attempt `attempt + 1`, after `attempt` failures: exponential backoff with
 * full jitter, a fraction of min(1 h, 30 s · 2^(attempt-1)) derived from the delivery id
 * and the attempt (deterministic, yet spread over deliveries), at least a second.
 */
export function webhookRetryDelayMs(options: { deliveryId: string; attempt: number }): number {
  const ceiling = Math.min(WEBHOOK_RETRY_CAP_MS, WEBHOOK_RETRY_BASE_MS * 2 ** Math.max(0, Math.min(options.attempt - 1, 30)));
  return Math.max(1_000, Math.floor(unitFraction(`${options.deliveryId}:${options.attempt}`) * ceiling));
}

interface ClaimedDelivery {
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
const CLAIM_SQL = `
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

type Outcome = { ok: true; status: number; body: string } | { ok: false; status: number | null; error: string };
type Recorded = 'delivered' | 'retried' | 'failed' | 'lost';
/** An outcome recorded, and what became of the webhook's other deliveries of the round when it was a failure. */
type RecordResult = { status: Recorded; disabled: boolean; restFailed: number; restReleased: number };

/**
 * One round: claims up to `max` due deliveries and POSTs them, 10 webhooks at a time, each
 * webhook's deliveries one after another (oldest first), recording each outcome. A 2xx
 * delivers; anything else (another status, a timeout, a refused target, a network error) is
 * retried with backoff until 24 h after the event, counts towards the webhook's consecutive
 * failures, and ends the webhook's turn: its other pending deliveries wait for the failure's
 * retry time. At 20 failures the webhook is disabled, its pending deliveries fail, and a
 * SYSTEM_ALERT (WEBHOOK_DISABLED) goes to the workspace's other webhooks.
 */
export async function deliverDueWebhooks(options: {
  deps: ServiceDeps;
  max?: number;
  timeoutMs?: number;
  /** Only these workspaces' deliveries (tests; a worker serves all). */
  workspaceIds?: string[];
  /** Name resolution of the targets (node:dns by default). */
  lookup?: LookupAll;
}): Promise<WebhookRoundResult> {
  const { deps } = options;
  const max = options.max ?? 50;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const now = deps.ports.clock.now();
  const slowestAttemptMs = timeoutMs + WEBHOOK_LEASE_MARGIN_MS;
  const claimed = await deps.db.$queryRawUnsafe<ClaimedDelivery[]>(
    CLAIM_SQL,
    now.toISOString(),
    max,
    options.workspaceIds ?? null,
    slowestAttemptMs,
    CONCURRENCY,
    WEBHOOK_LEASE_MARGIN_MS,
  );
  const result: WebhookRoundResult = { claimed: claimed.length, delivered: 0, failed: 0, retried: 0, released: 0, disabled: 0 };
  if (!claimed.length) return result;
  // One lease for the whole claim (one statement set it).
  const lease = new Date(claimed[0]!.lease_until);
  const time = (d: Date | string) => new Date(d).getTime();
  const byEvent = (a: ClaimedDelivery, b: ClaimedDelivery) => time(a.created_at) - time(b.created_at) || (a.id < b.id ? -1 : 1);
  // RETURNING has no order: webhooks take turns by their oldest due delivery, and each
  // webhook's deliveries go in the order of their events.
  claimed.sort((a, b) => time(a.next_attempt_at) - time(b.next_attempt_at) || byEvent(a, b));
  const byWebhook = new Map<string, ClaimedDelivery[]>();
  for (const delivery of claimed) {
    const group = byWebhook.get(delivery.webhook_id);
    if (group) group.push(delivery);
    else byWebhook.set(delivery.webhook_id, [delivery]);
  }
  const groups = [...byWebhook.values()].map((group) => group.sort(byEvent));

  const errors: unknown[] = [];
  const webhookTurn = async (group: ClaimedDelivery[]) => {
    for (let i = 0; i < group.length; i++) {
      const delivery = group[i]!;
      const rest = group.slice(i + 1).map((d) => d.id);
      try {
        // Past the lease another worker may claim the delivery and POST it while this POST runs.
        if (lease.getTime() - deps.ports.clock.now().getTime() < slowestAttemptMs) {
          result.released += await release({ db: deps.db, ids: [delivery.id, ...rest], lease });
          return;
        }
        const outcome = await attempt({ deps, delivery, timeoutMs, lookup: options.lookup });
        const recorded = await record({ deps, delivery, lease, outcome, rest });
        if (recorded.status !== 'lost') result[recorded.status] += 1;
        if (recorded.disabled) result.disabled += 1;
        result.failed += recorded.restFailed;
        result.released += recorded.restReleased;
        if (outcome && !outcome.ok) {
          // A failure ends the webhook's turn even when it was not recorded (the claim was
          // lost): the receiver is failing all the same. Recorded, it released the rest.
          if (recorded.status === 'lost') result.released += await release({ db: deps.db, ids: rest, lease });
          return;
        }
      } catch (error) {
        // The database failed us: the webhook's turn ends here, the leases run out and its
        // deliveries are taken again.
        errors.push(error);
        return;
      }
    }
  };
  let next = 0;
  const runner = async () => {
    while (next < groups.length) await webhookTurn(groups[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, groups.length) }, runner));
  if (errors.length) throw errors[0];
  return result;
}

/** Gives claimed deliveries back unattempted (due as they were); answers how many were still ours. */
async function release(options: { db: Tx; ids: string[]; lease: Date }): Promise<number> {
  if (!options.ids.length) return 0;
  const { count } = await options.db.webhookDelivery.updateMany({
    where: { id: { in: options.ids }, status: 'PENDING', leaseUntil: options.lease },
    data: { leaseUntil: null },
  });
  return count;
}

async function attempt(options: { deps: ServiceDeps; delivery: ClaimedDelivery; timeoutMs: number; lookup: LookupAll | undefined }): Promise<Outcome | null> {
  const { deps, delivery } = options;
  if (delivery.webhook_status !== 'ACTIVE') return null;
  let secret: string | null = null;
  if (delivery.secret_enc) {
    try {
      secret = deps.secrets.decrypt(delivery.secret_enc);
    } catch {
      return { ok: false, status: null, error: 'cannot decrypt the webhook secret (was the encryption key changed?)' };
    }
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(deps.ports.clock.now().getTime() / 1000);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'User-Agent': WEBHOOK_USER_AGENT,
    [EVENT_ID_HEADER]: delivery.id,
    [EVENT_HEADER]: delivery.event,
    [TIMESTAMP_HEADER]: String(timestamp),
  };
  if (secret) headers[SIGNATURE_HEADER] = signWebhook({ secret, timestamp, body });
  try {
    const response = await postWebhook({
      url: delivery.url,
      body,
      headers,
      timeoutMs: options.timeoutMs,
      allowPrivate: deps.settings.allowPrivateTargets,
      lookup: options.lookup,
    });
    if (response.status >= 200 && response.status < 300) return { ok: true, ...response };
    return { ok: false, status: response.status, error: responseText(response) };
  } catch (error) {
    return { ok: false, status: null, error: (error as Error).message || String(error) };
  }
}

const responseText = (r: { status: number; body: string }) => `${r.status} ${r.body.slice(0, LAST_RESP_BODY_LIMIT)}`.trimEnd();

/**
 * Records an outcome while the claim holds; `null` means the webhook is no longer active.
 * `rest`: the webhook's deliveries claimed after this one, released (or given up) when
 * this is a failure.
 */
async function record(options: { deps: ServiceDeps; delivery: ClaimedDelivery; lease: Date; outcome: Outcome | null; rest: string[] }): Promise<RecordResult> {
  const { deps, delivery, lease, outcome, rest } = options;
  const now = deps.ports.clock.now();
  const held = { id: delivery.id, status: 'PENDING' as const, leaseUntil: lease };
  const untouched = { restFailed: 0, restReleased: 0 };

  if (!outcome) {
    const { count } = await deps.db.webhookDelivery.updateMany({
      where: held,
      data: { status: 'FAILED', leaseUntil: null, lastError: 'the webhook is disabled' },
    });
    return { status: count ? 'failed' : 'lost', disabled: false, ...untouched };
  }

  if (outcome.ok) {
    return deps.db.$transaction(async (tx) => {
      const { count } = await tx.webhookDelivery.updateMany({
        where: held,
        data: { status: 'DELIVERED', deliveredAt: now, attempts: delivery.attempts + 1, lastStatusCode: outcome.status, lastError: null, leaseUntil: null },
      });
      if (!count) return { status: 'lost' as const, disabled: false, ...untouched };
      await tx.$executeRawUnsafe(
        `UPDATE webhooks SET consecutive_failures = 0, last_run = $2::timestamptz, last_resp = $3 WHERE id = $1`,
        delivery.webhook_id,
        now.toISOString(),
        responseText(outcome),
      );
      return { status: 'delivered' as const, disabled: false, ...untouched };
    });
  }

  const attempts = delivery.attempts + 1;
  const nextAttemptAt = new Date(now.getTime() + webhookRetryDelayMs({ deliveryId: delivery.id, attempt: attempts }));
  const giveUp = nextAttemptAt.getTime() > new Date(delivery.created_at).getTime() + WEBHOOK_RETRY_WINDOW_MS;
  const error = outcome.error.slice(0, 1_000);
  const recorded = await deps.db.$transaction(async (tx): Promise<RecordResult> => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: held,
      data: { attempts, lastStatusCode: outcome.status, lastError: error, leaseUntil: null, ...(giveUp ? { status: 'FAILED' as const } : { nextAttemptAt }) },
    });
    if (!count) return { status: 'lost', disabled: false, ...untouched };
    const [hook] = await tx.$queryRawUnsafe<{ consecutive_failures: number; status: string; url: string; workspace_id: string }[]>(
      `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1, last_run = $2::timestamptz, last_resp = $3
        WHERE id = $1 RETURNING consecutive_failures, status::text AS status, url, workspace_id`,
      delivery.webhook_id,
      now.toISOString(),
      error,
    );
    // The row is locked until this commits, so exactly one failure crosses the threshold.
    const disable = hook !== undefined && hook.status === 'ACTIVE' && hook.consecutive_failures >= WEBHOOK_MAX_CONSECUTIVE_FAILURES;
    const ours = (ids: string[]) => ids.filter((id) => rest.includes(id)).length;
    if (disable) {
      const failed = await disableWebhook({ tx, webhookId: delivery.webhook_id, url: hook.url, workspaceId: hook.workspace_id, failures: hook.consecutive_failures, now });
      return { status: 'failed', disabled: true, restFailed: ours(failed), restReleased: 0 };
    }
    const gaveUp = await holdWebhook({ tx, webhookId: delivery.webhook_id, until: nextAttemptAt });
    const released = await release({ db: tx, ids: rest, lease });
    return { status: giveUp ? 'failed' : 'retried', disabled: false, restFailed: ours(gaveUp), restReleased: released };
  });
  if (recorded.disabled) {
    deps.log.warn({ webhookId: delivery.webhook_id, url: delivery.url, lastError: error }, `webhook disabled after ${WEBHOOK_MAX_CONSECUTIVE_FAILURES} consecutive failures`);
  }
  return recorded;
}

/**
 * After a failure of the webhook (in its transaction): its other pending deliveries are not
 * attempted before `until`, the failure's retry time, so that its next failure, if any, comes
 * after the backoff. Those whose retry window ends before it are given up, as a delivery
 * whose own next attempt would be too late. Answers the ids given up.
 */
async function holdWebhook(options: { tx: Tx; webhookId: string; until: Date }): Promise<string[]> {
  const { tx, webhookId, until } = options;
  const gaveUp = await tx.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE webhook_deliveries SET status = 'FAILED', lease_until = NULL,
            last_error = COALESCE(last_error || ' / ', '') || 'its webhook is failing, and the next attempt would be more than 24 h after the event'
      WHERE webhook_id = $1 AND status = 'PENDING' AND created_at < $2::timestamptz
      RETURNING id`,
    webhookId,
    new Date(until.getTime() - WEBHOOK_RETRY_WINDOW_MS).toISOString(),
  );
  await tx.$executeRawUnsafe(
    `UPDATE webhook_deliveries SET next_attempt_at = $2::timestamptz
      WHERE webhook_id = $1 AND status = 'PENDING' AND next_attempt_at < $2::timestamptz`,
    webhookId,
    until.toISOString(),
  );
  return gaveUp.map((d) => d.id);
}

/** DISABLED, its pending deliveries FAILED, and a SYSTEM_ALERT to the workspace's other webhooks: one transaction. Answers the ids given up. */
async function disableWebhook(options: { tx: Tx; webhookId: string; url: string; workspaceId: string; failures: number; now: Date }): Promise<string[]> {
  const { tx, webhookId, url, workspaceId, failures, now } = options;
  await tx.$executeRawUnsafe(`UPDATE webhooks SET status = 'DISABLED', updated_at = $2::timestamptz WHERE id = $1`, webhookId, now.toISOString());
  const gaveUp = await tx.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE webhook_deliveries SET status = 'FAILED', lease_until = NULL,
            last_error = COALESCE(last_error || ' / ', '') || 'the webhook was disabled'
      WHERE webhook_id = $1 AND status = 'PENDING'
      RETURNING id`,
    webhookId,
  );
  // The webhook is DISABLED already in this transaction, so the alert never goes to it.
  await emitWebhookEvent({
    tx,
    workspaceId,
    event: 'SYSTEM_ALERT',
    campaignId: null,
    now,
    fields: systemAlertFields({
      alert_type: 'WEBHOOK_DISABLED',
      disabled_webhook_id: webhookId,
      disabled_webhook_url: url,
      message: `webhook ${webhookId} (${url}) was disabled after ${failures} consecutive failed deliveries; its pending deliveries were given up`,
      at: now,
    }),
  });
  return gaveUp.map((d) => d.id);
}

/**
 * POSTs `body` to `url` through the outbound guard (the connection goes to the vetted
 * address), within `timeoutMs` in all (resolution, connection, response and body). Does not
 * follow redirects. Answers the status and up to 2 KB of the response body; throws on a
 * refused target, a network error or the timeout.
 */
export async function postWebhook(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  lookup?: LookupAll;
}): Promise<{ status: number; body: string }> {
  const controller = new AbortController();
  const timeoutError = new Error(`timed out after ${options.timeoutMs} ms`);
  const timer = setTimeout(() => controller.abort(timeoutError), options.timeoutMs);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(timeoutError), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    const target = await Promise.race([resolvePublicTarget({ url: options.url, allowPrivate: options.allowPrivate, lookup: options.lookup }), aborted]);
    const { url } = target;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = send(
        {
          protocol: url.protocol,
          hostname: target.host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: options.headers,
          auth: url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
          agent: false,
          lookup: pinnedLookup(target) as never,
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8') });
          };
          res.on('data', (chunk: Buffer) => {
            if (done) return;
            chunks.push(chunk);
            size += chunk.length;
            if (size >= RESPONSE_BODY_LIMIT) {
              finish();
              res.destroy();
            }
          });
          res.on('end', finish);
          res.on('error', (error) => {
            if (!done) reject(error);
          });
        },
      );
      controller.signal.addEventListener('abort', () => req.destroy(timeoutError), { once: true });
      req.on('error', reject);
      req.end(options.body);
    });
    return await Promise.race([request, aborted]);
  } finally {
    clearTimeout(timer);
  }
}

export interface WebhookWorker {
  /** Finishes the round in progress (its outcomes are recorded), then stops. */
  stop(): Promise<void>;
  /** Resolves after the next round has run (tests and the CLI). */
  nextRound(): Promise<WebhookRoundResult>;
}
/** The webhook loop of the worker role: a round every `intervalMs`, at once while rounds claim a full batch. */
export function startWebhookWorker(options: {
  deps: ServiceDeps;
  intervalMs?: number;
  max?: number;
  timeoutMs?: number;
  /** Only these workspaces' deliveries (tests; a worker serves all). */
  workspaceIds?: string[];
}): WebhookWorker {
  const { deps } = options;
  const intervalMs = options.intervalMs ?? 2_000;
  const max = options.max ?? 50;
  const log = deps.log.child({ component: 'webhook-worker' });
  const totals = { delivered: 0, failed: 0, retried: 0, disabled: 0 };
  log.info({ intervalMs, max }, 'webhook worker started');
  const loop = startWorkerLoop({
    log,
    name: 'webhook round',
    intervalMs,
    round: () => deliverDueWebhooks({ deps, max, timeoutMs: options.timeoutMs, workspaceIds: options.workspaceIds }),
    more: (result) => result.claimed >= max,
    report: (result) => {
      totals.delivered += result.delivered;
      totals.failed += result.failed;
      totals.retried += result.retried;
      totals.disabled += result.disabled;
      return result.claimed ? { ...result, totals } : null;
    },
  });
  return {
    async stop() {
      await loop.stop();
      log.info({ totals }, 'webhook worker stopped');
    },
    nextRound: loop.next,
  };
}
