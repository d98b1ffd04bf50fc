import { ZodError, type core } from 'zod';
import { classifyPrismaError } from '@outreach/db';

/** The closed set of failure kinds; every transport maps each one (see gateway error-map). */
export const DOMAIN_ERROR_KINDS = [
  'invalid',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'precondition_failed',
  'rate_limited',
] as const;
export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

export interface FieldError {
  /** Dotted path of the offending field, e.g. `leads.3.email`. */
  field: string;
  message: string;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  /** Namespaced, stable code: `campaign.not_found`, `auth.missing_key`. */
  readonly code: string;
  readonly fieldErrors: FieldError[];
  /** Seconds, for rate_limited. */
  readonly retryAfter?: number;

  constructor(options: {
    kind: DomainErrorKind;
    code: string;
    message: string;
    fieldErrors?: FieldError[];
    retryAfter?: number;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = options.kind;
    this.code = options.code;
    this.fieldErrors = options.fieldErrors ?? [];
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

export function invalid(code: string, message: string, fieldErrors?: FieldError[]): DomainError {
  return new DomainError({ kind: 'invalid', code, message, fieldErrors });
}

/** An `invalid` error about one field: `field` names it, `problem` says what is wrong. */
export function invalidField(field: string, problem: string, code = 'request.invalid'): DomainError {
  return invalid(code, `${field} ${problem}`, [{ field, message: problem }]);
}

export function notFound(code: string, message: string): DomainError {
  return new DomainError({ kind: 'not_found', code, message });
}

export function forbidden(code: string, message: string): DomainError {
  return new DomainError({ kind: 'forbidden', code, message });
}

export function conflict(code: string, message: string): DomainError {
  return new DomainError({ kind: 'conflict', code, message });
}

export function preconditionFailed(code: string, message: string, fieldErrors?: FieldError[]): DomainError {
  return new DomainError({ kind: 'precondition_failed', code, message, fieldErrors });
}

function issueField(issue: core.$ZodIssue): string {
  return issue.path.map(String).join('.') || '(body)';
}

function issueProblem(issue: core.$ZodIssue): string {
  // Zod 4 leaves `input` off final issues; its message says what was received.
  // Zod's own invalid_type messages read "Invalid input: expected X, received Y"; a
  // schema's custom message is kept as written.
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) {
    if (/received undefined$/.test(issue.message)) return 'is required';
    if (issue.expected === 'nonoptional') return 'must be given';
    return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
  }
  if (issue.code === 'unrecognized_keys') return `has unknown field(s): ${issue.keys.join(', ')}`;
  return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
}

/**
 * A union's failure told as the one member the input was meant for (the only member that
 * failed below its own type check: a schedule object or an array of one; of several, the one
 * with the fewest problems), so the field is named (`schedules.0.end_date`); otherwise the
 * union's own issue.
 */
function meantIssues(issue: core.$ZodIssue): core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return [issue];
  let meant = issue.errors.filter(isMeant);
  // Two shapes of one object (a schedule's write and read shapes): the one it comes closest to.
  if (meant.length > 1) {
    const fewest = Math.min(...meant.map((member) => member.length));
    meant = meant.filter((member) => member.length === fewest);
  }
  if (meant.length !== 1) return [issue];
  return meant[0]!.flatMap((i) => meantIssues({ ...i, path: [...issue.path, ...i.path] } as core.$ZodIssue));
}

/** A member's failure below its own type check (a nested union: one of its members'). */
function isMeant(member: core.$ZodIssue[]): boolean {
  return member.some((i) =>
    i.path.length > 0 || (i.code === 'invalid_union' ? (i.errors ?? []).some(isMeant) : i.code !== 'invalid_type' && i.code !== 'invalid_value'),
  );
}

export function fromZodError(error: ZodError): DomainError {
  const fieldErrors = error.issues.flatMap(meantIssues).map((issue) => ({ field: issueField(issue), message: issueProblem(issue) }));
  const message = fieldErrors.map((f) => `${f.field} ${f.message}`).join('; ');
  return invalid('request.invalid', message, fieldErrors);
}

/**
 * Turns anything thrown inside an operation into a DomainError when it is a known
 * failure (validation, unique violation, missing row); returns null for the unknown
 * ones, which transports answer as a masked 500.
 */
export function toDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof ZodError) return fromZodError(error);
  const prisma = classifyPrismaError(error);
  if (prisma?.kind === 'conflict') {
    const fields = prisma.target.length ? ` (${prisma.target.join(', ')})` : '';
    return new DomainError({ kind: 'conflict', code: 'resource.conflict', message: `already exists${fields}`, cause: error });
  }
  if (prisma?.kind === 'not_found') {
    return new DomainError({ kind: 'not_found', code: 'resource.not_found', message: 'not found', cause: error });
  }
  return null;
}
