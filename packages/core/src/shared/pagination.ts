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
