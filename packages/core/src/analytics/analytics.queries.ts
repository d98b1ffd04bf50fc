import type { Prisma, PrismaClient } from '@outreach/db';
import { readCampaignCounters, readCampaignDayStats, WORKSPACE_SCOPE, type DayStatsRow } from '../campaign/index';

import type { CampaignCountOutput, CampaignRangeStats, CampaignSummaryOutput, DailyStats } from './analytics.schemas';

type Db = PrismaClient | Prisma.TransactionClient;

// Every statement carries the workspace ($1) and counts in SQL. Reply sentiment is the
// sentiment of the replied lead's current label, as in the campaign counters.
const LABEL_JOIN = `
    JOIN leads l ON l.id = s.lead_id
    LEFT JOIN lead_labels ll ON ll.workspace_id = l.workspace_id AND ll.key = l.label`;

/**
 * Whole-life counters of one campaign recomputed from its sends and leads; no row when it is
 * not in the workspace. The reference the kept counters (campaignSummary) are tested against.
 * Parameters: $1 workspace, $2 campaign.
 */
export const CAMPAIGN_SUMMARY_SQL = `
  SELECT k.name AS campaign_name,
         (SELECT count(*)::int FROM leads cl
           WHERE cl.workspace_id = $1 AND cl.campaign_id = k.id AND (cl.is_completed OR cl.status = 'COMPLETED')) AS completed,
         c.contacted, c.leads_who_read, c.leads_who_replied, c.bounced, c.unsubscribed, c.positive_reply_count, c.total_sent_emails
    FROM campaigns k
   CROSS JOIN LATERAL (
     SELECT count(DISTINCT s.lead_id)::int AS contacted,
            count(DISTINCT s.lead_id) FILTER (WHERE s.opened_at IS NOT NULL)::int AS leads_who_read,
            count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL)::int AS leads_who_replied,
            count(DISTINCT s.lead_id) FILTER (WHERE s.bounced_at IS NOT NULL)::int AS bounced,
            count(DISTINCT s.lead_id) FILTER (WHERE s.unsubscribed_at IS NOT NULL)::int AS unsubscribed,
            count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'POSITIVE')::int AS positive_reply_count,
            count(*)::int AS total_sent_emails
       FROM sent_emails s ${LABEL_JOIN}
      WHERE s.workspace_id = $1 AND s.campaign_id = k.id
   ) c
   WHERE k.id = $2 AND k.workspace_id = $1`;

/** The statement's row is the answer's shape. */
export type CampaignSummaryRow = CampaignSummaryOutput;

/** The whole-life counters of one campaign, from the kept campaign counters; null when it is not in the workspace. */
export async function campaignSummary(options: { db: Db; workspaceId: string; campaignId: string }): Promise<CampaignSummaryRow | null> {
  const [campaign, counters] = await Promise.all([
    options.db.campaign.findFirst({ where: { id: options.campaignId, workspaceId: options.workspaceId, deletedAt: null }, select: { name: true } }),
    readCampaignCounters({ db: options.db, workspaceId: options.workspaceId, campaignIds: [options.campaignId] }),
  ]);
  if (!campaign) return null;
  const k = counters.get(options.campaignId)!;
  return {
    campaign_name: campaign.name,
    completed: k.finished_lead_count,
    contacted: k.contacted_count,
    leads_who_read: k.unique_opened_count,
    leads_who_replied: k.replied_count,
    bounced: k.bounced_lead_count,
    unsubscribed: k.unsubscribed_count,
    positive_reply_count: k.positive_reply_count,
    total_sent_emails: k.sent_count,
  };
}

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

/** The statement's row is the answer's shape. */
export type CampaignRangeRow = CampaignRangeStats;

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

/** The statement's row is the answer's shape. */
export type DailyRow = DailyStats;

/**
 * Campaigns (not subsequences) of the workspace created in [$2, $3), by status.
 * Parameters: $1 workspace, $2 start, $3 end.
 */
export const CAMPAIGN_COUNT_SQL = `
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE k.status = 'ACTIVE')::int AS active,
         count(*) FILTER (WHERE k.status = 'PAUSED')::int AS paused,
         count(*) FILTER (WHERE k.status = 'COMPLETED')::int AS completed,
         count(*) FILTER (WHERE k.status = 'ARCHIVED')::int AS archived,
         count(*) FILTER (WHERE k.status = 'DRAFT')::int AS draft
    FROM campaigns k
   WHERE k.workspace_id = $1 AND k.type = 'parent' AND k.deleted_at IS NULL AND k.created_at >= $2 AND k.created_at < $3`;

/** The statement's row is the answer's shape. */
export type CampaignCountRow = CampaignCountOutput;

export async function campaignCount(options: { db: Db; workspaceId: string; from: Date; to: Date }): Promise<CampaignCountRow> {
  const [row] = await options.db.$queryRawUnsafe<CampaignCountRow[]>(CAMPAIGN_COUNT_SQL, options.workspaceId, options.from, options.to);
  return row!;
}

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

export interface WorkspaceSummaryRow {
  total_sent: number;
  contacted: number;
  opened: number;
  replied: number;
  positive_replies: number;
  bounced: number;
  unsubscribed: number;
  active_campaigns: number;
}

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

export interface PerformanceRow {
  campaign_id: string;
  campaign_name: string;
  status: 'DRAFT' | 'ACTIVE' | 'PAUSED' | 'COMPLETED' | 'ARCHIVED';
  sent: number;
  contacted: number;
  opened: number;
  replied: number;
  positive_replies: number;
  bounced: number;
}

// The date-ranged statistics read the kept day statistics (campaign-day-stats.queries.ts):
// the statements above recompute the same figures from the sends, and the tests compare both.
// Ranges are whole UTC days, as the statements' bounds are, so the kept rows (by UTC send day)
// answer every range exactly.

/** A campaign's figures from its kept day-statistics sums (zeros without rows). */
function rangeStatsOf(campaign: { id: string; name: string }, k: DayStatsRow | undefined): CampaignRangeRow {
  return {
    campaign_id: campaign.id,
    camp_name: campaign.name,
    sent_count: k?.sent_count ?? 0,
    replied_count: k?.replied_lead_count ?? 0,
    bounced_count: k?.bounced_count ?? 0,
    positive_reply_count: k?.positive_reply_count ?? 0,
    opened_count: k?.opened_count ?? 0,
    unique_opened_count: k?.opened_lead_count ?? 0,
    lead_contacted_count: k?.contacted_count ?? 0,
  };
}

/**
 * Each campaign of the workspace (or the one asked for), newest first, with its figures over
 * the UTC days [firstDay, lastDay], and the range's days (zeros included) summed over the same
 * campaigns; no campaign when the one asked for is not in the workspace.
 */
export async function campaignRangeStats(options: {
  db: Db;
  workspaceId: string;
  campaignId: string | null;
  firstDay: string;
  lastDay: string;
}): Promise<{ rows: CampaignRangeRow[]; daily: DailyRow[] }> {
  const { db, workspaceId, firstDay, lastDay } = options;
  const campaigns = await db.campaign.findMany({
    where: { workspaceId, deletedAt: null, ...(options.campaignId ? { id: options.campaignId } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, name: true },
  });
  const scopes = campaigns.map((c) => c.id);
  const [byCampaign, byDay] = await Promise.all([
    readCampaignDayStats({ db, workspaceId, scopes, firstDay, lastDay, groupBy: 'campaign' }),
    readCampaignDayStats({ db, workspaceId, scopes, firstDay, lastDay, groupBy: 'day' }),
  ]);
  const kept = new Map(byCampaign.map((k) => [k.key, k]));
  const days = new Map(byDay.map((k) => [k.key, k]));
  const daily: DailyRow[] = [];
  for (let t = Date.parse(`${firstDay}T00:00:00Z`); t <= Date.parse(`${lastDay}T00:00:00Z`); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    const k = days.get(date);
    daily.push({
      date,
      sent_count: k?.sent_count ?? 0,
      opened_count: k?.opened_count ?? 0,
      replied_count: k?.replied_count ?? 0,
      bounced_count: k?.bounced_count ?? 0,
      unsubscribed_count: k?.unsubscribed_count ?? 0,
    });
  }
  return { rows: campaigns.map((c) => rangeStatsOf(c, kept.get(c.id))), daily };
}

/** Workspace totals over the UTC days [firstDay, lastDay] (its own rows), and the campaigns ACTIVE now. */
export async function workspaceSummary(options: { db: Db; workspaceId: string; firstDay: string; lastDay: string }): Promise<WorkspaceSummaryRow> {
  const { db, workspaceId } = options;
  const [[k], activeCampaigns] = await Promise.all([
    readCampaignDayStats({ db, workspaceId, scopes: [WORKSPACE_SCOPE], firstDay: options.firstDay, lastDay: options.lastDay, groupBy: 'campaign' }),
    db.campaign.count({ where: { workspaceId, type: 'parent', status: 'ACTIVE' } }),
  ]);
  return {
    total_sent: k?.sent_count ?? 0,
    contacted: k?.contacted_count ?? 0,
    opened: k?.opened_lead_count ?? 0,
    replied: k?.replied_lead_count ?? 0,
    positive_replies: k?.positive_reply_count ?? 0,
    bounced: k?.bounced_count ?? 0,
    unsubscribed: k?.unsubscribed_lead_count ?? 0,
    active_campaigns: activeCampaigns,
  };
}

/**
 * The campaigns with a send in the UTC days [firstDay, lastDay], busiest first, then by name
 * and id: the campaigns are read in (name, id) order, the database's collation, and a stable
 * sort by sends keeps that order among equals.
 */
export async function workspacePerformance(options: { db: Db; workspaceId: string; firstDay: string; lastDay: string }): Promise<PerformanceRow[]> {
  const { db, workspaceId } = options;
  const campaigns = await db.campaign.findMany({
    where: { workspaceId, deletedAt: null },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, status: true },
  });
  const stats = await readCampaignDayStats({ db, workspaceId, scopes: campaigns.map((c) => c.id), firstDay: options.firstDay, lastDay: options.lastDay, groupBy: 'campaign' });
  const kept = new Map(stats.map((k) => [k.key, k]));
  const rows: PerformanceRow[] = [];
  for (const c of campaigns) {
    const k = kept.get(c.id);
    if (!k || k.sent_count <= 0) continue;
    rows.push({
      campaign_id: c.id,
      campaign_name: c.name,
      status: c.status,
      sent: k.sent_count,
      contacted: k.contacted_count,
      opened: k.opened_lead_count,
      replied: k.replied_lead_count,
      positive_replies: k.positive_reply_count,
      bounced: k.bounced_count,
    });
  }
  return rows.sort((a, b) => b.sent - a.sent);
}
