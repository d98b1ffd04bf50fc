// The organization's API keys from the web app or the API: list, create (shown once), revoke.
// The CLI's `keys` commands issue and revoke through the same service functions.
import type { Tx } from '@outreach/db';
import type { Actor } from '../shared/context';
import { defineOperation } from '../shared/operation';
import { forbidden, notFound } from '../shared/errors';
import { roleAtLeast } from '../shared/role.rules';
import { issueApiKey, revokeApiKey } from './api-key.service';
import { CreateApiKeyInput, CreateApiKeyOutput, ListApiKeysInput, ListApiKeysOutput, RevokeApiKeyInput, RevokeApiKeyOutput } from './api-key.schemas';

const RULES =
  'OWNER and ADMIN only (403 `auth.role_forbidden`), with an organization-wide caller: a workspace-limited, client or partner key is 403 `auth.organization_key_required`.';

const SELECT = { id: true, name: true, keyPrefix: true, workspaceId: true, role: true, partnerName: true, clientId: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;
type KeyRow = { id: string; name: string; keyPrefix: string; workspaceId: string | null; role: 'OWNER' | 'ADMIN' | 'MEMBER' | 'READ_ONLY' | null; partnerName: string | null; clientId: string | null; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

function rowOf(k: KeyRow) {
  return {
    id: k.id,
    name: k.name,
    key_prefix: k.keyPrefix,
    workspace_id: k.workspaceId,
    role: k.role,
    partner_name: k.partnerName,
    client_id: k.clientId,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

/** Keys reach the whole organization's set-up: only a caller that reaches all of it manages them. */
function assertOrganizationWide(actor: Actor): void {
  if (actor.clientGrants !== null || actor.workspaceIds !== null || actor.partnerName !== undefined) {
    throw forbidden('auth.organization_key_required', 'only an organization-wide caller (an OWNER or ADMIN, or an organization API key) can manage API keys');
  }
}

async function findKey(db: Tx, organizationId: string, id: string): Promise<KeyRow> {
  const key = await db.apiKey.findFirst({ where: { id, organizationId }, select: SELECT });
  if (!key) throw notFound('auth.key_not_found', `id ${id} is not an API key of this organization`);
  return key;
}

export const listApiKeys = defineOperation({
  name: 'apiKey.list',
  kind: 'query',
  role: 'admin',
  summary: 'List API keys',
  description: `The organization's API keys, newest first, revoked ones included (\`revoked_at\`): organization keys, workspace-limited keys, client-access and partner keys. Never the key or its hash: its first group, \`key_prefix\`. \`last_used_at\`: when it last authenticated a request, to the minute. ${RULES}`,
  input: ListApiKeysInput,
  output: ListApiKeysOutput,
  workspace: 'none',
  async run(ctx) {
    assertOrganizationWide(ctx.actor);
    const keys = await ctx.db.apiKey.findMany({ where: { organizationId: ctx.actor.organizationId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: SELECT });
    return { status: 'success' as const, api_keys: keys.map(rowOf) };
  },
});

export const createApiKey = defineOperation({
  name: 'apiKey.create',
  kind: 'mutation',
  role: 'admin',
  summary: 'Create an API key',
  description: `Issues an API key named \`name\`, shown once in \`api_key\` and stored as its SHA-256. \`workspace_id\` limits it to one workspace of the organization (403/404 for another's); \`role\` makes it act with that role (READ_ONLY runs queries only); omitted, it has full access. A caller with a role cannot issue a key above it (full access ranks as OWNER): 403 \`auth.role_forbidden\`. ${RULES}`,
  input: CreateApiKeyInput,
  output: CreateApiKeyOutput,
  workspace: 'optional',
  async run(ctx, input) {
    assertOrganizationWide(ctx.actor);
    if (ctx.actor.role && !roleAtLeast(ctx.actor.role, input.role ?? 'OWNER')) {
      throw forbidden('auth.role_forbidden', `the role ${ctx.actor.role} cannot issue a key with ${input.role ? `the role ${input.role}` : 'full access'}: choose role ${ctx.actor.role} or lower`);
    }
    return ctx.db.$transaction(async (tx) => {
      const issued = await issueApiKey({ db: tx, organizationId: ctx.actor.organizationId, name: input.name, workspaceId: input.workspace_id, role: input.role });
      return { status: 'success' as const, api_key: issued.apiKey, key: rowOf(await findKey(tx, ctx.actor.organizationId, issued.id)) };
    });
  },
});

export const revokeApiKeyOperation = defineOperation({
  name: 'apiKey.revoke',
  kind: 'mutation',
  role: 'admin',
  summary: 'Revoke an API key',
  description: `Revokes an API key of the organization (any kind, the calling key included): requests with it answer 401 from then on, at once in the process that revoked it, within 5 s in others (their lookup cache). Revoking a revoked key changes nothing. 404 \`auth.key_not_found\` when the organization has no key with this id. ${RULES}`,
  input: RevokeApiKeyInput,
  output: RevokeApiKeyOutput,
  workspace: 'none',
  async run(ctx, input) {
    assertOrganizationWide(ctx.actor);
    const key = await ctx.db.$transaction(async (tx) => {
      await revokeApiKey({ db: tx, keyId: input.id, organizationId: ctx.actor.organizationId });
      return findKey(tx, ctx.actor.organizationId, input.id);
    });
    ctx.caches.apiKeys.clear();
    return { status: 'success' as const, key: rowOf(key) };
  },
});
