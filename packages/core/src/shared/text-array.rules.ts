/**
 * A PostgreSQL array literal of text values (`{"a","b",NULL}`), for a statement that takes a
 * column of many rows as one text parameter cast to `text[]`: the driver adapter handles a
 * string as it comes, where it converts an array parameter element by element, and the
 * database reads an array literal in a third of the time it takes to read the same rows as
 * JSON objects. Every element is quoted (inside quotes only `"` and `\` are special), so any
 * text survives; null is NULL.
 */
export function textArrayLiteral(values: readonly (string | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    parts[i] = value === null || value === undefined ? 'NULL' : `"${value.replace(SPECIAL, '\\$&')}"`;
  }
  return `{${parts.join(',')}}`;
}

const SPECIAL = /["\\]/g;
