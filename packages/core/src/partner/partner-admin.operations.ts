// The organization's side of partner access: issuing partner keys, granting them workspaces,
// revoking them, and reading what they did. Organization keys only.
import type { Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { notFound } from '../shared/errors';
import { assertOrganizationAdmin } from './partner.rules';
import { createPartnerKey } from './partner-key.service';
import {
  CreatePartnerKeyInput,
  CreatePartnerKeyOutput,
  ListPartnerActivityInput,
  ListPartnerActivityOutput,
  ListPartnerKeysInput,
  ListPartnerKeysOutput,
  PartnerGrantInput,
  PartnerStatusOutput,
  RevokePartnerKeyInput,
} from './partner.schemas';

const ADMIN_ONLY = 'Organization keys only (403 `auth.organization_key_required` for a workspace-limited, client or partner key).';
const CACHE_NOTE = 'API keys are looked up with a 5 s cache, so the change reaches the partner\'s key within 5 s.';

const keyNotFound = (id: string) => notFound('partner.key_not_found', `partner_key_id ${id} is not a partner key of this organization`);

/** The organization's partner key with this id (revoked or not), or 404. */
async function findPartnerKey(options: { db: Tx; organizationId: string; id: string }) {
  const { id } = options;
  const key = await options.db.apiKey.findFirst({
    where: { id, organizationId: options.organizationId, partnerName: { not: null } },
    select: { id: true, revokedAt: true },
  });
  if (!key) throw keyNotFound(id);
  return key;
}

export const createPartnerKeyOperation = defineOperation({
  name: 'partner.createKey',
  kind: 'mutation',
  role: 'admin',
  summary: 'Create a partner key',
  description: `Issues an API key for an email-infrastructure partner (a provider creating mailboxes for this organization), named \`name\` (the partner's name, which the mailboxes it adds and its activity carry), shown once in \`api_key\` and stored as its SHA-256. The key reaches only the workspaces that grant it (\`workspace_ids\` here, each of the organization, 403 otherwise; more with POST /partner/grants), and runs only the partner operations (403 \`auth.partner_forbidden\` on every other). Several keys may carry the same name (rotation). ${ADMIN_ONLY}`,
  input: CreatePartnerKeyInput,
  output: CreatePartnerKeyOutput,
  workspace: 'none',
  async run(ctx, input) {
    assertOrganizationAdmin(ctx.actor);
    const key = await createPartnerKey({ db: ctx.db, organizationId: ctx.actor.organizationId, name: input.name, workspaceIds: input.workspace_ids });
    return { status: 'success' as const, partner_key_id: key.id, api_key: key.apiKey, name: key.name, workspace_ids: key.workspaceIds };
  },
});

export const listPartnerKeys = defineOperation({
  name: 'partner.listKeys',
  kind: 'query',
  role: 'admin',
  summary: 'List partner keys',
  description: `The organization's partner keys, oldest first, revoked ones included (\`revoked_at\`), each with the workspaces that grant it. Never the key itself: its first group, \`key_prefix\`. ${ADMIN_ONLY}`,
  input: ListPartnerKeysInput,
  output: ListPartnerKeysOutput,
  workspace: 'none',
  async run(ctx) {
    assertOrganizationAdmin(ctx.actor);
    const keys = await ctx.db.apiKey.findMany({
      where: { organizationId: ctx.actor.organizationId, partnerName: { not: null } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, partnerName: true, keyPrefix: true, createdAt: true, revokedAt: true, partnerGrants: { select: { workspaceId: true }, orderBy: { workspaceId: 'asc' } } },
    });
    return {
      status: 'success' as const,
      partner_keys: keys.map((k) => ({
        partner_key_id: k.id,
        name: k.partnerName ?? '',
        key_prefix: k.keyPrefix,
        workspace_ids: k.partnerGrants.map((g) => g.workspaceId),
        created_at: k.createdAt.toISOString(),
        revoked_at: k.revokedAt?.toISOString() ?? null,
      })),
    };
  },
});

export const revokePartnerKey = defineOperation({
  name: 'partner.revokeKey',
  kind: 'mutation',
  role: 'admin',
  summary: 'Revoke a partner key',
  description: `Revokes a partner key: requests with it answer 401 from then on (revoking a revoked key changes nothing). Its activity stays. 404 \`partner.key_not_found\` when the organization has no partner key with this id. ${CACHE_NOTE} ${ADMIN_ONLY}`,
  input: RevokePartnerKeyInput,
  output: PartnerStatusOutput,
  workspace: 'none',
  async run(ctx, input) {
    assertOrganizationAdmin(ctx.actor);
    await ctx.db.$transaction(async (tx) => {
      const revoked = await tx.apiKey.updateMany({
        where: { id: input.partner_key_id, organizationId: ctx.actor.organizationId, partnerName: { not: null }, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (revoked.count === 0) await findPartnerKey({ db: tx, organizationId: ctx.actor.organizationId, id: input.partner_key_id });
    });
    return { status: 'success' as const };
  },
});

export const grantPartnerWorkspace = defineOperation({
  name: 'partner.grantWorkspace',
  kind: 'mutation',
  role: 'admin',
  summary: 'Grant a workspace to a partner key',
  description: `The workspace \`workspace_id\` grants the partner key \`partner_key_id\`: the partner lists and adds its mailboxes (granting twice changes nothing). A revoked or unknown key is 404 \`partner.key_not_found\`; a workspace of another organization 403. ${CACHE_NOTE} ${ADMIN_ONLY}`,
  input: PartnerGrantInput,
  output: PartnerStatusOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertOrganizationAdmin(ctx.actor);
    await ctx.db.$transaction(async (tx) => {
      const key = await findPartnerKey({ db: tx, organizationId: ctx.actor.organizationId, id: input.partner_key_id });
      if (key.revokedAt) throw keyNotFound(input.partner_key_id);
      await tx.partnerGrant.createMany({ data: [{ apiKeyId: key.id, workspaceId: input.workspace_id }], skipDuplicates: true });
    });
    return { status: 'success' as const };
  },
});

export const revokePartnerGrant = defineOperation({
  name: 'partner.revokeGrant',
  kind: 'mutation',
  role: 'admin',
  summary: 'Withdraw a workspace from a partner key',
  description: `The workspace stops granting the partner key: the partner no longer sees it nor adds mailboxes to it (the mailboxes it added stay). Withdrawing a grant the key does not hold changes nothing; an unknown key is 404 \`partner.key_not_found\`. ${CACHE_NOTE} ${ADMIN_ONLY}`,
  input: PartnerGrantInput,
  output: PartnerStatusOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertOrganizationAdmin(ctx.actor);
    await ctx.db.$transaction(async (tx) => {
      const key = await findPartnerKey({ db: tx, organizationId: ctx.actor.organizationId, id: input.partner_key_id });
      await tx.partnerGrant.deleteMany({ where: { apiKeyId: key.id, workspaceId: input.workspace_id } });
    });
    return { status: 'success' as const };
  },
});

export const listPartnerActivity = defineOperation({
  name: 'partner.activity',
  kind: 'query',
  role: 'admin',
  summary: 'List what partner keys did',
  description: `Every successful call of the organization's partner keys, newest first, paged with \`skip\` and \`limit\`: the partner's name, the operation, its workspace, and the email account it touched (an upload records one row per mailbox added). Filtered by \`workspace_id\` and \`partner_key_id\` when given. Refused calls (403) are not recorded. ${ADMIN_ONLY}`,
  input: ListPartnerActivityInput,
  output: ListPartnerActivityOutput,
  workspace: 'optional',
  async run(ctx, input) {
    assertOrganizationAdmin(ctx.actor);
    const rows = await ctx.db.partnerActivity.findMany({
      where: {
        organizationId: ctx.actor.organizationId,
        ...(input.workspace_id ? { workspaceId: input.workspace_id } : {}),
        ...(input.partner_key_id ? { apiKeyId: input.partner_key_id } : {}),
      },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      skip: input.skip,
      take: input.limit,
    });
    return {
      status: 'success' as const,
      activity: rows.map((r) => ({
        _id: r.id,
        partner_key_id: r.apiKeyId,
        partner_name: r.partnerName,
        operation: r.operation,
        workspace_id: r.workspaceId,
        email_account_id: r.emailAccountId,
        occurred_at: r.occurredAt.toISOString(),
      })),
    };
  },
});
