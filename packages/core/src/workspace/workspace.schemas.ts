import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { StatusSuccess, requiredOr } from '../shared/schemas';

export const ListWorkspacesInput = z
  .object({})
  .default({})
  .describe('No parameters: lists every workspace the API key reaches.');
export type ListWorkspacesInput = z.infer<typeof ListWorkspacesInput>;

export const WorkspaceSummary = z.object({
  _id: z.string().describe('Workspace identifier'),
  name: z.string(),
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

export const ListWorkspacesOutput = z.object({
  status: StatusSuccess,
  workspaces: z.array(WorkspaceSummary),
});
export type ListWorkspacesOutput = z.infer<typeof ListWorkspacesOutput>;

export const CreateWorkspaceInput = z.object({
  workspace_name: z
    .string({ error: requiredOr('a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters'),
});
export type CreateWorkspaceInput = z.infer<typeof CreateWorkspaceInput>;

export const CreateWorkspaceOutput = z.object({
  status: StatusSuccess,
  _id: z.string().describe('The new workspace identifier'),
});
export type CreateWorkspaceOutput = z.infer<typeof CreateWorkspaceOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(WorkspaceSummary, 'Workspace');
