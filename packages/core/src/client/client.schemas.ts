import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';
import { CLIENT_PERMISSIONS } from './client.rules';

const Name = z.string({ error: 'must be a string' }).trim().max(200, 'must be at most 200 characters');

/** Optional on client operations: they are scoped by the key's organization, not a workspace. */
const OptionalWorkspace = WorkspaceIdField.optional().describe('Ignored for scoping (client access is organization-wide); checked when given');

export const ClientPermission = z.enum(CLIENT_PERMISSIONS, { error: `must be one of ${CLIENT_PERMISSIONS.join(', ')}` });
export type ClientPermission = z.infer<typeof ClientPermission>;

export const ClientGrantInput = z.object({
  workspace_id: WorkspaceIdField,
  permissions: z.array(ClientPermission, { error: requiredOr('an array of permissions') }).max(CLIENT_PERMISSIONS.length),
  hide_labels: z
    .array(z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100), { error: 'must be an array of lead label keys' })
    .max(200)
    .default([]),
});
export type ClientGrantInput = z.infer<typeof ClientGrantInput>;

/** The vendor's write shape of a grant (`workspaces[]`): the workspace is `id`. */
export const ClientWorkspaceGrantInput = z.object({
  id: WorkspaceIdField.describe('Workspace granted to the client'),
  permissions: ClientGrantInput.shape.permissions,
  hide_labels: ClientGrantInput.shape.hide_labels,
});
export type ClientWorkspaceGrantInput = z.infer<typeof ClientWorkspaceGrantInput>;

/** A list of grants, each workspace at most once (`key` names the workspace in an item). */
function grantList<T extends z.ZodType>(item: T, key: string) {
  return z
    .array(item, { error: requiredOr('an array of workspace grants') })
    .max(1000, 'must hold at most 1000 grants')
    .superRefine((grants, ctx) => {
      const seen = new Set<string>();
      grants.forEach((g, i) => {
        const id = (g as Record<string, string>)[key]!;
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i, key], message: 'is granted twice' });
        seen.add(id);
      });
    });
}

const ClientPermissions = grantList(ClientGrantInput, 'workspace_id');
const ClientWorkspaces = grantList(ClientWorkspaceGrantInput, 'id');

const ClientEmail = z
  .string({ error: requiredOr('a string') })
  .trim()
  .toLowerCase()
  .max(320, 'must be at most 320 characters')
  .pipe(z.email({ error: 'must be an email address' }));

/** The vendor's comma-separated address list; stored trimmed, lower-cased, without repeats ("" for none). */
const NotifyEmails = z
  .string({ error: 'must be a comma-separated list of email addresses' })
  .max(2000, 'must be at most 2000 characters')
  .transform((text, ctx) => {
    const list = [...new Set(text.split(/[,;]/).map((a) => a.trim().toLowerCase()).filter(Boolean))];
    const bad = list.find((a) => !z.email().safeParse(a).success);
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of email addresses ("${bad}" is not one)` });
      return z.NEVER;
    }
    return list.join(',');
  });

/**
 * The grants of a client body: the vendor's `workspaces` ({ id, permissions, hide_labels }) or
 * `client_permissions` (the read shape, { workspace_id, … }); exactly one of them.
 */
const GrantsBody = {
  workspaces: ClientWorkspaces.optional().describe('The grants, as the vendor writes them: [{ id, permissions, hide_labels }]'),
  client_permissions: ClientPermissions.optional().describe('The grants in the read shape ([{ workspace_id, permissions, hide_labels }]), instead of `workspaces`'),
};

type WithGrants = { workspaces?: ClientWorkspaceGrantInput[] | undefined; client_permissions?: ClientGrantInput[] | undefined };

function checkOneGrantList(body: WithGrants, ctx: z.RefinementCtx): void {
  if (body.workspaces !== undefined && body.client_permissions !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['workspaces'], message: 'must not be given with client_permissions (they are the same grants)' });
  } else if (body.workspaces === undefined && body.client_permissions === undefined) {
    ctx.addIssue({ code: 'custom', path: ['workspaces'], message: 'is required: the grants [{ id, permissions, hide_labels }] (or client_permissions)' });
  }
}

/** Where the grants were given (error fields name it) and the grants in one shape. */
export interface ClientGrants {
  field: 'workspaces' | 'client_permissions';
  /** The key of an item naming its workspace. */
  idKey: 'id' | 'workspace_id';
  list: ClientGrantInput[];
}

function grantsOf(body: WithGrants): ClientGrants {
  if (body.workspaces !== undefined) {
    return { field: 'workspaces', idKey: 'id', list: body.workspaces.map((g) => ({ workspace_id: g.id, permissions: g.permissions, hide_labels: g.hide_labels })) };
  }
  return { field: 'client_permissions', idKey: 'workspace_id', list: body.client_permissions ?? [] };
}

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
  notify_pos_reply_email: z.string().describe('Addresses given to be told of positive replies, comma-separated; "" when none (stored, no notification is sent)'),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  client_permissions: z.array(ClientGrantOutput),
});
export type ClientItem = z.infer<typeof ClientItem>;

export const ListClientsOutput = z.object({ clients: z.array(ClientItem) });
export type ListClientsOutput = z.infer<typeof ListClientsOutput>;

export const CreateClientInput = z
  .object({
    workspace_id: OptionalWorkspace,
    client_email: ClientEmail,
    client_first_name: Name.optional(),
    client_last_name: Name.optional().describe('May be ""'),
    client_business_name: Name.optional().describe('May be ""'),
    notify_pos_reply_email: NotifyEmails.nullable().optional(),
    ...GrantsBody,
  })
  .superRefine(checkOneGrantList)
  .transform((body) => ({ ...body, grants: grantsOf(body) }));
export type CreateClientInput = z.infer<typeof CreateClientInput>;

export const CreateClientOutput = z.object({
  status: StatusSuccess,
  client_id: z.string(),
  api_key: z.string().describe('The client\'s API key; shown once, stored hashed'),
});
export type CreateClientOutput = z.infer<typeof CreateClientOutput>;

/** PUT /client: the create body with `client_id`; the given fields change, the grants are replaced. */
export const UpdateClientPermissionsInput = z
  .object({
    workspace_id: OptionalWorkspace,
    client_id: ObjectId,
    client_email: ClientEmail.optional(),
    client_first_name: Name.optional(),
    client_last_name: Name.optional(),
    client_business_name: Name.optional(),
    notify_pos_reply_email: NotifyEmails.nullable().optional(),
    ...GrantsBody,
  })
  .superRefine(checkOneGrantList)
  .transform((body) => ({ ...body, grants: grantsOf(body) }));
export type UpdateClientPermissionsInput = z.infer<typeof UpdateClientPermissionsInput>;

export const SetClientStatusInput = z.object({
  workspace_id: OptionalWorkspace,
  client_id: ObjectId,
  status: z.enum(['ACTIVE', 'INACTIVE'], { error: requiredOr('ACTIVE or INACTIVE') }),
});
export type SetClientStatusInput = z.infer<typeof SetClientStatusInput>;

export const DeleteClientInput = z.object({
  workspace_id: OptionalWorkspace,
  client_id: ObjectId,
});
export type DeleteClientInput = z.infer<typeof DeleteClientInput>;

export const ClientStatusOutput = z.object({ status: StatusSuccess });
export type ClientStatusOutput = z.infer<typeof ClientStatusOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(ClientItem, 'Client');
nameApiSchema(ClientGrantOutput, 'ClientGrant');
nameApiSchema(ClientGrantInput, 'ClientGrantInput');
