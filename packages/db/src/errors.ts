// Classifies Prisma errors so that core can turn them into domain errors;
// the dependency points core → db, so db does not know DomainError itself.
export type PrismaErrorClass =
  | { kind: 'conflict'; target: string[] }
  | { kind: 'not_found' }
  | null;

interface KnownRequestErrorLike {
  code: string;
  meta?: Record<string, unknown>;
}

function isKnownRequestError(error: unknown): error is KnownRequestErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof (error as { code: unknown }).code === 'string' &&
    /^P\d{4}$/.test((error as { code: string }).code)
  );
}

export function classifyPrismaError(error: unknown): PrismaErrorClass {
  if (!isKnownRequestError(error)) return null;
  if (error.code === 'P2002') {
    const meta = error.meta ?? {};
    const target = meta['target'];
    const fields =
      Array.isArray(target) ? target.map(String)
      : typeof target === 'string' ? [target]
      : extractAdapterFields(meta);
    return { kind: 'conflict', target: fields };
  }
  if (error.code === 'P2025' || error.code === 'P2001') return { kind: 'not_found' };
  return null;
}

function extractAdapterFields(meta: Record<string, unknown>): string[] {
  // Driver adapters report the constraint under meta.driverAdapterError.cause.constraint.fields.
  const cause = (meta['driverAdapterError'] as { cause?: { constraint?: { fields?: unknown } } } | undefined)?.cause;
  const fields = cause?.constraint?.fields;
  return Array.isArray(fields) ? fields.map(String) : [];
}

/**
 * Whether the statement wrote a row that refers to one that does not exist (P2003, SQLSTATE
 * 23503): most often a row deleted by another request between a read and the write.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return isKnownRequestError(error) && error.code === 'P2003';
}

/** A failure caused by another transaction's change to the same rows (concurrentChangeOf). */
export type ConcurrentChange = 'missing_reference' | 'missing_row' | 'deadlock' | 'serialization';

/**
 * Why a statement failed because another transaction changed the same rows at the same time, or
 * null when it did not: `missing_reference`, a row it refers to was deleted after it was read
 * (P2003); `missing_row`, a row it updates or deletes by key was gone when it came to it (P2025);
 * `deadlock`, PostgreSQL chose it as a deadlock's victim (40P01, P2034); `serialization`,
 * a write conflict or a serialization failure (40001, P2034). Its transaction was undone, so running
 * it again from the start is the remedy (and answers as if it had come a moment later).
 */
export function concurrentChangeOf(error: unknown): ConcurrentChange | null {
  if (isForeignKeyViolation(error)) return 'missing_reference';
  if (isKnownRequestError(error) && error.code === 'P2025') return 'missing_row';
  if (isDeadlock(error)) return 'deadlock';
  if (typeof error !== 'object' || error === null) return null;
  const { code, meta } = error as { code?: unknown; meta?: Record<string, unknown> };
  const cause = (meta?.['driverAdapterError'] as { cause?: { originalCode?: unknown; code?: unknown } } | undefined)?.cause;
  if (code === 'P2034' || meta?.['code'] === '40001' || cause?.originalCode === '40001' || cause?.code === '40001') return 'serialization';
  return null;
}

/**
 * Whether PostgreSQL chose this statement as a deadlock's victim (SQLSTATE 40P01): the statement
 * and its transaction were undone, and running them again is the remedy.
 */
export function isDeadlock(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const meta = (error as { meta?: Record<string, unknown> }).meta;
  const cause = (meta?.['driverAdapterError'] as { cause?: { originalCode?: unknown; code?: unknown } } | undefined)?.cause;
  if (meta?.['code'] === '40P01' || cause?.originalCode === '40P01' || cause?.code === '40P01') return true;
  return /\b40P01\b|deadlock detected/.test(String((error as { message?: unknown }).message ?? ''));
}
