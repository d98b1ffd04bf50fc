import { operations } from '@outreach/core';
import { route, type Route } from '../route';

const ops = operations.partner;

/**
 * REST routes of partner access: the partner's operations (a partner key), in the vendor's
 * style, and the organization's management of partner keys, grants and activity.
 */
export const partnerRoutes: Route[] = [
  route('GET', '/partner/workspaces', ops.workspaces),
  route('GET', '/partner/account/list', ops.accountList),
  route('GET', '/partner/account/exists', ops.accountExists),
  route('POST', '/account/partner-upload-regular-accounts', ops.uploadAccounts),
  route('POST', '/partner/keys', ops.createKey),
  route('GET', '/partner/keys', ops.listKeys),
  route('DELETE', '/partner/keys', ops.revokeKey),
  route('POST', '/partner/grants', ops.grantWorkspace),
  route('DELETE', '/partner/grants', ops.revokeGrant),
  route('GET', '/partner/activity', ops.activity),
];
