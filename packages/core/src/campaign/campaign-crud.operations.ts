import { newId, type Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { invalid, invalidField } from '../shared/errors';
import {
  AllStatsInput,
  AllStatsOutput,
  BulkTagsInput,
  BulkTagsOutput,
  CampaignAccountsOutput,
  CampaignNameOutput,
  CampaignRefInput,
  CampaignStatusOutput,
  CreateCampaignInput,
  DuplicateCampaignInput,
  IdOutput,
  ListAllCampaignsInput,
  ListAllCampaignsOutput,
  ListCampaignsInput,
  ListCampaignsOutput,
  SetNameInput,
  SuccessOutput,
} from './campaign.schemas';
import { campaignNotFound, findCampaign, listCampaignObjects } from './campaign.queries';
import { allCampaignStats } from './campaign-day-stats.queries';
import { rate } from './campaign.rules';

const NOT_FOUND_NOTE = 'A campaign of another workspace (or organization) answers 404 `campaign.not_found`, as an unknown id does.';

export const createCampaign = defineOperation({
  name: 'campaign.create',
  kind: 'mutation',
  summary: 'Create a campaign',
  description: [
    'Creates a parent campaign as a DRAFT with the default settings (daily limit 100, 10 minutes between sends, HTML, open tracking on, unsubscribe link on, stop on reply on, no schedule, no mailboxes, no sequence). `camp_name` is trimmed, 1 to 200 characters; names need not be unique.',
    'Set the sequence, schedule and mailboxes with the update operation, then launch.',
  ].join('\n\n'),
  input: CreateCampaignInput,
  output: IdOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_CREATE',
  async run(ctx, input) {
    const id = newId();
    await ctx.db.campaign.create({
      data: { id, organizationId: ctx.actor.organizationId, workspaceId: input.workspace_id, name: input.camp_name, type: 'parent', status: 'DRAFT' },
    });
    return { status: 'success' as const, id };
  },
});

export const listCampaigns = defineOperation({
  name: 'campaign.list',
  kind: 'query',
  summary: 'List campaigns (deprecated)',
  description: [
    'Deprecated: use list-all. Campaigns and subsequences of the workspace, newest first (ties by id), paged with `skip` and `limit` (at most 1,000; a larger limit is read as 1,000).',
    '`tags` are tag names in alphabetical order; `last_lead_sent` and `last_lead_replied` are ISO 8601 timestamps, null until the first send or reply.',
  ].join('\n\n'),
  input: ListCampaignsInput,
  output: ListCampaignsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const rows = await ctx.db.campaign.findMany({
      where: { workspaceId: input.workspace_id, deletedAt: null },
      select: { id: true, status: true, name: true, lastLeadSentAt: true, lastLeadRepliedAt: true, tags: { select: { tag: { select: { name: true } } } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: input.skip,
      take: input.limit,
    });
    return rows.map((r) => ({
      id: r.id,
      status: r.status,
      name: r.name,
      tags: r.tags.map((t) => t.tag.name).sort(),
      last_lead_sent: r.lastLeadSentAt?.toISOString() ?? null,
      last_lead_replied: r.lastLeadRepliedAt?.toISOString() ?? null,
    }));
  },
});

export const listAllCampaigns = defineOperation({
  name: 'campaign.listAll',
  kind: 'query',
  summary: 'List all campaigns',
  description: [
    'Full campaign objects of the workspace, newest first (ties by id) unless `sort` (`created_at`, `modified_at`, `camp_name`) and `direction` (`asc`, `desc`) say otherwise, paged with `skip` and `limit` (at most 1,000; a larger limit is read as 1,000); filters: `campaign_id`, `status` (DRAFT is accepted as well as the vendor\'s four), `campaign_type` (`all` by default, `parent`, `subseq`), `name` (a substring of the name, case-insensitive), `parent_camp_id` (the subsequences of that parent; our addition). An unknown `campaign_id` (or another workspace\'s) gives an empty list. Without `status`, every status is listed, DRAFT and ARCHIVED included.',
    '`parent_camp_id` is "" for parent campaigns. `tags` are tag names and `email_accounts` mailbox addresses, alphabetically. `schedule` is null until a schedule is set, then in the vendor\'s read shape: `days` as day names (`["Monday", …]`, Monday first), `from_time` / `to_time` (HH:MM, 24 h), `tz` and `timezone` (the same IANA zone); `daily_limit`, `daily_limit_new_lead`, `start_date` and `end_date` inside it mirror the campaign\'s own fields. (Writes take the write shape: `days` {"1": true, …}, `timezone`, `timing` { from, to }.) `camp_st_date` and `camp_end_date` are YYYY-MM-DD or null. `events` lists a subsequence\'s triggers (`val` as LEAD_MARKED_AS_<label key>, phrases joined with ", "); `sequences` the current sequence without deleted variations.',
    'Counters, computed on each request from the leads and sends: `lead_count` leads in the campaign; `completed_lead_count` leads whose sequence is completed; `lead_contacted_count` distinct leads with at least one send; `sent_count` sends; `opened_count` sends opened at least once; `unique_opened_count` distinct leads with an opened send; `replied_count` distinct leads that replied; `bounced_count` sends that bounced; `unsubscribed_count` distinct leads that unsubscribed; `positive_reply_count`, `negative_reply_count`, `neutral_reply_count` replied leads by the sentiment of their current label (unlabelled replied leads are in none); `email_sent_today` sends since 00:00 UTC; `open_rate` = unique_opened_count and `replied_rate` = replied_count, each / lead_contacted_count × 100, rounded to 2 decimals, 0 when no lead was contacted.',
  ].join('\n\n'),
  input: ListAllCampaignsInput,
  output: ListAllCampaignsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    return listCampaignObjects({
      db: ctx.db,
      where: {
        workspaceId: input.workspace_id,
        ...(input.campaign_id ? { id: input.campaign_id } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.campaign_type !== 'all' ? { type: input.campaign_type } : {}),
        ...(input.parent_camp_id ? { parentId: input.parent_camp_id } : {}),
        ...(input.name ? { name: { contains: input.name, mode: 'insensitive' as const } } : {}),
      },
      orderBy: { sort: input.sort, direction: input.direction },
      skip: input.skip,
      take: input.limit,
      now: ctx.ports.clock.now(),
    });
  },
});

export const getCampaignName = defineOperation({
  name: 'campaign.getName',
  kind: 'query',
  summary: 'Get campaign name',
  description: NOT_FOUND_NOTE,
  input: CampaignRefInput,
  output: CampaignNameOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const c = await findCampaign({ db: ctx.db, workspaceId: input.workspace_id, campaignId: input.campaign_id });
    return { campaign_id: c.id, campaign_name: c.name };
  },
});

export const getCampaignStatus = defineOperation({
  name: 'campaign.getStatus',
  kind: 'query',
  summary: 'Get campaign status',
  description: `One of DRAFT, ACTIVE, PAUSED, COMPLETED, ARCHIVED. ${NOT_FOUND_NOTE}`,
  input: CampaignRefInput,
  output: CampaignStatusOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const c = await findCampaign({ db: ctx.db, workspaceId: input.workspace_id, campaignId: input.campaign_id });
    return { campaign_id: c.id, status: c.status };
  },
});

export const getCampaignAccounts = defineOperation({
  name: 'campaign.getAccounts',
  kind: 'query',
  summary: 'Get campaign email accounts',
  description: `The addresses of the mailboxes the campaign sends from, alphabetically (an empty array when none). ${NOT_FOUND_NOTE}`,
  input: CampaignRefInput,
  output: CampaignAccountsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const c = await ctx.db.campaign.findFirst({
      where: { id: input.campaign_id, workspaceId: input.workspace_id, deletedAt: null },
      select: { emailAccounts: { select: { emailAccount: { select: { email: true } } } } },
    });
    if (!c) throw campaignNotFound(input.campaign_id, input.workspace_id);
    return c.emailAccounts.map((a) => a.emailAccount.email).sort();
  },
});

export const setCampaignName = defineOperation({
  name: 'campaign.setName',
  kind: 'mutation',
  summary: 'Set campaign name',
  description: `Renames a campaign or subsequence in any status; \`name\` is trimmed, 1 to 200 characters. ${NOT_FOUND_NOTE}`,
  input: SetNameInput,
  output: SuccessOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const updated = await ctx.db.campaign.updateMany({ where: { id: input.campaign_id, workspaceId: input.workspace_id }, data: { name: input.name } });
    if (!updated.count) throw campaignNotFound(input.campaign_id, input.workspace_id);
    return { status: 'success' as const };
  },
});

/** Copies one campaign's settings, tags, mailboxes and live sequence to a new DRAFT row. */
async function copyCampaign(options: { tx: Tx; workspaceId: string; sourceId: string; name: string; parentId: string | null }): Promise<string> {
  const { tx } = options;
  const source = await tx.campaign.findFirstOrThrow({
    where: { id: options.sourceId, workspaceId: options.workspaceId },
    include: {
      tags: true,
      emailAccounts: true,
      steps: { orderBy: { step: 'asc' }, include: { variations: { where: { isDeleted: false } } } },
    },
  });
  const id = newId();
  await tx.campaign.create({
    data: {
      id,
      organizationId: source.organizationId,
      workspaceId: source.workspaceId,
      parentId: options.parentId,
      type: source.type,
      status: 'DRAFT',
      name: options.name,
      dailyLimit: source.dailyLimit,
      dailyLimitNewLead: source.dailyLimitNewLead,
      intervalLimitInMin: source.intervalLimitInMin,
      sendAsText: source.sendAsText,
      openTracking: source.openTracking,
      unsubscribeLink: source.unsubscribeLink,
      stopOnLeadReplied: source.stopOnLeadReplied,
      pauseOnBounceRate: source.pauseOnBounceRate,
      bounceRateLimit: source.bounceRateLimit,
      firstWaitTime: source.firstWaitTime,
      schedule: source.schedule ?? undefined,
      startDate: source.startDate,
      endDate: source.endDate,
    },
  });
  if (source.tags.length) await tx.campaignTag.createMany({ data: source.tags.map((t) => ({ campaignId: id, tagId: t.tagId })) });
  if (source.emailAccounts.length) {
    await tx.campaignEmailAccount.createMany({ data: source.emailAccounts.map((a) => ({ campaignId: id, emailAccountId: a.emailAccountId })) });
  }
  // Steps kept only for deleted variations' statistics are not part of the sequence; the copy is renumbered 1..n.
  const live = source.steps.filter((s) => s.variations.length > 0);
  const steps = live.map((s, i) => ({ id: newId(), workspaceId: source.workspaceId, campaignId: id, step: i + 1, waitTime: s.waitTime }));
  if (steps.length) await tx.sequenceStep.createMany({ data: steps });
  const variations = live.flatMap((s, i) =>
    s.variations.map((v) => ({
      id: newId(),
      workspaceId: source.workspaceId,
      campaignId: id,
      stepId: steps[i]!.id,
      label: v.label,
      name: v.name,
      subject: v.subject,
      body: v.body,
      isActive: v.isActive,
    })),
  );
  if (variations.length) await tx.variation.createMany({ data: variations });
  return id;
}

export const duplicateCampaign = defineOperation({
  name: 'campaign.duplicate',
  kind: 'mutation',
  summary: 'Duplicate a campaign',
  description: [
    'Copies a campaign into a new DRAFT named `camp_name`: its sending settings, schedule and dates, tags, mailboxes and current sequence (deleted variations are left out, steps renumbered 1..n, variations keep their labels and active flags). Leads, sends and statistics are not copied.',
    'With `duplicate_subsequences` "yes", each subsequence of a parent campaign is copied the same way under the copy, with its trigger events (pointing at the copy), keeping its name. Duplicating a subsequence makes a sibling under the same parent with the same triggers; `duplicate_subsequences` is then ignored.',
    NOT_FOUND_NOTE,
  ].join('\n\n'),
  input: DuplicateCampaignInput,
  output: IdOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_CREATE',
  async run(ctx, input) {
    const id = await ctx.db.$transaction(async (tx) => {
      const source = await findCampaign({ db: tx, workspaceId: input.workspace_id, campaignId: input.campaign_id });
      const copyId = await copyCampaign({ tx, workspaceId: input.workspace_id, sourceId: source.id, name: input.camp_name, parentId: source.parentId });
      const copyTriggers = async (fromId: string, toId: string, parentId: string) => {
        const triggers = await tx.subsequenceTrigger.findMany({ where: { subsequenceId: fromId, workspaceId: input.workspace_id }, orderBy: { position: 'asc' } });
        if (!triggers.length) return;
        await tx.subsequenceTrigger.createMany({
          data: triggers.map((t) => ({ ...t, id: newId(), subsequenceId: toId, parentCampaignId: parentId })),
        });
      };
      if (source.type === 'subseq' && source.parentId) {
        await copyTriggers(source.id, copyId, source.parentId);
      } else if (input.duplicate_subsequences) {
        const subs = await tx.campaign.findMany({ where: { parentId: source.id, workspaceId: input.workspace_id }, orderBy: { createdAt: 'asc' }, select: { id: true, name: true } });
        for (const sub of subs) {
          const subCopy = await copyCampaign({ tx, workspaceId: input.workspace_id, sourceId: sub.id, name: sub.name, parentId: copyId });
          await copyTriggers(sub.id, subCopy, copyId);
        }
      }
      return copyId;
    });
    return { status: 'success' as const, id };
  },
});

export const bulkAssignCampaignTags = defineOperation({
  name: 'campaign.bulkAssignTags',
  kind: 'mutation',
  summary: 'Assign or unassign a tag on campaigns',
  description: [
    '`ASSIGN` links the tag to each listed campaign, `UNASSIGN` removes the link. `updated_count` counts the links actually added or removed (a campaign that already had, or did not have, the tag is not counted). Repeated ids count once.',
    'Every id must be a campaign of the workspace, otherwise 400 naming each offending `ids.<i>` and nothing changes; `tag_id` must be a tag of the workspace (400 on `tag_id`).',
  ].join('\n\n'),
  input: BulkTagsInput,
  output: BulkTagsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const ids = [...new Set(input.ids)];
    return ctx.db.$transaction(async (tx) => {
      const [tag, found] = await Promise.all([
        tx.tag.findFirst({ where: { id: input.tag_id, workspaceId: input.workspace_id }, select: { id: true } }),
        tx.campaign.findMany({ where: { id: { in: ids }, workspaceId: input.workspace_id }, select: { id: true } }),
      ]);
      if (!tag) throw invalidField('tag_id', `is not a tag of workspace ${input.workspace_id}`, 'tag.not_found');
      const known = new Set(found.map((c) => c.id));
      const fieldErrors = input.ids.flatMap((id, i) => (known.has(id) ? [] : [{ field: `ids.${i}`, message: `is not a campaign of workspace ${input.workspace_id}` }]));
      if (fieldErrors.length) throw invalid('campaign.not_found', fieldErrors.map((f) => `${f.field} ${f.message}`).join('; '), fieldErrors);
      const result =
        input.action === 'ASSIGN'
          ? await tx.campaignTag.createMany({ data: ids.map((campaignId) => ({ campaignId, tagId: tag.id })), skipDuplicates: true })
          : await tx.campaignTag.deleteMany({ where: { tagId: tag.id, campaignId: { in: ids } } });
      return { status: 'success' as const, updated_count: result.count };
    });
  },
});

export const getAllCampaignStats = defineOperation({
  name: 'campaign.statsAll',
  kind: 'query',
  summary: 'Get statistics of all campaigns',
  description: [
    'Totals over the workspace\'s campaigns and subsequences. `start_date` and `end_date` are inclusive UTC days (`end_date` omitted: up to now); the send counters count sends whose send time is in the range, with their opens, replies, bounces and unsubscribes whenever they happened.',
    '`lead_count` is every lead currently in the workspace\'s campaigns (not bounded by the range); `contacted_count` distinct leads sent to in the range; `sent_count` sends; `unique_opened_count` distinct leads with an opened send; `replied_count` distinct leads that replied; `bounced_count` sends that bounced; `unsubscribed_count` distinct leads that unsubscribed; `positive_reply_count` replied leads whose current label has positive sentiment.',
    'Rates, × 100 and rounded to 2 decimals, 0 when the base is 0: `open_rate` = unique_opened_count / contacted_count; `reply_rate` = replied_count / contacted_count; `bounce_rate` = bounced_count / sent_count.',
  ].join('\n\n'),
  input: AllStatsInput,
  output: AllStatsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    // The kept day statistics (campaign-day-stats.queries.ts); WORKSPACE_STATS_SQL (in
    // analytics/analytics-recompute.test-helpers.ts) is the recomputation they are tested against. No end_date: every day up to the last the
    // recomputation's bound (9999-12-31, exclusive) reaches.
    const s = await allCampaignStats({ db: ctx.db, workspaceId: input.workspace_id, firstDay: input.start_date, lastDay: input.end_date ?? '9999-12-30' });
    return {
      ...s,
      open_rate: rate({ count: s.unique_opened_count, base: s.contacted_count }),
      reply_rate: rate({ count: s.replied_count, base: s.contacted_count }),
      bounce_rate: rate({ count: s.bounced_count, base: s.sent_count }),
    };
  },
});
