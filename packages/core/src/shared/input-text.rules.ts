import type { FieldError } from './errors';

// With the `u` flag a surrogate pair reads as one astral code point, so only lone
// surrogates match (String.prototype.isWellFormed is not in the ES2023 lib).
const LONE_SURROGATE = /\p{Cs}/u;
const SUSPECT = /\0|\p{Cs}/u;

/**
 * Text every input string must be: no NUL character (PostgreSQL refuses U+0000 in text,
 * SMTP and most mail clients cut a header at it) and well-formed UTF-16, i.e. no lone
 * surrogate, which has no UTF-8 form and so can be neither stored nor sent.
 *
 * One rule for every operation and transport, checked on the raw input before the
 * operation's schema: strings at any depth, object keys and array items.
 */
export function textProblemOf(value: string): string | null {
  if (!SUSPECT.test(value)) return null;
  if (value.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain a lone UTF-16 surrogate (not valid Unicode text)';
  return null;
}

/** A field name as shown in an error: NUL and lone surrogates written as escapes. */
function printableKey(key: string): string {
  return textProblemOf(key) === null ? key : JSON.stringify(key).slice(1, -1);
}

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A step of the walk: the value and how it was reached (the path is built only on failure). */
interface Step {
  value: unknown;
  key: string | null;
  parent: Step | null;
}

function fieldOf(step: Step | null, lastKey?: string): string {
  const path: string[] = lastKey === undefined ? [] : [lastKey];
  for (let s = step; s && s.key !== null; s = s.parent) path.push(s.key);
  return path.reverse().join('.') || '(body)';
}

/**
 * One walk over plain objects and arrays, iterative (deeply nested JSON cannot overflow
 * the stack). `ordered` finds the first offending string in document order; without it,
 * strings are checked as their container is read, which allocates nothing per string.
 */
function walk(input: unknown, ordered: boolean): FieldError | null {
  const stack: Step[] = [{ value: input, key: null, parent: null }];
  const seen = new Set<object>();
  while (stack.length) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === 'string') {
      const problem = textProblemOf(value);
      if (problem) return { field: fieldOf(step), message: problem };
      continue;
    }
    if (!isPlainContainer(value) || seen.has(value)) continue;
    seen.add(value);
    const isArray = Array.isArray(value);
    const keys = isArray ? value.map((_, i) => String(i)) : Object.keys(value);
    const children: Step[] = [];
    for (const key of keys) {
      if (!isArray) {
        const problem = textProblemOf(key);
        if (problem) return { field: fieldOf(step, printableKey(key)), message: `is a field name that ${problem}` };
      }
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'string' && !ordered) {
        const problem = textProblemOf(child);
        if (problem) return { field: fieldOf(step, key), message: problem };
      } else if (typeof child === 'string' || (child !== null && typeof child === 'object')) children.push({ value: child, key, parent: step });
    }
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
  }
  return null;
}

/**
 * The first string in `input` (in document order) that breaks the text rule, with its
 * dotted path in the form the schema's field errors use (`leads.3.email`; `(body)` for
 * the input itself). Strings, object keys and array items at any depth.
 */
export function findMalformedText(input: unknown): FieldError | null {
  // The quick walk answers for well-formed input; the ordered one names the first culprit.
  return walk(input, false) && walk(input, true);
}
