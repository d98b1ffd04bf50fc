import { z } from 'zod';
import type { PersonRole } from './context';

/**
 * A schema's error for a field it requires: "is required" when the field is absent, otherwise
 * "must be <what>" (a field given with the wrong type or value).
 */
export function requiredOr(what: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`);
}

/**
 * A role a request names, lenient in what it takes: any case, `read-only` and `read only` for
 * READ_ONLY. `roles`: the ones the field may name.
 */
export function roleInput<const R extends readonly [PersonRole, PersonRole, ...PersonRole[]]>(roles: R) {
  const named = `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}`;
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toUpperCase().replace(/[- ]/g, '_') : value),
    z.enum(roles, { error: requiredOr(named) }),
  );
}

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

const BOOL_WORDS: Readonly<Record<string, boolean>> = { true: true, yes: true, '1': true, false: false, no: false, '0': false };
const BOOL_FORMS = 'true or false ("yes"/"no", 1/0 and "true"/"false" are accepted too)';
const BOOL_ERROR = `must be ${BOOL_FORMS}`;

/**
 * Every boolean input of the API (JSON body or query): `true`/`false`, the vendor's `"yes"`/`"no"`,
 * `1`/`0`, and the strings `"true"`/`"false"`/`"1"`/`"0"`, case-insensitive, as a boolean. The
 * union keeps the accepted forms in the OpenAPI document; GraphQL reads its first member (Boolean).
 */
export const BoolInput = z
  .union([z.boolean(), z.literal([0, 1]), z.string().regex(/^\s*(?:true|false|yes|no|1|0)\s*$/i, BOOL_ERROR)], { error: requiredOr(BOOL_FORMS) })
  .transform((v): boolean => (typeof v === 'string' ? BOOL_WORDS[v.trim().toLowerCase()] === true : v === true || v === 1));

export const StatusSuccess = z.literal('success');

/** The largest page of every paged list; clients ask for 1,000 rows (more is read as 1,000). */
export const MAX_PAGE_LIMIT = 1000;

/** `limit` of a paged list: from 1; above MAX_PAGE_LIMIT it is clamped, not refused. */
export function pageLimit(defaultSize: number) {
  // prefault, not default: the default then shows in the OpenAPI document (it goes through the pipe).
  return intParam({ min: 1 })
    .transform((n) => Math.min(n, MAX_PAGE_LIMIT))
    .prefault(defaultSize)
    .describe(`Rows per page, 1 to ${MAX_PAGE_LIMIT} (default ${defaultSize}); a larger limit is read as ${MAX_PAGE_LIMIT}`);
}

/** The vendor's offset paging: `skip` (0-based) and `limit` (1 to 1,000, default 100). */
export const SkipLimit = {
  skip: intParam({ min: 0 }).default(0).describe('Rows to skip (0-based offset)'),
  limit: pageLimit(100),
};

/**
 * A list's ordering: `sort` (one of `keys`, default the first) and `direction` (`asc` or
 * `desc`, default `fallback`), for the lists a UI shows. Ties are broken by id, in the same direction.
 */
export function sortParams<const K extends readonly [string, ...string[]]>(keys: K, fallback: 'asc' | 'desc') {
  return {
    sort: z.enum(keys, { error: `must be ${keys.join(', ')}` }).default(keys[0] as K[0]).describe(`Order by ${keys.join(', ')} (default ${keys[0]})`),
    direction: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).default(fallback).describe(`asc or desc (default ${fallback})`),
  };
}

/** The vendor's page paging: `page` (1-based) and `limit` (1 to 1,000, default 100). */
export const PageLimit = {
  page: intParam({ min: 1 }).default(1).describe('Page number, from 1'),
  limit: pageLimit(100),
};

/**
 * The vendor's 0/1 integer flags as its reads answer them (`is_unread`, `is_text`, `is_system`,
 * …): numbers on the wire, never JSON booleans. GraphQL shows them as Boolean.
 */
export const ZeroOne = z.union([z.literal(0), z.literal(1)]);
export type ZeroOne = z.infer<typeof ZeroOne>;
/** A stored boolean as a ZeroOne flag. */
export const zeroOne = (flag: boolean): ZeroOne => (flag ? 1 : 0);
