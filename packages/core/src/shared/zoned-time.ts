/**
 * Wall-clock time in IANA zones, through `Intl.DateTimeFormat#formatToParts` (the runtime's
 * tz database is the only source of offsets and DST rules; no date library). Pure: the time
 * is always a parameter. Used by the sending windows (sending/schedule.rules.ts) and by
 * every daily count kept in a zone (campaign and mailbox limits, unified-inbox sends).
 */

const HOUR_MINUTE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

// --- zone arithmetic ------------------------------------------------------------------

export interface WallClock {
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

export function formatterFor(timezone: string): Intl.DateTimeFormat {
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

export function wallClockAt(timezone: string, at: number): WallClock {
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
export function wallClockMs(w: WallClock): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/** Zone offset (local − UTC) in ms at an instant. */
export function offsetAt(timezone: string, at: number): number {
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
export function instantsForLocal(timezone: string, localMs: number): number[] {
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
export function transitionsBetween(timezone: string, from: number, to: number): number[] {
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

export function parseHourMinute(value: string): number | null {
  const match = HOUR_MINUTE.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export function parseIsoDate(value: string): number | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2025-02-30 over into March: only an exact round trip is a real day.
  return new Date(ms).toISOString().slice(0, 10) === value ? ms : null;
}

export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function isoDateOf(w: Pick<WallClock, 'year' | 'month' | 'day'>): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

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

/** Midnight of `at`'s day in `timezone`, and of the day after (DST-safe: days may be 23 or 25 hours). */
export function dayBounds(options: { timezone: string; at: Date }): { start: Date; next: Date } {
  const { timezone } = options;
  const start = zonedTimeToInstant({ timezone, date: localDay({ timezone, at: options.at }), time: '00:00' });
  // Noon of the next local day is on that day whatever the DST shift; its midnight follows.
  const tomorrow = localDay({ timezone, at: new Date(start.getTime() + 36 * 3_600_000) });
  return { start, next: zonedTimeToInstant({ timezone, date: tomorrow, time: '00:00' }) };
}
