import { operations } from '@outreach/core';
import { procedureFor, publicMutationFor, router } from '../trpc';

export const workspaceRouter = router({
  list: procedureFor(operations.workspace.list),
  create: procedureFor(operations.workspace.create),
  copySettings: procedureFor(operations.workspace.copySettings),
  inviteUser: procedureFor(operations.workspace.inviteUser),
  acceptInvite: publicMutationFor(operations.workspace.acceptInvite),
  // No REST path: the vendor has no workspace delete.
  delete: procedureFor(operations.workspace.delete),
});
