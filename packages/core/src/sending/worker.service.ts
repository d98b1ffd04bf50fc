import type { ServiceDeps } from '../shared/context';
import { settledWithin, startWorkerLoop } from '../shared/worker-loop';
import { CLAIM_LEASE_MS } from './scheduler.service';
import { startSchedulerTick, type StartedTick, type TickResult } from './send-tick.service';
import { createMailboxLanes } from './mailbox-lanes.service';

export interface SendingWorker {
  /** Finishes the sends in progress (recorded), hands back those claimed ahead and not started, then stops. */
  stop(): Promise<void>;
  /**
   * Resolves after the next tick has run (tests and the CLI); for a tick that filled its batch,
   * once it has claimed, and for one with sends claimed ahead, once each mailbox's first send is
   * done (their counts other than `claimed` are logged when their delivery finishes); with nothing
   * more due, once the tick is done or the wait for it ends (the interval, and FIRST_SENDS_WAIT_MS;
   * a tick still delivering then is logged when it finishes).
   */
  nextTick(): Promise<TickResult>;
}

/**
 * How far ahead the worker process claims a mailbox's later sends by default (SEND_AHEAD_MS): a
 * mailbox with no gap (0–60 s pauses) takes about five sends a tick. Not longer: a worker killed
 * outright leaves what it claimed until the send time plus the lease.
 */
export const DEFAULT_CLAIM_AHEAD_MS = 120_000;

/** How many ticks of one worker deliver at once by default (see startSendingWorker). */
export const TICKS_IN_FLIGHT = 2;

/**
 * With nothing more due, a round waits for its tick (its first sends, with sends claimed ahead) for
 * at most this long, or the loop's interval when that is longer (startSendingWorker): longer than
 * a few slow sends, or a busy server's greeting delay.
 */
export const FIRST_SENDS_WAIT_MS = 1_000;

/**
 * The scheduler loop of the worker role: a tick every `intervalMs`, at once while ticks fill
 * their batch. A tick that filled its batch (more is due now) goes on delivering while the next
 * one claims, up to `ticksInFlight` ticks delivering their first sends at once (a tick whose first
 * sends take longer than the loop's interval, and FIRST_SENDS_WAIT_MS, stops counting): the next
 * claim does not wait for the slowest SMTP server of the batch before, nor for its recording. Overlapping
 * ticks of one worker are as safe as two workers: a claim locks with SKIP LOCKED, and the daily
 * limits count the sends still in flight (scheduler.service.ts). A tick that did not fill its
 * batch (nothing more was due) is waited for before the loop pauses, for at most the loop's
 * interval (or FIRST_SENDS_WAIT_MS when that is longer; then it goes on in the background): a
 * mailbox whose server is slow to answer does not hold up the other mailboxes' next claim.
 *
 * With `claimAheadMs`, a tick also gives a mailbox the sends that may follow its first within
 * that time, each once the pause after the one before ends; those later sends go on in the
 * background (the loop waits for a tick's first sends only, and counts it among the ticks in
 * flight until then). The mailbox is not claimed again before its last send's pause ends. Nor,
 * while one of those sends is still to be made, by another worker (HELD_CLAIMS,
 * scheduler.queries.ts); this worker claims it again once its lane is about to run out, and its
 * next sends follow in the lane, one at a time (mailbox-lanes.service.ts): a mailbox behind its
 * times keeps sending instead of waiting for the next tick after each chain, and a lane running
 * out behind its times wakes the loop. Stopping hands back the sends still waiting for their time.
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
  /**
   * How far ahead a tick claims a mailbox's later sends, each when the pause after the one before
   * ends (claimDueSends' aheadMs; 0 when absent: one send per mailbox a tick).
   */
  claimAheadMs?: number;
}): SendingWorker {
  const { deps } = options;
  const intervalMs = options.intervalMs ?? 5_000;
  const maxSends = options.maxSendsPerTick ?? 100;
  const ticksInFlight = Math.max(1, options.ticksInFlight ?? TICKS_IN_FLIGHT);
  const log = deps.log.child({ component: 'sending-worker' });
  const claimAheadMs = Math.max(0, options.claimAheadMs ?? 0);
  const totals = { sent: 0, unconfirmed: 0, bounced: 0, deferred: 0, released: 0 };
  /** Stopping: sends claimed ahead stop waiting for their time and are handed back. */
  const stopping = new AbortController();
  /** Ticks still delivering while the loop goes on: their batch filled, or their later sends wait for their time. */
  const running = new Set<Promise<unknown>>();
  /** Of those, the ticks whose first sends (one per mailbox) are under way, for firstSendsWaitMs at most: at most ticksInFlight. */
  const delivering = new Set<Promise<unknown>>();
  /** Each mailbox's sends one after another across ticks; a mailbox about to run out behind its times wakes the loop (mailbox-lanes.service.ts). */
  const lanes = createMailboxLanes({ clock: deps.ports.clock, onBehind: () => loop.wake() });
  /** How long a round waits at most for its tick's first sends when nothing more is due (see round). */
  const firstSendsWaitMs = Math.max(intervalMs, FIRST_SENDS_WAIT_MS);

  /** Counts a finished tick and logs it (one line a tick that did anything). */
  const finished = (result: TickResult, ms: number) => {
    totals.sent += result.sent;
    totals.unconfirmed += result.unconfirmed;
    totals.bounced += result.bounced;
    totals.deferred += result.deferred;
    totals.released += result.released;
    if (result.claimed || result.stopped || result.completedCampaigns.length) log.info({ ...result, totals, ms: Math.round(ms) }, 'tick');
  };

  /**
   * A tick that goes on delivering while the loop goes on (its later sends each at its time): among
   * the ticks running until it finishes, and among those delivering until its first sends are done
   * or `placeMs` have passed (firstSendsWaitMs: a server slow to answer does not keep the next
   * claims waiting for a place; 0: a tick waited for already takes none). Returns its first sends.
   */
  const goOn = (tick: StartedTick, started: number, placeMs = firstSendsWaitMs): Promise<void> => {
    const done: Promise<unknown> = tick.finished
      .then(
        (result) => finished(result, performance.now() - started),
        (error: unknown) => log.error({ err: error }, 'tick failed after its claim (its leads go back when their lease ends)'),
      )
      .finally(() => running.delete(done));
    running.add(done);
    if (placeMs > 0) {
      const place: Promise<unknown> = settledWithin(placeMs, tick.firstSends).finally(() => delivering.delete(place));
      delivering.add(place);
    }
    return tick.firstSends;
  };

  const round = async (): Promise<TickResult & { more: boolean }> => {
    // A free place among the ticks in flight first.
    while (delivering.size >= ticksInFlight) await Promise.race(delivering);
    const started = performance.now();
    const tick = await startSchedulerTick({
      deps,
      maxSends,
      workspaceIds: options.workspaceIds,
      claimLeaseMs: options.claimLeaseMs,
      claimAheadMs,
      signal: stopping.signal,
      lanes,
    });
    // More is due now: the batch filled.
    const more = tick.claimed >= maxSends;
    const claimedOnly = { claimed: tick.claimed, sent: 0, unconfirmed: 0, bounced: 0, deferred: 0, disconnected: 0, released: 0, stopped: 0, waiting: 0, completedCampaigns: [], more };
    const whole = async () => {
      const result = await tick.finished;
      finished(result, performance.now() - started);
      return { ...result, more };
    };
    if (ticksInFlight === 1) {
      // One tick at a time: the loop goes on once this one is done, or, with sends claimed ahead
      // (each at its time), once its first sends are.
      if (!tick.sendsLater) return whole();
      await goOn(tick, started);
      return claimedOnly;
    }
    // More is due: the next tick claims while this one delivers.
    if (more) {
      void goOn(tick, started);
      return claimedOnly;
    }
    // Nothing more due: the loop pauses once this tick is done (with sends claimed ahead, once its
    // first sends are), but waits for no longer than firstSendsWaitMs: a server slow to answer (or
    // to greet a new connection) holds up its own mailbox's sends, not every other mailbox's claim.
    if (tick.sendsLater) {
      await settledWithin(firstSendsWaitMs, goOn(tick, started));
      return claimedOnly;
    }
    // Settled in time (a failed tick rethrows from whole(): the loop backs off).
    if (await settledWithin(firstSendsWaitMs, tick.finished)) return whole();
    // Waited for already: it takes no place among the ticks in flight.
    void goOn(tick, started, 0);
    return claimedOnly;
  };

  log.info({ intervalMs, maxSendsPerTick: maxSends, ticksInFlight, claimLeaseMs: options.claimLeaseMs ?? CLAIM_LEASE_MS, claimAheadMs }, 'sending worker started');
  const loop = startWorkerLoop({
    log,
    name: 'tick',
    worker: 'sending',
    observer: deps.observer,
    intervalMs,
    round,
    more: (result) => result.more,
    // Each tick is logged when it finishes (finished).
    report: () => null,
  });
  return {
    async stop() {
      stopping.abort();
      await loop.stop();
      await Promise.allSettled([...running, ...delivering]);
      log.info({ totals }, 'sending worker stopped');
    },
    nextTick: loop.next,
  };
}
