import { operations } from '@outreach/core';
import { route, type Route } from './route';

/** Every REST operation: method, vendor path (under /api/v1), operation. */
export const routes: Route[] = [
  route('GET', '/authenticate', operations.workspace.list),
  route('GET', '/workspaces', operations.workspace.list),
  route('POST', '/workspaces/add', operations.workspace.create),
  route('GET', '/workspace-settings/lead-labels', operations.leadLabel.list),
];
