// GraphQL fields of the analytics operations: a campaign's summary and daily figures, and a
// workspace's campaign counts, summary and per-campaign performance over a range of days.
import { operations } from '@outreach/core';
import { Campaign } from './campaign.graphql';
import { operationField } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.analytics;

operationField('summary', ops.campaignSummary, { on: Campaign, type: 'CampaignSummary' });
operationField('dailyStats', ops.campaignStats, { on: Campaign, result: 'daily', type: 'CampaignDailyStats' });
operationField('campaignCount', ops.campaignCount, { on: Workspace, type: 'CampaignCountByStatus' });
operationField('analyticsSummary', ops.workspaceSummary, { on: Workspace, type: 'WorkspaceAnalyticsSummary' });
operationField('campaignPerformance', ops.workspacePerformance, { on: Workspace, type: 'CampaignPerformance' });
