/**
 * Sending windows of a campaign schedule, in the schedule's own time zone.
 *
 * Everything here works on instants (`Date`) and converts to wall-clock time through
 * `Intl.DateTimeFormat#formatToParts`, so the runtime's tz database is the only source
 * of offsets and DST rules (no date library). No function reads the clock: the time is
 * always a parameter. An unknown zone makes the conversions throw a RangeError: run
 * validateSchedule on a schedule read from storage before relying on it.
 */
import {
  DAY_MS,
  formatterFor,
  MINUTE_MS,
  instantsForLocal,
  isoDateOf,
  localDay,
  parseHourMinute,
  parseIsoDate,
  transitionsBetween,
  wallClockAt,
  zonedTimeToInstant,
} from '../shared/zoned-time';

// The zone arithmetic lives in shared/zoned-time.ts; these stay reachable from here.
export { dayBounds, localDay, zonedTimeToInstant } from '../shared/zoned-time';

export const ISO_WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;
/** ISO weekday as the stored schedule keys it: '1' Monday … '7' Sunday. */
export type IsoWeekday = (typeof ISO_WEEKDAYS)[number];

export interface CampaignSchedule {
  /** Enabled weekdays; a missing key is a disabled day. */
  days: Partial<Record<IsoWeekday, boolean>>;
  /** IANA zone name (Europe/Oslo); the window, the weekdays and the dates are all read in it. */
  timezone: string;
  /**
   * Daily window as local wall-clock 'HH:MM': `from` inclusive, `to` exclusive (from < to, no
   * overnight windows). A window ending at 23:59 runs to midnight (windowEnd): HH:MM cannot say
   * 24:00, and `00:00`–`23:59` is how an all-day window is written.
   */
  timing: { from: string; to: string };
  /** First sending day, 'YYYY-MM-DD' in the schedule's zone, inclusive. */
  startDate?: string | null;
  /** Last sending day, 'YYYY-MM-DD' in the schedule's zone, inclusive. */
  endDate?: string | null;
}

export interface ScheduleProblem {
  /** Dotted path of the offending field (`timing.from`, `endDate`). */
  field: string;
  message: string;
}

/** ISO weekday of a calendar day given as UTC-midnight ms. */
function isoWeekdayOf(dayMs: number): IsoWeekday {
  const jsDay = new Date(dayMs).getUTCDay();
  return String(jsDay === 0 ? 7 : jsDay) as IsoWeekday;
}

/** The last minute of the day as `to` (23:59) means midnight: its minute is in the window. */
const END_OF_DAY = 23 * 60 + 59;

/** The minute of the day a window ends at (exclusive), from its `to`: 23:59 is read as 24:00. */
function windowEnd(to: number): number {
  return to === END_OF_DAY ? 24 * 60 : to;
}

// --- public rules ---------------------------------------------------------------------

/**
 * Whether a send may happen at `at`: the local weekday is enabled, the local time is in
 * [from, to) (a `to` of 23:59: to midnight), and the local day is within [startDate,
 * endDate]. An invalid window (from ≥ to, a bad HH:MM) is never open.
 */
export function isWithinWindow(options: { schedule: CampaignSchedule; at: Date }): boolean {
  const { schedule } = options;
  const at = options.at.getTime();
  const from = parseHourMinute(schedule.timing.from);
  const to = parseHourMinute(schedule.timing.to);
  if (from === null || to === null || from >= to) return false;
  const wall = wallClockAt(schedule.timezone, at);
  const day = isoDateOf(wall);
  if (schedule.startDate && day < schedule.startDate) return false;
  if (schedule.endDate && day > schedule.endDate) return false;
  if (!schedule.days[isoWeekdayOf(Date.UTC(wall.year, wall.month - 1, wall.day))]) return false;
  // Milliseconds into the local day; offsets are whole seconds, so the instant's own
  // sub-second part carries over to the wall clock.
  const msOfDay = (wall.hour * 60 + wall.minute) * MINUTE_MS + wall.second * 1000 + (((at % 1000) + 1000) % 1000);
  return msOfDay >= from * MINUTE_MS && msOfDay < windowEnd(to) * MINUTE_MS;
}

/**
 * The earliest instant ≥ `after` inside the window: `after` itself when the window is
 * open, else the next opening. Null when nothing is left (endDate passed, no day
 * enabled, an empty window).
 *
 * The window opens either where the wall clock passes `from` on an open day (zero, one or
 * two instants per day around DST) or at an offset transition that jumps the wall clock
 * into the window (a `from` inside a spring-forward gap; a fall-back that repeats the
 * window's hours). Both kinds of candidate are collected day by day and checked with
 * isWithinWindow itself, so this can never disagree with it.
 */
export function nextWindowStart(options: { schedule: CampaignSchedule; after: Date }): Date | null {
  const { schedule, after } = options;
  const afterMs = after.getTime();
  const from = parseHourMinute(schedule.timing.from);
  const to = parseHourMinute(schedule.timing.to);
  if (from === null || to === null || from >= to) return null;
  if (!ISO_WEEKDAYS.some((d) => schedule.days[d])) return null;
  // A copy: the caller may mutate what it gets back.
  if (isWithinWindow({ schedule, at: after })) return new Date(afterMs);

  const endMs = schedule.endDate ? parseIsoDate(schedule.endDate) : null;
  const startMs = schedule.startDate ? parseIsoDate(schedule.startDate) : null;
  let dayMs = parseIsoDate(localDay({ timezone: schedule.timezone, at: after }))!;
  // Nothing before startDate can open, so a campaign starting in a month skips straight there.
  if (startMs !== null && startMs > dayMs) dayMs = startMs;
  // Two weeks covers the next occurrence of every enabled weekday even when this week's
  // window falls wholly into a DST gap.
  for (let i = 0; i < 16; i++, dayMs += DAY_MS) {
    if (endMs !== null && dayMs > endMs) return null;
    if (!schedule.days[isoWeekdayOf(dayMs)]) continue;
    const day = new Date(dayMs).toISOString().slice(0, 10);
    const candidates = [
      ...instantsForLocal(schedule.timezone, dayMs + from * MINUTE_MS),
      // Any instant on this local day lies within 14 h before / 12 h after its UTC-midnight reading.
      // The range spills into the neighbouring days; only this day's transitions count, or a
      // transition early tomorrow would win over an opening late today.
      ...transitionsBetween(schedule.timezone, dayMs - 14 * 3_600_000, dayMs + DAY_MS + 12 * 3_600_000).filter(
        (t) => localDay({ timezone: schedule.timezone, at: new Date(t) }) === day,
      ),
    ]
      .filter((t) => t >= afterMs && isWithinWindow({ schedule, at: new Date(t) }))
      .sort((a, b) => a - b);
    if (candidates[0] !== undefined) return new Date(candidates[0]);
  }
  return null;
}

/**
 * Problems that make a schedule unusable, each naming its field; empty when it is valid.
 * The campaign schemas validate the same at the API; this guards schedules read back from
 * storage before the scheduler trusts them.
 */
export function validateSchedule(schedule: CampaignSchedule): ScheduleProblem[] {
  const problems: ScheduleProblem[] = [];
  try {
    formatterFor(schedule.timezone);
  } catch {
    problems.push({ field: 'timezone', message: `unknown time zone: ${schedule.timezone}` });
  }
  const from = parseHourMinute(schedule.timing.from);
  const to = parseHourMinute(schedule.timing.to);
  if (from === null) problems.push({ field: 'timing.from', message: 'must be a time in HH:MM format (00:00 to 23:59)' });
  if (to === null) problems.push({ field: 'timing.to', message: 'must be a time in HH:MM format (00:00 to 23:59)' });
  if (from !== null && to !== null && from >= to) {
    problems.push({ field: 'timing.to', message: 'must end after it starts (from < to)' });
  }
  const unknownDays = Object.keys(schedule.days).filter((k) => !(ISO_WEEKDAYS as readonly string[]).includes(k));
  for (const key of unknownDays) problems.push({ field: `days.${key}`, message: 'is not a day: days are "1" (Monday) to "7" (Sunday)' });
  if (!ISO_WEEKDAYS.some((d) => schedule.days[d])) problems.push({ field: 'days', message: 'must enable at least one day' });
  const start = schedule.startDate ? parseIsoDate(schedule.startDate) : null;
  const end = schedule.endDate ? parseIsoDate(schedule.endDate) : null;
  if (schedule.startDate && start === null) problems.push({ field: 'startDate', message: 'must be a date in YYYY-MM-DD format' });
  if (schedule.endDate && end === null) problems.push({ field: 'endDate', message: 'must be a date in YYYY-MM-DD format' });
  if (start !== null && end !== null && end < start) problems.push({ field: 'endDate', message: 'must not be before startDate' });
  return problems;
}
