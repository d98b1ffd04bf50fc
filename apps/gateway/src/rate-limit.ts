import { DomainError } from '@outreach/core';

/**
 * Per-key token bucket: `perSecond` tokens refill each second up to `burst`. A
 * request with no token left is refused with the seconds until one is back.
 */
export function createRateLimiter(options: { perSecond: number; burst: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key: string): void {
      const t = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: options.burst, at: t };
        if (buckets.size > 100_000) buckets.clear();
        buckets.set(key, bucket);
      } else {
        bucket.tokens = Math.min(options.burst, bucket.tokens + ((t - bucket.at) / 1000) * options.perSecond);
        bucket.at = t;
      }
      if (bucket.tokens < 1) {
        const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / options.perSecond));
        throw new DomainError({
          kind: 'rate_limited',
          code: 'rate_limit.exceeded',
          message: `rate limit of ${options.perSecond} requests per second exceeded; retry after ${retryAfter} s`,
          retryAfter,
        });
      }
      bucket.tokens -= 1;
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
