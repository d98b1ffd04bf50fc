import { z } from 'zod';
import { assertWorkspaceAccess, operations, ObjectId, WorkspaceIdField, type VariationStepStats } from '@outreach/core';
import { builder } from './builder';
import { guard, runOperation } from './run';

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
