// GraphQL for the mailbox and analytics operations a UI needs beyond the core types:
// bulk warmup, tags and moves of mailboxes, mailbox statistics, a campaign's daily
// statistics, and campaign counts by status.
import { operations, type CampaignCountOutput, type DailyStats, type EmailStatsOutput } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';
import { WorkspaceType } from './workspace.graphql';

builder.mutationField('setEmailAccountsWarmup', (t) =>
  t.int({
    description: 'Sets the warmup status of several mailboxes; answers how many changed',
    args: { workspaceId: t.arg.id({ required: true }), ids: t.arg.idList({ required: true }), active: t.arg.boolean({ required: true }) },
    resolve: async (_root, args, { ctx }) =>
      (
        await runOperation({
          op: operations.emailAccount.bulkUpdateWarmup,
          ctx,
          input: { workspace_id: String(args.workspaceId), ids: args.ids.map(String), warmup_status: args.active ? 'ACTIVE' : 'INACTIVE' },
        })
      ).updated_count,
  }),
);

builder.mutationField('assignEmailAccountTag', (t) =>
  t.int({
    description: 'Adds a tag to (or, with unassign, removes it from) several mailboxes; answers how many links changed',
    args: {
      workspaceId: t.arg.id({ required: true }),
      ids: t.arg.idList({ required: true }),
      tagId: t.arg.id({ required: true }),
      unassign: t.arg.boolean(),
    },
    resolve: async (_root, args, { ctx }) =>
      (
        await runOperation({
          op: operations.emailAccount.bulkAssignTags,
          ctx,
          input: { workspace_id: String(args.workspaceId), ids: args.ids.map(String), tag_id: String(args.tagId), action: args.unassign ? 'UNASSIGN' : 'ASSIGN' },
        })
      ).updated_count,
  }),
);

builder.mutationField('moveEmailAccounts', (t) =>
  t.int({
    description: 'Moves mailboxes to another workspace of the organization; answers how many moved',
    args: { workspaceId: t.arg.id({ required: true }), toWorkspaceId: t.arg.id({ required: true }), ids: t.arg.idList({ required: true }) },
    resolve: async (_root, args, { ctx }) =>
      (
        await runOperation({
          op: operations.emailAccount.moveWorkspace,
          ctx,
          input: { workspace_id: String(args.workspaceId), to_workspace_id: String(args.toWorkspaceId), ids: args.ids.map(String) },
        })
      ).moved,
  }),
);

type EmailStatsHeader = EmailStatsOutput['header'];
type EmailStatsDay = EmailStatsOutput['chart'][number];

const EmailStatsHeaderType = builder.objectRef<EmailStatsHeader>('EmailStatsHeader').implement({
  fields: (t) => ({
    totalSentCount: t.exposeInt('total_sent_count'),
    totalReplyCount: t.exposeInt('total_reply_count'),
    totalOpenCount: t.exposeInt('total_open_count'),
    totalBounceCount: t.exposeInt('total_bounce_count'),
    totalContactedCount: t.exposeInt('total_contacted_count'),
    totalCompletedCount: t.exposeInt('total_completed_count'),
    totalPosReplyCount: t.exposeInt('total_pos_reply_count'),
    bounceRate: t.exposeFloat('bounce_rate'),
    openRate: t.exposeFloat('open_rate'),
    replyRate: t.exposeFloat('reply_rate'),
    posReplyRate: t.exposeFloat('pos_reply_rate'),
  }),
});

const EmailStatsDayType = builder.objectRef<EmailStatsDay>('EmailStatsDay').implement({
  fields: (t) => ({
    date: t.exposeString('date'),
    sentCount: t.exposeInt('sent_count'),
    replyCount: t.exposeInt('reply_count'),
    openCount: t.exposeInt('open_count'),
    bounceCount: t.exposeInt('bounce_count'),
  }),
});

const EmailStatsType = builder.objectRef<EmailStatsOutput>('EmailStats').implement({
  fields: (t) => ({
    header: t.field({ type: EmailStatsHeaderType, resolve: (s) => s.header }),
    chart: t.field({ type: [EmailStatsDayType], resolve: (s) => s.chart }),
  }),
});

builder.prismaObjectField(WorkspaceType, 'emailStats', (t) =>
  t.field({
    type: EmailStatsType,
    description: 'Mailbox statistics over inclusive UTC days (at most 90 days apart), for all mailboxes or one',
    args: { startDate: t.arg.string({ required: true }), endDate: t.arg.string({ required: true }), emailAccountId: t.arg.id() },
    resolve: (workspace, args, { ctx }) =>
      runOperation({
        op: operations.emailAccount.emailStats,
        ctx,
        input: {
          workspace_id: workspace.id,
          start_date: args.startDate,
          end_date: args.endDate,
          ...(args.emailAccountId ? { email_acc_id: String(args.emailAccountId) } : {}),
        },
      }),
  }),
);

const DailyStatsType = builder.objectRef<DailyStats>('CampaignDailyStats').implement({
  fields: (t) => ({
    date: t.exposeString('date'),
    sentCount: t.exposeInt('sent_count'),
    openedCount: t.exposeInt('opened_count'),
    repliedCount: t.exposeInt('replied_count'),
    bouncedCount: t.exposeInt('bounced_count'),
    unsubscribedCount: t.exposeInt('unsubscribed_count'),
  }),
});

builder.prismaObjectField('Campaign', 'dailyStats', (t) =>
  t.field({
    type: [DailyStatsType],
    description: 'One row per UTC day of the range (zeros included), counted by send day',
    args: { startDate: t.arg.string({ required: true }), endDate: t.arg.string() },
    resolve: async (campaign, args, { ctx }) =>
      (
        await runOperation({
          op: operations.analytics.campaignStats,
          ctx,
          input: { workspace_id: campaign.workspaceId, campaign_id: campaign.id, start_date: args.startDate, ...(args.endDate ? { end_date: args.endDate } : {}) },
        })
      ).data,
  }),
);

const CampaignCountType = builder.objectRef<CampaignCountOutput>('CampaignCountByStatus').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    active: t.exposeInt('active'),
    paused: t.exposeInt('paused'),
    completed: t.exposeInt('completed'),
    archived: t.exposeInt('archived'),
    draft: t.exposeInt('draft'),
  }),
});

builder.prismaObjectField(WorkspaceType, 'campaignCount', (t) =>
  t.field({
    type: CampaignCountType,
    description: 'Campaigns by status, optionally only those created in a range of UTC days',
    args: { startDate: t.arg.string(), endDate: t.arg.string() },
    resolve: (workspace, args, { ctx }) =>
      runOperation({
        op: operations.analytics.campaignCount,
        ctx,
        input: { workspace_id: workspace.id, ...(args.startDate ? { start_date: args.startDate } : {}), ...(args.endDate ? { end_date: args.endDate } : {}) },
      }),
  }),
);
