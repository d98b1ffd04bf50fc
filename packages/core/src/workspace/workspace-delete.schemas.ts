import { z } from 'zod';
import { StatusSuccess, WorkspaceIdField } from '../shared/schemas';

// Deleting cannot be undone: the caller repeats the id in `confirm`, so a request built from a
// template, a retried form or a fuzzer never deletes by accident.
export const DeleteWorkspaceInput = z
  .object({ workspace_id: WorkspaceIdField, confirm: z.string().describe('The workspace_id again, confirming the delete') })
  .refine((input) => input.confirm === input.workspace_id, { path: ['confirm'], message: 'must repeat workspace_id' });
export type DeleteWorkspaceInput = z.infer<typeof DeleteWorkspaceInput>;

export const DeleteWorkspaceOutput = z.object({ status: StatusSuccess });
export type DeleteWorkspaceOutput = z.infer<typeof DeleteWorkspaceOutput>;

export const DeleteOrganizationInput = z.object({
  confirm: z.string().describe('The organization id, confirming the delete of the caller\'s own organization'),
});
export type DeleteOrganizationInput = z.infer<typeof DeleteOrganizationInput>;

export const DeleteOrganizationOutput = z.object({ status: StatusSuccess });
export type DeleteOrganizationOutput = z.infer<typeof DeleteOrganizationOutput>;
