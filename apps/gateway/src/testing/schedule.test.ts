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
    // A plain UTC window is shut in that minute: what the helper is for.
    expect(isWithinWindow({ schedule: { ...openAllDay(new Date('2026-11-28T12:00:00Z')), timezone: 'UTC' }, at: new Date('2026-11-28T23:59:30Z') })).toBe(false);
  });
});
