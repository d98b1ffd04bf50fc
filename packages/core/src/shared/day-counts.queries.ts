// Reading the kept daily send counts (docs/database.md, "Daily send counts"): mailbox_day_counts
// and campaign_day_counts hold each sender's sends on its current day, kept by triggers on
// sent_emails and warmup_messages. The sending engine's claim, the unified inbox's send
// reservation and warmup read them alike, instead of counting the day's sends.

/**
 * A day count row counts when it is for the day starting at the given instant. The rows'
 * day starts come from PostgreSQL's time zones, the engine's from Intl's: they agree but for
 * zones whose midnight a DST change skips, so "the same day" is a start within 12 hours.
 */
export const sameDay = (rowDay: string, day: string) =>
  `(${rowDay} > ${day} - interval '12 hours' AND ${rowDay} < ${day} + interval '12 hours')`;

/**
 * A count column of a day count row (`row`, possibly missing: a LEFT JOIN) for the day starting
 * at `day`: 0 when the row is of another day, as a sender without sends since has no newer row.
 */
export const countedToday = (options: { row: string; column: string; day: string }) =>
  `CASE WHEN ${sameDay(`${options.row}.day_start`, options.day)} THEN ${options.row}.${options.column} ELSE 0 END`;
