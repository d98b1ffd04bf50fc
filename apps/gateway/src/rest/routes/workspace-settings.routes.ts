import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of this domain: method, vendor path (under /api/v1), operation. */
export const workspaceSettingsRoutes: Route[] = [
  route('GET', '/workspace-settings', operations.workspaceSettings.get),
  route('PATCH', '/workspace-settings', operations.workspaceSettings.update),
];
