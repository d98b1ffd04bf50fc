import { LEAD_COLUMNS } from '../lead/index';

/** The lead fields every lead has; an additional field may not shadow one (any case). */
export const BUILT_IN_LEAD_FIELDS: readonly string[] = ['email', ...LEAD_COLUMNS];

export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A field name as stored: trimmed, each run of whitespace one underscore ("Deal  size" → Deal_size). */
export function normalizeFieldName(name: string): string {
  return name.trim().replace(/\s+/g, '_');
}

/** Why a normalized name cannot be a field's, or null when it can. */
export function fieldNameProblem(name: string): string | null {
  if (!FIELD_NAME.test(name)) {
    return 'must start with a letter and hold only letters, digits, spaces or underscores (64 characters at most)';
  }
  if (BUILT_IN_LEAD_FIELDS.includes(name.toLowerCase())) return `must not be a built-in lead field (${name.toLowerCase()})`;
  return null;
}
