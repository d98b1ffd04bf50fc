// The organization's API keys as operations (apiKey.list/create/revoke): shown once, stored
// hashed, scoped to the organization, admin-only, and a revocation takes effect at once here.
import { describe, expect, it } from 'vitest';
import { createTestTenant, expectDomainError, testCtx, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { personActor } from '../people/index';
import { createAuthenticator, hashApiKey, issueApiKey } from './index';

const db = useTestDatabase();
const ops = operations.apiKey;

describe('API keys as operations', () => {
  it('create answers the key once, list never shows it, and revoke makes it fail at once in this process', async () => {
    const t = await createTestTenant({ db });
    // The process's authenticator shares the operations' cache, with a long ttl: only the revocation can clear it.
    const auth = createAuthenticator({ db: db.prisma, ttlMs: 60_000, cache: t.deps.caches.apiKeys });
    const created = await executeOperation({ op: ops.create, ctx: t.ctx, input: { name: '  Zapier  ', workspace_id: t.ws.toUpperCase(), role: 'read-only' } });
    expect(created.key).toMatchObject({ name: 'Zapier', workspace_id: t.ws, role: 'READ_ONLY', partner_name: null, client_id: null, revoked_at: null, key_prefix: created.api_key.slice(0, 8) });
    const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.key.id } });
    expect(row.keyHash).toBe(hashApiKey(created.api_key));
    expect(JSON.stringify(row)).not.toContain(created.api_key);

    const actor = await auth.authenticate(created.api_key);
    expect(actor).toMatchObject({ organizationId: t.org.organizationId, apiKeyId: created.key.id, workspaceIds: [t.ws], role: 'READ_ONLY' });

    const listed = await executeOperation({ op: ops.list, ctx: t.ctx, input: {} });
    expect(listed.api_keys.map((k) => k.id)).toEqual([created.key.id, t.org.apiKeyId]);
    expect(JSON.stringify(listed)).not.toContain(created.api_key);
    expect(JSON.stringify(listed)).not.toContain(row.keyHash);

    const revoked = await executeOperation({ op: ops.revoke, ctx: t.ctx, input: { id: created.key.id } });
    expect(revoked.key.revoked_at).toEqual(expect.any(String));
    await expectDomainError(auth.authenticate(created.api_key), 'unauthenticated', 'auth.invalid_key');
    // Revoking again changes nothing.
    const again = await executeOperation({ op: ops.revoke, ctx: t.ctx, input: { id: created.key.id } });
    expect(again.key.revoked_at).toBe(revoked.key.revoked_at);
  });

  it('tells when each key last authenticated a request, to the minute: at most one write a minute, none for a refused key', async () => {
    const t = await createTestTenant({ db });
    let now = Date.parse('2026-03-02T10:00:00.000Z');
    const auth = createAuthenticator({ db: db.prisma, ttlMs: 0, now: () => now, cache: t.deps.caches.apiKeys });
    const created = await executeOperation({ op: ops.create, ctx: t.ctx, input: { name: 'Zapier' } });
    const lastUsed = async () => (await executeOperation({ op: ops.list, ctx: t.ctx, input: {} })).api_keys.find((k) => k.id === created.key.id)!.last_used_at;
    expect(created.key.last_used_at).toBeNull();
    expect(await lastUsed()).toBeNull();

    await auth.authenticate(created.api_key);
    expect(await lastUsed()).toBe('2026-03-02T10:00:00.000Z');
    // Within the minute: looked up again (no cache here), not written again.
    now += 59_000;
    await auth.authenticate(created.api_key);
    expect(await lastUsed()).toBe('2026-03-02T10:00:00.000Z');
    now += 2_000;
    await auth.authenticate(created.api_key);
    expect(await lastUsed()).toBe('2026-03-02T10:01:01.000Z');
    // The organization's other keys are untouched.
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id: t.org.apiKeyId } })).lastUsedAt).toBeNull();

    await executeOperation({ op: ops.revoke, ctx: t.ctx, input: { id: created.key.id } });
    now += 120_000;
    await expectDomainError(auth.authenticate(created.api_key), 'unauthenticated', 'auth.invalid_key');
    expect(await lastUsed()).toBe('2026-03-02T10:01:01.000Z');
  });

  it("another organization's key is 404, and its workspace cannot scope a key", async () => {
    const t = await createTestTenant({ db });
    const other = await createTestTenant({ db });
    await expectDomainError(executeOperation({ op: ops.revoke, ctx: t.ctx, input: { id: other.org.apiKeyId } }), 'not_found', 'auth.key_not_found');
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id: other.org.apiKeyId } })).revokedAt).toBeNull();
    expect((await executeOperation({ op: ops.list, ctx: t.ctx, input: {} })).api_keys.map((k) => k.id)).not.toContain(other.org.apiKeyId);
    const before = await db.prisma.apiKey.count({ where: { organizationId: t.org.organizationId } });
    await expect(executeOperation({ op: ops.create, ctx: t.ctx, input: { name: 'x', workspace_id: other.ws } })).rejects.toMatchObject({ kind: 'forbidden' });
    await expectDomainError(executeOperation({ op: ops.create, ctx: t.ctx, input: { name: ' ' } }), 'invalid', 'request.invalid');
    expect(await db.prisma.apiKey.count({ where: { organizationId: t.org.organizationId } })).toBe(before);
  });

  it('are for OWNERs and ADMINs with an organization-wide reach only', async () => {
    const t = await createTestTenant({ db });
    const person = (role: 'ADMIN' | 'MEMBER' | 'READ_ONLY') =>
      testCtx({ deps: t.deps, actor: personActor({ organizationId: t.org.organizationId, userId: 'u'.repeat(24), role, workspaceIds: [t.ws] }) });
    await expectDomainError(executeOperation({ op: ops.list, ctx: person('MEMBER'), input: {} }), 'forbidden', 'auth.role_forbidden');
    await expectDomainError(executeOperation({ op: ops.create, ctx: person('MEMBER'), input: { name: 'x' } }), 'forbidden', 'auth.role_forbidden');
    await expectDomainError(executeOperation({ op: ops.revoke, ctx: person('READ_ONLY'), input: { id: t.org.apiKeyId } }), 'forbidden', 'auth.role_forbidden');

    const auth = createAuthenticator({ db: db.prisma, ttlMs: 0 });
    const readOnly = await issueApiKey({ db: db.prisma, organizationId: t.org.organizationId, role: 'READ_ONLY' });
    const readOnlyCtx = testCtx({ deps: t.deps, actor: await auth.authenticate(readOnly.apiKey) });
    await expectDomainError(executeOperation({ op: ops.list, ctx: readOnlyCtx, input: {} }), 'forbidden', 'auth.role_forbidden');
    await expectDomainError(executeOperation({ op: ops.revoke, ctx: readOnlyCtx, input: { id: t.org.apiKeyId } }), 'forbidden', 'auth.role_forbidden');
    const limited = await issueApiKey({ db: db.prisma, organizationId: t.org.organizationId, workspaceId: t.ws });
    const limitedCtx = testCtx({ deps: t.deps, actor: await auth.authenticate(limited.apiKey) });
    await expectDomainError(executeOperation({ op: ops.create, ctx: limitedCtx, input: { name: 'wider' } }), 'forbidden', 'auth.organization_key_required');

    // An ADMIN issues keys up to ADMIN, not full access.
    await expectDomainError(executeOperation({ op: ops.create, ctx: person('ADMIN'), input: { name: 'full' } }), 'forbidden', 'auth.role_forbidden');
    const admin = await executeOperation({ op: ops.create, ctx: person('ADMIN'), input: { name: 'admin', role: 'ADMIN' } });
    expect(admin.key.role).toBe('ADMIN');
    expect((await auth.authenticate(admin.api_key)).role).toBe('ADMIN');
  });
});
