import { invalidField } from './errors';

/**
 * Opaque keyset cursors (`page_trail`): the sort key of the last row of a page, as
 * base64url JSON. Clients pass it back unchanged; "" means there is no next page.
 */
export function encodeCursor(key: (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(options: { cursor: string; field: string; shape: ('string' | 'number')[] }): (string | number)[] {
  try {
    const value: unknown = JSON.parse(Buffer.from(options.cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === options.shape.length &&
      value.every((v, i) => typeof v === options.shape[i])
    ) {
      return value as (string | number)[];
    }
  } catch {
    // fall through to the error below
  }
  throw invalidField(options.field, 'is not a page_trail returned by this API');
}

/** A `page_trail` of a list ordered by (time, id), newest first: the last row's time and id; null for the first page. */
export function decodeTimeTrail(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = decodeCursor({ cursor, field: 'page_trail', shape: ['string', 'string'] }) as [string, string];
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw invalidField('page_trail', 'is not a page_trail returned by this API');
  return { at: date, id };
}

/**
 * A page of a (time, id) keyset list read with one row more than `limit`: the rows to show,
 * and the trail to the next page (its last row's time and id; "" on the last page).
 */
export function timeTrailPage<T>(rows: T[], limit: number, key: (row: T) => [Date, string]): { shown: T[]; page_trail: string } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  if (rows.length <= limit || last === undefined) return { shown, page_trail: '' };
  const [at, id] = key(last);
  return { shown, page_trail: encodeCursor([at.toISOString(), id]) };
}
