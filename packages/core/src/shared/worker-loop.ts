import type { Logger } from 'pino';
import type { Observer, WorkerName } from './observer';

export interface WorkerLoop<R> {
  /** Finishes the round in progress (its outcomes are recorded), then stops. */
  stop(): Promise<void>;
  /** Wakes the loop and resolves after its next round has run (tests and the CLI). */
  next(): Promise<R>;
  /** The next round starts at once: ends the loop's pause, or skips the one after the round under way. */
  wake(): void;
}

/**
 * A worker's main loop: a round, then a pause of `intervalMs`, or none when `more` says
 * the round filled its batch (more is due right now) or `wake` was called meanwhile. A failing
 * round is logged and retried after a growing pause (up to a minute), so a database restart
 * does not spin.
 */
export function startWorkerLoop<R>(options: {
  log: Logger;
  /** What a round is called in the log ("tick", "webhook round"). */
  name: string;
  intervalMs: number;
  round: () => Promise<R>;
  more: (result: R) => boolean;
  /** Called after each round; the fields of its log line, or null for a round not worth a line. */
  report: (result: R) => Record<string, unknown> | null;
  /** Told of each round's duration under this worker's name (the metrics), failed rounds included. */
  observer?: Observer;
  worker?: WorkerName;
}): WorkerLoop<R> {
  const { log, name, intervalMs } = options;
  let stopping = false;
  let wake: (() => void) | null = null;
  /** Woken during a round: the pause after it is skipped. */
  let woken = false;
  let waiters: ((result: R) => void)[] = [];
  let failures = 0;

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
    while (!stopping) {
      let pause = intervalMs;
      const started = performance.now();
      try {
        const result = await options.round();
        if (options.worker) options.observer?.onTick({ worker: options.worker, ms: performance.now() - started, failed: false });
        failures = 0;
        const fields = options.report(result);
        if (fields) log.info({ ...fields, ms: Math.round(performance.now() - started) }, name);
        const current = waiters;
        waiters = [];
        for (const w of current) w(result);
        // More is due, or the loop was woken meanwhile: no pause (a failed round keeps its backoff).
        if (options.more(result) || woken) pause = 0;
      } catch (error) {
        if (options.worker) options.observer?.onTick({ worker: options.worker, ms: performance.now() - started, failed: true });
        failures += 1;
        pause = Math.min(60_000, intervalMs * 2 ** Math.min(failures, 6));
        log.error({ err: error, failures, retryInMs: pause }, `${name} failed`);
      }
      woken = false;
      if (!stopping && pause > 0) await sleep(pause);
    }
  })();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
    next() {
      return new Promise<R>((resolve) => {
        waiters.push(resolve);
        wake?.();
      });
    },
    wake() {
      if (wake) wake();
      else woken = true;
    },
  };
}

/**
 * Whether `promise` settles (resolves or rejects) within `ms` of real time: a worker waiting for
 * work that may hang, or a process stopping, goes on after the wait. The timer is cleared once it
 * settles and never holds the process open.
 */
export async function settledWithin(ms: number, promise: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), elapsed]);
  } finally {
    clearTimeout(timer);
  }
}
