import { describe, expect, it } from 'vitest';
import { createLimit, mapLimit } from './map-limit';

describe('mapLimit', () => {
  it('keeps at most `limit` calls in flight and the results in input order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapLimit({
      items: [30, 5, 20, 1, 10, 2],
      limit: 3,
      fn: async (ms) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight -= 1;
        return ms * 2;
      },
    });
    expect(results).toEqual([60, 10, 40, 2, 20, 4]);
    expect(most).toBe(3);
  });

  it('after a failure starts nothing more, lets the calls under way finish, then throws the failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = mapLimit({
      items: [1, 2, 3, 4, 5, 6],
      limit: 2,
      fn: async (n) => {
        started.push(n);
        await new Promise((r) => setTimeout(r, n === 1 ? 5 : 30));
        if (n === 1) throw new Error('one failed');
        finished.push(n);
        return n;
      },
    });
    await expect(run).rejects.toThrow('one failed');
    // 2 was under way when 1 failed: it finished before the failure was thrown; 3 and later never started.
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([2]);
  });
});

describe('createLimit', () => {
  it('runs at most `limit` calls at once, the others in the order they came, and frees a slot when a call fails', async () => {
    const limit = createLimit(2);
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const call = (n: number, ms: number, fail = false) =>
      limit.run(async () => {
        started.push(n);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight -= 1;
        if (fail) throw new Error(`call ${n} failed`);
        return n;
      });
    const results = await Promise.allSettled([call(1, 20, true), call(2, 40), call(3, 5), call(4, 5), call(5, 5)]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['call 1 failed', 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(limit.active).toBe(0);
  });
});
