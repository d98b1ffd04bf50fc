// GraphQL fields for catalog operations a UI reads or writes beyond the connections:
// schedules, workspace-wide statistics, lead counts by status, and statistics per
// variation (`campaign { steps { variations { stats } } }`).
import type { AllStatsOutput, Ctx, VariationStepStats } from '@outreach/core';
import { operations } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';
import { WorkspaceType } from './workspace.graphql';

const CampaignStatsType = builder.objectRef<AllStatsOutput>('WorkspaceCampaignStats').implement({
  description: "All campaigns' figures over a range of send dates (see GET /campaign/stats/all)",
  fields: (t) => ({
    leadCount: t.exposeInt('lead_count'),
    contactedCount: t.exposeInt('contacted_count'),
    sentCount: t.exposeInt('sent_count'),
    uniqueOpenedCount: t.exposeInt('unique_opened_count'),
    repliedCount: t.exposeInt('replied_count'),
    bouncedCount: t.exposeInt('bounced_count'),
    unsubscribedCount: t.exposeInt('unsubscribed_count'),
    positiveReplyCount: t.exposeInt('positive_reply_count'),
    openRate: t.exposeFloat('open_rate'),
    replyRate: t.exposeFloat('reply_rate'),
    bounceRate: t.exposeFloat('bounce_rate'),
  }),
});

builder.prismaObjectField(WorkspaceType, 'campaignStats', (t) =>
  t.field({
    type: CampaignStatsType,
    description: 'Figures over all campaigns of the workspace; dates are inclusive UTC days (YYYY-MM-DD)',
    args: { startDate: t.arg.string({ required: true }), endDate: t.arg.string() },
    resolve: (workspace, args, { ctx }) =>
      runOperation({
        op: operations.campaign.statsAll,
        ctx,
        input: { workspace_id: workspace.id, start_date: args.startDate, ...(args.endDate ? { end_date: args.endDate } : {}) },
      }),
  }),
);

const LeadStatusCountType = builder.objectRef<{ status: string; count: number }>('LeadStatusCount').implement({
  fields: (t) => ({ status: t.exposeString('status'), count: t.exposeInt('count') }),
});

builder.prismaObjectField(WorkspaceType, 'leadCountsByStatus', (t) =>
  t.field({
    type: [LeadStatusCountType],
    description: 'Leads per status (all eight, zeros included), for the workspace or one campaign',
    args: { campaignId: t.arg.id() },
    resolve: (workspace, args, { ctx }) =>
      runOperation({
        op: operations.lead.countByStatus,
        ctx,
        input: { workspace_id: workspace.id, ...(args.campaignId ? { campaign_id: String(args.campaignId) } : {}) },
      }),
  }),
);

builder.mutationField('setCampaignSchedule', (t) =>
  t.boolean({
    description:
      'Sets the campaign schedule (POST /campaign/set/schedules): schedule is { days: { "1": true, … "7": true }, timezone, timing: { from, to } }',
    args: {
      workspaceId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      startDate: t.arg.string({ required: true }),
      endDate: t.arg.string(),
      schedule: t.arg({ type: 'JSON', required: true }),
    },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({
        op: operations.campaign.setSchedules,
        ctx,
        input: {
          workspace_id: String(args.workspaceId),
          campaign_id: String(args.id),
          start_date: args.startDate,
          ...(args.endDate ? { end_date: args.endDate } : {}),
          schedules: [args.schedule],
        },
      });
      return true;
    },
  }),
);

type VariationStats = VariationStepStats['variations'][number];

/**
 * Variation statistics are computed per campaign: every variation of a request asks
 * the same memoised promise (one per campaign and range), not a query of its own.
 */
const statsMemo = new WeakMap<Ctx, Map<string, Promise<VariationStepStats[]>>>();
function campaignStats(ctx: Ctx, input: { workspace_id: string; campaign_id: string; start_date?: string; end_date?: string }) {
  let memo = statsMemo.get(ctx);
  if (!memo) statsMemo.set(ctx, (memo = new Map()));
  const key = JSON.stringify(input);
  let stats = memo.get(key);
  if (!stats) memo.set(key, (stats = runOperation({ op: operations.campaign.variationStats, ctx, input })));
  return stats;
}

const VariationOwnStatsType = builder.objectRef<VariationStats>('VariationOwnStats').implement({
  fields: (t) => ({
    sent: t.exposeInt('sent'),
    open: t.exposeInt('open'),
    reply: t.exposeInt('reply'),
    posReply: t.exposeInt('pos_reply'),
  }),
});

builder.prismaObjectField('Variation', 'stats', (t) =>
  t.field({
    type: VariationOwnStatsType,
    description: "This variation's figures (as in the campaign's variation statistics); dates are inclusive UTC days",
    args: { startDate: t.arg.string(), endDate: t.arg.string() },
    select: { label: true, workspaceId: true, campaignId: true, step: { select: { step: true } } },
    resolve: async (variation, args, { ctx }) => {
      const steps = await campaignStats(ctx, {
        workspace_id: variation.workspaceId,
        campaign_id: variation.campaignId,
        ...(args.startDate ? { start_date: args.startDate } : {}),
        ...(args.endDate ? { end_date: args.endDate } : {}),
      });
      const own = steps.find((s) => s.step === variation.step.step)?.variations.find((v) => v.variation === variation.label);
      // A deleted variation without sends in the range is not in the statistics: zero.
      return own ?? { variation: variation.label, sent: 0, open: 0, reply: 0, pos_reply: 0, name: '-', is_active: false, is_del: true };
    },
  }),
);
