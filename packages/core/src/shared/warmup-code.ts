// The warmup code: a short word-like token in the body of every warmup e-mail (not a header a
// spam filter would read as a tool's mark), e.g. `pemaro-kilu42`. The warmup engine writes it;
// the receiving side (the warmup scan) and the reply reader (which must never take warmup mail
// for a lead's reply) recognise it. A token of this form is only a candidate: it is a warmup
// e-mail when warmup_messages holds the code.
import { randomInt } from 'node:crypto';
import type { PrismaClient, Tx } from '@outreach/db';

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';
const SYLLABLE = `[${CONSONANTS}][${VOWELS}]`;
const CODE_SOURCE = `(?:${SYLLABLE}){3}-(?:${SYLLABLE}){2}\\d{2}`;

/** A new code: three syllables, a dash, two syllables and two digits (about 2·10^11 of them). */
export function newWarmupCode(random: (max: number) => number = randomInt): string {
  const syllable = () => `${CONSONANTS[random(CONSONANTS.length)]}${VOWELS[random(VOWELS.length)]}`;
  const digits = String(random(100)).padStart(2, '0');
  return `${syllable()}${syllable()}${syllable()}-${syllable()}${syllable()}${digits}`;
}

/** The tokens of a text that have the form of a warmup code, lower-cased, each once, in order. */
export function warmupCodeCandidates(text: string): string[] {
  const found = text.toLowerCase().match(new RegExp(`(?<![a-z0-9-])${CODE_SOURCE}(?![a-z0-9])`, 'g')) ?? [];
  return [...new Set(found)];
}

/** Whether a message whose text (and/or HTML) is `text` is a warmup e-mail the engine sent (one query; none without a candidate). */
export async function isWarmupMail(options: { db: PrismaClient | Tx; text: string }): Promise<boolean> {
  const codes = warmupCodeCandidates(options.text);
  if (!codes.length) return false;
  const rows = await options.db.$queryRawUnsafe<{ one: number }[]>('SELECT 1 AS one FROM warmup_messages WHERE code = ANY($1::text[]) LIMIT 1', codes);
  return rows.length > 0;
}
