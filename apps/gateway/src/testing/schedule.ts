// A campaign schedule that is open while a test runs on the real clock, whatever the hour.

/**
 * Every day, 00:00–23:59 (to midnight), in a zone where the day is not about to end: a test that
 * sends on the real clock does not cross into a new day (new daily counts, a new day's window)
 * half-way through.
 */
export function openAllDay(now: Date = new Date()) {
  const timezone = ['UTC', 'Asia/Tokyo', 'America/New_York'].find((zone) => {
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(now));
    return hour >= 1 && hour <= 21;
  })!;
  return { days: Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((day) => [day, true])), timezone, timing: { from: '00:00', to: '23:59' } };
}
