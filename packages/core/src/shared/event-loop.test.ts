import { describe, expect, it } from 'vitest';
import { countEventLoopTurns } from '../testing/event-loop-turns';
import { inSlices, slicesOf, yieldToEventLoop } from './event-loop';

describe('work in slices', () => {
  it('lets callbacks already queued on the event loop run before it goes on', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    await yieldToEventLoop();
    expect(ran).toBe(true);
  });

  it('slices in order, the first slice of its own size when given one', () => {
    expect([...slicesOf([1, 2, 3, 4, 5, 6, 7], 3)]).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect([...slicesOf([1, 2, 3, 4, 5, 6, 7], 3, 1)]).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
    expect([...slicesOf([1, 2], 3, 5)]).toEqual([[1, 2]]);
    expect([...slicesOf([], 3, 1)]).toEqual([]);
  });

  it('runs every slice in order, and the event loop between two slices, not before the first', async () => {
    const loop = countEventLoopTurns();
    const seen: { slice: number[]; start: number; turns: number }[] = [];
    await inSlices([1, 2, 3, 4, 5, 6, 7], 3, (slice, start) => {
      seen.push({ slice, start, turns: loop.turns });
    });
    loop.stop();
    expect(seen.map((s) => [s.slice, s.start])).toEqual([
      [[1, 2, 3], 0],
      [[4, 5, 6], 3],
      [[7], 6],
    ]);
    expect(seen[0]!.turns).toBe(0);
    expect(seen[1]!.turns).toBeGreaterThan(seen[0]!.turns);
    expect(seen[2]!.turns).toBeGreaterThan(seen[1]!.turns);
    await inSlices([], 3, () => {
      throw new Error('no slice of nothing');
    });
  });
});
