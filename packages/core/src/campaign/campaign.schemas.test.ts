import { describe, expect, it } from 'vitest';
import { fromZodError } from '../shared/errors';
import { SetSchedulesInput, UpdateCampaignInput } from './campaign.schemas';

const REF = { workspace_id: '65f99a0dd96fae8ab61130c0', campaign_id: '65f99a0dd96fae8ab61130c1' };
const SCHEDULE = { days: { '1': true }, timezone: 'Europe/Paris', timing: { from: '09:00', to: '17:00' } };

describe('campaign write schemas', () => {
  it('read schedules[].end_date "" and null as no end date, and keep a real date', () => {
    const endOf = (end_date: unknown) => {
      const parsed = UpdateCampaignInput.parse({ ...REF, schedules: [{ ...SCHEDULE, end_date }] });
      return Array.isArray(parsed.schedules) ? parsed.schedules[0]!.end_date : parsed.schedules?.end_date;
    };
    expect(endOf('')).toBeNull();
    expect(endOf(null)).toBeNull();
    expect(endOf(undefined)).toBeUndefined();
    expect(endOf('2026-12-31')).toBe('2026-12-31');
    expect(SetSchedulesInput.parse({ ...REF, start_date: '2026-12-01', end_date: '', schedules: [SCHEDULE] }).end_date).toBeNull();
    const bad = UpdateCampaignInput.safeParse({ ...REF, schedules: [{ ...SCHEDULE, end_date: '2026-02-30' }] });
    expect(fromZodError(bad.error!).fieldErrors).toEqual([{ field: 'schedules.0.end_date', message: 'is not a real calendar date' }]);
  });

  it('read the campaign flags and schedule days in every boolean form', () => {
    const parsed = UpdateCampaignInput.parse({
      ...REF,
      send_as_txt: 'yes',
      is_emailopened_tracking: 'no',
      is_unsubscribed_link: 0,
      stop_on_lead_replied: 'TRUE',
      is_pause_on_bouncerate: '1',
      schedules: { ...SCHEDULE, days: { '1': 'yes', '2': 1, '3': 'false' } },
    });
    expect(parsed).toMatchObject({ send_as_txt: true, is_emailopened_tracking: false, is_unsubscribed_link: false, stop_on_lead_replied: true, is_pause_on_bouncerate: true });
    expect(Array.isArray(parsed.schedules) ? null : parsed.schedules?.days).toEqual({ '1': true, '2': true, '3': false });
  });

  it('take a schedule in its read shape (day names or numbers, from_time / to_time, tz) as the write shape', () => {
    const parsed = UpdateCampaignInput.parse({ ...REF, schedules: { days: ['Monday', 'wed', 5], from_time: '08:00', to_time: '16:30', tz: 'Asia/Tokyo', daily_limit: 20, end_date: '' } });
    expect(parsed.schedules).toEqual({ days: { '1': true, '3': true, '5': true }, timezone: 'Asia/Tokyo', timing: { from: '08:00', to: '16:30' }, daily_limit: 20, end_date: null });
    const problems = (schedules: unknown) => fromZodError(UpdateCampaignInput.safeParse({ ...REF, schedules }).error!).fieldErrors;
    expect(problems({ days: ['Funday'], from_time: '08:00', to_time: '16:30', tz: 'UTC' })).toEqual([{ field: 'schedules.days.0', message: 'is not a day: a day name (Monday … Sunday) or 1 (Monday) to 7 (Sunday)' }]);
    expect(problems({ days: ['Monday'], from_time: '08:00', to_time: '16:30' })).toEqual([{ field: 'schedules.tz', message: 'is required (an IANA time zone)' }]);
    expect(problems([{ days: ['Monday'], from_time: '18:00', to_time: '16:30', timezone: 'UTC' }])).toEqual([{ field: 'schedules.0.to_time', message: 'must end after it starts (from_time < to_time)' }]);
  });
});
