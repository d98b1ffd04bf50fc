import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { generateSenderIdentities, isValidLocalPart, normalizeNamePart, prefixShares } from './sender-identities.rules';
import type { SenderProfile } from './sender-identities.schemas';

const LOCAL_PART = /^[a-z0-9]+([._-][a-z0-9]+)*$/;

const NAMES: [string, string][] = [
  ['John', 'Smith'],
  ['Maria', 'Garcia'],
  ['Wei', 'Chen'],
  ['Aisha', 'Khan'],
  ['Lars', 'Olsen'],
  ['Ines', 'Moreau'],
  ['Kenji', 'Sato'],
];

function profilesOf(count: number): SenderProfile[] {
  return Array.from({ length: count }, (_, i) => {
    const [first, last] = NAMES[i % NAMES.length]!;
    // Past the named ones, vary the last name so the profiles are distinct people.
    return { first_name: first, last_name: i < NAMES.length ? last : `${last}${String.fromCharCode(97 + (i % 26))}` };
  });
}

function allPrefixes(senders: { prefixes: string[] }[]): string[] {
  return senders.flatMap((s) => s.prefixes);
}

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}

describe('normalizeNamePart', () => {
  it('folds diacritics and special letters to lowercase ASCII and drops the rest', () => {
    expect(normalizeNamePart('José')).toBe('jose');
    expect(normalizeNamePart('Núñez')).toBe('nunez');
    expect(normalizeNamePart('Zoë')).toBe('zoe');
    expect(normalizeNamePart("O'Brien-Łukasz")).toBe('obrienlukasz');
    expect(normalizeNamePart('Straße')).toBe('strasse');
    expect(normalizeNamePart('Ærø')).toBe('aero');
    expect(normalizeNamePart('Đorđe')).toBe('dorde');
    expect(normalizeNamePart('Þór')).toBe('thor');
    expect(normalizeNamePart('Œuvre')).toBe('oeuvre');
    expect(normalizeNamePart('Anne Marie 2nd')).toBe('annemarie2nd');
    expect(normalizeNamePart('李 -')).toBe('');
  });
});

describe('generateSenderIdentities', () => {
  it.each([1, 2, 3, 4, 7, 33])('gives %i profile(s) exactly 99 distinct, mailbox-safe prefixes, spread evenly', (n) => {
    const { senders } = generateSenderIdentities({ profiles: profilesOf(n) });
    expect(senders).toHaveLength(n);
    const counts = senders.map((s) => s.prefixes.length);
    const expected = Array.from({ length: n }, (_, i) => Math.floor(99 / n) + (i < 99 % n ? 1 : 0));
    expect(counts).toEqual(expected);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(99);
    const prefixes = allPrefixes(senders);
    expect(new Set(prefixes).size).toBe(99);
    for (const prefix of prefixes) {
      expect(prefix).toMatch(LOCAL_PART);
      expect(prefix.length).toBeLessThanOrEqual(64);
    }
  });

  it('shares 99 as floor(99/n) with the first 99 mod n one more', () => {
    expect(prefixShares(4)).toEqual([25, 25, 25, 24]);
    expect(prefixShares(7)).toEqual([15, 14, 14, 14, 14, 14, 14]);
    expect(prefixShares(2)).toEqual([50, 49]);
    expect(prefixShares(33)).toEqual(Array.from({ length: 33 }, () => 3));
  });

  it('starts with the spec patterns, in order, then the further ones', () => {
    const profiles = [
      { first_name: 'John', last_name: 'Smith' },
      { first_name: 'Ann', last_name: 'Lee' },
      { first_name: 'Bo', last_name: 'Ng' },
      { first_name: 'Cy', last_name: 'Ox' },
    ];
    const { senders } = generateSenderIdentities({ profiles });
    expect(senders[0]!.prefixes.slice(0, 17)).toEqual([
      'john.smith',
      'johnsmith',
      'john_smith',
      'jsmith',
      'j.smith',
      'smith.john',
      'smithjohn',
      'smith_john',
      'john',
      'johns',
      'john.s',
      'smithj',
      'john-smith',
      'smith-john',
      'j_smith',
      'smith.j',
      'smith_j',
    ]);
    // 25 in all: the 17 patterns above, then the six spec patterns with 2, then two with 3.
    expect(senders[0]!.prefixes.slice(17)).toEqual([
      'john.smith2',
      'johnsmith2',
      'john_smith2',
      'jsmith2',
      'j.smith2',
      'smith.john2',
      'john.smith3',
      'johnsmith3',
    ]);
  });

  it('echoes the names as given, trimmed, in input order', () => {
    const { senders } = generateSenderIdentities({
      profiles: [
        { first_name: '  José ', last_name: 'Núñez' },
        { first_name: 'Zoë', last_name: "O'Brien-Łukasz" },
      ],
    });
    expect(senders.map((s) => [s.first_name, s.last_name])).toEqual([
      ['José', 'Núñez'],
      ['Zoë', "O'Brien-Łukasz"],
    ]);
    expect(senders[0]!.prefixes.slice(0, 6)).toEqual(['jose.nunez', 'josenunez', 'jose_nunez', 'jnunez', 'j.nunez', 'nunez.jose']);
    expect(senders[1]!.prefixes.slice(0, 3)).toEqual(['zoe.obrienlukasz', 'zoeobrienlukasz', 'zoe_obrienlukasz']);
  });

  it('uses the middle name only when given, after the further patterns', () => {
    const withMiddle = generateSenderIdentities({ profiles: [{ first_name: 'John', middle_name: 'Paul', last_name: 'Smith' }] });
    expect(withMiddle.senders[0]!.prefixes.slice(17, 23)).toEqual([
      'john.paul.smith',
      'johnpsmith',
      'john.p.smith',
      'jpsmith',
      'j.p.smith',
      'johnpaulsmith',
    ]);
    const without = generateSenderIdentities({ profiles: [{ first_name: 'John', last_name: 'Smith' }] });
    expect(allPrefixes(without.senders).filter((p) => p.includes('paul') || p.includes('jp'))).toEqual([]);
    // Empty, null and unusable middle names are no middle name.
    for (const middle_name of ['', null, '--']) {
      const same = generateSenderIdentities({ profiles: [{ first_name: 'John', middle_name, last_name: 'Smith' }] });
      expect(same).toEqual(without);
    }
  });

  it('reaches a single profile\'s share of 99 through numeric suffixes, even for a one-letter name', () => {
    const normal = generateSenderIdentities({ profiles: [{ first_name: 'John', last_name: 'Smith' }] }).senders[0]!.prefixes;
    expect(normal).toHaveLength(99);
    expect(new Set(normal).size).toBe(99);
    // 17 patterns, then 13 full rounds of the six suffixed ones (2 to 14), then four of round 15.
    expect(normal[17]).toBe('john.smith2');
    expect(normal.slice(-5)).toEqual(['smith.john14', 'john.smith15', 'johnsmith15', 'john_smith15', 'jsmith15']);

    const short = generateSenderIdentities({ profiles: [{ first_name: 'A', last_name: 'B' }] }).senders[0]!.prefixes;
    expect(short).toHaveLength(99);
    expect(new Set(short).size).toBe(99);
    // The initial patterns coincide with the full ones here and are skipped, not repeated.
    expect(short.slice(0, 10)).toEqual(['a.b', 'ab', 'a_b', 'b.a', 'ba', 'b_a', 'a', 'a-b', 'b-a', 'a.b2']);
    for (const prefix of short) expect(prefix).toMatch(LOCAL_PART);
  });

  it('keeps identical profiles apart', () => {
    const twin = { first_name: 'John', last_name: 'Smith' };
    const { senders } = generateSenderIdentities({ profiles: [twin, { ...twin }, { ...twin }] });
    const prefixes = allPrefixes(senders);
    expect(prefixes).toHaveLength(99);
    expect(new Set(prefixes).size).toBe(99);
    expect(senders[1]!.prefixes[0]).not.toBe('john.smith');
  });

  it('cuts very long names so every prefix stays a valid local part', () => {
    const long = 'x'.repeat(100);
    const { senders } = generateSenderIdentities({ profiles: [{ first_name: long, last_name: `${long}y`, middle_name: long }] });
    expect(senders[0]!.prefixes).toHaveLength(99);
    for (const prefix of senders[0]!.prefixes) expect(isValidLocalPart(prefix)).toBe(true);
  });

  it('is deterministic', () => {
    const profiles = [...profilesOf(5), { first_name: 'Zoë', middle_name: 'Ana', last_name: 'Brien' }];
    expect(generateSenderIdentities({ profiles })).toEqual(generateSenderIdentities({ profiles: structuredClone(profiles) }));
  });

  it('refuses a first or last name with no usable letters, naming the field', () => {
    const last = thrown(() =>
      generateSenderIdentities({
        profiles: [
          { first_name: 'John', last_name: 'Smith' },
          { first_name: 'Ann', last_name: 'Lee' },
          { first_name: 'Bo', last_name: '---' },
        ],
      }),
    );
    expect(last.kind).toBe('invalid');
    expect(last.fieldErrors).toEqual([{ field: 'profiles.2.last_name', message: 'has no letters usable in a mailbox name' }]);
    expect(last.message).toBe('profiles.2.last_name has no letters usable in a mailbox name');
    const first = thrown(() => generateSenderIdentities({ profiles: [{ first_name: '王', last_name: 'Smith' }] }));
    expect(first.fieldErrors[0]!.field).toBe('profiles.0.first_name');
  });

  it('refuses no profiles and more than 33', () => {
    expect(thrown(() => generateSenderIdentities({ profiles: [] })).fieldErrors[0]!.field).toBe('profiles');
    expect(thrown(() => generateSenderIdentities({ profiles: profilesOf(34) })).fieldErrors[0]!.field).toBe('profiles');
  });
});

describe('isValidLocalPart', () => {
  it('accepts [a-z0-9] runs joined by single separators of at most 64 characters', () => {
    expect(isValidLocalPart('john.smith')).toBe(true);
    expect(isValidLocalPart('a'.repeat(64))).toBe(true);
    expect(isValidLocalPart('a'.repeat(65))).toBe(false);
    expect(isValidLocalPart('')).toBe(false);
    expect(isValidLocalPart('.john')).toBe(false);
    expect(isValidLocalPart('john_')).toBe(false);
    expect(isValidLocalPart('-john')).toBe(false);
    expect(isValidLocalPart('john..smith')).toBe(false);
  });
});
