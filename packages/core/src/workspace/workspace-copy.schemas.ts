import { z } from 'zod';
import { ObjectId, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';

export const CopyWorkspaceSettingsInput = z
  .object({
    workspace_id: WorkspaceIdField.describe('The source workspace'),
    to_workspace_ids: z
      .array(ObjectId, { error: requiredOr('an array of workspace ids') })
      .min(1, 'must hold at least one workspace id')
      .max(50, 'must hold at most 50 workspace ids'),
  })
  .superRefine((input, ctx) => {
    input.to_workspace_ids.forEach((id, i) => {
      if (id === input.workspace_id) {
        ctx.addIssue({ code: 'custom', path: ['to_workspace_ids', i], message: 'must not be the source workspace' });
      }
    });
  });
export type CopyWorkspaceSettingsInput = z.infer<typeof CopyWorkspaceSettingsInput>;

export const CopyWorkspaceSettingsOutput = z.object({
  status: StatusSuccess,
  copied: z.number().int().describe('Number of target workspaces written'),
});
export type CopyWorkspaceSettingsOutput = z.infer<typeof CopyWorkspaceSettingsOutput>;
