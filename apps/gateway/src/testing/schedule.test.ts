import { describe, expect, it } from 'vitest';
import { isWithinWindow } from '@outreach/core';
import { openAllDay } from './schedule';

describe('openAllDay (tests that send on the real clock)', () => {
  it('is open at every minute of a day and still an hour later, the minute before midnight UTC included', () => {
    for (let minute = 0; minute < 24 * 60; minute++) {
      const now = new Date(Date.UTC(2026, 10, 28, 0, minute, 30));
      const schedule = openAllDay(now);
      for (const at of [now, new Date(now.getTime() + 3_600_000)]) expect(isWithinWindow({ schedule, at }), `${at.toISOString()} in ${schedule.timezone}`).toBe(true);
    }
    // The zone chosen is one whose day is not about to end.
    for (const iso of ['2026-11-28T23:30:00Z', '2026-11-28T14:30:00Z', '2026-11-28T04:30:00Z']) {
      const { timezone } = openAllDay(new Date(iso));
      const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', hourCycle: 'h23' }).format(new Date(iso)));
      expect(hour >= 1 && hour <= 21, `${iso} in ${timezone}: ${hour} h`).toBe(true);
    }
  });
});
