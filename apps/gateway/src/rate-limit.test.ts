import { describe, expect, it } from 'vitest';
import { DomainError } from '@outreach/core';
import { createRateLimiter } from './rate-limit';

describe('per-key token bucket', () => {
  it('allows a burst, refuses the next request with Retry-After, and refills over time', () => {
    let t = 0;
    const limiter = createRateLimiter({ perSecond: 2, burst: 3, now: () => t });
    for (let i = 0; i < 3; i++) limiter.take('k');
    let refused: unknown;
    try {
      limiter.take('k');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).kind).toBe('rate_limited');
    expect((refused as DomainError).retryAfter).toBe(1);
    limiter.take('other'); // buckets are per key
    t = 500; // half a second refills one token at 2/s
    limiter.take('k');
    expect(() => limiter.take('k')).toThrow(DomainError);
  });
});
