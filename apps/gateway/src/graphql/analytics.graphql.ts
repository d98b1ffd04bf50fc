// GraphQL types and fields of the analytics operations: a campaign's summary, and a
// workspace's summary and per-campaign performance over a range of days.
import { operations, type CampaignPerformance, type CampaignSummaryOutput, type WorkspaceSummaryOutput } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';
import { WorkspaceType } from './workspace.graphql';

const CampaignSummaryType = builder.objectRef<CampaignSummaryOutput>('CampaignSummary').implement({
  description: 'Whole-life counters of a campaign (see the REST campaign summary operation for each definition)',
  fields: (t) => ({
    completed: t.exposeInt('completed'),
    contacted: t.exposeInt('contacted'),
    leadsWhoRead: t.exposeInt('leads_who_read'),
    leadsWhoReplied: t.exposeInt('leads_who_replied'),
    bounced: t.exposeInt('bounced'),
    unsubscribed: t.exposeInt('unsubscribed'),
    positiveReplyCount: t.exposeInt('positive_reply_count'),
    totalSentEmails: t.exposeInt('total_sent_emails'),
  }),
});

builder.prismaObjectField('Campaign', 'summary', (t) =>
  t.field({
    type: CampaignSummaryType,
    description: operations.analytics.campaignSummary.description,
    resolve: (campaign, _args, { ctx }) =>
      runOperation({ op: operations.analytics.campaignSummary, ctx, input: { workspace_id: campaign.workspaceId, campaign_id: campaign.id } }),
  }),
);

const WorkspaceAnalyticsSummaryType = builder.objectRef<WorkspaceSummaryOutput>('WorkspaceAnalyticsSummary').implement({
  description: 'Totals over the sends of a range (see the REST workspace summary operation for each definition)',
  fields: (t) => ({
    totalSent: t.exposeInt('total_sent'),
    contacted: t.exposeInt('contacted'),
    opened: t.exposeInt('opened'),
    replied: t.exposeInt('replied'),
    positiveReplies: t.exposeInt('positive_replies'),
    bounced: t.exposeInt('bounced'),
    unsubscribed: t.exposeInt('unsubscribed'),
    openRate: t.exposeFloat('open_rate'),
    replyRate: t.exposeFloat('reply_rate'),
    bounceRate: t.exposeFloat('bounce_rate'),
    activeCampaigns: t.exposeInt('active_campaigns'),
  }),
});

const CampaignPerformanceType = builder.objectRef<CampaignPerformance>('CampaignPerformance').implement({
  description: 'Counters of one campaign over the sends of a range',
  fields: (t) => ({
    campaignId: t.exposeID('campaign_id'),
    campaignName: t.exposeString('campaign_name'),
    status: t.exposeString('status'),
    sent: t.exposeInt('sent'),
    contacted: t.exposeInt('contacted'),
    opened: t.exposeInt('opened'),
    replied: t.exposeInt('replied'),
    positiveReplies: t.exposeInt('positive_replies'),
    bounced: t.exposeInt('bounced'),
    openRate: t.exposeFloat('open_rate'),
    replyRate: t.exposeFloat('reply_rate'),
  }),
});

interface WorkspaceRange {
  workspaceId: string;
  startDate: string;
  endDate: string;
}

const rangeInput = (r: WorkspaceRange) => ({ workspace_id: r.workspaceId, start_date: r.startDate, end_date: r.endDate });

// Each part runs its own operation only when asked for, so a query for the summary
// alone costs one statement.
const WorkspaceAnalyticsType = builder.objectRef<WorkspaceRange>('WorkspaceAnalytics').implement({
  description: 'Analytics of a workspace over inclusive UTC days',
  fields: (t) => ({
    startDate: t.exposeString('startDate'),
    endDate: t.exposeString('endDate'),
    summary: t.field({
      type: WorkspaceAnalyticsSummaryType,
      description: operations.analytics.workspaceSummary.description,
      resolve: (r, _args, { ctx }) => runOperation({ op: operations.analytics.workspaceSummary, ctx, input: rangeInput(r) }),
    }),
    performance: t.field({
      type: [CampaignPerformanceType],
      description: operations.analytics.workspacePerformance.description,
      resolve: (r, _args, { ctx }) => runOperation({ op: operations.analytics.workspacePerformance, ctx, input: rangeInput(r) }),
    }),
  }),
});

builder.prismaObjectField(WorkspaceType, 'analytics', (t) =>
  t.field({
    type: WorkspaceAnalyticsType,
    description: 'Summary and per-campaign performance over sends between startDate and endDate (YYYY-MM-DD, inclusive UTC days; client keys need CAMPAIGN_LIST)',
    args: { startDate: t.arg.string({ required: true }), endDate: t.arg.string({ required: true }) },
    resolve: (workspace, args) => ({ workspaceId: workspace.id, startDate: args.startDate, endDate: args.endDate }),
  }),
);
