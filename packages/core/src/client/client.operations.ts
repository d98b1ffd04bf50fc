import { classifyPrismaError, newId, type Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { conflict, forbidden, notFound } from '../shared/errors';
import { issueApiKey } from '../auth/organization.service';
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
} from './client.schemas';

const CACHE_NOTE = 'API keys are looked up with a 5 s cache, so the change reaches the client\'s key within 5 s.';

/** Every granted workspace must be the organization's; unknown and foreign look the same (403). */
async function assertGrantsInOrganization(options: { tx: Tx; organizationId: string; grants: ClientGrantInput[] }): Promise<void> {
  const ids = options.grants.map((g) => g.workspace_id);
  if (ids.length === 0) return;
  const found = await options.tx.workspace.findMany({ where: { organizationId: options.organizationId, id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((w) => w.id));
  const missing = ids.findIndex((id) => !known.has(id));
  if (missing >= 0) {
    throw forbidden('auth.workspace_forbidden', `client_permissions.${missing}.workspace_id ${ids[missing]} is not accessible with this API key`);
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
        status: c.status,
        client_permissions: c.grants.map((g) => ({ workspace_id: g.workspaceId, permissions: g.permissions, hide_labels: g.hideLabels })),
      })),
    };
  },
});

export const createClient = defineOperation({
  name: 'client.create',
  kind: 'mutation',
  summary: 'Create a client account',
  description: [
    'Creates an ACTIVE client-access account with its per-workspace grants and issues it an API key, shown once in `api_key`.',
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
        await assertGrantsInOrganization({ tx, organizationId, grants: input.client_permissions });
        await tx.client.create({
          data: {
            id: clientId,
            organizationId,
            email: input.client_email,
            firstName: input.client_first_name ?? '',
            lastName: input.client_last_name ?? '',
            businessName: input.client_business_name ?? '',
          },
        });
        await tx.clientGrant.createMany({ data: grantRows(clientId, input.client_permissions) });
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
  summary: 'Replace a client\'s permissions',
  description: `Replaces every grant of the client with \`client_permissions\` (an empty list removes all access). Validated as on create; an unknown client is 404. ${CACHE_NOTE} Organization keys only.`,
  input: UpdateClientPermissionsInput,
  output: ClientStatusOutput,
  workspace: 'optional',
  async run(ctx, input) {
    assertOrganizationKey(ctx.actor);
    const organizationId = ctx.actor.organizationId;
    await ctx.db.$transaction(async (tx) => {
      // Locks the client row so two concurrent replacements apply one after the other.
      const touched = await tx.client.updateMany({ where: { id: input.client_id, organizationId }, data: { updatedAt: new Date() } });
      if (touched.count === 0) throw clientNotFound(input.client_id);
      await assertGrantsInOrganization({ tx, organizationId, grants: input.client_permissions });
      await tx.clientGrant.deleteMany({ where: { clientId: input.client_id } });
      await tx.clientGrant.createMany({ data: grantRows(input.client_id, input.client_permissions) });
    });
    return { status: 'success' as const };
  },
});

export const setClientStatus = defineOperation({
  name: 'client.setStatus',
  kind: 'mutation',
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
