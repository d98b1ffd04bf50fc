import { describe, expect, it } from 'vitest';
import { type Clock, untilClock } from './ports';

const T0 = Date.parse('2026-11-25T10:00:00Z');

describe('untilClock', () => {
  it('answers at once for a time already reached', async () => {
    const clock: Clock = { now: () => new Date(T0) };
    // Reached: true even with the wait aborted already.
    expect(await untilClock(clock, new Date(T0), AbortSignal.abort())).toBe(true);
    expect(await untilClock(clock, new Date(T0 - 1))).toBe(true);
  });

  it('waits on a clock that runs faster than real time for the real time its realMs gives', async () => {
    const began = performance.now();
    const fast: Clock = { now: () => new Date(T0 + (performance.now() - began) * 1000), realMs: (ms) => ms / 1000 };
    // Ten simulated minutes: 600 ms here (waiting ten real minutes would fail the test's timeout).
    expect(await untilClock(fast, new Date(T0 + 10 * 60_000))).toBe(true);
    expect(fast.now().getTime()).toBeGreaterThanOrEqual(T0 + 10 * 60_000);
  });

  it('notices a clock moved by hand, and gives up when aborted', async () => {
    let at = T0;
    const manual: Clock = { now: () => new Date(at) };
    const waiting = untilClock(manual, new Date(T0 + 3_600_000));
    at += 3_600_000;
    expect(await waiting).toBe(true);

    const stop = new AbortController();
    const aborted = untilClock(manual, new Date(at + 3_600_000), stop.signal);
    setTimeout(() => stop.abort(), 20);
    // An hour away on a clock nobody moves: only the abort ends the wait.
    expect(await aborted).toBe(false);
  });
});
