// Test-only: the date-ranged statistics recomputed from the sends, the reference the kept day
// statistics (campaign_day_stats, read by analytics.queries.ts and stats/all) are compared with
// in analytics-day-stats.int.test.ts. Production code reads the kept rows, never these scans.

// Every statement carries the workspace ($1) and counts in SQL. Reply sentiment is the
// sentiment of the replied lead's current label, as in the campaign counters.
const LABEL_JOIN = `
    JOIN leads l ON l.id = s.lead_id
    LEFT JOIN lead_labels ll ON ll.workspace_id = l.workspace_id AND ll.key = l.label`;

/**
 * The campaigns a statistics statement counts: the workspace's, or the one asked for.
 * Sends are read through it, by (campaign_id, sent_at) index ranges.
 */
const CAMPAIGNS_OF = `(SELECT w.id FROM campaigns w WHERE w.workspace_id = $1 AND ($2::text IS NULL OR w.id = $2))`;

/**
 * Each campaign of the workspace (or the one asked for) with its counters over the sends in
 * [$3, $4): one grouped scan of those sends, joined to the campaigns, so a campaign
 * without sends in the range has zeros. Newest campaign first. Parameters: $1 workspace,
 * $2 campaign or null (every campaign), $3 start, $4 end (exclusive).
 */
export const CAMPAIGN_RANGE_STATS_SQL = `
  SELECT k.id AS campaign_id, k.name AS camp_name,
         coalesce(c.sent_count, 0)::int AS sent_count,
         coalesce(c.replied_count, 0)::int AS replied_count,
         coalesce(c.bounced_count, 0)::int AS bounced_count,
         coalesce(c.positive_reply_count, 0)::int AS positive_reply_count,
         coalesce(c.opened_count, 0)::int AS opened_count,
         coalesce(c.unique_opened_count, 0)::int AS unique_opened_count,
         coalesce(c.lead_contacted_count, 0)::int AS lead_contacted_count
    FROM campaigns k
    LEFT JOIN (
      SELECT s.campaign_id,
             count(*) AS sent_count,
             count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL) AS replied_count,
             count(s.bounced_at) AS bounced_count,
             count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'POSITIVE') AS positive_reply_count,
             count(s.opened_at) AS opened_count,
             count(DISTINCT s.lead_id) FILTER (WHERE s.opened_at IS NOT NULL) AS unique_opened_count,
             count(DISTINCT s.lead_id) AS lead_contacted_count
        FROM sent_emails s ${LABEL_JOIN}
       WHERE s.workspace_id = $1 AND s.campaign_id IN ${CAMPAIGNS_OF} AND s.sent_at >= $3 AND s.sent_at < $4
       GROUP BY s.campaign_id
    ) c ON c.campaign_id = k.id
   WHERE k.workspace_id = $1 AND ($2::text IS NULL OR k.id = $2)
   ORDER BY k.created_at DESC, k.id DESC`;

/**
 * One row per UTC day of [$3, $4] (inclusive), zeros included: the days come from
 * generate_series, the counts from one grouped range scan of the sends of the campaign
 * (or of every campaign of the workspace) by send day. Parameters: $1 workspace,
 * $2 campaign or null, $3 first day, $4 last day, $5 start of the first day, $6 end of
 * the last day (exclusive).
 */
export const CAMPAIGN_DAILY_SQL = `
  SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
         coalesce(c.sent_count, 0)::int AS sent_count,
         coalesce(c.opened_count, 0)::int AS opened_count,
         coalesce(c.replied_count, 0)::int AS replied_count,
         coalesce(c.bounced_count, 0)::int AS bounced_count,
         coalesce(c.unsubscribed_count, 0)::int AS unsubscribed_count
    FROM generate_series($3::date, $4::date, interval '1 day') AS d(day)
    LEFT JOIN (
      SELECT (s.sent_at AT TIME ZONE 'UTC')::date AS day,
             count(*) AS sent_count,
             count(s.opened_at) AS opened_count,
             count(s.replied_at) AS replied_count,
             count(s.bounced_at) AS bounced_count,
             count(s.unsubscribed_at) AS unsubscribed_count
        FROM sent_emails s
       WHERE s.workspace_id = $1 AND s.campaign_id IN ${CAMPAIGNS_OF} AND s.sent_at >= $5 AND s.sent_at < $6
       GROUP BY 1
    ) c ON c.day = d.day::date
   ORDER BY d.day`;

/**
 * Workspace totals over sends in [$2, $3), and the campaigns ACTIVE now.
 * Parameters: $1 workspace, $2 start, $3 end.
 */
export const WORKSPACE_SUMMARY_SQL = `
  SELECT count(*)::int AS total_sent,
         count(DISTINCT s.lead_id)::int AS contacted,
         count(DISTINCT s.lead_id) FILTER (WHERE s.opened_at IS NOT NULL)::int AS opened,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL)::int AS replied,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'POSITIVE')::int AS positive_replies,
         count(s.bounced_at)::int AS bounced,
         count(DISTINCT s.lead_id) FILTER (WHERE s.unsubscribed_at IS NOT NULL)::int AS unsubscribed,
         (SELECT count(*)::int FROM campaigns k WHERE k.workspace_id = $1 AND k.type = 'parent' AND k.status = 'ACTIVE') AS active_campaigns
    FROM sent_emails s ${LABEL_JOIN}
   WHERE s.workspace_id = $1 AND s.sent_at >= $2 AND s.sent_at < $3`;

/**
 * Per-campaign counters over sends in [$2, $3): one grouped scan, joined to the
 * campaigns for name and status; busiest first. Parameters: $1 workspace, $2 start, $3 end.
 */
export const WORKSPACE_PERFORMANCE_SQL = `
  SELECT k.id AS campaign_id, k.name AS campaign_name, k.status::text AS status,
         c.sent, c.contacted, c.opened, c.replied, c.positive_replies, c.bounced
    FROM (
      SELECT s.campaign_id,
             count(*)::int AS sent,
             count(DISTINCT s.lead_id)::int AS contacted,
             count(DISTINCT s.lead_id) FILTER (WHERE s.opened_at IS NOT NULL)::int AS opened,
             count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL)::int AS replied,
             count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'POSITIVE')::int AS positive_replies,
             count(s.bounced_at)::int AS bounced
        FROM sent_emails s ${LABEL_JOIN}
       WHERE s.workspace_id = $1 AND s.sent_at >= $2 AND s.sent_at < $3
       GROUP BY s.campaign_id
    ) c
    JOIN campaigns k ON k.id = c.campaign_id AND k.workspace_id = $1
   ORDER BY c.sent DESC, k.name, k.id`;

/**
 * stats/all's workspace totals over sends in [$2, $3) and all of the workspace's leads.
 * Parameters: $1 workspace, $2 start, $3 end.
 */
export const WORKSPACE_STATS_SQL = `
  SELECT (SELECT count(*)::int FROM leads WHERE workspace_id = $1) AS lead_count,
         count(DISTINCT s.lead_id)::int AS contacted_count,
         count(s.id)::int AS sent_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.opened_at IS NOT NULL)::int AS unique_opened_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL)::int AS replied_count,
         count(s.bounced_at)::int AS bounced_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.unsubscribed_at IS NOT NULL)::int AS unsubscribed_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'POSITIVE')::int AS positive_reply_count
    FROM sent_emails s ${LABEL_JOIN}
   WHERE s.workspace_id = $1 AND s.sent_at >= $2 AND s.sent_at < $3`;
