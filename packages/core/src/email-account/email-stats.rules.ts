// Email-stats figures: date ranges, chart days and rates, pure.

/** The widest range of the email-stats operations: `end_date` at most this many days after `start_date`. */
export const MAX_STATS_DAYS = 90;

/** `part / whole` as a percentage rounded to 2 decimals; 0 when nothing to divide by. */
export function percent(options: { part: number; whole: number }): number {
  if (options.whole === 0) return 0;
  return Math.round((options.part / options.whole) * 10_000) / 100;
}

/** Every `YYYY-MM-DD` from start to end inclusive. */
export function daysBetween(options: { start: string; end: string }): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${options.start}T00:00:00Z`); t <= Date.parse(`${options.end}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A chart day for display: `2026-03-05` → `Mar 05`. */
export function dayLabel(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(8, 10)}`;
}

/**
 * What is wrong with a range of valid `YYYY-MM-DD` days, said of `end_date`; null when it is
 * fine. "90 days apart": end_date - start_date <= 90, so a range holds at most 91 calendar days.
 */
export function statsRangeProblem(options: { start: string; end: string }): string | null {
  const days = (Date.parse(`${options.end}T00:00:00Z`) - Date.parse(`${options.start}T00:00:00Z`)) / 86_400_000;
  if (days < 0) return 'must not be before start_date';
  if (days > MAX_STATS_DAYS) return `must be at most ${MAX_STATS_DAYS} days after start_date`;
  return null;
}

/** Counts of a set of sends: a chart day, or a whole range. */
export interface StatsCounts {
  sent: number;
  replied: number;
  ooo: number;
  opened: number;
  bounced: number;
  contacted: number;
  completed: number;
  pos_replied: number;
}

export const NO_COUNTS: StatsCounts = { sent: 0, replied: 0, ooo: 0, opened: 0, bounced: 0, contacted: 0, completed: 0, pos_replied: 0 };

/** The vendor's `total_*` names of a set of counts. */
export function totals(c: StatsCounts) {
  return {
    total_sent_count: c.sent,
    total_reply_count: c.replied,
    total_ooo_reply_count: c.ooo,
    total_open_count: c.opened,
    total_bounce_count: c.bounced,
    total_contacted_count: c.contacted,
    total_completed_count: c.completed,
    total_pos_reply_count: c.pos_replied,
  };
}

/** The header of email-stats: the range's totals and its rates (over contacted leads; bounces over sends). */
export function statsHeader(c: StatsCounts) {
  return {
    ...totals(c),
    bounce_rate: percent({ part: c.bounced, whole: c.sent }),
    open_rate: percent({ part: c.opened, whole: c.contacted }),
    reply_rate: percent({ part: c.replied, whole: c.contacted }),
    reply_rate_with_ooo: percent({ part: c.replied + c.ooo, whole: c.contacted }),
    pos_reply_rate: percent({ part: c.pos_replied, whole: c.contacted }),
  };
}

/** One chart row per day of the range, zeros included. */
export function statsChart(options: { start: string; end: string; days: ReadonlyMap<string, StatsCounts> }) {
  return daysBetween(options).map((date) => ({ label: dayLabel(date), date, ...totals(options.days.get(date) ?? NO_COUNTS) }));
}
