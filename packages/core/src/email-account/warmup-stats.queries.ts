import type { PrismaClient } from '@outreach/db';

/**
 * Warmup statistics of a workspace (or one of its mailboxes) over a range of UTC days, in one
 * statement (the (workspace_id, sent_at) index of warmup_messages): the totals, and one row per
 * day of the range (zeros included). Placement counts only e-mails found or given up on (not
 * PENDING); providers are the recipients' (from their MX records when sent).
 * $1 workspace id, $2 mailbox id or null, $3 from (inclusive), $4 to (exclusive), $5 first day, $6 last day.
 */
export const WARMUP_STATS_SQL = `
WITH w AS (
  SELECT to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, placement, recipient_provider, recipient_account_id
    FROM warmup_messages
   WHERE workspace_id = $1 AND ($2::text IS NULL OR sender_account_id = $2)
     AND sent_at >= $3::timestamptz AND sent_at < $4::timestamptz
),
totals AS (
  SELECT count(*)::int AS sent,
         count(*) FILTER (WHERE placement <> 'PENDING')::int AS placed,
         count(*) FILTER (WHERE placement = 'INBOX')::int AS inbox,
         count(*) FILTER (WHERE placement = 'SPAM')::int AS spam,
         count(*) FILTER (WHERE placement = 'PROMOTIONS')::int AS promotion,
         count(*) FILTER (WHERE recipient_provider = 'GOOGLE')::int AS google,
         count(*) FILTER (WHERE recipient_provider = 'MICROSOFT')::int AS microsoft,
         count(*) FILTER (WHERE recipient_provider NOT IN ('GOOGLE', 'MICROSOFT'))::int AS other,
         count(DISTINCT recipient_account_id)::int AS inboxes
    FROM w
),
days AS (
  SELECT day, count(*)::int AS sent, count(*) FILTER (WHERE placement = 'INBOX')::int AS inbox,
         count(*) FILTER (WHERE placement = 'SPAM')::int AS spam, count(*) FILTER (WHERE placement = 'PROMOTIONS')::int AS promotion
    FROM w GROUP BY day
)
SELECT t.*, COALESCE((
  SELECT json_agg(json_build_object('date', d.date, 'sent', COALESCE(days.sent, 0), 'inbox', COALESCE(days.inbox, 0),
                                    'spam', COALESCE(days.spam, 0), 'promotion', COALESCE(days.promotion, 0)) ORDER BY d.date)
    FROM (SELECT to_char(g, 'YYYY-MM-DD') AS date FROM generate_series($5::date, $6::date, interval '1 day') AS g) d
    LEFT JOIN days ON days.day = d.date), '[]') AS chart_data
  FROM totals t`;

export interface WarmupStatsRow {
  sent: number;
  placed: number;
  inbox: number;
  spam: number;
  promotion: number;
  google: number;
  microsoft: number;
  other: number;
  inboxes: number;
  chart_data: { date: string; sent: number; inbox: number; spam: number; promotion: number }[];
}

export async function warmupStats(options: { db: PrismaClient; workspaceId: string; accountId: string | null; from: Date; to: Date; first: string; last: string }): Promise<WarmupStatsRow> {
  const [row] = await options.db.$queryRawUnsafe<WarmupStatsRow[]>(
    WARMUP_STATS_SQL,
    options.workspaceId,
    options.accountId,
    options.from.toISOString(),
    options.to.toISOString(),
    options.first,
    options.last,
  );
  return row!;
}
