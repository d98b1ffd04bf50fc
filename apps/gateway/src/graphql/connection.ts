// Relay connections over an operation's own paging (docs/api.md, "GraphQL schema"): `skip` +
// `limit` and `page` + `limit` are offsets (an `offset` argument starts anywhere), `page_trail` a
// keyset cursor. Cursors are opaque; `totalCount` comes from a counting operation when one is
// given, else from probing the listing.
import { invalidField, type Ctx } from '@outreach/core';
import type { GraphqlContext } from './builder';
import { defineField, run, typeOf, type FieldOptions, type Input, type Op } from './operation-field';
import { inputObject, rowsOf } from './zod-to-graphql';

const MAX_PAGE = 100;

const encode = (cursor: unknown[]) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
function decodeCursor(field: string, cursor: string, tag: string): any[] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value[0] === tag) return value;
  } catch {
    // not JSON: refused below
  }
  throw invalidField(field, 'is not a cursor of this list');
}

interface Page {
  edges: { cursor: string; node: unknown }[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  totalCount: () => Promise<number | null>;
}
interface PagingArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  /** Offset lists only. */
  offset?: number | null;
}

/**
 * A connection field `name` listing an operation's rows. `count` counts the rows a call with
 * these inputs lists, when an operation can (null: probe the listing).
 */
export function connectionField(name: string, op: Op, options: FieldOptions & { count?: (ctx: Ctx, input: Input) => Promise<number | null> } = {}): void {
  const keys = Object.keys((inputObject(op.input) as any)._zod.def.shape);
  const style = keys.includes('skip') ? 'skip' : keys.includes('page') ? 'page' : 'trail';
  const rows = rowsOf(op.output, options.result);
  defineField(name, op, options, ['skip', 'limit', 'page', 'page_trail'], (t, args, vendor) =>
    t.connection(
      {
        type: typeOf(op, options.type, options, options.result),
        description: options.description ?? op.description ?? op.summary,
        // Offset lists also start at any row (a table that jumps to the middle of a long list).
        args: style === 'trail' ? args : { ...(args as object), offset: t.arg.int({ description: 'Start at this 0-based row instead of after a cursor (with `first`; not with `after`, `last` or `before`)' }) },
        resolve: async (parent: any, given: Input & PagingArgs, { ctx }: GraphqlContext) => {
          const base = vendor(parent, given);
          const list = (extra: Input) => run(ctx, op, { ...base, ...extra }).then((output) => rows.read(output));
          const page = style === 'trail' ? await trailPage(ctx, op, base, given) : await offsetPage(style, list, given);
          return {
            edges: page.edges,
            pageInfo: { hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, startCursor: page.edges[0]?.cursor ?? null, endCursor: page.edges.at(-1)?.cursor ?? null },
            // Counted only when asked for: by the counting operation if any, else as the page says.
            totalCount: async () => (options.count ? ((await options.count(ctx, base)) ?? page.totalCount()) : page.totalCount()),
          };
        },
      },
      {
        fields: (c: any) => ({
          totalCount: c.int({ nullable: true, description: 'Rows of the whole list; null where the operation cannot count them', resolve: (conn: Page) => conn.totalCount() }),
        }),
      },
    ),
  );
}

function pageSize(args: PagingArgs): number {
  const size = args.first ?? args.last ?? MAX_PAGE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) throw invalidField(args.first != null ? 'first' : 'last', `must be between 1 and ${MAX_PAGE}`);
  return size;
}

/** Offset paging: the cursor of a row is its offset in the list. */
async function offsetPage(style: 'skip' | 'page', list: (extra: Input) => Promise<any[]>, args: PagingArgs): Promise<Page> {
  let size = pageSize(args);
  if (args.offset != null) {
    if (!Number.isInteger(args.offset) || args.offset < 0) throw invalidField('offset', 'must be a whole number of 0 or more');
    const other = (['after', 'last', 'before'] as const).find((key) => args[key] != null);
    if (other) throw invalidField('offset', `cannot be combined with ${other}`);
  }
  let start = args.offset ?? (args.after ? decodeCursor('after', args.after, 'o')[1] + 1 : 0);
  const before: number | null = args.before ? decodeCursor('before', args.before, 'o')[1] : null;
  if (args.last != null) {
    if (before === null) throw invalidField('before', 'is required with last');
    start = Math.max(0, before - size);
    size = before - start;
  }
  // `count` rows from `from`: with `page` + `limit`, from the one or two pages of size `count` holding them.
  const range = async (from: number, count: number): Promise<any[]> => {
    if (style === 'skip') return list({ skip: from, limit: count });
    const first = Math.floor(from / count);
    const pages = first === Math.floor((from + count - 1) / count) ? [first] : [first, first + 1];
    const found = (await Promise.all(pages.map((p) => list({ page: p + 1, limit: count })))).flat();
    return found.slice(from - first * count, from - first * count + count);
  };
  // One row more than the page tells whether another follows.
  const found = await range(start, size + 1);
  const shown = found.slice(0, size);
  const hasNextPage = found.length > size || before !== null;
  const has = async (offset: number) => (await range(offset, 1)).length > 0;
  return {
    edges: shown.map((node, i) => ({ node, cursor: encode(['o', start + i]) })),
    hasNextPage,
    hasPreviousPage: start > 0,
    // Found with the listing itself: a widening then a halving search for the first offset without a row.
    totalCount: async () => {
      let low = before !== null ? before + 1 : start + shown.length;
      if (!hasNextPage) return low;
      let high = low;
      for (let step = MAX_PAGE; await has(high); step *= 2) [low, high] = [high + 1, high + step];
      while (low < high) {
        const mid = Math.floor((low + high) / 2);
        if (await has(mid)) low = mid + 1;
        else high = mid;
      }
      return low;
    },
  };
}

/** Keyset paging: a row's cursor is the page trail it was read from and its place there. */
async function trailPage(ctx: Ctx, op: Op, base: Input, args: PagingArgs): Promise<Page> {
  if (args.last != null || args.before != null) throw invalidField(args.last != null ? 'last' : 'before', 'is not supported by this list (it pages forward)');
  const size = pageSize(args);
  let [, trail, index] = args.after ? decodeCursor('after', args.after, 't') : ['t', '', -1];
  let from = Number(index) + 1;
  const edges: Page['edges'] = [];
  let hasNextPage = false;
  for (;;) {
    const page = await run(ctx, op, { ...base, ...(trail ? { page_trail: trail } : {}), limit: Math.min(MAX_PAGE, from + size - edges.length) });
    const rows: unknown[] = page.data.slice(from);
    const taken = rows.slice(0, size - edges.length);
    // The last row of a call resumes from the trail the operation gave (no row read twice).
    taken.forEach((node, i) => {
      const at = from + i;
      edges.push({ node, cursor: encode(at === page.data.length - 1 && page.page_trail ? ['t', page.page_trail, -1] : ['t', trail, at]) });
    });
    if (taken.length < rows.length) hasNextPage = true;
    if (hasNextPage || !page.page_trail) break;
    [trail, from] = [page.page_trail, 0];
    if (edges.length === size) {
      hasNextPage = true;
      break;
    }
  }
  return { edges, hasNextPage, hasPreviousPage: args.after != null, totalCount: async () => null };
}
