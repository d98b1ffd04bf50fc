import { describe, expect, it } from 'vitest';
import { DomainError } from '@outreach/core';
import { addressKey, createAuthFailureLimiter, createRateLimiter } from './rate-limit';

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

describe('failed-authentication budget per client address', () => {
  function refusal(call: () => void): DomainError | undefined {
    try {
      call();
    } catch (e) {
      return e as DomainError;
    }
    return undefined;
  }

  it('lets an address fail `burst` times, then refuses it without charging, and refills per minute', () => {
    let t = 0;
    const limiter = createAuthFailureLimiter({ burst: 3, perMinute: 6, now: () => t });
    for (let i = 0; i < 3; i++) {
      limiter.check('198.51.100.1'); // checking costs nothing
      limiter.check('198.51.100.1');
      limiter.charge('198.51.100.1');
    }
    const refused = refusal(() => limiter.check('198.51.100.1'));
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: 'rate_limited', code: 'auth.too_many_failures', retryAfter: 10 });
    limiter.check('198.51.100.2'); // another address has its own budget
    // Failures while refused do not push the address further back.
    limiter.charge('198.51.100.1');
    limiter.charge('198.51.100.1');
    t = 10_000; // 6 per minute: one failure back after 10 s
    limiter.check('198.51.100.1');
    limiter.charge('198.51.100.1');
    expect(refusal(() => limiter.check('198.51.100.1'))?.retryAfter).toBe(10);
  });

  it('counts an IPv6 /64 as one address, and IPv4-mapped addresses as IPv4', () => {
    const limiter = createAuthFailureLimiter({ burst: 2, perMinute: 1, now: () => 0 });
    limiter.charge('2001:db8:1:2::1');
    limiter.charge('2001:0db8:0001:0002:ffff:ffff:ffff:ffff');
    expect(refusal(() => limiter.check('2001:db8:1:2:abcd::9'))?.code).toBe('auth.too_many_failures');
    limiter.check('2001:db8:1:3::1');
    limiter.charge('::ffff:192.0.2.1');
    limiter.charge('192.0.2.1');
    expect(refusal(() => limiter.check('192.0.2.1'))?.code).toBe('auth.too_many_failures');
  });

  it('keys addresses by /64 prefix', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:0:0:1::')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('unknown')).toBe('unknown');
  });
});
