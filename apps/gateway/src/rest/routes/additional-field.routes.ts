import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of this domain: method, vendor path (under /api/v1), operation. */
export const additionalFieldRoutes: Route[] = [
  route('GET', '/workspaces/additional-fields', operations.additionalField.list),
  route('POST', '/workspaces/additional-fields', operations.additionalField.create),
  route('PATCH', '/workspaces/additional-fields', operations.additionalField.update),
  route('DELETE', '/workspaces/additional-fields', operations.additionalField.delete),
];
