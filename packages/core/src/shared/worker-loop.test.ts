import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { settledWithin, startWorkerLoop } from './worker-loop';

const log = pino({ level: 'silent' });
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('worker loop', () => {
  it('pauses between rounds, and a wake ends the pause or, during a round, skips the pause after it', async () => {
    let rounds = 0;
    let hold: (() => void) | null = null;
    const loop = startWorkerLoop({
      log,
      name: 'round',
      // A pause longer than the test: a round after the first comes only from a wake.
      intervalMs: 60_000,
      round: async () => {
        rounds += 1;
        if (rounds === 2) await new Promise<void>((r) => (hold = r));
      },
      more: () => false,
      report: () => null,
    });
    try {
      await turns();
      expect(rounds).toBe(1);
      await turns();
      expect(rounds).toBe(1);
      // Pausing: the wake ends the pause.
      loop.wake();
      await turns();
      expect(rounds).toBe(2);
      // Woken during the second round: no pause after it.
      loop.wake();
      hold!();
      await turns();
      expect(rounds).toBe(3);
      // The wake was used up: the loop pauses again.
      await turns();
      expect(rounds).toBe(3);
    } finally {
      await loop.stop();
    }
  });
});

describe('settledWithin', () => {
  it('is true for a promise that resolves or rejects in time, false for one still pending when the time is up', async () => {
    expect(await settledWithin(1_000, Promise.resolve('done'))).toBe(true);
    expect(await settledWithin(1_000, Promise.reject(new Error('failed')))).toBe(true);
    expect(await settledWithin(30, new Promise(() => undefined))).toBe(false);
  });
});
