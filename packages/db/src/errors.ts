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
