import { BoolInput, operations } from '@outreach/core';
import { route, type Route } from '../route';

const ops = operations.emailAccount;

/** The OAuth starts answer 302 to the provider when asked with `redirect=true`. */
const redirectToUrl = (input: Record<string, unknown>, output: unknown) =>
  BoolInput.safeParse(input['redirect']).data === true ? (output as { url?: string }).url : undefined;

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
  route('GET', '/account/warmup-stats', ops.warmupStats),
  route('GET', '/account/oauth/google/start', ops.oauthGoogleStart, { redirect: redirectToUrl }),
  route('GET', '/account/oauth/microsoft/start', ops.oauthMicrosoftStart, { redirect: redirectToUrl }),
];
