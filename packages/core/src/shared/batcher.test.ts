import { describe, expect, it } from 'vitest';
import { createBatcher, type Pending } from './batcher';

/** A batcher whose writes wait until the test lets them finish; each item's result is its double. */
function gated(size: number) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const add = createBatcher<number, number>({
    size,
    write: async (batch: Pending<number, number>[]) => {
      batches.push(batch.map((p) => p.item));
      await new Promise<void>((open) => gates.push(open));
      for (const p of batch) p.resolve(p.item * 2);
    },
  });
  const turn = () => new Promise<void>((r) => setImmediate(r));
  return { add, batches, openNext: () => gates.shift()!(), turn };
}

describe('batcher', () => {
  it('writes a lone item at the next turn of the event loop, not later', async () => {
    const b = gated(10);
    const result = b.add(1);
    await b.turn();
    expect(b.batches).toEqual([[1]]);
    b.openNext();
    expect(await result).toBe(2);
  });

  it('gathers the items that arrive while a batch is written into the next one, in order', async () => {
    const b = gated(10);
    const first = b.add(1);
    await b.turn();
    const rest = [b.add(2), b.add(3), b.add(4)];
    await b.turn();
    expect(b.batches).toEqual([[1]]);
    b.openNext();
    await first;
    // The first write finishes, then the next batch goes at the turn after.
    await b.turn();
    await b.turn();
    expect(b.batches).toEqual([[1], [2, 3, 4]]);
    b.openNext();
    expect(await Promise.all(rest)).toEqual([4, 6, 8]);
  });

  it('sends a full batch at once, even while another is written', async () => {
    const b = gated(2);
    const all = [b.add(1), b.add(2), b.add(3), b.add(4), b.add(5)];
    expect(b.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    b.openNext();
    b.openNext();
    await b.turn();
    await b.turn();
    expect(b.batches).toEqual([[1, 2], [3, 4], [5]]);
    b.openNext();
    expect(await Promise.all(all)).toEqual([2, 4, 6, 8, 10]);
  });

  it('rejects the items a failed write left unsettled, and goes on with the next batch', async () => {
    let calls = 0;
    const add = createBatcher<number, string>({
      size: 10,
      write: async (batch) => {
        calls += 1;
        if (calls === 1) {
          batch[0]!.resolve('kept');
          throw new Error('database gone');
        }
        for (const p of batch) p.resolve(`ok ${p.item}`);
      },
    });
    const settled = await Promise.allSettled([add(1), add(2)]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'kept' },
      { status: 'rejected', reason: new Error('database gone') },
    ]);
    expect(await add(3)).toBe('ok 3');
  });
});
