import type { PrismaClient } from '@outreach/db';
import type { StatsCounts } from './email-stats.rules';

/** Lead labels counted as a positive reply. */
export const POSITIVE_LABELS = ['INTERESTED', 'MEETING_BOOKED', 'MEETING_COMPLETED', 'CLOSED'];

/**
 * Counts of the sends whose send time falls in [$2, $3) of workspace $1 (of the mailboxes $4,
 * all when null), per UTC day of sending and for the whole range (`day` null), per mailbox
 * when $5 (else `acct` is ''). A send's first open, reply and bounce count on the day it was
 * sent, and so does an out-of-office answer to it (an inbox e-mail classified OUT_OF_OFFICE
 * whose send it is; it was received after the send, so after $2). Leads are counted distinct
 * within each day and within the range. $6 the positive labels.
 */
export const EMAIL_STATS_SQL = `
WITH s AS (
  SELECT s.id, s.lead_id, s.opened_at, s.replied_at, s.bounced_at,
         CASE WHEN $5::boolean THEN s.email_account_id ELSE '' END AS acct,
         to_char(s.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
    FROM sent_emails s
   WHERE s.workspace_id = $1 AND s.sent_at >= $2::timestamptz AND s.sent_at < $3::timestamptz
     AND ($4::text[] IS NULL OR s.email_account_id = ANY($4::text[]))
),
ooo AS (
  SELECT DISTINCT u.sent_email_id AS id
    FROM unibox_messages u
   WHERE u.workspace_id = $1 AND u.direction = 'IN' AND u.classification = 'OUT_OF_OFFICE'
     AND u.received_at >= $2::timestamptz AND u.sent_email_id IS NOT NULL
)
SELECT s.acct, s.day,
       count(*)::int AS sent,
       count(s.replied_at)::int AS replied,
       count(ooo.id)::int AS ooo,
       count(s.opened_at)::int AS opened,
       count(s.bounced_at)::int AS bounced,
       count(DISTINCT s.lead_id)::int AS contacted,
       count(DISTINCT s.lead_id) FILTER (WHERE l.is_completed)::int AS completed,
       count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND l.label = ANY($6::text[]))::int AS pos_replied
  FROM s
  JOIN leads l ON l.id = s.lead_id
  LEFT JOIN ooo ON ooo.id = s.id
 GROUP BY GROUPING SETS ((s.acct, s.day), (s.acct))`;

/** The counts of one mailbox (or of the workspace): over the whole range, and per day that has sends. */
export interface RangeCounts {
  total: StatsCounts;
  days: Map<string, StatsCounts>;
}

type Row = StatsCounts & { acct: string; day: string | null };

/**
 * EMAIL_STATS_SQL: mailbox id → its counts (`perAccount`), else '' → the workspace's (or the
 * mailboxes' of `accountIds` together). Mailboxes without a send in the range are absent.
 */
export async function emailStatsCounts(options: { db: PrismaClient; workspaceId: string; from: Date; to: Date; accountIds: string[] | null; perAccount: boolean }): Promise<Map<string, RangeCounts>> {
  const rows = await options.db.$queryRawUnsafe<Row[]>(
    EMAIL_STATS_SQL,
    options.workspaceId,
    options.from.toISOString(),
    options.to.toISOString(),
    options.accountIds,
    options.perAccount,
    POSITIVE_LABELS,
  );
  const out = new Map<string, RangeCounts>();
  for (const { acct, day, ...counts } of rows) {
    let entry = out.get(acct);
    if (!entry) out.set(acct, (entry = { total: counts, days: new Map() }));
    if (day === null) entry.total = counts;
    else entry.days.set(day, counts);
  }
  return out;
}
