import { describe, expect, it } from 'vitest';
import { signInThrottle } from './sign-in-throttle.rules';

const now = new Date('2026-06-01T10:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const MIN = 60_000;

describe('sign-in throttle', () => {
  it('allows 10 failures in 15 minutes and refuses the 11th attempt until the oldest leaves the window', () => {
    const nine = Array.from({ length: 9 }, (_, i) => ago(i * MIN));
    expect(signInThrottle({ failures: nine, now })).toEqual({ allowed: true });
    const ten = [...nine, ago(10 * MIN)];
    expect(signInThrottle({ failures: ten, now })).toEqual({ allowed: false, retryAfterSeconds: 5 * 60 });
  });

  it('forgets failures older than the window', () => {
    const old = Array.from({ length: 20 }, () => ago(15 * MIN));
    expect(signInThrottle({ failures: old, now })).toEqual({ allowed: true });
    expect(signInThrottle({ failures: [...old, ...Array.from({ length: 9 }, () => ago(MIN))], now })).toEqual({ allowed: true });
  });

  it('waits for the 10th most recent failure when there are more, at least a second', () => {
    const many = Array.from({ length: 30 }, (_, i) => ago(i * 10_000));
    expect(signInThrottle({ failures: many, now })).toEqual({ allowed: false, retryAfterSeconds: 15 * 60 - 90 });
    expect(signInThrottle({ failures: Array.from({ length: 10 }, () => ago(15 * MIN - 1)), now })).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
