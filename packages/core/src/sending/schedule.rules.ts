/**
 * Sending windows of a campaign schedule, in the schedule's own time zone.
 *
 * Everything here works on instants (`Date`) and converts to wall-clock time through
 * `Intl.DateTimeFormat#formatToParts`, so the runtime's tz database is the only source
 * of offsets and DST rules (no date library). No function reads the clock: the time is
 * always a parameter. An unknown zone makes the conversions throw a RangeError: run
 * validateSchedule on a schedule read from storage before relying on it.
 */

export const ISO_WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;
/** ISO weekday as the stored schedule keys it: '1' Monday … '7' Sunday. */
export type IsoWeekday = (typeof ISO_WEEKDAYS)[number];

export interface CampaignSchedule {
  /** Enabled weekdays; a missing key is a disabled day. */
  days: Partial<Record<IsoWeekday, boolean>>;
  /** IANA zone name (Europe/Oslo); the window, the weekdays and the dates are all read in it. */
  timezone: string;
  /** Daily window as local wall-clock 'HH:MM': `from` inclusive, `to` exclusive (from < to, no overnight windows). */
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

const HOUR_MINUTE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

// --- zone arithmetic ------------------------------------------------------------------

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// Building a DateTimeFormat is far slower than using one, and the scheduler converts
// many instants in few zones.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      // h23, not hour12: false, which some ICU versions render as '24' at midnight.
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

function wallClockAt(timezone: string, at: number): WallClock {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(at)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? NaN,
    month: fields.month ?? NaN,
    day: fields.day ?? NaN,
    hour: (fields.hour ?? NaN) % 24,
    minute: fields.minute ?? NaN,
    second: fields.second ?? NaN,
  };
}

/** The wall clock read as if it were UTC: the arithmetic form of a local time. */
function wallClockMs(w: WallClock): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/** Zone offset (local − UTC) in ms at an instant. */
function offsetAt(timezone: string, at: number): number {
  // formatToParts has second resolution: compare against the instant floored to a second.
  return wallClockMs(wallClockAt(timezone, at)) - Math.floor(at / 1000) * 1000;
}

/**
 * Every instant whose wall clock in the zone reads `localMs` (a local time expressed as
 * if it were UTC): one normally, two in a fall-back overlap, none in a spring-forward gap.
 *
 * Iterative offset correction: guess an instant, read the zone's offset there, move the
 * guess by it, repeat until the offset no longer changes. Starting once from each side
 * of the local time (a day before, a day after) finds both readings of an overlap.
 */
function instantsForLocal(timezone: string, localMs: number): number[] {
  const found = new Set<number>();
  for (const start of [localMs - DAY_MS, localMs + DAY_MS]) {
    let guess = localMs - offsetAt(timezone, start);
    for (let i = 0; i < 4; i++) {
      const next = localMs - offsetAt(timezone, guess);
      if (next === guess) break;
      guess = next;
    }
    if (guess + offsetAt(timezone, guess) === localMs) found.add(guess);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The offset transitions (first instant with the new offset) in [from, to). Sampled every
 * 6 hours, which is finer than any zone has ever changed its offset twice, then narrowed
 * down by bisection to the millisecond.
 */
function transitionsBetween(timezone: string, from: number, to: number): number[] {
  const STEP = 6 * 3_600_000;
  const found: number[] = [];
  let lo = from;
  let loOffset = offsetAt(timezone, lo);
  while (lo < to) {
    const hi = Math.min(lo + STEP, to);
    const hiOffset = offsetAt(timezone, hi);
    if (hiOffset !== loOffset) {
      let a = lo;
      let b = hi;
      // Invariant: offset(a) = loOffset, offset(b) differs.
      while (b - a > 1) {
        const mid = Math.floor((a + b) / 2);
        if (offsetAt(timezone, mid) === loOffset) a = mid;
        else b = mid;
      }
      found.push(b);
    }
    lo = hi;
    loOffset = hiOffset;
  }
  return found;
}

function parseHourMinute(value: string): number | null {
  const match = HOUR_MINUTE.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

function parseIsoDate(value: string): number | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2025-02-30 over into March: only an exact round trip is a real day.
  return new Date(ms).toISOString().slice(0, 10) === value ? ms : null;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function isoDateOf(w: Pick<WallClock, 'year' | 'month' | 'day'>): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** ISO weekday of a calendar day given as UTC-midnight ms. */
function isoWeekdayOf(dayMs: number): IsoWeekday {
  const jsDay = new Date(dayMs).getUTCDay();
  return String(jsDay === 0 ? 7 : jsDay) as IsoWeekday;
}

// --- public rules ---------------------------------------------------------------------

/**
 * The instant a local wall-clock time in a zone denotes. In a fall-back overlap the
 * earlier of the two readings; in a spring-forward gap (Europe/Oslo 02:30 on the last
 * Sunday of March) the time does not exist and moves forward to the first valid instant,
 * the transition itself (03:00 local).
 *
 * `date` is 'YYYY-MM-DD', `time` 'HH:MM'. Throws a RangeError on a malformed date or time
 * or an unknown zone: the callers hold validated schedules.
 */
export function zonedTimeToInstant(options: { timezone: string; date: string; time: string }): Date {
  const { timezone, date, time } = options;
  const dayMs = parseIsoDate(date);
  const minutes = parseHourMinute(time);
  if (dayMs === null) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  if (minutes === null) throw new RangeError(`not an HH:MM time: ${time}`);
  const localMs = dayMs + minutes * MINUTE_MS;
  const [first] = instantsForLocal(timezone, localMs);
  if (first !== undefined) return new Date(first);
  // In a gap: the offset changes between the two readings; the first instant with the
  // new offset is the first one whose wall clock is past the missing time.
  const [transition] = transitionsBetween(timezone, localMs - DAY_MS, localMs + DAY_MS).filter(
    (t) => t + offsetAt(timezone, t) > localMs,
  );
  if (transition === undefined) throw new RangeError(`cannot place ${date} ${time} in ${timezone}`);
  return new Date(transition);
}

/** The calendar day ('YYYY-MM-DD') of an instant in a zone: daily limits count per day in the campaign's zone. */
export function localDay(options: { timezone: string; at: Date }): string {
  return isoDateOf(wallClockAt(options.timezone, options.at.getTime()));
}

/**
 * Whether a send may happen at `at`: the local weekday is enabled, the local time is in
 * [from, to), and the local day is within [startDate, endDate]. An invalid window (from ≥
 * to, a bad HH:MM) is never open.
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
  return msOfDay >= from * MINUTE_MS && msOfDay < to * MINUTE_MS;
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

/** Midnight of `at`'s day in `timezone`, and of the day after (DST-safe: days may be 23 or 25 hours). */
export function dayBounds(options: { timezone: string; at: Date }): { start: Date; next: Date } {
  const { timezone } = options;
  const start = zonedTimeToInstant({ timezone, date: localDay({ timezone, at: options.at }), time: '00:00' });
  // Noon of the next local day is on that day whatever the DST shift; its midnight follows.
  const tomorrow = localDay({ timezone, at: new Date(start.getTime() + 36 * 3_600_000) });
  return { start, next: zonedTimeToInstant({ timezone, date: tomorrow, time: '00:00' }) };
}
