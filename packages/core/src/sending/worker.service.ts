import type { ServiceDeps } from '../shared/context';
import { startWorkerLoop } from '../shared/worker-loop';
import { CLAIM_LEASE_MS, startSchedulerTick, type TickResult } from './scheduler.service';

export interface SendingWorker {
  /** Finishes the ticks in progress (their sends are recorded), then stops. */
  stop(): Promise<void>;
  /**
   * Resolves after the next tick has run (tests and the CLI); for a tick that filled its batch,
   * once it has claimed (its counts other than `claimed` are logged when its delivery finishes).
   */
  nextTick(): Promise<TickResult>;
}

/** How many ticks of one worker deliver at once by default (see startSendingWorker). */
export const TICKS_IN_FLIGHT = 2;

/**
 * The scheduler loop of the worker role: a tick every `intervalMs`, at once while ticks fill
 * their batch. A tick that filled its batch (more is due now) goes on delivering while the next
 * one claims, up to `ticksInFlight` ticks delivering at once: the next claim does not wait for
 * the slowest SMTP server of the batch before, nor for its recording. Overlapping ticks of one
 * worker are as safe as two workers: a claim locks with SKIP LOCKED, and the daily limits count
 * the sends still in flight (scheduler.service.ts). A tick that did not fill its batch (nothing
 * more was due) is waited for before the loop pauses.
 */
export function startSendingWorker(options: {
  deps: ServiceDeps;
  intervalMs?: number;
  maxSendsPerTick?: number;
  /** Only these workspaces' campaigns (tests; a worker sends for all). */
  workspaceIds?: string[];
  /** How long a claim holds its lead before another worker may take it over (CLAIM_LEASE_MS by default). */
  claimLeaseMs?: number;
  /** How many ticks may deliver at once (TICKS_IN_FLIGHT by default; 1: each tick waits for the one before). */
  ticksInFlight?: number;
}): SendingWorker {
  const { deps } = options;
  const intervalMs = options.intervalMs ?? 5_000;
  const maxSends = options.maxSendsPerTick ?? 100;
  const ticksInFlight = Math.max(1, options.ticksInFlight ?? TICKS_IN_FLIGHT);
  const log = deps.log.child({ component: 'sending-worker' });
  const totals = { sent: 0, unconfirmed: 0, bounced: 0, deferred: 0 };
  /** Ticks that filled their batch and are still delivering. */
  const delivering = new Set<Promise<unknown>>();

  /** Counts a finished tick and logs it (one line a tick that did anything). */
  const finished = (result: TickResult, ms: number) => {
    totals.sent += result.sent;
    totals.unconfirmed += result.unconfirmed;
    totals.bounced += result.bounced;
    totals.deferred += result.deferred;
    if (result.claimed || result.stopped || result.completedCampaigns.length) log.info({ ...result, totals, ms: Math.round(ms) }, 'tick');
  };

  const round = async (): Promise<TickResult> => {
    // A free place among the ticks in flight first.
    while (delivering.size >= ticksInFlight) await Promise.race(delivering);
    const started = performance.now();
    const tick = await startSchedulerTick({ deps, maxSends, workspaceIds: options.workspaceIds, claimLeaseMs: options.claimLeaseMs });
    if (tick.claimed >= maxSends && ticksInFlight > 1) {
      // More is due now: this tick delivers while the next one claims.
      const done: Promise<unknown> = tick.finished
        .then(
          (result) => finished(result, performance.now() - started),
          (error: unknown) => log.error({ err: error }, 'tick failed after its claim (its leads go back when their lease ends)'),
        )
        .finally(() => delivering.delete(done));
      delivering.add(done);
      return { claimed: tick.claimed, sent: 0, unconfirmed: 0, bounced: 0, deferred: 0, disconnected: 0, stopped: 0, waiting: 0, completedCampaigns: [] };
    }
    // Nothing more was due: the loop pauses once this tick is done (ticks still delivering go on).
    const result = await tick.finished;
    finished(result, performance.now() - started);
    return result;
  };

  log.info({ intervalMs, maxSendsPerTick: maxSends, ticksInFlight, claimLeaseMs: options.claimLeaseMs ?? CLAIM_LEASE_MS }, 'sending worker started');
  const loop = startWorkerLoop({
    log,
    name: 'tick',
    worker: 'sending',
    observer: deps.observer,
    intervalMs,
    round,
    more: (result) => result.claimed >= maxSends,
    // Each tick is logged when it finishes (finished).
    report: () => null,
  });
  return {
    async stop() {
      await loop.stop();
      await Promise.allSettled([...delivering]);
      log.info({ totals }, 'sending worker stopped');
    },
    nextTick: loop.next,
  };
}
