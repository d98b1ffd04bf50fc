/**
 * Deterministic 32-bit string hash: FNV-1a over the UTF-16 code units, then the murmur3
 * finaliser. FNV-1a alone leaves its low bits poorly mixed for inputs that differ only in
 * a trailing counter (`lead-1`, `lead-2`, …), and every caller here reduces the hash
 * modulo a small n, which reads exactly those bits; the finaliser spreads them.
 */
export function hash32(input: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform-looking fraction in [0, 1) derived from the input. */
export function unitFraction(input: string): number {
  return hash32(input) / 0x1_0000_0000;
}

/** An index in [0, n) derived from the input; n must be a positive integer. */
export function pickIndex(input: string, n: number): number {
  return Math.floor(unitFraction(input) * n);
}
