import { classifyPrismaError, newId, type Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { conflict, forbidden, notFound } from '../shared/errors';
import { issueApiKey } from '../auth/index';
import { assertOrganizationKey } from './client.rules';
import {
  ClientStatusOutput,
  CreateClientInput,
  CreateClientOutput,
  DeleteClientInput,
  ListClientsInput,
  ListClientsOutput,
  SetClientStatusInput,
  UpdateClientPermissionsInput,
  type ClientGrantInput,
  type ClientGrants,
} from './client.schemas';

const CACHE_NOTE = 'API keys are looked up with a 5 s cache, so the change reaches the client\'s key within 5 s.';

/** Every granted workspace must be the organization's; unknown and foreign look the same (403). */
async function assertGrantsInOrganization(options: { tx: Tx; organizationId: string; grants: ClientGrants }): Promise<void> {
  const ids = options.grants.list.map((g) => g.workspace_id);
  if (ids.length === 0) return;
  const found = await options.tx.workspace.findMany({ where: { organizationId: options.organizationId, id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((w) => w.id));
  const missing = ids.findIndex((id) => !known.has(id));
  if (missing >= 0) {
    const field = `${options.grants.field}.${missing}.${options.grants.idKey}`;
    throw forbidden('auth.workspace_forbidden', `${field} ${ids[missing]} is not accessible with this API key`);
  }
}

function grantRows(clientId: string, grants: ClientGrantInput[]) {
  return grants.map((g) => ({
    clientId,
    workspaceId: g.workspace_id,
    permissions: [...new Set(g.permissions)],
    hideLabels: [...new Set(g.hide_labels)],
  }));
}

const clientNotFound = (id: string) => notFound('client.not_found', `client ${id} not found`);

export const listClients = defineOperation({
  name: 'client.list',
  kind: 'query',
  summary: 'List client accounts',
  description:
    'The organization\'s client-access accounts, oldest first, each with its per-workspace grants (by workspace id). Organization keys only (403 `auth.organization_key_required`).',
  input: ListClientsInput,
  output: ListClientsOutput,
  workspace: 'optional',
  async run(ctx) {
    assertOrganizationKey(ctx.actor);
    const rows = await ctx.db.client.findMany({
      where: { organizationId: ctx.actor.organizationId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { grants: { orderBy: { workspaceId: 'asc' } } },
    });
    return {
      clients: rows.map((c) => ({
        client_id: c.id,
        client_email: c.email,
        client_first_name: c.firstName,
        client_last_name: c.lastName,
        client_business_name: c.businessName,
        notify_pos_reply_email: c.notifyPosReplyEmail,
        status: c.status,
        client_permissions: c.grants.map((g) => ({ workspace_id: g.workspaceId, permissions: g.permissions, hide_labels: g.hideLabels })),
      })),
    };
  },
});

export const createClient = defineOperation({
  name: 'client.create',
  kind: 'mutation',
  role: 'admin',
  summary: 'Create a client account',
  description: [
    'Creates an ACTIVE client-access account with its per-workspace grants and issues it an API key, shown once in `api_key`.',
    'The vendor\'s body: `client_email`, `client_first_name`, `client_last_name` and `client_business_name` (either may be ""), `notify_pos_reply_email` (optional comma-separated addresses, stored and listed; this server sends no such notification), and the grants as `workspaces: [{ id, permissions, hide_labels }]`. The grants are also accepted as `client_permissions: [{ workspace_id, permissions, hide_labels }]`, the shape the list answers; one of the two is required, not both (400 naming `workspaces`).',
    'Permissions are CAMPAIGN_, EMAILACCOUNT_, TAG_, BLOCKLIST_ and TEMPLATE_ with CREATE, EDIT, LIST or DELETE, plus HOOK_CREATE (400 naming the field otherwise).',
    'Each granted workspace must belong to the organization (403 otherwise, as for `workspace_id`) and appear once. `hide_labels` are lead label keys hidden from the client.',
    'The email is trimmed and lower-cased and unique in the organization (409 `client.duplicate_email`). Organization keys only.',
  ].join(' '),
  input: CreateClientInput,
  output: CreateClientOutput,
  workspace: 'optional',
  async run(ctx, input) {
    assertOrganizationKey(ctx.actor);
    const organizationId = ctx.actor.organizationId;
    const clientId = newId();
    const key = await ctx.db
      .$transaction(async (tx) => {
        await assertGrantsInOrganization({ tx, organizationId, grants: input.grants });
        await tx.client.create({
          data: {
            id: clientId,
            organizationId,
            email: input.client_email,
            firstName: input.client_first_name ?? '',
            lastName: input.client_last_name ?? '',
            businessName: input.client_business_name ?? '',
            notifyPosReplyEmail: input.notify_pos_reply_email ?? '',
          },
        });
        await tx.clientGrant.createMany({ data: grantRows(clientId, input.grants.list) });
        return issueApiKey({ db: tx, organizationId, clientId, name: 'client' });
      })
      .catch((error: unknown) => {
        if (classifyPrismaError(error)?.kind === 'conflict') {
          throw conflict('client.duplicate_email', `a client with email ${input.client_email} already exists`);
        }
        throw error;
      });
    return { status: 'success' as const, client_id: clientId, api_key: key.apiKey };
  },
});

export const updateClientPermissions = defineOperation({
  name: 'client.updatePermissions',
  kind: 'mutation',
  role: 'admin',
  summary: 'Edit a client',
  description: `Takes the create body with \`client_id\`: replaces every grant of the client with \`workspaces\` (or \`client_permissions\`; an empty list removes all access), and sets the given \`client_email\` (409 \`client.duplicate_email\` when another client has it), names and \`notify_pos_reply_email\`; omitted fields keep their value. Validated as on create; an unknown client is 404. ${CACHE_NOTE} Organization keys only.`,
  input: UpdateClientPermissionsInput,
  output: ClientStatusOutput,
  workspace: 'optional',
  async run(ctx, input) {
    assertOrganizationKey(ctx.actor);
    const organizationId = ctx.actor.organizationId;
    await ctx.db
      .$transaction(async (tx) => {
        // Locks the client row so two concurrent replacements apply one after the other.
        const touched = await tx.client.updateMany({
          where: { id: input.client_id, organizationId },
          data: {
            updatedAt: new Date(),
            ...(input.client_email !== undefined ? { email: input.client_email } : {}),
            ...(input.client_first_name !== undefined ? { firstName: input.client_first_name } : {}),
            ...(input.client_last_name !== undefined ? { lastName: input.client_last_name } : {}),
            ...(input.client_business_name !== undefined ? { businessName: input.client_business_name } : {}),
            ...(input.notify_pos_reply_email !== undefined ? { notifyPosReplyEmail: input.notify_pos_reply_email ?? '' } : {}),
          },
        });
        if (touched.count === 0) throw clientNotFound(input.client_id);
        await assertGrantsInOrganization({ tx, organizationId, grants: input.grants });
        await tx.clientGrant.deleteMany({ where: { clientId: input.client_id } });
        await tx.clientGrant.createMany({ data: grantRows(input.client_id, input.grants.list) });
      })
      .catch((error: unknown) => {
        if (classifyPrismaError(error)?.kind === 'conflict') {
          throw conflict('client.duplicate_email', `a client with email ${input.client_email} already exists`);
        }
        throw error;
      });
    return { status: 'success' as const };
  },
});

export const setClientStatus = defineOperation({
  name: 'client.setStatus',
  kind: 'mutation',
  role: 'admin',
  summary: 'Activate or deactivate a client',
  description: `Sets a client ACTIVE or INACTIVE; an INACTIVE client's keys answer 401. An unknown client is 404. ${CACHE_NOTE} Organization keys only.`,
  input: SetClientStatusInput,
  output: ClientStatusOutput,
  workspace: 'optional',
  async run(ctx, input) {
    assertOrganizationKey(ctx.actor);
    const updated = await ctx.db.$transaction(async (tx) =>
      tx.client.updateMany({ where: { id: input.client_id, organizationId: ctx.actor.organizationId }, data: { status: input.status } }),
    );
    if (updated.count === 0) throw clientNotFound(input.client_id);
    return { status: 'success' as const };
  },
});

export const deleteClient = defineOperation({
  name: 'client.delete',
  kind: 'mutation',
  role: 'admin',
  summary: 'Delete a client',
  description: `Deletes a client with its grants and API keys. An unknown client is 404. ${CACHE_NOTE} Organization keys only.`,
  input: DeleteClientInput,
  output: ClientStatusOutput,
  workspace: 'optional',
  async run(ctx, input) {
    assertOrganizationKey(ctx.actor);
    // Grants and api_keys rows go with the client by ON DELETE CASCADE.
    const deleted = await ctx.db.$transaction(async (tx) =>
      tx.client.deleteMany({ where: { id: input.client_id, organizationId: ctx.actor.organizationId } }),
    );
    if (deleted.count === 0) throw clientNotFound(input.client_id);
    return { status: 'success' as const };
  },
});
