// The registry of every operation, by domain. Transports build from it; adding an
// operation means defining it in its domain folder and listing it here.
import { createWorkspace, listWorkspaces } from './workspace/workspace.operations';
import { listLeadLabels } from './lead-label/lead-label.operations';

export const operations = {
  workspace: { list: listWorkspaces, create: createWorkspace },
  leadLabel: { list: listLeadLabels },
} as const;

export type Operations = typeof operations;
