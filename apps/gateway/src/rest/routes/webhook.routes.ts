import type { Route } from '../route';

/** REST routes of this domain: method, vendor path (under /api/v1), operation. */
export const webhookRoutes: Route[] = [];
