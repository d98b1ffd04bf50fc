import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const analyticsRouter = router({
  campaignSummary: procedureFor(operations.analytics.campaignSummary),
  campaignStats: procedureFor(operations.analytics.campaignStats),
  campaignCount: procedureFor(operations.analytics.campaignCount),
  workspaceSummary: procedureFor(operations.analytics.workspaceSummary),
  workspacePerformance: procedureFor(operations.analytics.workspacePerformance),
});
