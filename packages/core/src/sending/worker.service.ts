import type { ServiceDeps } from '../shared/context';
import { startWorkerLoop } from '../shared/worker-loop';
import { CLAIM_LEASE_MS, runSchedulerTick, type TickResult } from './scheduler.service';

export interface SendingWorker {
  /** Finishes the tick in progress (its sends are recorded), then stops. */
  stop(): Promise<void>;
  /** Resolves after the next tick has run (tests and the CLI). */
  nextTick(): Promise<TickResult>;
}

/** The scheduler loop of the worker role: a tick every `intervalMs`, at once while ticks fill their batch. */
export function startSendingWorker(options: {
  deps: ServiceDeps;
  intervalMs?: number;
  maxSendsPerTick?: number;
  /** Only these workspaces' campaigns (tests; a worker sends for all). */
  workspaceIds?: string[];
  /** How long a claim holds its lead before another worker may take it over (CLAIM_LEASE_MS by default). */
  claimLeaseMs?: number;
}): SendingWorker {
  const { deps } = options;
  const intervalMs = options.intervalMs ?? 5_000;
  const maxSends = options.maxSendsPerTick ?? 100;
  const log = deps.log.child({ component: 'sending-worker' });
  const totals = { sent: 0, unconfirmed: 0, bounced: 0, deferred: 0 };
  log.info({ intervalMs, maxSendsPerTick: maxSends, claimLeaseMs: options.claimLeaseMs ?? CLAIM_LEASE_MS }, 'sending worker started');
  const loop = startWorkerLoop({
    log,
    name: 'tick',
    worker: 'sending',
    observer: deps.observer,
    intervalMs,
    round: () => runSchedulerTick({ deps, maxSends, workspaceIds: options.workspaceIds, claimLeaseMs: options.claimLeaseMs }),
    more: (result) => result.claimed >= maxSends,
    report: (result) => {
      totals.sent += result.sent;
      totals.unconfirmed += result.unconfirmed;
      totals.bounced += result.bounced;
      totals.deferred += result.deferred;
      return result.claimed || result.stopped || result.completedCampaigns.length ? { ...result, totals } : null;
    },
  });
  return {
    async stop() {
      await loop.stop();
      log.info({ totals }, 'sending worker stopped');
    },
    nextTick: loop.next,
  };
}
