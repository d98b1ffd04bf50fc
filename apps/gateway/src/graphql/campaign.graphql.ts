import { z } from 'zod';
import { assertWorkspaceAccess, campaignCounters, type CampaignCounters, operations, type Ctx, ObjectId, WorkspaceIdField, type VariationStepStats } from '@outreach/core';
import { builder } from './builder';
import { createBatcher, guard, inOrderOf, runOperation } from './run';
import { WorkspaceType } from './workspace.graphql';

const CampaignStatus = builder.enumType('CampaignStatus', { values: ['DRAFT', 'ACTIVE', 'PAUSED', 'COMPLETED', 'ARCHIVED'] as const });
const CampaignType = builder.enumType('CampaignType', { values: ['parent', 'subseq'] as const });

type VariationStatsShape = VariationStepStats['variations'][number];

const VariationStatsType = builder.objectRef<VariationStatsShape>('VariationStats').implement({
  description: 'Counts of one variation over a range of send dates (see the REST variation-stats operation)',
  fields: (t) => ({
    variation: t.exposeString('variation'),
    name: t.exposeString('name', { description: 'Custom name, or "-"' }),
    sent: t.exposeInt('sent'),
    open: t.exposeInt('open'),
    reply: t.exposeInt('reply'),
    posReply: t.exposeInt('pos_reply'),
    isActive: t.exposeBoolean('is_active'),
    isDeleted: t.exposeBoolean('is_del'),
  }),
});

const StepStatsType = builder.objectRef<VariationStepStats>('StepVariationStats').implement({
  fields: (t) => ({
    step: t.exposeInt('step'),
    variations: t.field({ type: [VariationStatsType], resolve: (s) => s.variations }),
  }),
});

type CounterKey = { workspaceId: string; campaignId: string };

/**
 * One loader per request (keyed by its Ctx): the campaigns reached here were read
 * through workspace-scoped queries, so their counters are loaded directly, grouped
 * by workspace, one pair of grouped queries per workspace.
 */
const countersLoaders = new WeakMap<Ctx, (key: CounterKey) => Promise<CampaignCounters | undefined>>();
function countersLoaderFor(ctx: Ctx) {
  let loader = countersLoaders.get(ctx);
  if (!loader) {
    const load = createBatcher<CounterKey, CampaignCounters>(async (keys) => {
      const byWorkspace = new Map<string, CounterKey[]>();
      for (const k of keys) byWorkspace.set(k.workspaceId, [...(byWorkspace.get(k.workspaceId) ?? []), k]);
      const out = new Map<CounterKey, CampaignCounters>();
      for (const [workspaceId, group] of byWorkspace) {
        const counters = await campaignCounters({ db: ctx.db, workspaceId, campaignIds: group.map((k) => k.campaignId), now: ctx.ports.clock.now() });
        for (const k of group) {
          const c = counters.get(k.campaignId);
          if (c) out.set(k, c);
        }
      }
      return out;
    });
    loader = load;
    countersLoaders.set(ctx, loader);
  }
  return loader;
}

const CampaignCountersType = builder.objectRef<CampaignCounters>('CampaignCounters').implement({
  description: 'Counters computed from the leads and sends, as list-all answers them',
  fields: (t) => ({
    leadCount: t.exposeInt('lead_count'),
    completedLeadCount: t.exposeInt('completed_lead_count'),
    leadContactedCount: t.exposeInt('lead_contacted_count', { description: 'Distinct leads with at least one send' }),
    sentCount: t.exposeInt('sent_count'),
    openedCount: t.exposeInt('opened_count', { description: 'Sends opened at least once' }),
    uniqueOpenedCount: t.exposeInt('unique_opened_count', { description: 'Distinct leads with an opened send' }),
    repliedCount: t.exposeInt('replied_count', { description: 'Distinct leads that replied' }),
    bouncedCount: t.exposeInt('bounced_count', { description: 'Sends that bounced' }),
    unsubscribedCount: t.exposeInt('unsubscribed_count', { description: 'Distinct leads that unsubscribed' }),
    positiveReplyCount: t.exposeInt('positive_reply_count'),
    negativeReplyCount: t.exposeInt('negative_reply_count'),
    neutralReplyCount: t.exposeInt('neutral_reply_count'),
    emailSentToday: t.exposeInt('email_sent_today', { description: 'Sends since 00:00 UTC' }),
    openRate: t.exposeFloat('open_rate'),
    repliedRate: t.exposeFloat('replied_rate'),
  }),
});

export const CampaignObject = builder.prismaObject('Campaign', {
  description: 'A campaign (a sequence of steps sent to its leads) or a subsequence of one',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: CampaignStatus }),
    type: t.expose('type', { type: CampaignType }),
    parentId: t.exposeID('parentId', { nullable: true }),
    workspaceId: t.exposeID('workspaceId'),
    openTracking: t.exposeBoolean('openTracking'),
    dailyLimit: t.exposeInt('dailyLimit'),
    intervalLimitInMin: t.exposeInt('intervalLimitInMin'),
    sendAsText: t.exposeBoolean('sendAsText'),
    unsubscribeLink: t.exposeBoolean('unsubscribeLink'),
    stopOnLeadReplied: t.exposeBoolean('stopOnLeadReplied'),
    pauseOnBounceRate: t.exposeBoolean('pauseOnBounceRate'),
    bounceRateLimit: t.exposeFloat('bounceRateLimit'),
    schedule: t.expose('schedule', { type: 'JSON', nullable: true, description: '{ days, timezone, timing: { from, to } }, null until set' }),
    tags: t.stringList({
      description: 'Tag names, alphabetically',
      select: { tags: { select: { tag: { select: { name: true } } } } },
      resolve: (campaign) => campaign.tags.map((t) => t.tag.name).sort(),
    }),
    emailAccounts: t.stringList({
      description: 'Addresses of the mailboxes the campaign sends from, alphabetically',
      select: { emailAccounts: { select: { emailAccount: { select: { email: true } } } } },
      resolve: (campaign) => campaign.emailAccounts.map((a) => a.emailAccount.email).sort(),
    }),
    counters: t.field({
      type: CampaignCountersType,
      description: 'Counters computed from the leads and sends (the list-all counters); one grouped query for all campaigns of a page',
      resolve: async (campaign, _args, { ctx }) => {
        const found = await guard(ctx, () => countersLoaderFor(ctx)({ workspaceId: campaign.workspaceId, campaignId: campaign.id }));
        if (!found) throw new Error('campaign vanished while being read');
        return found;
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    parent: t.relation('parent', { nullable: true }),
    subsequences: t.relation('subsequences', { query: { orderBy: { createdAt: 'asc' } } }),
    steps: t.relation('steps', { query: { orderBy: { step: 'asc' } } }),
    triggers: t.relation('triggers', { query: { orderBy: { position: 'asc' } } }),
    variationStats: t.field({
      type: [StepStatsType],
      description: 'Variation statistics per step; dates are inclusive UTC days (YYYY-MM-DD), either may be omitted',
      args: { startDate: t.arg.string(), endDate: t.arg.string() },
      resolve: (campaign, args, { ctx }) =>
        runOperation({
          op: operations.campaign.variationStats,
          ctx,
          input: {
            workspace_id: campaign.workspaceId,
            campaign_id: campaign.id,
            ...(args.startDate ? { start_date: args.startDate } : {}),
            ...(args.endDate ? { end_date: args.endDate } : {}),
          },
        }),
    }),
  }),
});

builder.prismaObject('SequenceStep', {
  fields: (t) => ({
    id: t.exposeID('id'),
    step: t.exposeInt('step'),
    waitTime: t.exposeInt('waitTime', { description: 'Days after the previous step' }),
    variations: t.relation('variations', { query: { orderBy: { label: 'asc' } } }),
  }),
});

builder.prismaObject('Variation', {
  fields: (t) => ({
    id: t.exposeID('id'),
    label: t.exposeString('label'),
    name: t.exposeString('name', { nullable: true }),
    subject: t.exposeString('subject'),
    body: t.exposeString('body'),
    isActive: t.exposeBoolean('isActive'),
    isDeleted: t.exposeBoolean('isDeleted'),
  }),
});

const SubsequenceEventName = builder.enumType('SubsequenceEvent', {
  values: ['LEAD_LABEL_UPDATED', 'LEAD_REPLY_CONTENT', 'LEAD_REPLY_ALL', 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY'] as const,
});

builder.prismaObject('SubsequenceTrigger', {
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.expose('event', { type: SubsequenceEventName }),
    labels: t.exposeStringList('labels', { description: 'Label keys (without LEAD_MARKED_AS_)' }),
    includeText: t.exposeStringList('includeText'),
    excludeText: t.exposeStringList('excludeText'),
  }),
});

builder.queryField('campaign', (t) =>
  t.prismaField({
    type: 'Campaign',
    nullable: true,
    description: 'A campaign or subsequence of a workspace; null when the workspace has no such campaign',
    args: { workspaceId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, { ctx }) =>
      guard(ctx, async () => {
        const { workspaceId, id } = z.object({ workspaceId: WorkspaceIdField, id: ObjectId }).parse(args);
        await assertWorkspaceAccess({ ctx, workspaceId, permission: 'CAMPAIGN_LIST' });
        return ctx.db.campaign.findFirst({ ...query, where: { id, workspaceId } });
      }),
  }),
);

const SubsequenceEventInput = builder.inputType('SubsequenceEventInput', {
  fields: (t) => ({
    name: t.field({ type: SubsequenceEventName, required: true }),
    val: t.stringList({ description: 'LEAD_LABEL_UPDATED: LEAD_MARKED_AS_<label key> entries' }),
    includeText: t.string({ description: 'LEAD_REPLY_CONTENT: comma-separated phrases' }),
    excludeText: t.string(),
  }),
});

builder.mutationField('createSubsequence', (t) =>
  t.prismaField({
    type: 'Campaign',
    description: 'Creates a draft subsequence under a parent campaign, fed by the trigger events',
    args: {
      workspaceId: t.arg.id(),
      parentCampaignId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      events: t.arg({ type: [SubsequenceEventInput], required: true }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const created = await runOperation({
        op: operations.campaign.addSubsequence,
        ctx,
        input: {
          ...(args.workspaceId ? { workspace_id: String(args.workspaceId) } : {}),
          parent_camp_id: String(args.parentCampaignId),
          name: args.name,
          events: args.events.map((e) => ({
            name: e.name,
            ...(e.val ? { val: e.val } : {}),
            ...(e.includeText != null ? { include_text: e.includeText } : {}),
            ...(e.excludeText != null ? { exclude_text: e.excludeText } : {}),
          })),
        },
      });
      return guard(ctx, () => ctx.db.campaign.findUniqueOrThrow({ ...query, where: { id: created.id } }));
    },
  }),
);

/** For a client key, only workspaces where it holds CAMPAIGN_LIST; organization keys are not limited here. */
function campaignListScope(ctx: Ctx): { workspaceId?: { in: string[] } } {
  const grants = ctx.actor.clientGrants;
  if (!grants) return {};
  return { workspaceId: { in: Object.entries(grants).filter(([, g]) => g.permissions.includes('CAMPAIGN_LIST')).map(([id]) => id) } };
}

builder.prismaObjectField(WorkspaceType, 'campaigns', (t) =>
  t.relatedConnection('campaigns', {
    cursor: 'id',
    description: 'Campaigns and subsequences of the workspace, newest first',
    args: { status: t.arg({ type: CampaignStatus }), type: t.arg({ type: CampaignType }) },
    // A client key without CAMPAIGN_LIST on the workspace sees no campaigns (the query runs inside the workspace's own read).
    query: (args, { ctx }) => ({
      where: {
        ...campaignListScope(ctx),
        ...(args.status ? { status: args.status } : {}),
        ...(args.type ? { type: args.type } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    }),
  }),
);

/** Re-reads a campaign with the GraphQL selection after an operation changed it. */
const reread = (ctx: Parameters<typeof guard>[0], query: object, id: string) =>
  guard(ctx, () => ctx.db.campaign.findUniqueOrThrow({ ...query, where: { id } }));

const SequenceVariationGqlInput = builder.inputType('SequenceVariationInput', {
  fields: (t) => ({
    variation: t.string({ required: true, description: 'Label: A, B, …' }),
    name: t.string(),
    subject: t.string({ required: true }),
    body: t.string({ required: true }),
  }),
});

const SequenceStepGqlInput = builder.inputType('SequenceStepInput', {
  fields: (t) => ({
    step: t.int({ required: true }),
    waitTime: t.int({ required: true, description: 'Days after the previous step' }),
    variations: t.field({ type: [SequenceVariationGqlInput], required: true }),
  }),
});

builder.mutationField('createCampaign', (t) =>
  t.prismaField({
    type: 'Campaign',
    description: 'Creates a draft parent campaign',
    args: { workspaceId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      const created = await runOperation({ op: operations.campaign.create, ctx, input: { workspace_id: String(args.workspaceId), camp_name: args.name } });
      return reread(ctx, query, created.id);
    },
  }),
);

builder.mutationField('renameCampaign', (t) =>
  t.prismaField({
    type: 'Campaign',
    args: { workspaceId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      await runOperation({ op: operations.campaign.setName, ctx, input: { workspace_id: String(args.workspaceId), campaign_id: String(args.id), name: args.name } });
      return reread(ctx, query, String(args.id));
    },
  }),
);

builder.mutationField('updateCampaign', (t) =>
  t.prismaField({
    type: 'Campaign',
    description: 'Changes the given fields (see the REST update operation); `sequences` replaces the sequence',
    args: {
      workspaceId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      dailyLimit: t.arg.int(),
      intervalLimitInMin: t.arg.int(),
      sendAsText: t.arg.boolean(),
      openTracking: t.arg.boolean(),
      unsubscribeLink: t.arg.boolean(),
      stopOnLeadReplied: t.arg.boolean(),
      pauseOnBounceRate: t.arg.boolean(),
      bounceRateLimit: t.arg.float(),
      emailAccounts: t.arg.stringList(),
      sequences: t.arg({ type: [SequenceStepGqlInput] }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const optional = <T>(key: string, value: T | null | undefined) => (value === null || value === undefined ? {} : { [key]: value });
      await runOperation({
        op: operations.campaign.update,
        ctx,
        input: {
          workspace_id: String(args.workspaceId),
          campaign_id: String(args.id),
          ...optional('camp_name', args.name),
          ...optional('daily_limit', args.dailyLimit),
          ...optional('interval_limit_in_min', args.intervalLimitInMin),
          ...optional('send_as_txt', args.sendAsText),
          ...optional('is_emailopened_tracking', args.openTracking),
          ...optional('is_unsubscribed_link', args.unsubscribeLink),
          ...optional('stop_on_lead_replied', args.stopOnLeadReplied),
          ...optional('is_pause_on_bouncerate', args.pauseOnBounceRate),
          ...optional('bounce_rate_limit', args.bounceRateLimit),
          ...optional('email_accounts', args.emailAccounts),
          ...optional(
            'sequences',
            args.sequences?.map((s) => ({
              step: s.step,
              wait_time: s.waitTime,
              variations: s.variations.map((v) => ({ variation: v.variation, name: v.name ?? null, subject: v.subject, body: v.body })),
            })),
          ),
        },
      });
      return reread(ctx, query, String(args.id));
    },
  }),
);

for (const [field, key, description] of [
  ['launchCampaign', 'launch', 'DRAFT, PAUSED or COMPLETED → ACTIVE; refused naming what is missing (sequence, mailboxes, schedule)'],
  ['pauseCampaign', 'pause', 'ACTIVE → PAUSED'],
] as const) {
  builder.mutationField(field, (t) =>
    t.prismaField({
      type: 'Campaign',
      description,
      args: { workspaceId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
      resolve: async (query, _root, args, { ctx }) => {
        await runOperation({ op: operations.campaign[key], ctx, input: { workspace_id: String(args.workspaceId), campaign_id: String(args.id) } });
        return reread(ctx, query, String(args.id));
      },
    }),
  );
}

builder.mutationField('archiveCampaign', (t) =>
  t.prismaField({
    type: 'Campaign',
    description: 'Archives a campaign, keeping everything',
    args: { workspaceId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      await runOperation({ op: operations.campaign.delete, ctx, input: { workspace_id: String(args.workspaceId), campaign_id: String(args.id), is_archive: 'yes' } });
      return reread(ctx, query, String(args.id));
    },
  }),
);

builder.mutationField('deleteCampaign', (t) =>
  t.field({
    type: 'ID',
    description: 'Deletes a campaign with its sequence, leads, sends and subsequences; answers its id',
    args: { workspaceId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({ op: operations.campaign.delete, ctx, input: { workspace_id: String(args.workspaceId), campaign_id: String(args.id), is_archive: 'no', is_save_lead_data: 'no' } });
      return String(args.id);
    },
  }),
);

builder.mutationField('duplicateCampaign', (t) =>
  t.prismaField({
    type: 'Campaign',
    description: 'Copies a campaign into a new draft (settings, schedule, tags, mailboxes, sequence; optionally its subsequences)',
    args: {
      workspaceId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      duplicateSubsequences: t.arg.boolean({ defaultValue: false }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const created = await runOperation({
        op: operations.campaign.duplicate,
        ctx,
        input: { workspace_id: String(args.workspaceId), campaign_id: String(args.id), camp_name: args.name, duplicate_subsequences: args.duplicateSubsequences ? 'yes' : 'no' },
      });
      return reread(ctx, query, created.id);
    },
  }),
);

builder.mutationField('assignCampaignTags', (t) =>
  t.prismaField({
    type: ['Campaign'],
    description: 'Assigns (or with unassign: true, removes) a tag on campaigns; answers the campaigns',
    args: {
      workspaceId: t.arg.id({ required: true }),
      ids: t.arg.idList({ required: true }),
      tagId: t.arg.id({ required: true }),
      unassign: t.arg.boolean({ defaultValue: false }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const ids = args.ids.map(String);
      await runOperation({
        op: operations.campaign.bulkAssignTags,
        ctx,
        input: { workspace_id: String(args.workspaceId), ids, tag_id: String(args.tagId), action: args.unassign ? 'UNASSIGN' : 'ASSIGN' },
      });
      return guard(ctx, async () => inOrderOf(await ctx.db.campaign.findMany({ ...query, where: { id: { in: ids }, workspaceId: String(args.workspaceId) } }), ids));
    },
  }),
);
