import { describe, expect, it } from 'vitest';
import { personalize } from './personalize.rules';
import { hasSpintax, spin } from './spintax.rules';

/** Every output of a text over many seeds, with counts. */
function outcomes(text: string, seeds = 3000, prefix = 'lead-'): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < seeds; i++) {
    const out = spin({ text, seed: `${prefix}${i}:1` });
    counts.set(out, (counts.get(out) ?? 0) + 1);
  }
  return counts;
}

describe('spin', () => {
  it('picks one option of a group', () => {
    expect(['Hi', 'Hello', 'Hey']).toContain(spin({ text: '{Hi|Hello|Hey}', seed: 'a' }));
    expect([...outcomes('{Hi|Hello|Hey} Ada').keys()].sort()).toEqual(['Hello Ada', 'Hey Ada', 'Hi Ada']);
  });

  it('is deterministic per seed', () => {
    const text = '{Hi|Hello|Hey} {there|friend}, {quick|short} {question|note}';
    for (const seed of ['lead-1:1', 'lead-2:1', 'x']) expect(spin({ text, seed })).toBe(spin({ text, seed }));
    // …and depends on it.
    expect(new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((seed) => spin({ text, seed }))).size).toBeGreaterThan(1);
  });

  it('spreads 3,000 seeds evenly over a 3-way group (each 30–37%)', () => {
    for (const prefix of ['lead-', 'cm0abc', '']) {
      const counts = outcomes('{A|B|C}', 3000, prefix);
      expect(counts.size).toBe(3);
      for (const count of counts.values()) {
        expect(count / 3000).toBeGreaterThanOrEqual(0.3);
        expect(count / 3000).toBeLessThanOrEqual(0.37);
      }
    }
  });

  it('chooses independently for each group of a text', () => {
    const counts = outcomes('{A|B|C}{A|B|C}');
    expect(counts.size).toBe(9);
    // Correlated groups would pile onto AA, BB, CC.
    for (const count of counts.values()) expect(count / 3000).toBeGreaterThan(0.08);
  });

  it('resolves nested groups', () => {
    const counts = outcomes('{Hi {there|friend}|Hello}');
    expect([...counts.keys()].sort()).toEqual(['Hello', 'Hi friend', 'Hi there']);
    expect([...outcomes('{a{b|{c|d}}|e}').keys()].sort()).toEqual(['ab', 'ac', 'ad', 'e']);
  });

  it('allows an empty option', () => {
    expect([...outcomes('Hi{| there}!').keys()].sort()).toEqual(['Hi there!', 'Hi!']);
  });

  it('treats escaped characters as literal', () => {
    expect(spin({ text: '\\{Hi\\|Hello\\}', seed: 's' })).toBe('{Hi|Hello}');
    expect([...outcomes('{a\\|b|c\\}}').keys()].sort()).toEqual(['a|b', 'c}']);
    expect(spin({ text: 'C:\\\\temp and C:\\new', seed: 's' })).toBe('C:\\temp and C:\\new');
  });

  it('leaves non-spintax braces as written', () => {
    expect(spin({ text: '{name}', seed: 's' })).toBe('{name}');
    expect(spin({ text: 'a } b | c', seed: 's' })).toBe('a } b | c');
    expect(spin({ text: 'open { brace', seed: 's' })).toBe('open { brace');
    expect(spin({ text: '{a|b', seed: 's' })).toBe('{a|b');
    expect(spin({ text: 'x {', seed: 's' })).toBe('x {');
    // The outer pair of a single option stays; a group inside it still spins.
    expect([...outcomes('{see {a|b}}').keys()].sort()).toEqual(['{see a}', '{see b}']);
    // An unclosed brace before a real group does not swallow it.
    expect([...outcomes('{ oops {a|b}').keys()].sort()).toEqual(['{ oops a', '{ oops b']);
  });

  it('leaves {{…}} placeholders untouched, even with a fallback bar', () => {
    expect(spin({ text: 'Hi {{first_name|there}}', seed: 's' })).toBe('Hi {{first_name|there}}');
    expect([...outcomes('{Hi {{first_name|there}}|Hello {{ first_name }}}').keys()].sort()).toEqual([
      'Hello {{ first_name }}',
      'Hi {{first_name|there}}',
    ]);
  });

  it('spins after personalize, keeping escaped merged values literal', () => {
    const merged = personalize({ template: '{Hi|Hello} {{company_name}}', variables: { company_name: 'A|B {C}' }, spintax: true });
    expect(merged.ok).toBe(true);
    if (!merged.ok) return;
    expect([...outcomes(merged.text).keys()].sort()).toEqual(['Hello A|B {C}', 'Hi A|B {C}']);
  });

  it('leaves pathological unbalanced input unchanged (linear scan: a backtracking parser would hang here)', () => {
    const text = '{'.repeat(5000) + 'x|y' + '|'.repeat(100);
    expect(spin({ text, seed: 's' })).toBe(text);
  });
});

describe('hasSpintax', () => {
  it('tells real groups from other braces', () => {
    expect(hasSpintax('{a|b}')).toBe(true);
    expect(hasSpintax('x {see {a|b}}')).toBe(true);
    expect(hasSpintax('{name} {{first_name|there}} \\{a\\|b\\} {a|b')).toBe(false);
  });
});
