import { describe, expect, it } from 'vitest';
import { hash32 } from '../shared/hash';
import {
  type CampaignSchedule,
  isWithinWindow,
  localDay,
  nextWindowStart,
  validateSchedule,
  zonedTimeToInstant,
} from './schedule.rules';

const EVERY_DAY = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true } as const;
const WEEKDAYS = { '1': true, '2': true, '3': true, '4': true, '5': true } as const;

function schedule(overrides: Partial<CampaignSchedule> = {}): CampaignSchedule {
  return { days: WEEKDAYS, timezone: 'Europe/Oslo', timing: { from: '09:00', to: '17:00' }, ...overrides };
}

const at = (iso: string) => new Date(iso);
const next = (s: CampaignSchedule, after: string) => nextWindowStart({ schedule: s, after: at(after) })?.toISOString() ?? null;
const within = (s: CampaignSchedule, instant: string) => isWithinWindow({ schedule: s, at: at(instant) });

// Europe/Oslo 2025: spring forward Sunday 30 March at 01:00Z (02:00 CET → 03:00 CEST),
// fall back Sunday 26 October at 01:00Z (03:00 CEST → 02:00 CET).
// America/New_York 2025: spring forward 9 March at 07:00Z, fall back 2 November at 06:00Z.

describe('zonedTimeToInstant', () => {
  it('converts ordinary local times with the offset in force on that day', () => {
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-01-15', time: '09:00' }).toISOString()).toBe('2025-01-15T08:00:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-07-15', time: '09:00' }).toISOString()).toBe('2025-07-15T07:00:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'America/New_York', date: '2025-07-15', time: '09:00' }).toISOString()).toBe('2025-07-15T13:00:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'UTC', date: '2025-07-15', time: '00:00' }).toISOString()).toBe('2025-07-15T00:00:00.000Z');
  });

  it('handles non-hour offsets', () => {
    expect(zonedTimeToInstant({ timezone: 'Asia/Kolkata', date: '2025-06-02', time: '09:00' }).toISOString()).toBe('2025-06-02T03:30:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'Asia/Kathmandu', date: '2025-06-02', time: '09:00' }).toISOString()).toBe('2025-06-02T03:15:00.000Z');
    // Just after local midnight, the instant is on the previous UTC day.
    expect(zonedTimeToInstant({ timezone: 'Asia/Kathmandu', date: '2025-06-02', time: '00:10' }).toISOString()).toBe('2025-06-01T18:25:00.000Z');
  });

  it('moves a time in the spring-forward gap to the first valid instant', () => {
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-03-30', time: '02:30' }).toISOString()).toBe('2025-03-30T01:00:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-03-30', time: '02:00' }).toISOString()).toBe('2025-03-30T01:00:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'America/New_York', date: '2025-03-09', time: '02:15' }).toISOString()).toBe('2025-03-09T07:00:00.000Z');
    // Either side of the gap is unaffected.
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-03-30', time: '01:59' }).toISOString()).toBe('2025-03-30T00:59:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-03-30', time: '03:00' }).toISOString()).toBe('2025-03-30T01:00:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-03-30', time: '03:01' }).toISOString()).toBe('2025-03-30T01:01:00.000Z');
  });

  it('takes the earlier reading of a time repeated by the fall-back', () => {
    expect(zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-10-26', time: '02:30' }).toISOString()).toBe('2025-10-26T00:30:00.000Z');
    expect(zonedTimeToInstant({ timezone: 'America/New_York', date: '2025-11-02', time: '01:30' }).toISOString()).toBe('2025-11-02T05:30:00.000Z');
  });

  it('rejects malformed input', () => {
    expect(() => zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-02-30', time: '09:00' })).toThrow(RangeError);
    expect(() => zonedTimeToInstant({ timezone: 'Europe/Oslo', date: '2025-02-10', time: '9:00' })).toThrow(RangeError);
    expect(() => zonedTimeToInstant({ timezone: 'Mars/Olympus', date: '2025-02-10', time: '09:00' })).toThrow(RangeError);
  });
});

describe('localDay', () => {
  it('reads the calendar day in the zone, not in UTC', () => {
    expect(localDay({ timezone: 'Europe/Oslo', at: at('2025-03-30T22:30:00Z') })).toBe('2025-03-31');
    expect(localDay({ timezone: 'Europe/Oslo', at: at('2025-03-30T21:59:59Z') })).toBe('2025-03-30');
    expect(localDay({ timezone: 'America/New_York', at: at('2025-01-01T03:00:00Z') })).toBe('2024-12-31');
    expect(localDay({ timezone: 'UTC', at: at('2025-01-01T00:00:00Z') })).toBe('2025-01-01');
  });

  it('turns the day at local midnight in a +05:45 zone', () => {
    expect(localDay({ timezone: 'Asia/Kathmandu', at: at('2025-06-01T18:14:59Z') })).toBe('2025-06-01');
    expect(localDay({ timezone: 'Asia/Kathmandu', at: at('2025-06-01T18:15:00Z') })).toBe('2025-06-02');
  });
});

describe('isWithinWindow', () => {
  const s = schedule();

  it('includes from and excludes to, in local time', () => {
    // Wednesday 2025-06-04, CEST (+02:00).
    expect(within(s, '2025-06-04T06:59:59.999Z')).toBe(false);
    expect(within(s, '2025-06-04T07:00:00.000Z')).toBe(true);
    expect(within(s, '2025-06-04T14:59:59.999Z')).toBe(true);
    expect(within(s, '2025-06-04T15:00:00.000Z')).toBe(false);
  });

  it('reads a window ending at 23:59 as ending at midnight: 00:00–23:59 is open all day', () => {
    const allDay = schedule({ days: EVERY_DAY, timing: { from: '00:00', to: '23:59' } });
    // 23:59:30 CEST on Wednesday, the day's last millisecond, and 00:00 on Thursday.
    expect(within(allDay, '2025-06-04T21:59:30.000Z')).toBe(true);
    expect(within(allDay, '2025-06-04T21:59:59.999Z')).toBe(true);
    expect(within(allDay, '2025-06-04T22:00:00.000Z')).toBe(true);
    expect(next(allDay, '2025-06-04T21:59:30.000Z')).toBe('2025-06-04T21:59:30.000Z');
    // On a day whose next day is disabled, the window still closes at midnight.
    const weekdaysLate = schedule({ timing: { from: '20:00', to: '23:59' } });
    expect(within(weekdaysLate, '2025-06-06T21:59:30.000Z')).toBe(true); // Friday 23:59:30
    expect(within(weekdaysLate, '2025-06-06T22:00:00.000Z')).toBe(false); // Saturday 00:00
    // Any other end is exclusive to the minute: 23:58 closes at 23:58.
    expect(within(schedule({ timing: { from: '20:00', to: '23:58' } }), '2025-06-04T21:58:00.000Z')).toBe(false);
  });

  it('uses the offset in force: the same UTC time is inside in winter and outside in summer', () => {
    // Wednesdays: 15:30Z is 16:30 CET in January, 17:30 CEST in July.
    expect(within(s, '2025-01-15T15:30:00Z')).toBe(true);
    expect(within(s, '2025-07-16T15:30:00Z')).toBe(false);
  });

  it('reads the weekday in the zone', () => {
    // Friday 2025-06-06 23:30Z is Saturday 01:30 in Kolkata, Friday 19:30 in New York.
    const late = { days: { '6': true }, timing: { from: '00:00', to: '23:59' } } as const;
    expect(within(schedule({ ...late, timezone: 'Asia/Kolkata' }), '2025-06-06T23:30:00Z')).toBe(true);
    expect(within(schedule({ ...late, timezone: 'America/New_York' }), '2025-06-06T23:30:00Z')).toBe(false);
  });

  it('skips disabled days', () => {
    expect(within(s, '2025-06-07T10:00:00Z')).toBe(false); // Saturday
    expect(within(s, '2025-06-08T10:00:00Z')).toBe(false); // Sunday
    expect(within(schedule({ days: { '7': true } }), '2025-06-08T10:00:00Z')).toBe(true);
  });

  it('respects the inclusive date range in the zone', () => {
    const ranged = schedule({ days: EVERY_DAY, timing: { from: '00:00', to: '23:59' }, startDate: '2025-06-04', endDate: '2025-06-05' });
    expect(within(ranged, '2025-06-03T21:59:00Z')).toBe(false); // 23:59 on the 3rd in Oslo
    expect(within(ranged, '2025-06-03T22:00:00Z')).toBe(true); // 00:00 on the 4th in Oslo
    expect(within(ranged, '2025-06-05T21:58:00Z')).toBe(true); // 23:58 on the 5th
    expect(within(ranged, '2025-06-05T22:00:00Z')).toBe(false); // the 6th
  });

  it('handles a +05:45 zone', () => {
    const k = schedule({ timezone: 'Asia/Kathmandu' });
    expect(within(k, '2025-06-04T03:14:59.999Z')).toBe(false);
    expect(within(k, '2025-06-04T03:15:00Z')).toBe(true);
    expect(within(k, '2025-06-04T11:14:59Z')).toBe(true);
    expect(within(k, '2025-06-04T11:15:00Z')).toBe(false);
  });

  it('is never open for an invalid window', () => {
    expect(within(schedule({ timing: { from: '17:00', to: '09:00' } }), '2025-06-04T10:00:00Z')).toBe(false);
    expect(within(schedule({ timing: { from: '09:00', to: '09:00' } }), '2025-06-04T07:00:00Z')).toBe(false);
    expect(within(schedule({ timing: { from: '9am', to: '17:00' } }), '2025-06-04T10:00:00Z')).toBe(false);
  });
});

describe('nextWindowStart', () => {
  it('returns after itself when the window is open', () => {
    expect(next(schedule(), '2025-06-04T10:00:00.123Z')).toBe('2025-06-04T10:00:00.123Z');
  });

  it('returns the same day opening before the window, the next day after it', () => {
    expect(next(schedule(), '2025-06-04T05:00:00Z')).toBe('2025-06-04T07:00:00.000Z');
    expect(next(schedule(), '2025-06-04T15:00:00Z')).toBe('2025-06-05T07:00:00.000Z');
  });

  it('skips the weekend', () => {
    // Friday 18:00 in Oslo.
    expect(next(schedule(), '2025-06-06T16:00:00Z')).toBe('2025-06-09T07:00:00.000Z');
    // Saturday morning.
    expect(next(schedule(), '2025-06-07T08:00:00Z')).toBe('2025-06-09T07:00:00.000Z');
  });

  it('finds a weekly window a week away', () => {
    // Tuesdays only; asked just after Tuesday's window closed.
    expect(next(schedule({ days: { '2': true } }), '2025-06-03T15:00:00Z')).toBe('2025-06-10T07:00:00.000Z');
  });

  it('opens at 09:00 local on the day after a DST change, with the new offset', () => {
    // Oslo: Sunday 30 March sprang forward; Monday 09:00 is CEST (+02).
    expect(next(schedule(), '2025-03-29T12:00:00Z')).toBe('2025-03-31T07:00:00.000Z');
    // Oslo: Sunday 26 October fell back; Monday 09:00 is CET (+01).
    expect(next(schedule(), '2025-10-25T12:00:00Z')).toBe('2025-10-27T08:00:00.000Z');
    // New York: Friday before the change is EST, Monday after is EDT.
    const ny = schedule({ timezone: 'America/New_York' });
    expect(next(ny, '2025-03-07T00:00:00Z')).toBe('2025-03-07T14:00:00.000Z');
    expect(next(ny, '2025-03-07T22:00:00Z')).toBe('2025-03-10T13:00:00.000Z');
    expect(next(ny, '2025-11-01T12:00:00Z')).toBe('2025-11-03T14:00:00.000Z');
  });

  it('handles a 01:30–03:30 window on the spring-forward day (02:00–03:00 does not exist)', () => {
    const s = schedule({ days: EVERY_DAY, timing: { from: '01:30', to: '03:30' } });
    expect(next(s, '2025-03-30T00:00:00Z')).toBe('2025-03-30T00:30:00.000Z'); // 01:30 CET
    // The window is open across the jump: 01:59:59 CET, then 03:00 CEST.
    expect(within(s, '2025-03-30T00:59:59Z')).toBe(true);
    expect(within(s, '2025-03-30T01:00:00Z')).toBe(true);
    expect(within(s, '2025-03-30T01:29:59Z')).toBe(true);
    // 03:30 CEST closes it; the next opening is Monday 01:30 CEST.
    expect(within(s, '2025-03-30T01:30:00Z')).toBe(false);
    expect(next(s, '2025-03-30T01:30:00Z')).toBe('2025-03-30T23:30:00.000Z');
  });

  it('opens at the transition when from falls in the spring-forward gap', () => {
    const s = schedule({ days: EVERY_DAY, timing: { from: '02:15', to: '04:00' } });
    expect(next(s, '2025-03-29T23:00:00Z')).toBe('2025-03-30T01:00:00.000Z'); // 03:00 CEST
    expect(within(s, '2025-03-30T00:59:59Z')).toBe(false); // 01:59:59 CET
    // The next day is ordinary again.
    expect(next(s, '2025-03-30T02:00:00Z')).toBe('2025-03-31T00:15:00.000Z');
  });

  it('opens twice on the fall-back day when the window sits in the repeated hour', () => {
    const s = schedule({ days: EVERY_DAY, timing: { from: '02:00', to: '02:30' } });
    expect(next(s, '2025-10-25T23:00:00Z')).toBe('2025-10-26T00:00:00.000Z'); // 02:00 CEST
    expect(next(s, '2025-10-26T00:30:00Z')).toBe('2025-10-26T01:00:00.000Z'); // 02:00 CET
    expect(next(s, '2025-10-26T01:30:00Z')).toBe('2025-10-27T01:00:00.000Z'); // Monday 02:00 CET
  });

  it('reopens at the fall-back transition when the clock jumps back into the window', () => {
    // 01:00–02:30: open 01:00–02:30 CEST, closed 02:30–03:00 CEST, then the clock reads 02:00 CET.
    const s = schedule({ days: EVERY_DAY, timing: { from: '01:00', to: '02:30' } });
    expect(within(s, '2025-10-26T00:45:00Z')).toBe(false);
    expect(next(s, '2025-10-26T00:30:00Z')).toBe('2025-10-26T01:00:00.000Z');
  });

  it('prefers an opening late today over a transition early tomorrow', () => {
    // Asked on Saturday evening: Sunday 01:30 CEST (23:30Z) comes before the 01:00Z fall-back.
    const s = schedule({ days: EVERY_DAY, timing: { from: '01:30', to: '03:30' } });
    expect(next(s, '2025-10-25T21:00:00Z')).toBe('2025-10-25T23:30:00.000Z');
  });

  it('handles non-hour offsets', () => {
    expect(next(schedule({ timezone: 'Asia/Kolkata' }), '2025-06-02T00:00:00Z')).toBe('2025-06-02T03:30:00.000Z');
    expect(next(schedule({ timezone: 'Asia/Kathmandu' }), '2025-06-02T00:00:00Z')).toBe('2025-06-02T03:15:00.000Z');
    // Friday after the window in Kathmandu → Monday 09:00 +05:45.
    expect(next(schedule({ timezone: 'Asia/Kathmandu' }), '2025-06-06T12:00:00Z')).toBe('2025-06-09T03:15:00.000Z');
  });

  it('waits for the start date', () => {
    expect(next(schedule({ startDate: '2025-07-01' }), '2025-06-04T10:00:00Z')).toBe('2025-07-01T07:00:00.000Z');
    // 2025-07-05 is a Saturday: the first sending day is the Monday after.
    expect(next(schedule({ startDate: '2025-07-05' }), '2025-06-04T10:00:00Z')).toBe('2025-07-07T07:00:00.000Z');
  });

  it('returns null once the end date has passed', () => {
    expect(next(schedule({ endDate: '2025-06-03' }), '2025-06-04T05:00:00Z')).toBeNull();
    // The end date is today but today's window has closed.
    expect(next(schedule({ endDate: '2025-06-04' }), '2025-06-04T16:00:00Z')).toBeNull();
    // The end date is today and the window is still ahead.
    expect(next(schedule({ endDate: '2025-06-04' }), '2025-06-04T05:00:00Z')).toBe('2025-06-04T07:00:00.000Z');
    // Only weekend days remain before the end date.
    expect(next(schedule({ endDate: '2025-06-08' }), '2025-06-06T16:00:00Z')).toBeNull();
  });

  it('returns null with no day enabled or an empty window', () => {
    expect(next(schedule({ days: {} }), '2025-06-04T05:00:00Z')).toBeNull();
    expect(next(schedule({ days: { '1': false } }), '2025-06-04T05:00:00Z')).toBeNull();
    expect(next(schedule({ timing: { from: '10:00', to: '10:00' } }), '2025-06-04T05:00:00Z')).toBeNull();
  });

  // Cross-check against isWithinWindow by brute force: the answer is inside, not before
  // `after`, and nothing sampled between `after` and it is inside.
  it('agrees with isWithinWindow around DST changes in several zones', () => {
    const zones = ['Europe/Oslo', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Santiago'];
    const windows = [
      { from: '09:00', to: '17:00' },
      { from: '01:30', to: '03:30' },
      { from: '02:15', to: '02:45' },
      { from: '00:00', to: '01:00' },
      { from: '23:00', to: '23:59' },
    ];
    const bases = ['2025-03-28T00:00:00Z', '2025-10-24T00:00:00Z', '2025-11-01T00:00:00Z', '2025-04-04T00:00:00Z', '2025-09-05T00:00:00Z'];
    let checked = 0;
    for (const timezone of zones) {
      for (const timing of windows) {
        for (const base of bases) {
          for (let k = 0; k < 6; k++) {
            const s = schedule({ timezone, timing, days: { '1': true, '3': true, '6': true, '7': true } });
            const after = new Date(at(base).getTime() + (hash32(`${timezone}${timing.from}${base}${k}`) % (4 * 86_400_000)));
            const result = nextWindowStart({ schedule: s, after });
            expect(result).not.toBeNull();
            const r = result!.getTime();
            expect(r).toBeGreaterThanOrEqual(after.getTime());
            expect(isWithinWindow({ schedule: s, at: result! })).toBe(true);
            if (r > after.getTime()) expect(isWithinWindow({ schedule: s, at: new Date(r - 1) })).toBe(false);
            for (let t = after.getTime(); t < r; t += 5 * 60_000) expect(isWithinWindow({ schedule: s, at: new Date(t) })).toBe(false);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(zones.length * windows.length * bases.length * 6);
  });
});

describe('validateSchedule', () => {
  it('accepts a valid schedule', () => {
    expect(validateSchedule(schedule({ startDate: '2025-01-01', endDate: '2025-01-01' }))).toEqual([]);
  });

  it('names each problem', () => {
    const fields = (s: CampaignSchedule) => validateSchedule(s).map((p) => p.field);
    expect(fields(schedule({ timezone: 'Mars/Olympus' }))).toEqual(['timezone']);
    expect(fields(schedule({ timing: { from: '9:00', to: '24:00' } }))).toEqual(['timing.from', 'timing.to']);
    expect(fields(schedule({ timing: { from: '17:00', to: '09:00' } }))).toEqual(['timing.to']);
    expect(fields(schedule({ timing: { from: '09:00', to: '09:00' } }))).toEqual(['timing.to']);
    expect(fields(schedule({ days: { '6': false } }))).toEqual(['days']);
    expect(fields(schedule({ days: { '1': true, '8': true } as CampaignSchedule['days'] }))).toEqual(['days.8']);
    expect(fields(schedule({ startDate: '2025-02-01', endDate: '2025-01-31' }))).toEqual(['endDate']);
    expect(fields(schedule({ startDate: '2025-02-30' }))).toEqual(['startDate']);
  });
});
