// Partner keys (email-infrastructure providers): issuing them, what they reach, what they may
// call, and the record of what they did.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestMailbox, createTestTenant, expectDomainError, testCtx, useTestDatabase, type TestTenant } from '../testing/index';
import { defineOperation, executeOperation, type Operation } from '../shared/operation';
import type { Actor } from '../shared/context';
import { operations } from '../operations';
import { createAuthenticator, hashApiKey } from '../auth/index';
import { createPartnerKey } from './index';

const db = useTestDatabase();
const ops = operations.partner;

/** Logins always pass: the upload's own checks are the bulk add's (tested there and over HTTP). */
const acceptingMail = { verifySmtp: async () => {}, verifyImap: async () => {} };

async function tenant() {
  const t = await createTestTenant({ db, mail: acceptingMail });
  const second = await executeOperation({ op: operations.workspace.create, ctx: t.ctx, input: { workspace_name: 'Ungranted' } });
  return { ...t, ws2: second._id };
}

/** A partner key of the tenant granted `workspaceIds`, and a ctx acting as it (through the real authenticator). */
async function partnerOf(t: TestTenant, name: string, workspaceIds: string[]) {
  const key = await createPartnerKey({ db: db.prisma, organizationId: t.org.organizationId, name, workspaceIds });
  const actor = await createAuthenticator({ db: db.prisma, ttlMs: 0 }).authenticate(key.apiKey);
  return { key, actor, ctx: testCtx({ deps: t.deps, actor }) };
}

const activityOf = (organizationId: string) =>
  db.prisma.partnerActivity.findMany({ where: { organizationId }, orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }] });

function newAccount(email: string) {
  return { email, smtp_host: 'smtp.example.com', smtp_port: 587, smtp_username: email, smtp_password: 'pw', imap_host: 'imap.example.com', imap_port: 993, imap_username: email, imap_password: 'pw' };
}

describe('partner keys', () => {
  it('are issued hashed, named after the partner, and reach only the workspaces that grant them', async () => {
    const t = await tenant();
    const { key, actor } = await partnerOf(t, ' Mailforge ', [t.ws.toUpperCase()]);
    expect(key).toMatchObject({ name: 'Mailforge', workspaceIds: [t.ws], apiKey: expect.stringMatching(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/) });
    const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row).toMatchObject({ partnerName: 'Mailforge', keyHash: hashApiKey(key.apiKey), keyPrefix: key.apiKey.slice(0, 8), workspaceId: null, clientId: null });
    expect(JSON.stringify(row)).not.toContain(key.apiKey);
    expect(actor).toEqual({ organizationId: t.org.organizationId, apiKeyId: key.id, workspaceIds: [t.ws], clientGrants: null, partnerName: 'Mailforge' });

    // A workspace of another organization is refused, and nothing is issued.
    const other = await createTestTenant({ db });
    const before = await db.prisma.apiKey.count({ where: { organizationId: t.org.organizationId } });
    await expectDomainError(createPartnerKey({ db: db.prisma, organizationId: t.org.organizationId, name: 'X', workspaceIds: [t.ws, other.ws] }), 'forbidden', 'auth.workspace_forbidden');
    expect(await db.prisma.apiKey.count({ where: { organizationId: t.org.organizationId } })).toBe(before);
  });

  it('run no operation but the partner ones, whatever the input, and other keys run no partner-only one', async () => {
    const t = await tenant();
    const partner = await partnerOf(t, 'Mailforge', [t.ws]);
    const everyOperation = Object.values(operations).flatMap((domain) => Object.values(domain) as Operation[]);
    const others = everyOperation.filter((op) => !op.partner);
    expect(others.length).toBeGreaterThan(50);
    for (const op of others) {
      for (const input of [{}, { workspace_id: t.ws }]) {
        const error = await expectDomainError(executeOperation({ op, ctx: partner.ctx, input }), 'forbidden', 'auth.partner_forbidden');
        expect(error.message).toContain(op.name);
      }
    }
    const partnerOnly = everyOperation.filter((op) => op.partner === 'only');
    expect(partnerOnly.map((op) => op.name).sort()).toEqual(['partner.accountExists', 'partner.accountList', 'partner.uploadAccounts', 'partner.workspaces']);
    for (const op of partnerOnly) {
      await expectDomainError(executeOperation({ op, ctx: t.ctx, input: { workspace_id: t.ws } }), 'forbidden', 'auth.partner_key_required');
    }
    // Refused calls ran nothing and recorded nothing.
    expect(await activityOf(t.org.organizationId)).toEqual([]);
  });

  it('list the granted workspaces and their mailboxes, 403 elsewhere, each call recorded', async () => {
    const t = await tenant();
    const partner = await partnerOf(t, 'Mailforge', [t.ws]);
    await createTestMailbox({ ...t.base, email: 'seen@out.test' });
    await createTestMailbox({ ...t.base, workspaceId: t.ws2, email: 'hidden@out.test' });

    const workspaces = await executeOperation({ op: ops.workspaces, ctx: partner.ctx, input: {} });
    expect(workspaces).toEqual({ status: 'success', workspaces: [{ _id: t.ws, name: expect.any(String) }] });

    const listed = await executeOperation({ op: ops.accountList, ctx: partner.ctx, input: { workspace_id: t.ws, skip: 0, limit: 10 } });
    const asAdmin = await executeOperation({ op: operations.emailAccount.list, ctx: t.ctx, input: { workspace_id: t.ws } });
    expect(listed).toEqual(asAdmin);
    expect(listed.accounts.map((a) => a.email)).toEqual(['seen@out.test']);
    expect(JSON.stringify(listed)).not.toMatch(/password|username/i);
    expect((await executeOperation({ op: ops.accountList, ctx: partner.ctx, input: { workspace_id: t.ws, skip: 1 } })).accounts).toEqual([]);

    await expectDomainError(executeOperation({ op: ops.accountList, ctx: partner.ctx, input: { workspace_id: t.ws2 } }), 'forbidden', 'auth.workspace_forbidden');
    const foreign = await createTestTenant({ db });
    await expectDomainError(executeOperation({ op: ops.accountList, ctx: partner.ctx, input: { workspace_id: foreign.ws } }), 'forbidden', 'auth.workspace_forbidden');

    const activity = await activityOf(t.org.organizationId);
    expect(activity.map((a) => [a.operation, a.workspaceId, a.emailAccountId, a.partnerName, a.apiKeyId])).toEqual([
      ['partner.workspaces', null, null, 'Mailforge', partner.key.id],
      ['partner.accountList', t.ws, null, 'Mailforge', partner.key.id],
      ['partner.accountList', t.ws, null, 'Mailforge', partner.key.id],
    ]);
  });

  it('exists: whether the address is connected anywhere in the organization, naming only granted workspaces', async () => {
    const t = await tenant();
    const partner = await partnerOf(t, 'Mailforge', [t.ws]);
    const foreign = await createTestTenant({ db });
    await createTestMailbox({ ...t.base, email: 'both@out.test' });
    await createTestMailbox({ ...t.base, workspaceId: t.ws2, email: 'both@out.test' });
    await createTestMailbox({ ...t.base, workspaceId: t.ws2, email: 'elsewhere@out.test' });
    await createTestMailbox({ ...foreign.base, email: 'foreign@out.test' });
    const exists = (email: string) => executeOperation({ op: ops.accountExists, ctx: partner.ctx, input: { email } });

    expect(await exists(' BOTH@out.test ')).toEqual({ status: 'success', exists: true, workspace_ids: [t.ws] });
    // Connected only where the partner does not see: a yes, and no workspace id.
    expect(await exists('elsewhere@out.test')).toEqual({ status: 'success', exists: true, workspace_ids: [] });
    expect(await exists('nobody@out.test')).toEqual({ status: 'success', exists: false, workspace_ids: [] });
    // Another organization's mailboxes are not this organization's.
    expect(await exists('foreign@out.test')).toEqual({ status: 'success', exists: false, workspace_ids: [] });
    const bad = await expectDomainError(exists('not-an-address'), 'invalid');
    expect(bad.fieldErrors[0]?.field).toBe('email');
  });

  it('upload adds SMTP accounts as the bulk add does, tagged with the partner, one activity row per account', async () => {
    const t = await tenant();
    const partner = await partnerOf(t, 'Mailforge', [t.ws]);
    await createTestMailbox({ ...t.base, email: 'taken@out.test' });
    const uploaded = await executeOperation({
      op: ops.uploadAccounts,
      ctx: partner.ctx,
      input: { workspace_id: t.ws, provider_id: 'order-42', enable_warmup: 'yes', accounts: [newAccount('a@out.test'), newAccount('taken@out.test'), newAccount('b@out.test')] },
    });
    expect(uploaded.failed).toEqual([{ email: 'taken@out.test', error: 'already connected' }]);
    expect(uploaded.added.map((a) => a.email)).toEqual(['a@out.test', 'b@out.test']);
    const rows = await db.prisma.emailAccount.findMany({ where: { workspaceId: t.ws }, orderBy: { email: 'asc' } });
    expect(rows.map((r) => [r.email, r.partnerName, r.partnerProviderId, r.warmupStatus])).toEqual([
      ['a@out.test', 'Mailforge', 'order-42', 'ACTIVE'],
      ['b@out.test', 'Mailforge', 'order-42', 'ACTIVE'],
      ['taken@out.test', null, null, 'INACTIVE'],
    ]);
    expect(rows[0]!.smtpPasswordEnc).not.toBe('pw');
    const activity = await activityOf(t.org.organizationId);
    expect(activity.map((a) => [a.operation, a.workspaceId, a.partnerName]).every(([op, ws, name]) => op === 'partner.uploadAccounts' && ws === t.ws && name === 'Mailforge')).toBe(true);
    expect(activity.map((a) => a.emailAccountId).sort()).toEqual(uploaded.added.map((a) => a.id).sort());

    // Nothing added: the call is still recorded, once, without an account.
    await executeOperation({ op: ops.uploadAccounts, ctx: partner.ctx, input: { workspace_id: t.ws, provider_id: 'order-43', accounts: [newAccount('a@out.test')] } });
    expect((await activityOf(t.org.organizationId)).slice(2).map((a) => [a.operation, a.emailAccountId])).toEqual([['partner.uploadAccounts', null]]);

    // Not in a workspace that does not grant the key; not by an organization key; bad input names the field.
    await expectDomainError(
      executeOperation({ op: ops.uploadAccounts, ctx: partner.ctx, input: { workspace_id: t.ws2, provider_id: 'p', accounts: [newAccount('c@out.test')] } }),
      'forbidden',
      'auth.workspace_forbidden',
    );
    const missing = await expectDomainError(executeOperation({ op: ops.uploadAccounts, ctx: partner.ctx, input: { workspace_id: t.ws, accounts: [newAccount('c@out.test')] } }), 'invalid');
    expect(missing.fieldErrors).toEqual([{ field: 'provider_id', message: 'is required' }]);
    // Scoped to this test's organization: on PostgreSQL other files' tenants share the database (and this address).
    expect(await db.prisma.emailAccount.count({ where: { organizationId: t.org.organizationId, email: 'c@out.test' } })).toBe(0);
  });

  it('an upload whose activity cannot be written adds no mailbox: one transaction', async () => {
    const t = await tenant();
    const partner = await partnerOf(t, 'Mailforge', [t.ws]);
    // An actor whose partner name the activity table refuses (NOT NULL): the insert fails inside the transaction.
    const broken: Actor = { ...partner.actor, partnerName: null as unknown as string };
    await expect(
      executeOperation({ op: ops.uploadAccounts, ctx: testCtx({ deps: t.deps, actor: broken }), input: { workspace_id: t.ws, provider_id: 'p', accounts: [newAccount('atomic@out.test')] } }),
    ).rejects.toThrow();
    expect(await db.prisma.emailAccount.count({ where: { organizationId: t.org.organizationId, email: 'atomic@out.test' } })).toBe(0);
  });

  it('an operation marked `partner: true` runs for every key, and each partner call of it is recorded', async () => {
    const t = await tenant();
    const partner = await partnerOf(t, 'Mailforge', [t.ws]);
    const shared = defineOperation({
      name: 'test.sharedWithPartners',
      kind: 'mutation',
      summary: 'A test operation partners may call',
      input: z.object({ workspace_id: z.string() }),
      output: z.object({ ok: z.boolean() }),
      workspace: 'required',
      partner: true,
      run: async () => ({ ok: true }),
    });
    expect(await executeOperation({ op: shared, ctx: t.ctx, input: { workspace_id: t.ws } })).toEqual({ ok: true });
    expect(await activityOf(t.org.organizationId)).toEqual([]);
    expect(await executeOperation({ op: shared, ctx: partner.ctx, input: { workspace_id: t.ws } })).toEqual({ ok: true });
    expect((await activityOf(t.org.organizationId)).map((a) => [a.operation, a.workspaceId, a.partnerName])).toEqual([['test.sharedWithPartners', t.ws, 'Mailforge']]);
    // The grants still hold.
    await expectDomainError(executeOperation({ op: shared, ctx: partner.ctx, input: { workspace_id: t.ws2 } }), 'forbidden', 'auth.workspace_forbidden');
  });
});

describe('managing partner keys', () => {
  it('creates, lists, grants, withdraws and revokes, for organization keys only, within the organization', async () => {
    const t = await tenant();
    const auth = createAuthenticator({ db: db.prisma, ttlMs: 0 });
    const created = await executeOperation({ op: ops.createKey, ctx: t.ctx, input: { name: 'Mailforge', workspace_ids: [t.ws] } });
    expect(created).toEqual({ status: 'success', partner_key_id: expect.stringMatching(/^[0-9a-f]{24}$/), api_key: expect.stringMatching(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/), name: 'Mailforge', workspace_ids: [t.ws] });
    const id = created.partner_key_id;

    await executeOperation({ op: ops.grantWorkspace, ctx: t.ctx, input: { partner_key_id: id, workspace_id: t.ws2 } });
    await executeOperation({ op: ops.grantWorkspace, ctx: t.ctx, input: { partner_key_id: id, workspace_id: t.ws2 } });
    expect((await auth.authenticate(created.api_key)).workspaceIds?.sort()).toEqual([t.ws, t.ws2].sort());
    await executeOperation({ op: ops.revokeGrant, ctx: t.ctx, input: { partner_key_id: id, workspace_id: t.ws } });
    expect((await auth.authenticate(created.api_key)).workspaceIds).toEqual([t.ws2]);

    const listed = await executeOperation({ op: ops.listKeys, ctx: t.ctx, input: {} });
    expect(listed).toEqual({
      status: 'success',
      partner_keys: [{ partner_key_id: id, name: 'Mailforge', key_prefix: created.api_key.slice(0, 8), workspace_ids: [t.ws2], created_at: expect.any(String), revoked_at: null }],
    });
    expect(JSON.stringify(listed)).not.toContain(created.api_key);

    // Another organization's admin reaches neither the key nor its workspaces.
    const other = await createTestTenant({ db });
    expect((await executeOperation({ op: ops.listKeys, ctx: other.ctx, input: {} })).partner_keys).toEqual([]);
    await expectDomainError(executeOperation({ op: ops.revokeKey, ctx: other.ctx, input: { partner_key_id: id } }), 'not_found', 'partner.key_not_found');
    await expectDomainError(executeOperation({ op: ops.grantWorkspace, ctx: other.ctx, input: { partner_key_id: id, workspace_id: other.ws } }), 'not_found', 'partner.key_not_found');
    await expectDomainError(executeOperation({ op: ops.grantWorkspace, ctx: t.ctx, input: { partner_key_id: id, workspace_id: other.ws } }), 'forbidden', 'auth.workspace_forbidden');
    await expectDomainError(executeOperation({ op: ops.createKey, ctx: t.ctx, input: { name: 'X', workspace_ids: [other.ws] } }), 'forbidden', 'auth.workspace_forbidden');
    // An ordinary key's id is not a partner key's.
    await expectDomainError(executeOperation({ op: ops.revokeKey, ctx: t.ctx, input: { partner_key_id: t.org.apiKeyId } }), 'not_found', 'partner.key_not_found');

    // Workspace-limited and client keys manage no partner keys.
    const limited = testCtx({ deps: t.deps, actor: { ...t.org.actor, workspaceIds: [t.ws] } });
    await expectDomainError(executeOperation({ op: ops.listKeys, ctx: limited, input: {} }), 'forbidden', 'auth.organization_key_required');
    const client = testCtx({ deps: t.deps, actor: { ...t.org.actor, workspaceIds: [t.ws], clientGrants: { [t.ws]: { permissions: ['EMAILACCOUNT_LIST'], hideLabels: [] } } } });
    await expectDomainError(executeOperation({ op: ops.createKey, ctx: client, input: { name: 'X' } }), 'forbidden', 'auth.organization_key_required');

    await executeOperation({ op: ops.revokeKey, ctx: t.ctx, input: { partner_key_id: id } });
    await executeOperation({ op: ops.revokeKey, ctx: t.ctx, input: { partner_key_id: id } });
    await expectDomainError(auth.authenticate(created.api_key), 'unauthenticated', 'auth.invalid_key');
    await expectDomainError(executeOperation({ op: ops.grantWorkspace, ctx: t.ctx, input: { partner_key_id: id, workspace_id: t.ws } }), 'not_found', 'partner.key_not_found');
    expect((await executeOperation({ op: ops.listKeys, ctx: t.ctx, input: {} })).partner_keys[0]?.revoked_at).toEqual(expect.any(String));
  });

  it('lists the activity newest first, filtered and paged, to organization keys', async () => {
    const t = await tenant();
    const a = await partnerOf(t, 'Mailforge', [t.ws, t.ws2]);
    const b = await partnerOf(t, 'Boxly', [t.ws]);
    await executeOperation({ op: ops.accountList, ctx: a.ctx, input: { workspace_id: t.ws } });
    await executeOperation({ op: ops.accountList, ctx: a.ctx, input: { workspace_id: t.ws2 } });
    await executeOperation({ op: ops.workspaces, ctx: b.ctx, input: {} });
    const all = await executeOperation({ op: ops.activity, ctx: t.ctx, input: {} });
    expect(all.activity.map((r) => [r.partner_name, r.operation, r.workspace_id])).toEqual([
      ['Boxly', 'partner.workspaces', null],
      ['Mailforge', 'partner.accountList', t.ws2],
      ['Mailforge', 'partner.accountList', t.ws],
    ]);
    expect((await executeOperation({ op: ops.activity, ctx: t.ctx, input: { workspace_id: t.ws2 } })).activity).toHaveLength(1);
    expect((await executeOperation({ op: ops.activity, ctx: t.ctx, input: { partner_key_id: b.key.id } })).activity.map((r) => r.partner_key_id)).toEqual([b.key.id]);
    expect((await executeOperation({ op: ops.activity, ctx: t.ctx, input: { skip: 1, limit: 1 } })).activity.map((r) => r.workspace_id)).toEqual([t.ws2]);
    const other = await createTestTenant({ db });
    expect((await executeOperation({ op: ops.activity, ctx: other.ctx, input: {} })).activity).toEqual([]);
  });
});
