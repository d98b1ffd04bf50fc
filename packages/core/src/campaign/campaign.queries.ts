import type { Prisma, PrismaClient } from '@outreach/db';
import { notFound } from '../shared/errors';
import { dayNames, isoDay, rate } from './campaign.rules';
import { LABEL_PREFIX } from './subsequence.schemas';
import type { CampaignCounters, CampaignObjectOutput, CampaignScheduleOutput } from './campaign.schemas';
import { readCampaignCounters } from './campaign-counters.queries';

type Db = PrismaClient | Prisma.TransactionClient;

export const campaignNotFound = (campaignId: string, workspaceId: string) =>
  notFound('campaign.not_found', `campaign_id ${campaignId} is not a campaign of workspace ${workspaceId}`);

/** The campaign's id and status when it is in the workspace; 404 otherwise. */
export async function findCampaign(options: { db: Db; workspaceId: string; campaignId: string }) {
  const found = await options.db.campaign.findFirst({
    where: { id: options.campaignId, workspaceId: options.workspaceId, deletedAt: null },
    select: { id: true, name: true, status: true, type: true, parentId: true, organizationId: true },
  });
  if (!found) throw campaignNotFound(options.campaignId, options.workspaceId);
  return found;
}

/**
 * Sends of today (UTC) per campaign: a range of each campaign's sends by send time, index
 * only (sent_emails_campaign_id_sent_at_… covers it). The campaigns are the workspace's.
 * Parameters: $1 workspace, $2 campaign ids, $3 start of today, $4 start of tomorrow.
 */
export const CAMPAIGN_SENT_TODAY_SQL = `
  SELECT s.campaign_id, count(*)::int AS email_sent_today
    FROM sent_emails s
   WHERE s.campaign_id IN (SELECT k.id FROM campaigns k WHERE k.workspace_id = $1 AND k.id = ANY($2::text[]))
     AND s.sent_at >= $3 AND s.sent_at < $4
   GROUP BY s.campaign_id`;

/**
 * The list-all counters of each campaign (all zero for one without leads or sends): the kept
 * counters and today's sends, two statements whatever the campaigns' size.
 */
export async function campaignCounters(options: { db: Db; workspaceId: string; campaignIds: string[]; now: Date }): Promise<Map<string, CampaignCounters>> {
  const result = new Map<string, CampaignCounters>();
  if (!options.campaignIds.length) return result;
  const today = new Date(`${options.now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const tomorrow = new Date(today.getTime() + 86_400_000);
  const [kept, todays] = await Promise.all([
    readCampaignCounters({ db: options.db, workspaceId: options.workspaceId, campaignIds: options.campaignIds }),
    options.db.$queryRawUnsafe<{ campaign_id: string; email_sent_today: number }[]>(CAMPAIGN_SENT_TODAY_SQL, options.workspaceId, options.campaignIds, today, tomorrow),
  ]);
  const todayBy = new Map(todays.map((t) => [t.campaign_id, t.email_sent_today]));
  for (const id of options.campaignIds) {
    const k = kept.get(id)!;
    result.set(id, {
      lead_count: k.lead_count,
      completed_lead_count: k.completed_lead_count,
      sent_count: k.sent_count,
      lead_contacted_count: k.contacted_count,
      opened_count: k.opened_count,
      unique_opened_count: k.unique_opened_count,
      replied_count: k.replied_count,
      bounced_count: k.bounced_count,
      unsubscribed_count: k.unsubscribed_count,
      positive_reply_count: k.positive_reply_count,
      negative_reply_count: k.negative_reply_count,
      neutral_reply_count: k.neutral_reply_count,
      email_sent_today: todayBy.get(id) ?? 0,
      open_rate: rate({ count: k.unique_opened_count, base: k.contacted_count }),
      replied_rate: rate({ count: k.replied_count, base: k.contacted_count }),
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

/**
 * The relations of a page of campaigns, read side by side rather than one level after another
 * (as an include would): tags, mailboxes, the sequence, the triggers.
 */
async function campaignRelations(options: { db: Db; workspaceId: string; campaignIds: string[] }) {
  const { db, workspaceId, campaignIds: ids } = options;
  const [tags, accounts, steps, triggers] = await Promise.all([
    db.campaignTag.findMany({ where: { campaignId: { in: ids }, campaign: { workspaceId } }, select: { campaignId: true, tag: { select: { name: true } } } }),
    db.campaignEmailAccount.findMany({
      where: { campaignId: { in: ids }, campaign: { workspaceId } },
      select: { campaignId: true, emailAccount: { select: { email: true } } },
    }),
    db.sequenceStep.findMany({
      where: { campaignId: { in: ids }, workspaceId },
      orderBy: { step: 'asc' },
      select: { campaignId: true, ...CAMPAIGN_OBJECT_INCLUDE.steps.select },
    }),
    db.subsequenceTrigger.findMany({
      where: { subsequenceId: { in: ids }, workspaceId },
      orderBy: { position: 'asc' },
      select: { subsequenceId: true, ...CAMPAIGN_OBJECT_INCLUDE.triggers.select },
    }),
  ]);
  const group = <T, K extends keyof T>(items: T[], key: K) => {
    const by = new Map<T[K], Omit<T, K>[]>();
    for (const { [key]: k, ...rest } of items) {
      const list = by.get(k) ?? [];
      list.push(rest as Omit<T, K>);
      by.set(k, list);
    }
    return (id: T[K]) => by.get(id) ?? [];
  };
  return { tags: group(tags, 'campaignId'), emailAccounts: group(accounts, 'campaignId'), steps: group(steps, 'campaignId'), triggers: group(triggers, 'subsequenceId') };
}

/**
 * Full campaign objects of a workspace, newest first: the page of campaigns, then their relations
 * and their counters (kept counters, today's sends) side by side.
 */
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
    where: { ...options.where, deletedAt: null },
    orderBy: [{ [column]: direction }, { id: direction }],
    skip: options.skip,
    take: options.take,
  });
  const ids = rows.map((r) => r.id);
  const workspaceId = options.where.workspaceId;
  const [relations, counters] = await Promise.all([
    campaignRelations({ db: options.db, workspaceId, campaignIds: ids }),
    campaignCounters({ db: options.db, workspaceId, campaignIds: ids, now: options.now }),
  ]);
  return rows.map((r) =>
    toObject(
      { ...r, tags: relations.tags(r.id), emailAccounts: relations.emailAccounts(r.id), steps: relations.steps(r.id), triggers: relations.triggers(r.id) },
      counters.get(r.id)!,
    ),
  );
}
