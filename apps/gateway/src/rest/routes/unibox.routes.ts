import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the unibox operations: method, vendor path (under /api/v1), operation. */
export const uniboxRoutes: Route[] = [
  route('GET', '/unibox/campaign-emails', operations.unibox.campaignEmails),
];
