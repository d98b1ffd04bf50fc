import { z } from 'zod';
import { defineOperation } from '../shared/operation';
import { WorkspaceIdField } from '../shared/schemas';

// Placeholder: replaced by the operation's implementation.
export const getVariationStats = defineOperation({
  name: 'campaign.variationStats',
  kind: 'query',
  summary: 'campaign.variationStats',
  input: z.object({ workspace_id: WorkspaceIdField }),
  output: z.object({}),
  workspace: 'required',
  async run() {
    throw new Error('not implemented');
  },
});
