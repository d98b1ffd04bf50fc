import type { ServiceDeps } from '../shared/context';
import { startWorkerLoop } from '../shared/worker-loop';
import { type AutomationRoundResult, runAutomationRound } from './evaluate.service';

export interface AutomationWorker {
  /** Finishes the round in progress (its firings are recorded), then stops. */
  stop(): Promise<void>;
  /** Resolves after the next round has run (tests and the CLI). */
  nextRound(): Promise<AutomationRoundResult>;
}

/** How often each ACTIVE rule is evaluated over its whole scope, by default. */
export const AUTOMATION_PERIOD_MS = 5 * 60_000;

/**
 * The automation loop of the worker role: a round every `intervalMs` evaluates the rules due
 * (each at most once per `periodMs`, whichever worker takes it), at once again while rounds
 * fill their batch. Safe to run in several processes.
 */
export function startAccountAutomationWorker(options: {
  deps: ServiceDeps;
  intervalMs?: number;
  periodMs?: number;
  batch?: number;
  /** Only these workspaces' rules (tests; a worker evaluates all). */
  workspaceIds?: string[];
}): AutomationWorker {
  const { deps } = options;
  const intervalMs = options.intervalMs ?? 30_000;
  const periodMs = options.periodMs ?? AUTOMATION_PERIOD_MS;
  const batch = options.batch ?? 50;
  const log = deps.log.child({ component: 'automation-worker' });
  log.info({ intervalMs, periodMs, batch }, 'automation worker started');
  const loop = startWorkerLoop({
    log,
    name: 'automation round',
    worker: 'automation',
    observer: deps.observer,
    intervalMs,
    round: () => runAutomationRound({ deps: { ...deps, log }, periodMs, batch, workspaceIds: options.workspaceIds }),
    more: (result) => result.rules >= batch,
    report: (result) => (result.fired ? { ...result } : null),
  });
  return {
    async stop() {
      await loop.stop();
      log.info('automation worker stopped');
    },
    nextRound: loop.next,
  };
}
