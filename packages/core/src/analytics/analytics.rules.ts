// Pure rules of the analytics domain: date ranges.
import { invalidField } from '../shared/errors';
import type { DomainError } from '../shared/errors';

/** Inclusive days a range may span: a leap year, so any calendar year fits. */
export const MAX_RANGE_DAYS = 366;

/** Days from `start` to `end`, both inclusive (`YYYY-MM-DD`, UTC). */
export function inclusiveDays(options: { start: string; end: string }): number {
  return Math.round((Date.parse(`${options.end}T00:00:00Z`) - Date.parse(`${options.start}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * Why a range is refused, or null: start after end names start_date; a span longer
 * than MAX_RANGE_DAYS (when `limitSpan`) names end_date.
 */
export function rangeError(options: { start?: string; end?: string; limitSpan: boolean }): DomainError | null {
  const { start, end } = options;
  if (!start || !end) return null;
  if (start > end) return invalidField('start_date', `must not be after end_date (${end})`, 'analytics.invalid_range');
  if (options.limitSpan && inclusiveDays({ start, end }) > MAX_RANGE_DAYS) {
    return invalidField('end_date', `must be at most ${MAX_RANGE_DAYS} days (inclusive) after start_date`, 'analytics.range_too_long');
  }
  return null;
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcIsoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
