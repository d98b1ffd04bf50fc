// GraphQL errors in words, and next to the field that caused them. A domain error carries
// `extensions.errors: [{ field, message }]` (apps/gateway/src/errors/error-map.ts), with the
// field named as core names it (`camp_name`, `sequences.0.variations.1.subject`): a form asks
// for its inputs' errors by any of their names, compared without case or underscores.
import type { CombinedError } from 'urql';

export interface FieldProblem {
  field: string;
  message: string;
}

export interface Problem {
  /** The whole error in a sentence. */
  message: string;
  /** The problems of named fields, if the server named any. */
  fields: FieldProblem[];
  /** The GraphQL code (BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, …), when there is one. */
  code?: string;
}

const normal = (name: string) => name.replace(/_/g, '').toLowerCase();

/** A field as a person reads it: `email_accounts` → "email accounts", `sequences.0.wait_time` → "step 1, wait time". */
export function fieldInWords(field: string): string {
  const words = field
    .replace(/^camp_name$/, 'name')
    .replace(/^sequences\.(\d+)/, (_, i: string) => `step ${Number(i) + 1}`)
    .replace(/\.variations\.(\d+)/, (_, i: string) => `, variation ${Number(i) + 1}`)
    .replace(/^schedules\./, 'schedule ')
    .replace(/\./g, ', ')
    .replace(/_/g, ' ');
  return words.replace(/ ,/g, ',');
}

const capitalised = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/** The problem of a failed request, or undefined when it did not fail. */
export function problemOf(error: CombinedError | undefined | null): Problem | undefined {
  if (!error) return undefined;
  if (error.networkError) {
    return { message: 'The server could not be reached. Check your connection and try again; nothing you typed is lost.', fields: [] };
  }
  const first = error.graphQLErrors[0];
  if (!first) return { message: error.message, fields: [] };
  const extensions = first.extensions as { code?: string; errors?: FieldProblem[] };
  const fields = Array.isArray(extensions.errors) ? extensions.errors.filter((e) => typeof e?.field === 'string') : [];
  const message = fields.length ? fields.map((f) => `${fieldInWords(f.field)}: ${f.message}`).join('; ') : first.message;
  return { message: capitalised(message), fields, code: extensions.code };
}

/** The problem of one field, by any of its names (`dailyLimit` finds `daily_limit`). */
export function fieldProblem(problem: Problem | undefined, ...names: string[]): string | undefined {
  if (!problem) return undefined;
  const wanted = new Set(names.map(normal));
  const found = problem.fields.find((f) => wanted.has(normal(f.field)));
  return found ? capitalised(found.message) : undefined;
}

/** Whether any of the problem's fields is one of `names`, or starts with one of the prefixes. */
export function claimsAll(problem: Problem | undefined, names: string[], prefixes: string[] = []): boolean {
  if (!problem || !problem.fields.length) return false;
  const wanted = new Set(names.map(normal));
  const starts = prefixes.map(normal);
  return problem.fields.every((f) => wanted.has(normal(f.field)) || starts.some((p) => normal(f.field).startsWith(p)));
}
