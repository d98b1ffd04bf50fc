import { describe, expect, it } from 'vitest';
import { pollWaitMs, sessionLifetimeMs } from './read-session.rules';

const MINUTE = 60_000;

describe('when a reply loop reads again and renews its session', () => {
  it('a kept session lives 15 to 20 minutes of a 20-minute maximum', () => {
    expect(sessionLifetimeMs(20 * MINUTE, 0)).toBe(20 * MINUTE);
    expect(sessionLifetimeMs(20 * MINUTE, 0.999999)).toBeGreaterThan(15 * MINUTE);
    expect(sessionLifetimeMs(20 * MINUTE, 0.5)).toBe(17.5 * MINUTE);
  });

  it('a loop waits 48 to 60 s of a 60 s poll, never longer', () => {
    expect(pollWaitMs(MINUTE, 0)).toBe(MINUTE);
    expect(pollWaitMs(MINUTE, 0.5)).toBe(54_000);
    expect(pollWaitMs(MINUTE, 0.999999)).toBe(48_000);
  });

  it('loops started together drift apart: 1,000 waits spread over the whole range', () => {
    const waits = Array.from({ length: 1000 }, () => pollWaitMs(MINUTE, Math.random()));
    expect(Math.max(...waits)).toBeLessThanOrEqual(MINUTE);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(48_000);
    // Every second of the 12-second range holds some of them (one burst a minute before).
    const seconds = new Set(waits.map((w) => Math.floor((w - 48_000) / 1000)));
    expect(seconds.size).toBeGreaterThanOrEqual(12);
  });
});
