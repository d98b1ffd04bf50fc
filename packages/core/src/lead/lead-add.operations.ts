import { z } from 'zod';
import { defineOperation } from '../shared/operation';
import { WorkspaceIdField } from '../shared/schemas';

// Placeholder: replaced by the operation's implementation.
export const addLeads = defineOperation({
  name: 'lead.add',
  kind: 'mutation',
  summary: 'lead.add',
  input: z.object({ workspace_id: WorkspaceIdField }),
  output: z.object({}),
  workspace: 'required',
  async run() {
    throw new Error('not implemented');
  },
});
