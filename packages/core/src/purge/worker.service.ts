import type { ServiceDeps } from '../shared/context';
import { runRetryingConcurrentChanges } from '../shared/operation-retry';
import { startWorkerLoop } from '../shared/worker-loop';
import { PURGE_BATCH, runPurgeRound, type PurgeProgress, type PurgeRoundResult } from './purge.service';

export interface PurgeWorker {
  /** Finishes the batch in progress (it commits), then stops. */
  stop(): Promise<void>;
  /** Resolves after the next round has run (tests and the CLI). */
  nextRound(): Promise<PurgeRoundResult>;
}

/**
 * The purge loop of the worker role: a batch at a time while deleted campaigns, workspaces or
 * organizations have rows left (no pause between batches, each its own short transaction, so
 * other writers wait at most one batch for a row lock), then a look every `intervalMs`. Safe to
 * run in several processes: two workers on the same target delete different rows or none.
 */
export function startPurgeWorker(options: { deps: ServiceDeps; intervalMs?: number; batch?: number }): PurgeWorker {
  const { deps } = options;
  const intervalMs = options.intervalMs ?? 10_000;
  const batch = options.batch ?? PURGE_BATCH;
  const log = deps.log.child({ component: 'purge-worker' });
  const progress: PurgeProgress = new Map();
  log.info({ intervalMs, batch }, 'purge worker started');
  const loop = startWorkerLoop({
    log,
    name: 'purge round',
    worker: 'purge',
    observer: deps.observer,
    intervalMs,
    // A batch that deadlocks with a writer of the same rows (the webhook worker holding a deleted
    // workspace's deliveries) runs again at once: each step deletes what is still there.
    round: () => runRetryingConcurrentChanges({ name: 'purge.round', ctx: { ...deps, log }, run: (attempt) => runPurgeRound({ deps: { db: attempt.db, log }, batch, progress }) }),
    more: (result) => !result.done,
    report: (result) =>
      result.done ? null : { target: result.target!.kind, id: result.target!.id, table: result.table, deleted: result.deleted, left: result.left },
  });
  return {
    async stop() {
      await loop.stop();
      log.info('purge worker stopped');
    },
    nextRound: loop.next,
  };
}
