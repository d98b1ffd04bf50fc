import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the account operations: method, vendor path (under /api/v1), operation. */
export const accountRoutes: Route[] = [
  route('POST', '/account/test/vitals', operations.account.testVitals),
];
