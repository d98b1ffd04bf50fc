// GraphQL fields of the workspace operations. Workspace is the type of workspace.list's rows;
// the fields of other domains hang under it and run in its workspace.
import { operations } from '@outreach/core';
import { entity, lookupField, operationField, run, typeOf } from './operation-field';

const ops = operations.workspace;

export const Workspace = entity(typeOf(ops.list, 'Workspace', {}, 'workspaces'), {
  bind: { workspace_id: (w: { _id: string }) => w._id },
  workspace: true,
  node: true,
  // Read through the settings operation: it checks the key reaches the workspace (403 as REST).
  load: async (ctx, _workspaceId, id) => {
    const settings = await run(ctx, operations.workspaceSettings.get, { workspace_id: id });
    return { _id: settings.workspace_id, name: settings.name };
  },
});

operationField('workspaces', ops.list, { result: 'workspaces', type: 'Workspace', description: 'Workspaces the API key reaches, oldest first' });
lookupField('workspace', Workspace, 'One workspace by id (FORBIDDEN when the key does not reach it)');
operationField('createWorkspace', ops.create, { names: { workspace_name: 'name' }, returns: { entity: Workspace, id: (out) => out._id } });
operationField('copyWorkspaceSettings', ops.copySettings, { result: 'copied' });
operationField('inviteUser', ops.inviteUser, { type: 'WorkspaceInvitation' });
operationField('acceptInvite', ops.acceptInvite, { type: 'AcceptedInvite' });
// Deletes (no REST path: the vendor has none): answered at once, purged by the worker role.
operationField('deleteWorkspace', ops.delete);
operationField('deleteOrganization', operations.organization.delete);
