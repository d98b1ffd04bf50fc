import type { Prisma, PrismaClient } from '@outreach/db';
import { notFound } from '../shared/errors';
import { dayNames, isoDay, rate } from './campaign.rules';
import { LABEL_PREFIX } from './subsequence.schemas';
import type { CampaignCounters, CampaignObjectOutput, CampaignScheduleOutput } from './campaign.schemas';

type Db = PrismaClient | Prisma.TransactionClient;

export const campaignNotFound = (campaignId: string, workspaceId: string) =>
  notFound('campaign.not_found', `campaign_id ${campaignId} is not a campaign of workspace ${workspaceId}`);

/** The campaign's id and status when it is in the workspace; 404 otherwise. */
export async function findCampaign(options: { db: Db; workspaceId: string; campaignId: string }) {
  const found = await options.db.campaign.findFirst({
    where: { id: options.campaignId, workspaceId: options.workspaceId },
    select: { id: true, name: true, status: true, type: true, parentId: true, organizationId: true },
  });
  if (!found) throw campaignNotFound(options.campaignId, options.workspaceId);
  return found;
}

/**
 * Lead counters of several campaigns in one grouped scan of leads (campaign_id, status index).
 * Parameters: $1 workspace, $2 campaign ids.
 */
export const CAMPAIGN_LEAD_COUNTS_SQL = `
  SELECT l.campaign_id,
         count(*)::int AS lead_count,
         count(*) FILTER (WHERE l.is_completed)::int AS completed_lead_count
    FROM leads l
   WHERE l.workspace_id = $1 AND l.campaign_id = ANY($2::text[])
   GROUP BY l.campaign_id`;

/**
 * Send counters of several campaigns in one grouped scan of their sends. Reply sentiment
 * is the sentiment of the replied lead's current label. Parameters: $1 workspace,
 * $2 campaign ids, $3 start of today (UTC), $4 start of tomorrow.
 */
export const CAMPAIGN_SEND_COUNTS_SQL = `
  SELECT s.campaign_id,
         count(*)::int AS sent_count,
         count(DISTINCT s.lead_id)::int AS lead_contacted_count,
         count(s.opened_at)::int AS opened_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.opened_at IS NOT NULL)::int AS unique_opened_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL)::int AS replied_count,
         count(s.bounced_at)::int AS bounced_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.unsubscribed_at IS NOT NULL)::int AS unsubscribed_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'POSITIVE')::int AS positive_reply_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'NEGATIVE')::int AS negative_reply_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'NEUTRAL')::int AS neutral_reply_count,
         count(*) FILTER (WHERE s.sent_at >= $3 AND s.sent_at < $4)::int AS email_sent_today
    FROM sent_emails s
    JOIN leads l ON l.id = s.lead_id
    LEFT JOIN lead_labels ll ON ll.workspace_id = l.workspace_id AND ll.key = l.label
   WHERE s.workspace_id = $1 AND s.campaign_id = ANY($2::text[])
   GROUP BY s.campaign_id`;

type SendCounts = Omit<CampaignCounters, 'lead_count' | 'completed_lead_count' | 'open_rate' | 'replied_rate'>;

const ZERO_SENDS: SendCounts = {
  sent_count: 0,
  lead_contacted_count: 0,
  opened_count: 0,
  unique_opened_count: 0,
  replied_count: 0,
  bounced_count: 0,
  unsubscribed_count: 0,
  positive_reply_count: 0,
  negative_reply_count: 0,
  neutral_reply_count: 0,
  email_sent_today: 0,
};

/** The list-all counters of each campaign (all zero for one without leads or sends), in two statements. */
export async function campaignCounters(options: { db: Db; workspaceId: string; campaignIds: string[]; now: Date }): Promise<Map<string, CampaignCounters>> {
  const result = new Map<string, CampaignCounters>();
  if (!options.campaignIds.length) return result;
  const today = new Date(`${options.now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const tomorrow = new Date(today.getTime() + 86_400_000);
  const [leads, sends] = await Promise.all([
    options.db.$queryRawUnsafe<{ campaign_id: string; lead_count: number; completed_lead_count: number }[]>(
      CAMPAIGN_LEAD_COUNTS_SQL,
      options.workspaceId,
      options.campaignIds,
    ),
    options.db.$queryRawUnsafe<(SendCounts & { campaign_id: string })[]>(CAMPAIGN_SEND_COUNTS_SQL, options.workspaceId, options.campaignIds, today, tomorrow),
  ]);
  const leadsBy = new Map(leads.map((l) => [l.campaign_id, l]));
  const sendsBy = new Map(sends.map((s) => [s.campaign_id, s]));
  for (const id of options.campaignIds) {
    const { campaign_id: _l, ...l } = leadsBy.get(id) ?? { campaign_id: id, lead_count: 0, completed_lead_count: 0 };
    const { campaign_id: _s, ...s } = sendsBy.get(id) ?? { campaign_id: id, ...ZERO_SENDS };
    result.set(id, {
      ...l,
      ...s,
      open_rate: rate({ count: s.unique_opened_count, base: s.lead_contacted_count }),
      replied_rate: rate({ count: s.replied_count, base: s.lead_contacted_count }),
    });
  }
  return result;
}

const CAMPAIGN_OBJECT_INCLUDE = {
  tags: { select: { tag: { select: { name: true } } } },
  emailAccounts: { select: { emailAccount: { select: { email: true } } } },
  steps: {
    orderBy: { step: 'asc' },
    select: {
      step: true,
      waitTime: true,
      variations: { where: { isDeleted: false }, select: { label: true, name: true, subject: true, body: true } },
    },
  },
  triggers: { orderBy: { position: 'asc' }, select: { event: true, labels: true, includeText: true, excludeText: true } },
} satisfies Prisma.CampaignInclude;

type CampaignWithRelations = Prisma.CampaignGetPayload<{ include: typeof CAMPAIGN_OBJECT_INCLUDE }>;

const byLabel = (a: { label: string }, b: { label: string }) => a.label.length - b.label.length || a.label.localeCompare(b.label);

function scheduleOf(c: CampaignWithRelations): CampaignScheduleOutput | null {
  if (c.schedule === null || typeof c.schedule !== 'object' || Array.isArray(c.schedule)) return null;
  // Older or partial rows (a subsequence copies its parent's column as is) are read leniently.
  const s = c.schedule as { days?: Record<string, boolean>; timezone?: string; timing?: { from?: string; to?: string } };
  const timezone = s.timezone ?? 'UTC';
  // The vendor's read shape: day names, from_time / to_time, the zone as tz and timezone.
  return {
    days: s.days && typeof s.days === 'object' ? dayNames(s.days) : [],
    from_time: s.timing?.from ?? '',
    to_time: s.timing?.to ?? '',
    tz: timezone,
    timezone,
    daily_limit: c.dailyLimit,
    daily_limit_new_lead: c.dailyLimitNewLead,
    start_date: isoDay(c.startDate),
    end_date: isoDay(c.endDate),
  };
}

function toObject(c: CampaignWithRelations, counters: CampaignCounters): CampaignObjectOutput {
  return {
    id: c.id,
    camp_name: c.name,
    parent_camp_id: c.parentId ?? '',
    campaign_type: c.type,
    organization_id: c.organizationId,
    workspace_id: c.workspaceId,
    status: c.status,
    tags: c.tags.map((t) => t.tag.name).sort(),
    created_at: c.createdAt.toISOString(),
    modified_at: c.updatedAt.toISOString(),
    email_accounts: c.emailAccounts.map((a) => a.emailAccount.email).sort(),
    daily_limit: c.dailyLimit,
    interval_limit_in_min: c.intervalLimitInMin,
    send_as_txt: c.sendAsText,
    is_emailopened_tracking: c.openTracking,
    is_unsubscribed_link: c.unsubscribeLink,
    stop_on_lead_replied: c.stopOnLeadReplied,
    is_pause_on_bouncerate: c.pauseOnBounceRate,
    bounce_rate_limit: c.bounceRateLimit,
    paused_reason: c.pausedReason,
    paused_at: c.pausedAt?.toISOString() ?? null,
    schedule: scheduleOf(c),
    first_wait_time: c.firstWaitTime,
    camp_st_date: isoDay(c.startDate),
    camp_end_date: isoDay(c.endDate),
    events: c.triggers.map((t) => ({
      name: t.event,
      ...(t.event === 'LEAD_LABEL_UPDATED' ? { val: t.labels.map((l) => `${LABEL_PREFIX}${l}`) } : {}),
      ...(t.includeText.length ? { include_text: t.includeText.join(', ') } : {}),
      ...(t.excludeText.length ? { exclude_text: t.excludeText.join(', ') } : {}),
    })),
    // A step kept only for the statistics of its deleted variations is no longer part of the sequence.
    sequences: c.steps
      .filter((s) => s.variations.length > 0)
      .map((s) => ({
        step: s.step,
        wait_time: s.waitTime,
        variations: [...s.variations].sort(byLabel).map((v) => ({ variation: v.label, name: v.name, subject: v.subject, body: v.body })),
      })),
    ...counters,
  };
}

/** Full campaign objects of a workspace, newest first: one read with batched relations and two counter statements. */
export async function listCampaignObjects(options: {
  db: Db;
  where: Prisma.CampaignWhereInput & { workspaceId: string };
  skip: number;
  take: number;
  now: Date;
  /** Newest first unless given; ties by id in the same direction. */
  orderBy?: { sort: 'created_at' | 'modified_at' | 'camp_name'; direction: 'asc' | 'desc' };
}): Promise<CampaignObjectOutput[]> {
  const { sort = 'created_at', direction = 'desc' } = options.orderBy ?? {};
  const column = ({ created_at: 'createdAt', modified_at: 'updatedAt', camp_name: 'name' } as const)[sort];
  const rows = await options.db.campaign.findMany({
    where: options.where,
    include: CAMPAIGN_OBJECT_INCLUDE,
    orderBy: [{ [column]: direction }, { id: direction }],
    skip: options.skip,
    take: options.take,
  });
  const counters = await campaignCounters({ db: options.db, workspaceId: options.where.workspaceId, campaignIds: rows.map((r) => r.id), now: options.now });
  return rows.map((r) => toObject(r, counters.get(r.id)!));
}

/**
 * Workspace totals over sends in [$2, $3) and all of the workspace's leads.
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
    FROM sent_emails s
    JOIN leads l ON l.id = s.lead_id
    LEFT JOIN lead_labels ll ON ll.workspace_id = l.workspace_id AND ll.key = l.label
   WHERE s.workspace_id = $1 AND s.sent_at >= $2 AND s.sent_at < $3`;
