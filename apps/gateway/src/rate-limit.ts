import { isIPv4, isIPv6 } from 'node:net';
import { DomainError } from '@outreach/core';

/**
 * Token buckets by key: `perSecond` tokens refill each second up to `burst`. Idle
 * buckets are forgotten when the map grows past `maxKeys` (a full bucket is the same
 * as none).
 */
function tokenBuckets(options: { perSecond: number; burst: number; now?: () => number; maxKeys?: number }) {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** The bucket of `key`, refilled up to now. */
    get(key: string): { tokens: number; at: number } {
      const t = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: options.burst, at: t };
        if (buckets.size >= maxKeys) buckets.clear();
        buckets.set(key, bucket);
      } else {
        bucket.tokens = Math.min(options.burst, bucket.tokens + ((t - bucket.at) / 1000) * options.perSecond);
        bucket.at = t;
      }
      return bucket;
    },
    /** The bucket of `key` refilled up to now, or undefined when it is full (none is made). */
    peek(key: string): { tokens: number; at: number } | undefined {
      const bucket = buckets.get(key);
      if (!bucket) return undefined;
      const t = now();
      bucket.tokens = Math.min(options.burst, bucket.tokens + ((t - bucket.at) / 1000) * options.perSecond);
      bucket.at = t;
      return bucket;
    },
    /** Whole seconds until an empty bucket holds one token again. */
    retryAfter(bucket: { tokens: number }): number {
      return Math.max(1, Math.ceil((1 - bucket.tokens) / options.perSecond));
    },
  };
}

/**
 * Per-key token bucket: `perSecond` tokens refill each second up to `burst`. A
 * request with no token left is refused with the seconds until one is back.
 */
export function createRateLimiter(options: { perSecond: number; burst: number; now?: () => number }) {
  const buckets = tokenBuckets(options);
  return {
    take(key: string): void {
      const bucket = buckets.get(key);
      if (bucket.tokens < 1) {
        const retryAfter = buckets.retryAfter(bucket);
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

/**
 * Failed authentications per client address: a bucket of `burst` failures refilling
 * `perMinute`. `check` refuses an address that has spent its budget (429) and costs
 * nothing; `charge` spends one failure. Successful requests are never charged, so a
 * client with a valid key is not slowed by this limiter (see request-context.ts).
 */
export function createAuthFailureLimiter(options: { burst: number; perMinute: number; now?: () => number; maxKeys?: number }) {
  const perSecond = options.perMinute / 60;
  const buckets = tokenBuckets({ perSecond, burst: options.burst, now: options.now, maxKeys: options.maxKeys });
  return {
    check(address: string): void {
      // Addresses that never failed get no bucket: checking them costs no memory.
      const bucket = buckets.peek(addressKey(address));
      if (bucket && bucket.tokens < 1) {
        const retryAfter = buckets.retryAfter(bucket);
        throw new DomainError({
          kind: 'rate_limited',
          code: 'auth.too_many_failures',
          message: `too many requests with an invalid API key from this address; retry after ${retryAfter} s`,
          retryAfter,
        });
      }
    },
    charge(address: string): void {
      const bucket = buckets.get(addressKey(address));
      bucket.tokens = Math.max(0, bucket.tokens - 1);
    },
  };
}
export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>;

/**
 * The bucket key of a client address: IPv4 as is (also when written IPv4-mapped,
 * `::ffff:192.0.2.1`), IPv6 by its /64 prefix, since one subscriber usually holds a
 * whole /64 and could otherwise take a fresh address per request.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An embedded IPv4 tail takes two groups; only the first four groups matter here.
  const tailCount = tailGroups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailCount).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
