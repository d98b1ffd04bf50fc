import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the workspace operations: method, vendor path (under /api/v1), operation. */
export const workspaceRoutes: Route[] = [
  route('GET', '/authenticate', operations.workspace.list),
  route('GET', '/workspaces', operations.workspace.list),
  route('POST', '/workspaces/add', operations.workspace.create),
  route('POST', '/workspaces/copy-settings', operations.workspace.copySettings),
  route('POST', '/workspaces/invite-user', operations.workspace.inviteUser),
  // The invited person has no API key yet.
  route('POST', '/workspaces/accept-invite', operations.workspace.acceptInvite, { public: true }),
];
