import { describe, expect, it } from 'vitest';
import { dayLabel, NO_COUNTS, percent, statsChart, statsHeader, statsRangeProblem } from './email-stats.rules';

describe('email-stats ranges', () => {
  it('allows end_date up to 90 days after start_date, refuses more and reversed ranges', () => {
    expect(statsRangeProblem({ start: '2026-03-01', end: '2026-03-01' })).toBeNull();
    // 2026-04-01 is 90 days after 2026-01-01 (91 calendar days in all).
    expect(statsRangeProblem({ start: '2026-01-01', end: '2026-04-01' })).toBeNull();
    expect(statsRangeProblem({ start: '2026-01-01', end: '2026-04-02' })).toBe('must be at most 90 days after start_date');
    expect(statsRangeProblem({ start: '2026-03-02', end: '2026-03-01' })).toBe('must not be before start_date');
    // Across a leap day: 2024-02-29 counts.
    expect(statsRangeProblem({ start: '2024-01-01', end: '2024-03-31' })).toBeNull();
    expect(statsRangeProblem({ start: '2024-01-01', end: '2024-04-01' })).not.toBeNull();
  });
});

describe('email-stats figures', () => {
  it('divides replies, out-of-office answers, opens and positive replies by contacted leads, bounces by sends', () => {
    const header = statsHeader({ sent: 8, replied: 1, ooo: 2, opened: 3, bounced: 2, contacted: 6, completed: 1, pos_replied: 1 });
    expect(header).toEqual({
      total_sent_count: 8,
      total_reply_count: 1,
      total_ooo_reply_count: 2,
      total_open_count: 3,
      total_bounce_count: 2,
      total_contacted_count: 6,
      total_completed_count: 1,
      total_pos_reply_count: 1,
      bounce_rate: 25,
      open_rate: 50,
      reply_rate: 16.67,
      reply_rate_with_ooo: 50,
      pos_reply_rate: 16.67,
    });
    expect(statsHeader(NO_COUNTS)).toMatchObject({ bounce_rate: 0, open_rate: 0, reply_rate: 0, reply_rate_with_ooo: 0, pos_reply_rate: 0 });
    expect(percent({ part: 2, whole: 3 })).toBe(66.67);
  });

  it('charts every day of the range with a label, zeros where nothing was sent', () => {
    const chart = statsChart({ start: '2025-12-31', end: '2026-01-02', days: new Map([['2026-01-01', { ...NO_COUNTS, sent: 4, ooo: 1 }]]) });
    expect(chart.map((d) => [d.label, d.date, d.total_sent_count, d.total_ooo_reply_count])).toEqual([
      ['Dec 31', '2025-12-31', 0, 0],
      ['Jan 01', '2026-01-01', 4, 1],
      ['Jan 02', '2026-01-02', 0, 0],
    ]);
    expect(Object.keys(chart[0]!)).toEqual([
      'label',
      'date',
      'total_sent_count',
      'total_reply_count',
      'total_ooo_reply_count',
      'total_open_count',
      'total_bounce_count',
      'total_contacted_count',
      'total_completed_count',
      'total_pos_reply_count',
    ]);
    expect(dayLabel('2026-09-05')).toBe('Sep 05');
  });
});
