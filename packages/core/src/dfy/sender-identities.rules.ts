import { invalidField } from '../shared/errors';
import { MAX_SENDER_PROFILES, SENDER_PREFIX_TOTAL, type SenderIdentity, type SenderProfile } from './sender-identities.schemas';

/**
 * Username patterns over the normalised name parts: {f} first, {l} last, {fi}/{li} their
 * initials, {m} middle, {mi} its initial. The spec names the first six, in this order.
 */
export const BASE_PATTERNS = ['{f}.{l}', '{f}{l}', '{f}_{l}', '{fi}{l}', '{fi}.{l}', '{l}.{f}'] as const;
export const FURTHER_PATTERNS = [
  '{l}{f}',
  '{l}_{f}',
  '{f}',
  '{f}{li}',
  '{f}.{li}',
  '{l}{fi}',
  '{f}-{l}',
  '{l}-{f}',
  '{fi}_{l}',
  '{l}.{fi}',
  '{l}_{fi}',
] as const;
export const MIDDLE_PATTERNS = ['{f}.{m}.{l}', '{f}{mi}{l}', '{f}.{mi}.{l}', '{fi}{mi}{l}', '{fi}.{mi}.{l}', '{f}{m}{l}'] as const;

/** RFC 5321 limit on a local part. */
const MAX_LOCAL_PART_LENGTH = 64;
/**
 * Long names are cut so that an initial, a 30-character part and a numeric suffix always
 * fit in 64 characters: the suffixed patterns then never run out, so generation ends.
 */
const MAX_PART_LENGTH = 30;
const LOCAL_PART = /^[a-z0-9]+([._-][a-z0-9]+)*$/;

// Letters NFKD does not decompose into a base letter plus marks.
const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  œ: 'oe',
  ı: 'i',
};

/**
 * Mailbox-safe lowercase ASCII: diacritics folded (`Núñez` → `nunez`, `Łukasz` →
 * `lukasz`), everything outside [a-z0-9] dropped (`O'Brien-Smith` → `obriensmith`).
 */
export function normalizeNamePart(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæøłđðþœı]/g, (c) => LETTER_FOLDS[c] ?? '')
    .replace(/[^a-z0-9]/g, '');
}

export function isValidLocalPart(candidate: string): boolean {
  return candidate.length >= 1 && candidate.length <= MAX_LOCAL_PART_LENGTH && LOCAL_PART.test(candidate);
}

/** How many prefixes each of `count` profiles gets: as even as possible, the first ones one more. */
export function prefixShares(count: number): number[] {
  const base = Math.floor(SENDER_PREFIX_TOTAL / count);
  const extra = SENDER_PREFIX_TOTAL % count;
  return Array.from({ length: count }, (_, i) => base + (i < extra ? 1 : 0));
}

interface NameParts {
  f: string;
  l: string;
  fi: string;
  li: string;
  m: string;
  mi: string;
}

function expand(pattern: string, parts: NameParts): string {
  return pattern.replace(/\{(fi|li|mi|f|l|m)\}/g, (_, key: keyof NameParts) => parts[key]);
}

/** Every candidate for one profile, best first; endless, thanks to the numeric suffixes. */
function* candidatesFor(parts: NameParts): Generator<string> {
  for (const pattern of [...BASE_PATTERNS, ...FURTHER_PATTERNS]) yield expand(pattern, parts);
  if (parts.m) for (const pattern of MIDDLE_PATTERNS) yield expand(pattern, parts);
  for (let suffix = 2; ; suffix++) {
    for (const pattern of BASE_PATTERNS) yield `${expand(pattern, parts)}${suffix}`;
  }
}

function namePartsOf(profile: SenderProfile, index: number): NameParts {
  const part = (field: 'first_name' | 'last_name') => {
    const normalised = normalizeNamePart(profile[field]).slice(0, MAX_PART_LENGTH);
    if (!normalised) throw invalidField(`profiles.${index}.${field}`, 'has no letters usable in a mailbox name');
    return normalised;
  };
  const f = part('first_name');
  const l = part('last_name');
  // An optional field: a middle name with nothing usable is treated as absent rather than refused.
  const m = normalizeNamePart(profile.middle_name ?? '').slice(0, MAX_PART_LENGTH);
  return { f, l, fi: f.charAt(0), li: l.charAt(0), m, mi: m.charAt(0) };
}

/**
 * The 99 mailbox usernames of a DFY order, spread over the given sender profiles (see
 * the operation's description for the rules). Deterministic: same profiles, same answer.
 */
export function generateSenderIdentities(options: { profiles: readonly SenderProfile[] }): { senders: SenderIdentity[] } {
  const { profiles } = options;
  if (profiles.length < 1 || profiles.length > MAX_SENDER_PROFILES) {
    throw invalidField('profiles', `must contain 1 to ${MAX_SENDER_PROFILES} profiles`);
  }
  const parts = profiles.map((profile, index) => namePartsOf(profile, index));
  const shares = prefixShares(profiles.length);
  const used = new Set<string>();
  const senders = profiles.map((profile, index) => {
    const prefixes: string[] = [];
    for (const candidate of candidatesFor(parts[index]!)) {
      if (prefixes.length === shares[index]) break;
      if (used.has(candidate) || !isValidLocalPart(candidate)) continue;
      used.add(candidate);
      prefixes.push(candidate);
    }
    return { first_name: profile.first_name.trim(), last_name: profile.last_name.trim(), prefixes };
  });
  return { senders };
}
