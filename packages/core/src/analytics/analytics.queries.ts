import type { Prisma, PrismaClient } from '@outreach/db';
import { readCampaignCounters, readCampaignDayStats, WORKSPACE_SCOPE, type DayStatsRow } from '../campaign/index';

import type { CampaignCountOutput, CampaignRangeStats, CampaignSummaryOutput, DailyStats } from './analytics.schemas';

type Db = PrismaClient | Prisma.TransactionClient;

/** A campaign summary row is the answer's shape. */
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

/** A campaign's range row, and a day's, are the answer's shapes. */
export type CampaignRangeRow = CampaignRangeStats;
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
// analytics-recompute.test-helpers.ts recomputes the same figures from the sends, and the tests compare both.
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
