import type { ServiceDeps } from '../shared/context';
import { startWorkerLoop } from '../shared/worker-loop';
import { refreshHealthSnapshots } from '../email-account/index';
import { runWarmupScanTick, type WarmupScanResult } from './warmup-scan.service';
import { runWarmupSendTick, type WarmupSendResult } from './warmup-send.service';

export interface WarmupRoundResult {
  send: WarmupSendResult;
  scan: WarmupScanResult;
  /** Health snapshots computed this round (each mailbox once a day). */
  health: number;
}

/** One round of the warmup worker: sends, scans, and the day's health snapshots of mailboxes that have none yet. */
export async function runWarmupRound(options: { deps: ServiceDeps; sharedPool?: boolean; organizationIds?: string[] }): Promise<WarmupRoundResult> {
  const send = await runWarmupSendTick(options);
  const scan = await runWarmupScanTick(options);
  const health = await refreshHealthSnapshots({ deps: options.deps, organizationIds: options.organizationIds, max: 200 });
  return { send, scan, health };
}

export interface WarmupWorker {
  stop(): Promise<void>;
  /** Resolves after the next round has run (tests and the CLI). */
  nextRound(): Promise<WarmupRoundResult>;
}

/**
 * The warmup loop of the worker role (docs/api.md, "Warmup"): a round every `intervalMs`.
 * `sharedPool`: the installation's WARMUP_SHARED_POOL (organizations that opted in warm each other).
 * Safe in several processes: sends take mailboxes with SKIP LOCKED, scans are claimed per mailbox.
 */
export function startWarmupWorker(options: { deps: ServiceDeps; intervalMs?: number; sharedPool?: boolean; organizationIds?: string[] }): WarmupWorker {
  const log = options.deps.log.child({ component: 'warmup-worker' });
  const intervalMs = options.intervalMs ?? 30_000;
  log.info({ intervalMs, sharedPool: options.sharedPool ?? false }, 'warmup worker started');
  const loop = startWorkerLoop({
    log,
    name: 'warmup round',
    worker: 'warmup',
    observer: options.deps.observer,
    intervalMs,
    round: () => runWarmupRound(options),
    more: () => false,
    report: (r) => (r.send.sent || r.send.failed || r.scan.scanned || r.scan.failed || r.scan.missing || r.health ? { ...r } : null),
  });
  return {
    async stop() {
      await loop.stop();
      log.info('warmup worker stopped');
    },
    nextRound: loop.next,
  };
}
