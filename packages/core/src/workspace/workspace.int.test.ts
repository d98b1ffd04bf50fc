import { describe, expect, it } from 'vitest';
import { createTestOrganization, createTestTenant, testCtx, testServiceDeps, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { DomainError } from '../shared/errors';
import { operations } from '../operations';
import { createAuthenticator, issueApiKey, revokeApiKey } from '../auth/index';

const db = useTestDatabase();

async function expectDomainError(promise: Promise<unknown>, kind: string, code?: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe(kind);
  if (code) expect((error as DomainError).code).toBe(code);
  return error as DomainError;
}

describe('workspaces', () => {
  it('a new workspace is listed after the first one, with the eight system lead labels', async () => {
    const { org, ctx } = await createTestTenant({ db });
    const created = await executeOperation({ op: operations.workspace.create, ctx, input: { workspace_name: '  Client B  ' } });
    expect(created.status).toBe('success');
    expect(created._id).toMatch(/^[0-9a-f]{24}$/);
    const listed = await executeOperation({ op: operations.workspace.list, ctx, input: {} });
    expect(listed).toEqual({
      status: 'success',
      workspaces: [
        { _id: org.workspaceId, name: 'Default workspace' },
        { _id: created._id, name: 'Client B' },
      ],
    });
    const labels = await executeOperation({ op: operations.leadLabel.list, ctx, input: { workspace_id: created._id } });
    expect(labels.map((l) => [l.key, l.sentiment, l.is_system])).toEqual([
      ['INTERESTED', 'POSITIVE', 1],
      ['NOT_INTERESTED', 'NEGATIVE', 1],
      ['OUT_OF_OFFICE', 'NEUTRAL', 1],
      ['AUTOMATIC_REPLY', 'NEUTRAL', 1],
      ['MEETING_BOOKED', 'POSITIVE', 1],
      ['MEETING_COMPLETED', 'POSITIVE', 1],
      ['WRONG_PERSON', 'NEUTRAL', 1],
      ['CLOSED', 'POSITIVE', 1],
    ]);
  });

  it('never lists or reaches another organization\'s workspaces', async () => {
    const mine = await createTestOrganization({ db });
    const theirs = await createTestOrganization({ db });
    const ctx = testCtx({ deps: testServiceDeps({ db }), actor: mine.actor });
    const listed = await executeOperation({ op: operations.workspace.list, ctx, input: {} });
    expect(listed.workspaces.map((w) => w._id)).toEqual([mine.workspaceId]);
    await expectDomainError(
      executeOperation({ op: operations.leadLabel.list, ctx, input: { workspace_id: theirs.workspaceId } }),
      'forbidden',
      'auth.workspace_forbidden',
    );
    // An id that exists nowhere looks the same as a foreign one.
    await expectDomainError(
      executeOperation({ op: operations.leadLabel.list, ctx, input: { workspace_id: 'ffffffffffffffffffffffff' } }),
      'forbidden',
    );
  });

  it('rejects an empty or missing workspace name, naming the field, and writes nothing', async () => {
    const { org, ctx } = await createTestTenant({ db });
    const missing = await expectDomainError(executeOperation({ op: operations.workspace.create, ctx, input: {} }), 'invalid');
    expect(missing.fieldErrors).toEqual([{ field: 'workspace_name', message: 'is required' }]);
    const blank = await expectDomainError(executeOperation({ op: operations.workspace.create, ctx, input: { workspace_name: '   ' } }), 'invalid');
    expect(blank.message).toBe('workspace_name must not be empty');
    expect(await db.prisma.workspace.count({ where: { organizationId: org.organizationId } })).toBe(1);
  });

  it('a workspace-limited key sees only its workspace and cannot create workspaces', async () => {
    const org = await createTestOrganization({ db });
    const deps = testServiceDeps({ db });
    const ctx = testCtx({ deps, actor: org.actor });
    const second = await executeOperation({ op: operations.workspace.create, ctx, input: { workspace_name: 'Second' } });
    const limitedKey = await issueApiKey({ db: db.prisma, organizationId: org.organizationId, workspaceId: second._id });
    const actor = await createAuthenticator({ db: db.prisma }).authenticate(limitedKey.apiKey);
    const limited = testCtx({ deps, actor });
    const listed = await executeOperation({ op: operations.workspace.list, ctx: limited, input: {} });
    expect(listed.workspaces).toEqual([{ _id: second._id, name: 'Second' }]);
    await expectDomainError(executeOperation({ op: operations.leadLabel.list, ctx: limited, input: { workspace_id: org.workspaceId } }), 'forbidden');
    await expectDomainError(executeOperation({ op: operations.workspace.create, ctx: limited, input: { workspace_name: 'x' } }), 'forbidden');
  });
});

describe('API keys', () => {
  it('are stored only as a hash, resolve to their organization, and stop working when revoked', async () => {
    const org = await createTestOrganization({ db });
    const stored = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: org.apiKeyId } });
    expect(JSON.stringify(stored)).not.toContain(org.apiKey);
    const auth = createAuthenticator({ db: db.prisma, ttlMs: 0 });
    expect((await auth.authenticate(org.apiKey)).organizationId).toBe(org.organizationId);
    // Keys are compared case-insensitively, as typed by a person.
    expect((await auth.authenticate(org.apiKey.toUpperCase())).organizationId).toBe(org.organizationId);
    expect(await revokeApiKey({ db: db.prisma, keyId: org.apiKeyId })).toBe(true);
    await expectDomainError(auth.authenticate(org.apiKey), 'unauthenticated', 'auth.invalid_key');
    await expectDomainError(auth.authenticate(undefined), 'unauthenticated', 'auth.missing_key');
    await expectDomainError(auth.authenticate('not a key'), 'unauthenticated', 'auth.invalid_key');
  });
});
