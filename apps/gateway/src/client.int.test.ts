// Client access (clients, their grants and keys) through REST, tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server, org } = useTestServer();
let ws: string;

beforeAll(() => {
  ws = org.workspaceId;
});

describe('client access', () => {
  it('manages clients over REST, tRPC and GraphQL', async () => {
    const created = await server.rest('POST', '/client', {
      key: org.apiKey,
      body: { client_email: 'rest@example.com', client_business_name: 'Acme', client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST'] }] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', client_id: expect.any(String), api_key: expect.any(String) });
    const clientId = created.body.client_id;

    const listed = await server.rest('GET', '/client/', { key: org.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body.clients).toContainEqual({
      client_id: clientId,
      client_email: 'rest@example.com',
      client_first_name: '',
      client_last_name: '',
      client_business_name: 'Acme',
      notify_pos_reply_email: '',
      status: 'ACTIVE',
      client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST'], hide_labels: [] }],
    });
    expect(await server.trpc(org.apiKey).client.list.query({})).toEqual(listed.body);

    const put = await server.rest('PUT', '/client', { key: org.apiKey, body: { client_id: clientId, client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST', 'TAG_CREATE'] }] } });
    expect(put.body).toEqual({ status: 'success' });
    const badPermission = await server.rest('PUT', '/client', { key: org.apiKey, body: { client_id: clientId, client_permissions: [{ workspace_id: ws, permissions: ['ROOT'] }] } });
    expect(badPermission.status).toBe(400);
    expect(badPermission.body.errors[0].field).toBe('client_permissions.0.permissions.0');
    const patch = await server.rest('PATCH', '/client', { key: org.apiKey, body: { client_id: clientId, status: 'INACTIVE' } });
    expect(patch.body).toEqual({ status: 'success' });
    const dup = await server.rest('POST', '/client', { key: org.apiKey, body: { client_email: 'REST@example.com', client_permissions: [] } });
    expect(dup.status).toBe(409);

    const gqlCreate = await server.graphql(
      `mutation($ws: ID!) { createClient(email: "gql@example.com", firstName: "G", permissions: [{ workspaceId: $ws, permissions: [BLOCKLIST_LIST] }]) { clientId apiKey } }`,
      { key: org.apiKey, variables: { ws } },
    );
    expect(gqlCreate.body.errors).toBeUndefined();
    const gqlId = gqlCreate.body.data.createClient.clientId;
    const gqlStatus = await server.graphql(`mutation($id: ID!) { setClientStatus(clientId: $id, status: INACTIVE) }`, { key: org.apiKey, variables: { id: gqlId } });
    expect(gqlStatus.body).toEqual({ data: { setClientStatus: true } });
    const gqlList = await server.graphql(`{ clients { id email status grants { workspaceId permissions } } }`, { key: org.apiKey });
    expect(gqlList.body.data.clients).toContainEqual({ id: gqlId, email: 'gql@example.com', status: 'INACTIVE', grants: [{ workspaceId: ws, permissions: ['BLOCKLIST_LIST'] }] });
    const trpcUpdate = await server.trpc(org.apiKey).client.updatePermissions.mutate({ client_id: gqlId, client_permissions: [] });
    expect(trpcUpdate).toEqual({ status: 'success' });

    const deleted = await server.rest('DELETE', '/client', { key: org.apiKey, body: { client_id: clientId } });
    expect(deleted.body).toEqual({ status: 'success' });
    expect((await server.trpc(org.apiKey).client.delete.mutate({ client_id: gqlId })).status).toBe('success');
    const gone = await server.rest('DELETE', '/client', { key: org.apiKey, body: { client_id: clientId } });
    expect(gone.status).toBe(404);
  });

  it('enforces a client key\'s grants, and rejects an inactive client\'s key', async () => {
    const owner = await createTestOrganization({ db: server.db });
    const w1 = owner.workspaceId;
    const w2 = (await server.rest('POST', '/workspaces/add', { key: owner.apiKey, body: { workspace_name: 'W2' } })).body._id;
    expect(w2).toMatch(/^[0-9a-f]{24}$/);
    const grants = [{ workspace_id: w1, permissions: ['TAG_LIST'] }];
    const active = await server.rest('POST', '/client', { key: owner.apiKey, body: { client_email: 'active@example.com', client_permissions: grants } });
    const key = active.body.api_key;

    expect((await server.rest('GET', '/tags/list', { key, query: { workspace_id: w1 } })).status).toBe(200);
    const create = await server.rest('POST', '/tags/create', { key, body: { workspace_id: w1, name: 'x', color: '#000' } });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('auth.permission_denied');
    const other = await server.rest('GET', '/tags/list', { key, query: { workspace_id: w2 } });
    expect(other.status).toBe(403);
    expect(await trpcFailure(() => server.trpc(key).tag.create.mutate({ workspace_id: w1, name: 'x', color: '#000' }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    // A client key cannot manage clients.
    const manage = await server.rest('GET', '/client', { key });
    expect(manage.status).toBe(403);
    expect(manage.body.code).toBe('auth.organization_key_required');

    // Deactivated before its key is first used, so no cached lookup hides the change.
    const inactive = await server.rest('POST', '/client', { key: owner.apiKey, body: { client_email: 'inactive@example.com', client_permissions: grants } });
    await server.rest('PATCH', '/client', { key: owner.apiKey, body: { client_id: inactive.body.client_id, status: 'INACTIVE' } });
    const refused = await server.rest('GET', '/tags/list', { key: inactive.body.api_key, query: { workspace_id: w1 } });
    expect(refused.status).toBe(401);
  });
});
