import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the leadLabel operations: method, vendor path (under /api/v1), operation. */
export const leadLabelRoutes: Route[] = [
  route('GET', '/workspace-settings/lead-labels', operations.leadLabel.list),
  route('POST', '/workspace-settings/lead-labels/add', operations.leadLabel.add),
  route('DELETE', '/workspace-settings/lead-labels/delete', operations.leadLabel.delete),
];
