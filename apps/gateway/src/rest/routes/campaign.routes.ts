import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the campaign operations: method, vendor path (under /api/v1), operation. */
export const campaignRoutes: Route[] = [
  route('GET', '/campaign/get/variation-stats', operations.campaign.variationStats, { errorShape: 'message' }),
  route('POST', '/campaign/add/subsequence', operations.campaign.addSubsequence),
];
