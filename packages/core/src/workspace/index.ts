// The operations of this domain, keyed as their tRPC procedures are (`workspace.<key>`).
import { createWorkspace, listWorkspaces } from './workspace.operations';

export const workspaceOperations = {
  list: listWorkspaces,
  create: createWorkspace,
} as const;
