// The operations of this domain, keyed as their tRPC procedures are (`analytics.<key>`).
import { getCampaignCount, getCampaignStats, getCampaignSummary, getWorkspacePerformance, getWorkspaceSummary } from './analytics.operations';

export const analyticsOperations = {
  campaignSummary: getCampaignSummary,
  campaignStats: getCampaignStats,
  campaignCount: getCampaignCount,
  workspaceSummary: getWorkspaceSummary,
  workspacePerformance: getWorkspacePerformance,
} as const;
