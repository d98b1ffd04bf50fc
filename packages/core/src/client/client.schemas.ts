import { z } from 'zod';
import { ObjectId, StatusSuccess, WorkspaceIdField } from '../shared/schemas';
import { CLIENT_PERMISSIONS } from './client.rules';

const required = (type: string) => (iss: { input: unknown }) => (iss.input === undefined ? 'is required' : `must be ${type}`);

const Name = z.string({ error: 'must be a string' }).trim().max(200, 'must be at most 200 characters');

/** Optional on client operations: they are scoped by the key's organization, not a workspace. */
const OptionalWorkspace = WorkspaceIdField.optional().describe('Ignored for scoping (client access is organization-wide); checked when given');

export const ClientPermission = z.enum(CLIENT_PERMISSIONS, { error: `must be one of ${CLIENT_PERMISSIONS.join(', ')}` });
export type ClientPermission = z.infer<typeof ClientPermission>;

export const ClientGrantInput = z.object({
  workspace_id: WorkspaceIdField,
  permissions: z.array(ClientPermission, { error: required('an array of permissions') }).max(CLIENT_PERMISSIONS.length),
  hide_labels: z
    .array(z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100), { error: 'must be an array of lead label keys' })
    .max(200)
    .default([]),
});
export type ClientGrantInput = z.infer<typeof ClientGrantInput>;

const ClientPermissions = z
  .array(ClientGrantInput, { error: required('an array of workspace grants') })
  .max(1000, 'must hold at most 1000 grants')
  .superRefine((grants, ctx) => {
    const seen = new Set<string>();
    grants.forEach((g, i) => {
      if (seen.has(g.workspace_id)) ctx.addIssue({ code: 'custom', path: [i, 'workspace_id'], message: 'is granted twice' });
      seen.add(g.workspace_id);
    });
  });

export const ListClientsInput = z.object({ workspace_id: OptionalWorkspace }).default({});
export type ListClientsInput = z.infer<typeof ListClientsInput>;

export const ClientGrantOutput = z.object({
  workspace_id: z.string(),
  permissions: z.array(z.string()),
  hide_labels: z.array(z.string()),
});

export const ClientItem = z.object({
  client_id: z.string(),
  client_email: z.string(),
  client_first_name: z.string(),
  client_last_name: z.string(),
  client_business_name: z.string(),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  client_permissions: z.array(ClientGrantOutput),
});
export type ClientItem = z.infer<typeof ClientItem>;

export const ListClientsOutput = z.object({ clients: z.array(ClientItem) });
export type ListClientsOutput = z.infer<typeof ListClientsOutput>;

export const CreateClientInput = z.object({
  workspace_id: OptionalWorkspace,
  client_email: z
    .string({ error: required('a string') })
    .trim()
    .toLowerCase()
    .max(320, 'must be at most 320 characters')
    .pipe(z.email({ error: 'must be an email address' })),
  client_first_name: Name.optional(),
  client_last_name: Name.optional(),
  client_business_name: Name.optional(),
  client_permissions: ClientPermissions,
});
export type CreateClientInput = z.infer<typeof CreateClientInput>;

export const CreateClientOutput = z.object({
  status: StatusSuccess,
  client_id: z.string(),
  api_key: z.string().describe('The client\'s API key; shown once, stored hashed'),
});
export type CreateClientOutput = z.infer<typeof CreateClientOutput>;

export const UpdateClientPermissionsInput = z.object({
  workspace_id: OptionalWorkspace,
  client_id: ObjectId,
  client_permissions: ClientPermissions,
});
export type UpdateClientPermissionsInput = z.infer<typeof UpdateClientPermissionsInput>;

export const SetClientStatusInput = z.object({
  workspace_id: OptionalWorkspace,
  client_id: ObjectId,
  status: z.enum(['ACTIVE', 'INACTIVE'], { error: 'must be ACTIVE or INACTIVE' }),
});
export type SetClientStatusInput = z.infer<typeof SetClientStatusInput>;

export const DeleteClientInput = z.object({
  workspace_id: OptionalWorkspace,
  client_id: ObjectId,
});
export type DeleteClientInput = z.infer<typeof DeleteClientInput>;

export const ClientStatusOutput = z.object({ status: StatusSuccess });
export type ClientStatusOutput = z.infer<typeof ClientStatusOutput>;
