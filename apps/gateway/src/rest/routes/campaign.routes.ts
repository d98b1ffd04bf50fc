import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the campaign operations: method, vendor path (under /api/v1), operation. */
export const campaignRoutes: Route[] = [
  route('GET', '/campaign/get/variation-stats', operations.campaign.variationStats, { errorShape: 'message' }),
  route('POST', '/campaign/add/subsequence', operations.campaign.addSubsequence),
  route('POST', '/campaign/add/campaign', operations.campaign.create),
  route('GET', '/campaign/list', operations.campaign.list, { deprecated: true }),
  route('GET', '/campaign/list-all', operations.campaign.listAll),
  route('GET', '/campaign/get/name', operations.campaign.getName),
  route('GET', '/campaign/get/status', operations.campaign.getStatus),
  route('GET', '/campaign/get/accounts', operations.campaign.getAccounts),
  route('POST', '/campaign/set/name', operations.campaign.setName),
  route('POST', '/campaign/set/schedules', operations.campaign.setSchedules, { deprecated: true }),
  route('PATCH', '/campaign/update/campaign', operations.campaign.update),
  route('POST', '/campaign/launch', operations.campaign.launch),
  route('POST', '/campaign/pause', operations.campaign.pause),
  route('DELETE', '/campaign/delete', operations.campaign.delete),
  route('POST', '/campaign/duplicate', operations.campaign.duplicate),
  route('PUT', '/campaign/bulk-assign-tags', operations.campaign.bulkAssignTags),
  route('GET', '/campaign/stats/all', operations.campaign.statsAll),
];
