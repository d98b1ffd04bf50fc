// The webhook worker: POSTs the outbox (webhook_deliveries, written by emitWebhookEvent in
// the transaction of the change that caused each event) until each delivery is delivered
// or given up.
//
// - Claiming: due PENDING rows are locked with SKIP LOCKED and leased in one statement, so
//   concurrent workers (and processes) never POST the same row at once; a worker that dies
//   leaves its rows to be taken again when the lease passes. The lease covers the round's
//   budget (no attempt starts after its first 5 s) and the slowest attempt (a POST timing
//   out, and its recording), so no row is POSTed again by another worker while its first POST
//   is running.
//   An outcome is recorded only while the claim still holds (the row is PENDING with our lease).
// - Fairness: a claim takes webhooks in turn, a bounded share of each, and a round stops
//   starting attempts after a few seconds, so one webhook's backlog or slow receiver delays
//   another workspace's events by a round at most, not by the whole backlog.
// - One worker at a time per webhook: the claim marks each webhook it takes busy (its turn)
//   until the turn ends, so its deliveries go one after another with any number of workers.
// - Circuit breaking: a webhook's deliveries are POSTed one after another, and its first
//   failure makes all its pending deliveries wait for that failure's retry time. Its
//   consecutive failures are then attempts spaced by the backoff, so a receiver down for a
//   minute while 20 events queue costs one failure, not 20 and the webhook.
// - Delivery is at least once: a receiver that answered but whose answer was not recorded
//   (crash, lost lease) gets the event again, with the same X-Outreach-Event-Id.
// - Time comes from deps.ports.clock only; the timeout is real time. The POST goes through
//   deps.ports.webhookHttp (the outbound guard and pinned lookup are there).
//
// The policy (backoff, lease and budget, order, headers) is in webhook-delivery.rules.ts, the
// statements in webhook-delivery.queries.ts.
import type { Tx } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { settledWithin, startWorkerLoop } from '../shared/worker-loop';
import { emitSystemAlert } from './webhook-outbox.service';
import {
  attemptMayStart,
  claimLeaseMs,
  deliveryHeaders,
  disablesWebhook,
  outcomeOfResponse,
  recordedError,
  responseText,
  retryAfterFailure,
  retryWindowStart,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_MAX_CONSECUTIVE_FAILURES,
  WEBHOOK_ROUND_WAIT_MS,
  WEBHOOK_ROUNDS_BEHIND,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_TURN_MAX,
  webhookTurns,
  type WebhookOutcome,
} from './webhook-delivery.rules';
import {
  claimDueDeliveries,
  currentWebhookStatus,
  disableWebhookAndFailPending,
  failDeliveryOfInactiveWebhook,
  holdWebhookDeliveries,
  lockWebhook,
  markAttemptFailed,
  recordDelivered,
  recordWebhookFailure,
  releaseDeliveries,
  releaseWebhook,
  type ClaimedDelivery,
} from './webhook-delivery.queries';

export interface WebhookRoundResult {
  /** Deliveries claimed this round. */
  claimed: number;
  delivered: number;
  /** Given up: the retry window has passed, or the webhook was disabled. */
  failed: number;
  /** Failed this time, scheduled again. */
  retried: number;
  /** Claimed but not attempted, left for a later round: their webhook failed earlier in the round, or the round's budget had run out. */
  released: number;
  /** Webhooks disabled this round. */
  disabled: number;
  /**
   * Due deliveries were left for the next round, which starts at once: the claim was full, a
   * webhook had its whole share (WEBHOOK_TURN_MAX), or turns were cut short by the round's budget.
   */
  backlog: boolean;
}

type Recorded = 'delivered' | 'retried' | 'failed' | 'lost';
/** An outcome recorded, and what became of the webhook's other deliveries of the round when it was a failure. */
type RecordResult = { status: Recorded; disabled: boolean; restFailed: number; restReleased: number };

/**
 * One round: claims up to `max` due deliveries, webhooks in turn (at most 10 of one webhook,
 * the first of each before the second of any), and POSTs them, 10 webhooks at a time, each
 * webhook's deliveries one after another (oldest first), recording each outcome; no attempt
 * starts after the round's first 5 s (the rest go to the next round). A 2xx
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
}): Promise<WebhookRoundResult> {
  const { deps } = options;
  const max = options.max ?? 50;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const roundStart = deps.ports.clock.now();
  const claimed = await claimDueDeliveries({
    db: deps.db,
    now: roundStart,
    max,
    workspaceIds: options.workspaceIds ?? null,
    leaseMs: claimLeaseMs(timeoutMs),
    perWebhook: WEBHOOK_TURN_MAX,
  });
  const groups = webhookTurns(claimed);
  const result: WebhookRoundResult = {
    claimed: claimed.length,
    delivered: 0,
    failed: 0,
    retried: 0,
    released: 0,
    disabled: 0,
    backlog: claimed.length >= max || groups.some((group) => group.length >= WEBHOOK_TURN_MAX),
  };
  if (!claimed.length) return result;
  // One lease for the whole claim (one statement set it).
  const lease = new Date(claimed[0]!.lease_until);

  const errors: unknown[] = [];
  /** One webhook's turn; false when it ended with the database failing us. */
  const deliverGroup = async (group: ClaimedDelivery[]): Promise<boolean> => {
    for (let i = 0; i < group.length; i++) {
      const delivery = group[i]!;
      const rest = group.slice(i + 1).map((d) => d.id);
      try {
        if (!attemptMayStart({ roundStart, now: deps.ports.clock.now() })) {
          result.released += await releaseDeliveries({ db: deps.db, ids: [delivery.id, ...rest], lease });
          result.backlog = true;
          return true;
        }
        const outcome = await attempt({ deps, delivery, timeoutMs });
        // The webhook was deleted since the claim, its deliveries with it: its turn ends.
        if (outcome === 'deleted') return true;
        const recorded = await record({ deps, delivery, lease, outcome, rest });
        if (recorded.status !== 'lost') result[recorded.status] += 1;
        if (recorded.disabled) result.disabled += 1;
        result.failed += recorded.restFailed;
        result.released += recorded.restReleased;
        if (outcome && !outcome.ok) {
          // A failure ends the webhook's turn even when it was not recorded (the claim was
          // lost): the receiver is failing all the same. Recorded, it released the rest.
          if (recorded.status === 'lost') result.released += await releaseDeliveries({ db: deps.db, ids: rest, lease });
          return true;
        }
      } catch (error) {
        // The database failed us: the webhook's turn ends here, the leases (its own and its
        // deliveries') run out, and its deliveries are taken again.
        errors.push(error);
        return false;
      }
    }
    return true;
  };
  const webhookTurn = async (group: ClaimedDelivery[]) => {
    if (!(await deliverGroup(group))) return;
    // Over: the webhook may be taken again at once, by this worker's next round or another's.
    try {
      await releaseWebhook({ db: deps.db, webhookId: group[0]!.webhook_id, lease });
    } catch (error) {
      errors.push(error);
    }
  };
  let next = 0;
  const runner = async () => {
    while (next < groups.length) await webhookTurn(groups[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(WEBHOOK_CONCURRENCY, groups.length) }, runner));
  if (errors.length) throw errors[0];
  return result;
}

/**
 * POSTs one delivery; `null` when its webhook is no longer active, `deleted` when it is gone.
 * Its status is read again right before the POST, not taken from the claim: a webhook deleted
 * or disabled (its workspace deleted) while its turn went on got the rest of its turn's events,
 * up to a turn of POSTs after the request that removed it had answered.
 */
async function attempt(options: { deps: ServiceDeps; delivery: ClaimedDelivery; timeoutMs: number }): Promise<WebhookOutcome | null | 'deleted'> {
  const { deps, delivery } = options;
  if (delivery.webhook_status !== 'ACTIVE') return null;
  const status = await currentWebhookStatus({ db: deps.db, webhookId: delivery.webhook_id });
  if (status === null) return 'deleted';
  if (status !== 'ACTIVE') return null;
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
  const headers = deliveryHeaders({ deliveryId: delivery.id, event: delivery.event, body, timestamp, secret });
  try {
    return outcomeOfResponse(await deps.ports.webhookHttp.post({ url: delivery.url, body, headers, timeoutMs: options.timeoutMs }));
  } catch (error) {
    return { ok: false, status: null, error: (error as Error).message || String(error) };
  }
}

/**
 * Records an outcome while the claim holds; `null` means the webhook is no longer active.
 * `rest`: the webhook's deliveries claimed after this one, released (or given up) when
 * this is a failure.
 */
async function record(options: { deps: ServiceDeps; delivery: ClaimedDelivery; lease: Date; outcome: WebhookOutcome | null; rest: string[] }): Promise<RecordResult> {
  const { deps, delivery, lease, outcome, rest } = options;
  const now = deps.ports.clock.now();
  const untouched = { restFailed: 0, restReleased: 0 };

  if (!outcome) {
    const count = await failDeliveryOfInactiveWebhook({ db: deps.db, id: delivery.id, lease });
    return { status: count ? 'failed' : 'lost', disabled: false, ...untouched };
  }

  if (outcome.ok) {
    // The webhook first, as a delete takes it; gone, its delivery went with it.
    const delivered = await recordDelivered({
      db: deps.db,
      webhookId: delivery.webhook_id,
      id: delivery.id,
      lease,
      now,
      attempts: delivery.attempts + 1,
      statusCode: outcome.status,
      lastResp: responseText(outcome),
    });
    return { status: delivered ? 'delivered' : 'lost', disabled: false, ...untouched };
  }

  const attempts = delivery.attempts + 1;
  const { nextAttemptAt, giveUp } = retryAfterFailure({ deliveryId: delivery.id, attempts, now, createdAt: new Date(delivery.created_at) });
  const error = recordedError(outcome.error);
  const recorded = await deps.db.$transaction(async (tx): Promise<RecordResult> => {
    if (!(await lockWebhook({ tx, webhookId: delivery.webhook_id }))) return { status: 'lost', disabled: false, ...untouched };
    const count = await markAttemptFailed({ tx, id: delivery.id, lease, attempts, statusCode: outcome.status, error, giveUp, nextAttemptAt });
    if (!count) return { status: 'lost', disabled: false, ...untouched };
    const hook = await recordWebhookFailure({ tx, webhookId: delivery.webhook_id, now, lastResp: error });
    // The row is locked until this commits, so exactly one failure crosses the threshold.
    const ours = (ids: string[]) => ids.filter((id) => rest.includes(id)).length;
    if (hook !== undefined && disablesWebhook({ status: hook.status, failures: hook.consecutive_failures })) {
      const failed = await disableWebhook({ tx, webhookId: delivery.webhook_id, url: hook.url, workspaceId: hook.workspace_id, failures: hook.consecutive_failures, now });
      return { status: 'failed', disabled: true, restFailed: ours(failed), restReleased: 0 };
    }
    // Its other pending deliveries are not attempted before this failure's retry time, so that
    // its next failure, if any, comes after the backoff; those whose retry window ends before
    // it are given up, as a delivery whose own next attempt would be too late.
    const gaveUp = await holdWebhookDeliveries({ tx, webhookId: delivery.webhook_id, until: nextAttemptAt, createdBefore: retryWindowStart(nextAttemptAt) });
    const released = await releaseDeliveries({ db: tx, ids: rest, lease });
    return { status: giveUp ? 'failed' : 'retried', disabled: false, restFailed: ours(gaveUp), restReleased: released };
  });
  if (recorded.disabled) {
    deps.log.warn({ webhookId: delivery.webhook_id, url: delivery.url, lastError: error }, `webhook disabled after ${WEBHOOK_MAX_CONSECUTIVE_FAILURES} consecutive failures`);
  }
  return recorded;
}

/** DISABLED, its pending deliveries FAILED, and a SYSTEM_ALERT to the workspace's other webhooks: one transaction. Answers the ids given up. */
async function disableWebhook(options: { tx: Tx; webhookId: string; url: string; workspaceId: string; failures: number; now: Date }): Promise<string[]> {
  const { tx, webhookId, url, workspaceId, failures, now } = options;
  const gaveUp = await disableWebhookAndFailPending({ tx, webhookId, now });
  // The webhook is DISABLED already in this transaction, so the alert never goes to it.
  await emitSystemAlert({
    tx,
    workspaceId,
    now,
    alert: {
      alert_type: 'WEBHOOK_DISABLED',
      disabled_webhook_id: webhookId,
      disabled_webhook_url: url,
      message: `webhook ${webhookId} (${url}) was disabled after ${failures} consecutive failed deliveries; its pending deliveries were given up`,
    },
  });
  return gaveUp;
}

export interface WebhookWorker {
  /** Finishes the round in progress (its outcomes are recorded), then stops. */
  stop(): Promise<void>;
  /** Resolves after the next round has run (tests and the CLI). */
  nextRound(): Promise<WebhookRoundResult>;
}
/**
 * The webhook loop of the worker role: a round every `intervalMs`, at once while rounds leave due
 * deliveries behind (`backlog`). A round still POSTing after WEBHOOK_ROUND_WAIT_MS (a slow receiver's
 * turn) finishes on its own while the loop claims the next, for the other webhooks (its own stay
 * busy); at most WEBHOOK_ROUNDS_BEHIND such rounds at once.
 */
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
  /** Rounds finishing on their own while the loop goes on. */
  const behind = new Set<Promise<unknown>>();
  /** Counts a finished round and logs it (one line a round that claimed anything). */
  const finished = (result: WebhookRoundResult, ms: number) => {
    totals.delivered += result.delivered;
    totals.failed += result.failed;
    totals.retried += result.retried;
    totals.disabled += result.disabled;
    if (result.claimed) log.info({ ...result, totals, ms: Math.round(ms) }, 'webhook round');
  };
  const round = async (): Promise<WebhookRoundResult> => {
    while (behind.size >= WEBHOOK_ROUNDS_BEHIND) await Promise.race(behind);
    const started = performance.now();
    const whole = deliverDueWebhooks({ deps, max, timeoutMs: options.timeoutMs, workspaceIds: options.workspaceIds });
    if (await settledWithin(WEBHOOK_ROUND_WAIT_MS, whole)) {
      // Settled in time (a failed round rethrows: the loop backs off).
      const result = await whole;
      finished(result, performance.now() - started);
      return result;
    }
    const done: Promise<unknown> = whole
      .then(
        (result) => {
          finished(result, performance.now() - started);
          // Its webhooks had more due (a whole share, the budget run out): the loop takes them at once, not after its pause.
          if (result.backlog) loop.wake();
        },
        (error: unknown) => log.error({ err: error }, 'webhook round failed (its deliveries are taken again when their lease ends)'),
      )
      .finally(() => behind.delete(done));
    behind.add(done);
    // The next round at once: what is due for the other webhooks goes out now.
    return { claimed: 0, delivered: 0, failed: 0, retried: 0, released: 0, disabled: 0, backlog: true };
  };
  log.info({ intervalMs, max }, 'webhook worker started');
  const loop = startWorkerLoop({
    log,
    name: 'webhook round',
    worker: 'webhook',
    observer: deps.observer,
    intervalMs,
    round,
    more: (result) => result.backlog,
    // Each round is logged when it finishes (finished).
    report: () => null,
  });
  return {
    async stop() {
      await loop.stop();
      await Promise.allSettled([...behind]);
      log.info({ totals }, 'webhook worker stopped');
    },
    nextRound: loop.next,
  };
}
