import { z } from 'zod';
import { defineOperation } from '../shared/operation';
import { WorkspaceIdField } from '../shared/schemas';

// Placeholder: replaced by the operation's implementation.
export const listCampaignEmails = defineOperation({
  name: 'unibox.campaignEmails',
  kind: 'query',
  summary: 'unibox.campaignEmails',
  input: z.object({ workspace_id: WorkspaceIdField }),
  output: z.object({}),
  workspace: 'required',
  async run() {
    throw new Error('not implemented');
  },
});
