import { z } from 'zod';

/** A 24-hex ObjectId-style identifier. */
export const ObjectId = z.string().regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hexadecimal id').transform((s) => s.toLowerCase());

export const WorkspaceIdField = ObjectId.describe('Workspace identifier (24 hex characters)');

/** A non-negative integer that also accepts its decimal string form (query parameters). */
export function intParam(options: { min?: number; max?: number } = {}) {
  let schema = z.coerce.number({ error: 'must be an integer' }).int('must be an integer');
  if (options.min !== undefined) schema = schema.min(options.min, `must be at least ${options.min}`);
  if (options.max !== undefined) schema = schema.max(options.max, `must be at most ${options.max}`);
  return schema;
}

/** A boolean that also accepts `true`/`false`/`1`/`0` strings (query parameters, loose clients). */
export const boolParam = z.preprocess((v) => {
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  return v;
}, z.boolean({ error: 'must be true or false' }));

export const StatusSuccess = z.literal('success');

/** The vendor's offset paging: `skip` (0-based) and `limit` (1 to 100, default 100). */
export const SkipLimit = {
  skip: intParam({ min: 0 }).default(0).describe('Rows to skip (0-based offset)'),
  limit: intParam({ min: 1, max: 100 }).default(100).describe('Rows per page, 1 to 100 (default 100)'),
};

/** The vendor's page paging: `page` (1-based) and `limit` (1 to 100, default 100). */
export const PageLimit = {
  page: intParam({ min: 1 }).default(1).describe('Page number, from 1'),
  limit: intParam({ min: 1, max: 100 }).default(100).describe('Rows per page, 1 to 100 (default 100)'),
};

/** The vendor's "yes" / "no" string flags. */
export const YesNo = z.enum(['yes', 'no'], { error: 'must be "yes" or "no"' });
