import { operations } from '@outreach/core';
import { route, type Route } from '../route';

const ops = operations.emailAccount;

/** REST routes of the email-account (sending mailbox) operations: method, vendor path (under /api/v1), operation. */
export const emailAccountRoutes: Route[] = [
  route('POST', '/account/bulk-add-regular-accounts', ops.bulkAdd),
  route('GET', '/account/list', ops.list),
  route('GET', '/account/status', ops.status),
  route('POST', '/account/delete', ops.delete),
  route('POST', '/account/warmup/enable', ops.enableWarmup),
  route('POST', '/account/warmup/pause', ops.pauseWarmup),
  route('PUT', '/account/bulk-update', ops.bulkUpdate),
  route('PATCH', '/account/bulk-update-warmup', ops.bulkUpdateWarmup),
  route('PUT', '/account/bulk-assign-tags', ops.bulkAssignTags),
  route('POST', '/account/bulk-reconnect', ops.bulkReconnect),
  route('POST', '/account/move-workspace', ops.moveWorkspace),
  route('GET', '/account/email-stats', ops.emailStats),
  route('GET', '/account/email-stats/bulk', ops.emailStatsBulk),
];
