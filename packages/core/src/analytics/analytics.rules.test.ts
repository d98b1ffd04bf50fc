import { describe, expect, it } from 'vitest';
import { inclusiveDays, rangeError } from './analytics.rules';

describe('analytics ranges', () => {
  it('counts both ends of a range', () => {
    expect(inclusiveDays({ start: '2026-03-01', end: '2026-03-01' })).toBe(1);
    expect(inclusiveDays({ start: '2024-01-01', end: '2024-12-31' })).toBe(366);
    // Across the DST switch of no zone: UTC days are 24 h.
    expect(inclusiveDays({ start: '2026-03-28', end: '2026-03-30' })).toBe(3);
  });

  it('refuses start after end naming start_date, and spans over 366 days naming end_date', () => {
    expect(rangeError({ start: '2026-03-02', end: '2026-03-01', limitSpan: true })?.fieldErrors[0]?.field).toBe('start_date');
    expect(rangeError({ start: '2024-01-01', end: '2024-12-31', limitSpan: true })).toBeNull();
    const tooLong = rangeError({ start: '2024-01-01', end: '2025-01-01', limitSpan: true });
    expect([tooLong?.kind, tooLong?.code, tooLong?.fieldErrors[0]?.field]).toEqual(['invalid', 'analytics.range_too_long', 'end_date']);
    expect(rangeError({ start: '2020-01-01', end: '2025-01-01', limitSpan: false })).toBeNull();
    expect(rangeError({ start: '2026-01-01', limitSpan: true })).toBeNull();
  });
});
