import { operations } from '@outreach/core';
import { route, type Route } from '../route';

const ops = operations.accountAutomation;

/** REST routes of the email-account automation operations: method, path (under /api/v1), operation. */
export const accountAutomationRoutes: Route[] = [
  route('GET', '/account/automation/list', ops.list),
  route('POST', '/account/automation/create', ops.create),
  route('PATCH', '/account/automation/update', ops.update),
  route('DELETE', '/account/automation/delete', ops.delete),
  route('GET', '/account/automation/get', ops.get),
  route('POST', '/account/automation/status', ops.status),
  route('POST', '/account/automation/duplicate', ops.duplicate),
];
