import { describe, expect, it } from 'vitest';
import { createTestOrganization, createTestTenant, expectDomainError, testCtx, testServiceDeps, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { createAuthenticator } from '../auth/index';

const db = useTestDatabase();

async function setup() {
  const { org, ctx } = await createTestTenant({ db });
  const second = await executeOperation({ op: operations.workspace.create, ctx, input: { workspace_name: 'Second' } });
  return { org, ctx, ws: org.workspaceId, ws2: second._id };
}

describe('client access', () => {
  it('creates a client with grants and a working key, lists it, replaces grants, deactivates and deletes it', async () => {
    const { org, ctx, ws, ws2 } = await setup();
    const created = await executeOperation({
      op: operations.client.create,
      ctx,
      input: {
        client_email: ' Agency@Example.com ',
        client_first_name: 'Ada',
        client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST', 'TAG_LIST', 'HOOK_CREATE'], hide_labels: ['CLOSED'] }],
      },
    });
    expect(created).toEqual({ status: 'success', client_id: expect.stringMatching(/^[0-9a-f]{24}$/), api_key: expect.stringMatching(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/) });

    const auth = createAuthenticator({ db: db.prisma, ttlMs: 0 });
    const actor = await auth.authenticate(created.api_key);
    expect(actor).toEqual({
      organizationId: org.organizationId,
      apiKeyId: expect.any(String),
      workspaceIds: [ws],
      clientGrants: { [ws]: { permissions: ['TAG_LIST', 'HOOK_CREATE'], hideLabels: ['CLOSED'] } },
    });

    const listed = await executeOperation({ op: operations.client.list, ctx, input: {} });
    expect(listed).toEqual({
      clients: [
        {
          client_id: created.client_id,
          client_email: 'agency@example.com',
          client_first_name: 'Ada',
          client_last_name: '',
          client_business_name: '',
          notify_pos_reply_email: '',
          status: 'ACTIVE',
          client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST', 'HOOK_CREATE'], hide_labels: ['CLOSED'] }],
        },
      ],
    });

    await executeOperation({
      op: operations.client.updatePermissions,
      ctx,
      input: { client_id: created.client_id, client_permissions: [{ workspace_id: ws2, permissions: ['BLOCKLIST_LIST'] }] },
    });
    expect((await auth.authenticate(created.api_key)).clientGrants).toEqual({ [ws2]: { permissions: ['BLOCKLIST_LIST'], hideLabels: [] } });

    await executeOperation({ op: operations.client.setStatus, ctx, input: { client_id: created.client_id, status: 'INACTIVE' } });
    await expectDomainError(auth.authenticate(created.api_key), 'unauthenticated');
    await executeOperation({ op: operations.client.setStatus, ctx, input: { client_id: created.client_id, status: 'ACTIVE' } });
    await auth.authenticate(created.api_key);

    await executeOperation({ op: operations.client.delete, ctx, input: { client_id: created.client_id } });
    await expectDomainError(auth.authenticate(created.api_key), 'unauthenticated');
    expect(await db.prisma.apiKey.count({ where: { clientId: created.client_id } })).toBe(0);
    expect(await db.prisma.clientGrant.count({ where: { clientId: created.client_id } })).toBe(0);
    await expectDomainError(executeOperation({ op: operations.client.delete, ctx, input: { client_id: created.client_id } }), 'not_found', 'client.not_found');
  });

  it('refuses a duplicate email in the organization, but not in another one', async () => {
    const { ctx, ws } = await setup();
    const input = { client_email: 'dup@example.com', client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST'] }] };
    await executeOperation({ op: operations.client.create, ctx, input });
    await expectDomainError(
      executeOperation({ op: operations.client.create, ctx, input: { ...input, client_email: 'DUP@example.com' } }),
      'conflict',
      'client.duplicate_email',
    );
    const other = await setup();
    await executeOperation({ op: operations.client.create, ctx: other.ctx, input: { ...input, client_permissions: [{ workspace_id: other.ws, permissions: [] }] } });
    expect(await db.prisma.client.count({ where: { email: 'dup@example.com', organizationId: other.org.organizationId } })).toBe(1);
  });

  it('validates permissions and workspaces, naming the field, and writes nothing', async () => {
    const { org, ctx, ws } = await setup();
    const bad = await expectDomainError(
      executeOperation({
        op: operations.client.create,
        ctx,
        input: { client_email: 'x@example.com', client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST', 'HOOK_DELETE'] }] },
      }),
      'invalid',
    );
    expect(bad.fieldErrors[0]?.field).toBe('client_permissions.0.permissions.1');
    const email = await expectDomainError(
      executeOperation({ op: operations.client.create, ctx, input: { client_email: 'nope', client_permissions: [] } }),
      'invalid',
    );
    expect(email.fieldErrors[0]).toEqual({ field: 'client_email', message: 'must be an email address' });
    const twice = await expectDomainError(
      executeOperation({
        op: operations.client.create,
        ctx,
        input: { client_email: 'x@example.com', client_permissions: [{ workspace_id: ws, permissions: [] }, { workspace_id: ws, permissions: [] }] },
      }),
      'invalid',
    );
    expect(twice.fieldErrors[0]?.field).toBe('client_permissions.1.workspace_id');
    const foreign = (await createTestOrganization({ db })).workspaceId;
    const foreignError = await expectDomainError(
      executeOperation({
        op: operations.client.create,
        ctx,
        input: { client_email: 'x@example.com', client_permissions: [{ workspace_id: ws, permissions: [] }, { workspace_id: foreign, permissions: ['TAG_LIST'] }] },
      }),
      'forbidden',
      'auth.workspace_forbidden',
    );
    expect(foreignError.message).toContain('client_permissions.1.workspace_id');
    expect(await db.prisma.client.count({ where: { organizationId: org.organizationId } })).toBe(0);
  });

  it('edits a client with the vendor body: names, notification addresses and grants, refusing another client\'s email', async () => {
    const { ctx, ws, ws2 } = await setup();
    const create = (email: string) =>
      executeOperation({
        op: operations.client.create,
        ctx,
        input: { client_email: email, client_first_name: 'Nova', client_last_name: '', client_business_name: '', workspaces: [{ id: ws, permissions: ['TAG_LIST'], hide_labels: [] }] },
      });
    const nova = await create('nova@example.com');
    await create('other@example.com');
    await executeOperation({
      op: operations.client.updatePermissions,
      ctx,
      input: {
        client_id: nova.client_id,
        client_first_name: 'Nova',
        client_last_name: 'Smith',
        client_business_name: 'Nova Ltd',
        notify_pos_reply_email: 'sales@example.com',
        workspaces: [{ id: ws2, permissions: ['BLOCKLIST_LIST'], hide_labels: ['CLOSED'] }],
      },
    });
    const listed = (await executeOperation({ op: operations.client.list, ctx, input: {} })).clients.find((c) => c.client_id === nova.client_id);
    expect(listed).toMatchObject({
      client_email: 'nova@example.com',
      client_last_name: 'Smith',
      client_business_name: 'Nova Ltd',
      notify_pos_reply_email: 'sales@example.com',
      client_permissions: [{ workspace_id: ws2, permissions: ['BLOCKLIST_LIST'], hide_labels: ['CLOSED'] }],
    });
    await expectDomainError(
      executeOperation({ op: operations.client.updatePermissions, ctx, input: { client_id: nova.client_id, client_email: 'OTHER@example.com', workspaces: [] } }),
      'conflict',
      'client.duplicate_email',
    );
    // The refused edit changed nothing, grants included.
    const after = (await executeOperation({ op: operations.client.list, ctx, input: {} })).clients.find((c) => c.client_id === nova.client_id);
    expect(after).toEqual(listed);
  });

  it('is for organization keys only and never reaches another organization\'s clients', async () => {
    const mine = await setup();
    const theirs = await setup();
    const their = await executeOperation({
      op: operations.client.create,
      ctx: theirs.ctx,
      input: { client_email: 'their@example.com', client_permissions: [{ workspace_id: theirs.ws, permissions: ['TAG_LIST'] }] },
    });
    expect((await executeOperation({ op: operations.client.list, ctx: mine.ctx, input: {} })).clients).toEqual([]);
    await expectDomainError(executeOperation({ op: operations.client.setStatus, ctx: mine.ctx, input: { client_id: their.client_id, status: 'INACTIVE' } }), 'not_found');
    await expectDomainError(
      executeOperation({ op: operations.client.updatePermissions, ctx: mine.ctx, input: { client_id: their.client_id, client_permissions: [] } }),
      'not_found',
    );
    await expectDomainError(executeOperation({ op: operations.client.delete, ctx: mine.ctx, input: { client_id: their.client_id } }), 'not_found');
    expect((await db.prisma.client.findUniqueOrThrow({ where: { id: their.client_id } })).status).toBe('ACTIVE');

    const limited = testCtx({ deps: testServiceDeps({ db }), actor: { ...mine.org.actor, workspaceIds: [mine.ws] } });
    await expectDomainError(executeOperation({ op: operations.client.list, ctx: limited, input: {} }), 'forbidden', 'auth.organization_key_required');
    const client = testCtx({
      deps: testServiceDeps({ db }),
      actor: { ...mine.org.actor, workspaceIds: [mine.ws], clientGrants: { [mine.ws]: { permissions: ['TAG_LIST'], hideLabels: [] } } },
    });
    await expectDomainError(
      executeOperation({ op: operations.client.create, ctx: client, input: { client_email: 'y@example.com', client_permissions: [] } }),
      'forbidden',
      'auth.organization_key_required',
    );
  });
});
