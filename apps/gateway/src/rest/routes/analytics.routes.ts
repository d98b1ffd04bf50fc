import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the analytics operations: method, vendor path (under /api/v1), operation. */
export const analyticsRoutes: Route[] = [
  route('GET', '/analytics/campaign/summary', operations.analytics.campaignSummary),
  route('GET', '/analytics/campaign/stats', operations.analytics.campaignStats),
  route('GET', '/analytics/campaign/count', operations.analytics.campaignCount),
  route('GET', '/analytics/workspace/summary', operations.analytics.workspaceSummary),
  route('GET', '/analytics/workspace/performance', operations.analytics.workspacePerformance),
];
