import type { ServiceDeps } from '../shared/context';
import { runSchedulerTick, type TickResult } from './scheduler.service';

export interface SendingWorker {
  /** Finishes the tick in progress (its sends are recorded), then stops. */
  stop(): Promise<void>;
  /** Resolves after the next tick has run (tests and the CLI). */
  nextTick(): Promise<TickResult>;
}

/**
 * The scheduler loop of the worker role: a tick, then a pause of `intervalMs` (none when
 * the tick filled its batch: there is more due right now). A failing tick is logged and
 * retried with a growing pause (up to a minute), so a database restart does not spin.
 */
export function startSendingWorker(options: { deps: ServiceDeps; intervalMs?: number; maxSendsPerTick?: number }): SendingWorker {
  const { deps } = options;
  const intervalMs = options.intervalMs ?? 5_000;
  const maxSends = options.maxSendsPerTick ?? 100;
  const log = deps.log.child({ component: 'sending-worker' });
  let stopping = false;
  let wake: (() => void) | null = null;
  let waiters: ((r: TickResult) => void)[] = [];
  let failures = 0;
  const totals = { sent: 0, bounced: 0, deferred: 0 };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });

  const loop = (async () => {
    log.info({ intervalMs, maxSendsPerTick: maxSends }, 'sending worker started');
    while (!stopping) {
      let pause = intervalMs;
      try {
        const started = performance.now();
        const result = await runSchedulerTick({ deps, maxSends });
        failures = 0;
        totals.sent += result.sent;
        totals.bounced += result.bounced;
        totals.deferred += result.deferred;
        if (result.claimed || result.stopped || result.completedCampaigns.length) {
          log.info({ ...result, ms: Math.round(performance.now() - started), totals }, 'tick');
        }
        const current = waiters;
        waiters = [];
        for (const w of current) w(result);
        if (result.claimed >= maxSends) pause = 0;
      } catch (error) {
        failures += 1;
        pause = Math.min(60_000, intervalMs * 2 ** Math.min(failures, 6));
        log.error({ err: error, failures, retryInMs: pause }, 'scheduler tick failed');
      }
      if (!stopping && pause > 0) await sleep(pause);
    }
    log.info({ totals }, 'sending worker stopped');
  })();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
    nextTick() {
      return new Promise<TickResult>((resolve) => {
        waiters.push(resolve);
        wake?.();
      });
    },
  };
}
