import { describe, expect, it } from 'vitest';
import { createTestTenant, expectDomainError, testCtx, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { ANONYMOUS_ACTOR } from '../shared/context';
import { operations } from '../operations';
import { createAuthenticator } from '../auth/index';
import { acceptInvite } from './workspace-invite.service';
import { hashInviteToken } from './workspace-invite.rules';

const db = useTestDatabase();

const DAY = 24 * 60 * 60 * 1000;

async function setup(now = new Date('2026-06-01T10:00:00Z')) {
  const { org, deps, ctx } = await createTestTenant({ db, clock: { now: () => now } });
  const second = (await executeOperation({ op: operations.workspace.create, ctx, input: { workspace_name: 'Second' } }))._id;
  const invite = (email = 'New.Person@Example.com', workspaceId = second) =>
    executeOperation({ op: operations.workspace.inviteUser, ctx, input: { workspace_id: workspaceId, email, role: 'MEMBER' } });
  return { org, deps, ctx, second, invite, now };
}

describe('inviting a user', () => {
  it('stores a pending invitation valid 7 days with only the token\'s hash', async () => {
    const { invite, second, now } = await setup();
    const invited = await invite();
    expect(invited).toEqual({
      status: 'success',
      invite_id: expect.stringMatching(/^[0-9a-f]{24}$/),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: new Date(now.getTime() + 7 * DAY).toISOString(),
    });
    const row = await db.prisma.workspaceInvite.findUniqueOrThrow({ where: { id: invited.invite_id } });
    expect(row).toMatchObject({ workspaceId: second, email: 'new.person@example.com', role: 'MEMBER', acceptedAt: null, apiKeyId: null });
    expect(row.tokenHash).toBe(hashInviteToken(invited.token));
    expect(JSON.stringify(row)).not.toContain(invited.token);
  });

  it('replaces a pending invitation of the same address to the same workspace', async () => {
    const { invite, second, org, now } = await setup();
    const first = await invite('a@example.com');
    const elsewhere = await invite('a@example.com', org.workspaceId);
    const replaced = await invite('A@example.com');
    const rows = await db.prisma.workspaceInvite.findMany({ where: { email: 'a@example.com', workspaceId: { in: [second, org.workspaceId] } }, select: { id: true } });
    expect(rows.map((r) => r.id).sort()).toEqual([elsewhere.invite_id, replaced.invite_id].sort());
    await expectDomainError(acceptInvite({ db: db.prisma, token: first.token, now }), 'invalid', 'invite.invalid_token');
  });

  it('validates email and role, and refuses client keys', async () => {
    const { ctx, second, org, deps } = await setup();
    const bad = async (input: Record<string, unknown>) =>
      (await expectDomainError(executeOperation({ op: operations.workspace.inviteUser, ctx, input: { workspace_id: second, email: 'a@example.com', role: 'ADMIN', ...input } }), 'invalid')).fieldErrors;
    expect(await bad({ email: 'not-an-address' })).toEqual([{ field: 'email', message: 'must be a valid e-mail address' }]);
    expect(await bad({ email: undefined })).toEqual([{ field: 'email', message: 'is required' }]);
    expect(await bad({ role: 'OWNER' })).toEqual([{ field: 'role', message: 'must be ADMIN, MEMBER or READ_ONLY' }]);
    const client = testCtx({ deps, actor: { ...org.actor, workspaceIds: [second], clientGrants: { [second]: { permissions: [], hideLabels: [] } } } });
    await expectDomainError(
      executeOperation({ op: operations.workspace.inviteUser, ctx: client, input: { workspace_id: second, email: 'a@example.com', role: 'ADMIN' } }),
      'forbidden',
      'auth.organization_key_required',
    );
  });
});

describe('accepting an invitation', () => {
  it('issues a key that reaches only the invitation\'s workspace, once', async () => {
    const { invite, second, org, now, deps } = await setup();
    const invited = await invite();
    const accepted = await acceptInvite({ db: db.prisma, token: invited.token, now: new Date(now.getTime() + DAY) });
    expect(accepted.workspaceId).toBe(second);
    const actor = await createAuthenticator({ db: db.prisma, ttlMs: 0 }).authenticate(accepted.apiKey);
    expect(actor).toMatchObject({ organizationId: org.organizationId, workspaceIds: [second], clientGrants: null });
    const limited = testCtx({ deps, actor });
    expect((await executeOperation({ op: operations.workspace.list, ctx: limited, input: {} })).workspaces.map((w) => w._id)).toEqual([second]);
    await expectDomainError(executeOperation({ op: operations.workspaceSettings.get, ctx: limited, input: { workspace_id: org.workspaceId } }), 'forbidden');
    const row = await db.prisma.workspaceInvite.findUniqueOrThrow({ where: { id: invited.invite_id } });
    expect(row.acceptedAt?.toISOString()).toBe(new Date(now.getTime() + DAY).toISOString());
    expect(row.apiKeyId).toBe(accepted.apiKeyId);
    // Reuse is refused, with the same answer as an unknown token.
    const reused = await expectDomainError(acceptInvite({ db: db.prisma, token: invited.token, now }), 'invalid', 'invite.invalid_token');
    const unknown = await expectDomainError(acceptInvite({ db: db.prisma, token: 'nope', now }), 'invalid', 'invite.invalid_token');
    expect(reused.message).toBe(unknown.message);
    expect(await db.prisma.apiKey.count({ where: { workspaceId: second } })).toBe(1);
  });

  it('refuses a token 7 days after the invitation', async () => {
    const { invite, now } = await setup();
    const invited = await invite();
    const expired = await expectDomainError(acceptInvite({ db: db.prisma, token: invited.token, now: new Date(now.getTime() + 7 * DAY) }), 'invalid', 'invite.invalid_token');
    expect(expired.fieldErrors).toEqual([{ field: 'token', message: 'is invalid, expired or already used' }]);
    const stillValid = await acceptInvite({ db: db.prisma, token: invited.token, now: new Date(now.getTime() + 7 * DAY - 1) });
    expect(stillValid.apiKey).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/);
  });

  it('runs as an operation without an actor (public), taking the time from the clock', async () => {
    const { invite, deps, second } = await setup();
    const invited = await invite();
    const anonymous = testCtx({ deps, actor: ANONYMOUS_ACTOR });
    const accepted = await executeOperation({ op: operations.workspace.acceptInvite, ctx: anonymous, input: { token: invited.token } });
    expect(accepted).toEqual({ status: 'success', workspace_id: second, api_key: expect.stringMatching(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/) });
    const missing = await expectDomainError(executeOperation({ op: operations.workspace.acceptInvite, ctx: anonymous, input: {} }), 'invalid');
    expect(missing.fieldErrors).toEqual([{ field: 'token', message: 'is required' }]);
    const late = testCtx({ deps: { ...deps, ports: { ...deps.ports, clock: { now: () => new Date('2030-01-01T00:00:00Z') } } }, actor: ANONYMOUS_ACTOR });
    const again = await invite('other@example.com');
    await expectDomainError(executeOperation({ op: operations.workspace.acceptInvite, ctx: late, input: { token: again.token } }), 'invalid', 'invite.invalid_token');
  });
});
