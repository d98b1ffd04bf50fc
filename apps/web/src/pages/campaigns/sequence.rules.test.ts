import { describe, expect, it } from 'vitest';
import { nextLabel } from './sequence.rules';

describe('the label of a new variation', () => {
  it('follows the last label used, never reusing a removed one', () => {
    expect(nextLabel([])).toBe('A');
    expect(nextLabel(['A'])).toBe('B');
    // B was removed: its statistics keep its label, so the new one is D.
    expect(nextLabel(['A', 'C'])).toBe('D');
    expect(nextLabel(['Z'])).toBe('AA');
    expect(nextLabel(['AZ'])).toBe('BA');
  });
});
