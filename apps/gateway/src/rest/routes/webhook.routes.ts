import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the webhook operations: method, vendor path (under /api/v1), operation. */
export const webhookRoutes: Route[] = [
  route('GET', '/hook/list', operations.webhook.list),
  route('POST', '/hook/add', operations.webhook.add),
  route('DELETE', '/hook/del', operations.webhook.delete),
  // Our addition: the vendor has no test event.
  route('POST', '/hook/test', operations.webhook.test),
];
