// The operations of this domain, keyed as their tRPC procedures are (`workspace.<key>`).
import { createWorkspace, listWorkspaces } from './workspace.operations';
import { copyWorkspaceSettings } from './workspace-copy.operations';
import { acceptWorkspaceInvite, inviteUser } from './workspace-invite.operations';

// Creating an organization with its first workspace (the CLI, the test factories).
export { createOrganization } from './workspace.service';

export const workspaceOperations = {
  list: listWorkspaces,
  create: createWorkspace,
  copySettings: copyWorkspaceSettings,
  inviteUser,
  acceptInvite: acceptWorkspaceInvite,
} as const;
