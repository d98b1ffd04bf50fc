import { describe, expect, it } from 'vitest';
import { hash32, pickIndex, unitFraction } from './hash';

describe('hash32', () => {
  // Pinned: changing the hash would silently move every lead to another variation and
  // another spintax wording mid-campaign.
  it('keeps its values', () => {
    expect(hash32('')).toBe(2872998923);
    expect(hash32('lead-1:1')).toBe(2013107770);
    expect(pickIndex('lead-1:1', 3)).toBe(1);
  });

  it('stays in range', () => {
    for (let i = 0; i < 1000; i++) {
      const h = hash32(`k${i}`);
      expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
      const u = unitFraction(`k${i}`);
      expect(u >= 0 && u < 1).toBe(true);
      const n = pickIndex(`k${i}`, 7);
      expect(n >= 0 && n < 7 && Number.isInteger(n)).toBe(true);
    }
  });

  it('mixes inputs that differ only in a trailing counter', () => {
    // Low bits of consecutive keys must not move in lockstep.
    const lowBits = Array.from({ length: 64 }, (_, i) => hash32(`lead-${i}`) & 1);
    const ones = lowBits.filter(Boolean).length;
    expect(ones).toBeGreaterThan(16);
    expect(ones).toBeLessThan(48);
  });
});
