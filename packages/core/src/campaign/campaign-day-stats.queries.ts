// The campaign day statistics (docs/database.md, "Campaign day statistics"): kept by database
// triggers on sent_emails and leads (migration 20261125053811_campaign_day_stats), which append
// each write statement's change per campaign (and per workspace, campaign '') and UTC send day
// to campaign_day_stat_deltas; foldCampaignDayStats moves them into campaign_day_stats. A
// date-ranged read sums the rows of its days, a few hundred per campaign and year, however
// many sends those days hold.
//
// Distinct leads over a range of days [a, b]: a lead's row for a day it was sent to (or opened,
// replied, unsubscribed) names the previous such day of the lead (prev_day, '-infinity' for the
// first), so the leads with such a day in [a, b] are the rows with day in [a, b] and
// prev_day < a: each lead is counted on its first day of the range, and only there. Send
// counts are on the day's '-infinity' row, and are read whatever the range's start.
import type { Prisma, PrismaClient } from '@outreach/db';
import { readCampaignCounters } from './campaign-counters.queries';

type Db = PrismaClient | Prisma.TransactionClient;

const COLUMNS = [
  'sent_count',
  'opened_count',
  'replied_count',
  'bounced_count',
  'unsubscribed_count',
  'contacted_count',
  'opened_lead_count',
  'replied_lead_count',
  'unsubscribed_lead_count',
] as const;

const cols = COLUMNS.join(', ');

/** The campaign id of a workspace's own rows (its distinct leads across campaigns). */
export const WORKSPACE_SCOPE = '';

/** Sums over the days of a range, for one campaign, for a day, or for the workspace. */
export interface DayStatsRow {
  /** Campaign id, or `YYYY-MM-DD` when grouped by day. */
  key: string;
  /** Sends of the range: all, opened, replied, bounced, unsubscribed. */
  sent_count: number;
  opened_count: number;
  replied_count: number;
  bounced_count: number;
  unsubscribed_count: number;
  /** Distinct leads with a send, an opened, replied, unsubscribed send of the range (0 when grouped by day). */
  contacted_count: number;
  opened_lead_count: number;
  replied_lead_count: number;
  unsubscribed_lead_count: number;
  /** Of the replied leads, the ones whose current label has positive sentiment. */
  positive_reply_count: number;
}

/**
 * Folded rows plus pending deltas of the scopes $2 (campaign ids, or '' for the workspace's own
 * rows) for days [$3, $4], grouped by campaign or by day: summed by (key, label) first, so the
 * label join meets a few rows per key. `pending`: deltas read.
 * Parameters: $1 workspace, $2 scope ids, $3 first day, $4 last day.
 */
export function dayStatsSql(groupBy: 'campaign' | 'day'): string {
  // By day: grouped by the date, formatted once per day rather than once per row.
  const key = groupBy === 'campaign' ? 't.campaign_id' : 't.day';
  const shown = groupBy === 'campaign' ? 'g.key' : `to_char(g.key, 'YYYY-MM-DD')`;
  // The scopes as a set (a hash or index lookup each), not an array compared with every row.
  const range = `workspace_id = $1 AND campaign_id IN (SELECT unnest($2::text[])) AND day >= $3::date AND day <= $4::date`;
  return `
  SELECT ${shown} AS key,
         ${COLUMNS.slice(0, 5).map((c) => `coalesce(sum(g.${c}), 0)::int AS ${c}`).join(',\n         ')},
         ${COLUMNS.slice(5).map((c) => `coalesce(sum(g.${c}) FILTER (WHERE g.label = ''), 0)::int AS ${c}`).join(',\n         ')},
         coalesce(sum(g.replied_lead_count) FILTER (WHERE ll.sentiment = 'POSITIVE'), 0)::int AS positive_reply_count,
         coalesce(sum(g.pending), 0)::int AS pending
    FROM (SELECT ${key} AS key, t.label,
                 ${COLUMNS.slice(0, 5).map((c) => `sum(t.${c}) AS ${c}`).join(', ')},
                 ${COLUMNS.slice(5).map((c) => `sum(t.${c}) FILTER (WHERE t.prev_day < $3::date) AS ${c}`).join(',\n                 ')},
                 count(*) FILTER (WHERE t.pending) AS pending
            FROM (SELECT campaign_id, day, label, prev_day, ${cols}, false AS pending FROM campaign_day_stats WHERE ${range}
                  UNION ALL
                  SELECT campaign_id, day, label, prev_day, ${cols}, true FROM campaign_day_stat_deltas WHERE ${range}) t
           GROUP BY 1, 2) g
    LEFT JOIN lead_labels ll ON g.label <> '' AND ll.workspace_id = $1 AND ll.key = g.label
   GROUP BY g.key`;
}

/**
 * Moves every pending delta into campaign_day_stats in one statement, one fold at a time (a
 * transaction-scoped advisory lock, as foldCampaignCounters; a fold finding it taken does
 * nothing). Deltas of a campaign or workspace deleted meanwhile are dropped.
 */
export const FOLD_CAMPAIGN_DAY_STATS_SQL = `
  WITH lock AS (SELECT pg_try_advisory_xact_lock(8031966453) AS held),
       moved AS (DELETE FROM campaign_day_stat_deltas WHERE (SELECT held FROM lock) RETURNING campaign_id, workspace_id, day, label, prev_day, ${cols}),
       summed AS (
         SELECT campaign_id, workspace_id, day, label, prev_day, ${COLUMNS.map((c) => `sum(${c})::int AS ${c}`).join(', ')}
           FROM moved GROUP BY campaign_id, workspace_id, day, label, prev_day)
  INSERT INTO campaign_day_stats (campaign_id, workspace_id, day, label, prev_day, ${cols})
  SELECT campaign_id, workspace_id, day, label, prev_day, ${cols}
    FROM summed s
   WHERE CASE WHEN s.campaign_id = '' THEN EXISTS (SELECT 1 FROM workspaces w WHERE w.id = s.workspace_id)
              ELSE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = s.campaign_id) END
   ORDER BY campaign_id, workspace_id, day, label, prev_day
  ON CONFLICT (campaign_id, workspace_id, day, label, prev_day) DO UPDATE SET
    ${COLUMNS.map((c) => `${c} = campaign_day_stats.${c} + excluded.${c}`).join(',\n    ')}`;

/** A read that met more pending deltas than this folds them (the next reads sum fewer rows). */
export const FOLD_DAY_STATS_AFTER_PENDING = 1000;

/** Folds the pending deltas into campaign_day_stats; the number of rows written. */
export function foldCampaignDayStats(options: { db: Db }): Promise<number> {
  return options.db.$executeRawUnsafe(FOLD_CAMPAIGN_DAY_STATS_SQL);
}

/**
 * The sums over the UTC days [firstDay, lastDay] (`YYYY-MM-DD`, inclusive) of the scopes
 * (campaign ids, or WORKSPACE_SCOPE), by campaign or by day; a key without rows is absent.
 * Folds once many deltas wait.
 */
export async function readCampaignDayStats(options: {
  db: Db;
  workspaceId: string;
  scopes: string[];
  firstDay: string;
  lastDay: string;
  groupBy: 'campaign' | 'day';
}): Promise<DayStatsRow[]> {
  if (!options.scopes.length) return [];
  const rows = await options.db.$queryRawUnsafe<(DayStatsRow & { pending: number })[]>(
    dayStatsSql(options.groupBy),
    options.workspaceId,
    options.scopes,
    options.firstDay,
    options.lastDay,
  );
  let pending = 0;
  const result = rows.map(({ pending: p, ...row }) => {
    pending += p;
    return row;
  });
  if (pending > FOLD_DAY_STATS_AFTER_PENDING) await foldCampaignDayStats({ db: options.db });
  return result;
}

/**
 * The stats/all figures over the UTC days [firstDay, lastDay]: the workspace's own rows, and
 * its leads from the kept campaign counters of its campaigns (a lead is in its campaign's
 * workspace, so these are every lead of the workspace).
 */
export async function allCampaignStats(options: { db: Db; workspaceId: string; firstDay: string; lastDay: string }) {
  const { db, workspaceId } = options;
  const campaigns = await db.campaign.findMany({ where: { workspaceId, deletedAt: null }, select: { id: true } });
  const [counters, [row]] = await Promise.all([
    readCampaignCounters({ db, workspaceId, campaignIds: campaigns.map((c) => c.id) }),
    readCampaignDayStats({ db, workspaceId, scopes: [WORKSPACE_SCOPE], firstDay: options.firstDay, lastDay: options.lastDay, groupBy: 'campaign' }),
  ]);
  let leadCount = 0;
  for (const k of counters.values()) leadCount += k.lead_count;
  return {
    lead_count: leadCount,
    contacted_count: row?.contacted_count ?? 0,
    sent_count: row?.sent_count ?? 0,
    unique_opened_count: row?.opened_lead_count ?? 0,
    replied_count: row?.replied_lead_count ?? 0,
    bounced_count: row?.bounced_count ?? 0,
    unsubscribed_count: row?.unsubscribed_lead_count ?? 0,
    positive_reply_count: row?.positive_reply_count ?? 0,
  };
}
