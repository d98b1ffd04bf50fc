import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the lead operations: method, vendor path (under /api/v1), operation. */
export const leadRoutes: Route[] = [
  route('POST', '/lead/add', operations.lead.add),
];
