// The operations of this domain, keyed as their tRPC procedures are (`workspace.<key>`).
import { createWorkspace, listWorkspaces } from './workspace.operations';
import { copyWorkspaceSettings } from './workspace-copy.operations';
import { acceptWorkspaceInvite, inviteUser } from './workspace-invite.operations';
import { deleteOwnOrganization, deleteWorkspace } from './workspace-delete.operations';

// Creating an organization with its first workspace (the CLI, the test factories, people's owner set-up).
export { createOrganization, createOrganizationRecords } from './workspace.service';
// Invitation tokens, which people/ also accepts (as a person, with a password, in the web app).
export { hashInviteToken } from './workspace-invite.rules';
export { invalidInviteToken } from './workspace-invite.service';

export const workspaceOperations = {
  list: listWorkspaces,
  create: createWorkspace,
  copySettings: copyWorkspaceSettings,
  inviteUser,
  acceptInvite: acceptWorkspaceInvite,
  delete: deleteWorkspace,
} as const;

// The organization's own operations (`organization.<key>`): deleting it, for its owner.
export const organizationOperations = {
  delete: deleteOwnOrganization,
} as const;
