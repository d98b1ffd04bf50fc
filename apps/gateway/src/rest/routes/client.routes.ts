import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/**
 * REST routes of the client-access operations. The vendor lists clients at `/client/`;
 * Express matches `/client` with or without the trailing slash.
 */
export const clientRoutes: Route[] = [
  route('GET', '/client', operations.client.list),
  route('POST', '/client', operations.client.create),
  route('PUT', '/client', operations.client.updatePermissions),
  route('PATCH', '/client', operations.client.setStatus),
  route('DELETE', '/client', operations.client.delete),
];
