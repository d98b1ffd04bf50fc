import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the placement operations: method, vendor path (under /api/v1), operation. */
export const placementRoutes: Route[] = [
  route('GET', '/email-placement/get/recipient-providers', operations.placement.recipientProviders),
];
