// Blocklist, tags, webhooks and client access through REST, tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCampaign, createTestOrganization } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer();
let ws: string;
let foreignWs: string;

beforeAll(() => {
  ws = org.workspaceId;
  foreignWs = foreign.workspaceId;
});

describe('blocklist', () => {
  it('adds, lists and deletes entries over REST, and agrees with tRPC and GraphQL', async () => {
    const added = await server.rest('POST', '/blocklist/add/entries', { key: org.apiKey, body: { workspace_id: ws, entries: ['Bad@Example.com', '@spam.io', 'bad@example.com'] } });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ status: 'success', entries_added: 2, already_in_blocklist: 0 });

    const listed = await server.rest('GET', '/blocklist/list', { key: org.apiKey, query: { workspace_id: ws, limit: '10' } });
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.body)).toEqual(['0', '1']);
    expect(Object.values(listed.body).map((e: any) => e.value).sort()).toEqual(['bad@example.com', 'spam.io']);
    expect(await server.trpc(org.apiKey).blocklist.list.query({ workspace_id: ws, limit: 10 })).toEqual(listed.body);

    const gqlAdd = await server.graphql(`mutation($ws: ID!) { addBlocklistEntries(workspaceId: $ws, entries: ["*@spam.io", "new@x.org"]) { entriesAdded alreadyInBlocklist } }`, {
      key: org.apiKey,
      variables: { ws },
    });
    expect(gqlAdd.body).toEqual({ data: { addBlocklistEntries: { entriesAdded: 1, alreadyInBlocklist: 1 } } });
    const gqlList = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { blocklist(first: 2) { edges { node { value } } pageInfo { hasNextPage endCursor } } } }`, {
      key: org.apiKey,
      variables: { ws },
    });
    expect(gqlList.body.errors).toBeUndefined();
    const connection = gqlList.body.data.workspace.blocklist;
    expect(connection.edges.map((e: any) => e.node.value)).toEqual(['new@x.org', expect.any(String)]);
    expect(connection.pageInfo.hasNextPage).toBe(true);
    const rest = await server.graphql(`query($ws: ID!, $after: String) { workspace(id: $ws) { blocklist(first: 2, after: $after) { edges { node { value } } pageInfo { hasNextPage } } } }`, {
      key: org.apiKey,
      variables: { ws, after: connection.pageInfo.endCursor },
    });
    expect(rest.body.data.workspace.blocklist.edges).toHaveLength(1);
    expect(rest.body.data.workspace.blocklist.pageInfo.hasNextPage).toBe(false);

    const trpcDeleted = await server.trpc(org.apiKey).blocklist.deleteEntries.mutate({ workspace_id: ws, entries: ['new@x.org'] });
    expect(trpcDeleted).toEqual({ status: 'success', entries_deleted: 1 });
    const deleted = await server.rest('POST', '/blocklist/delete/entries', { key: org.apiKey, body: { workspace_id: ws, entries: ['BAD@example.com', '@spam.io'] } });
    expect(deleted.body).toEqual({ status: 'success', entries_deleted: 2 });
  });

  it('answers 400 naming the entry, and 403 for another organization\'s workspace', async () => {
    const bad = await server.rest('POST', '/blocklist/add/entries', { key: org.apiKey, body: { workspace_id: ws, entries: ['ok@x.com', 'nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'entries.1', message: 'must be an email address or a domain' }]);
    const foreign = await server.rest('GET', '/blocklist/list', { key: org.apiKey, query: { workspace_id: foreignWs } });
    expect(foreign.status).toBe(403);
  });
});

describe('tags', () => {
  it('creates, lists, updates and deletes over REST; tRPC and GraphQL agree', async () => {
    const created = await server.rest('POST', '/tags/create', { key: org.apiKey, body: { workspace_id: ws, name: 'Priority', color: '#abc', description: 'top' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', tag_id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const tagId = created.body.tag_id;
    const dup = await server.rest('POST', '/tags/create', { key: org.apiKey, body: { workspace_id: ws, name: 'PRIORITY', color: '#000' } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('tag.duplicate_name');

    const updated = await server.rest('PUT', '/tags/update', { key: org.apiKey, body: { workspace_id: ws, tag_id: tagId, color: '#102030' } });
    expect(updated.body).toEqual({ status: 'success' });
    const missing = await server.rest('PUT', '/tags/update', { key: org.apiKey, body: { workspace_id: ws, tag_id: 'ffffffffffffffffffffffff', name: 'x' } });
    expect(missing.status).toBe(404);

    const listed = await server.rest('GET', '/tags/list', { key: org.apiKey, query: { workspace_id: ws } });
    expect(listed.body).toEqual([{ _id: tagId, name: 'Priority', color: '#102030', description: 'top', status: 'ACTIVE', ea_count: 0, camp_count: 0 }]);
    expect(await server.trpc(org.apiKey).tag.list.query({ workspace_id: ws })).toEqual(listed.body);

    const trpcCreated = await server.trpc(org.apiKey).tag.create.mutate({ workspace_id: ws, name: 'Second', color: '#FFFFFF' });
    const gql = await server.graphql(
      `mutation($ws: ID!, $id: ID!) { updateTag(workspaceId: $ws, tagId: $id, name: "Renamed") { id name color campaignCount accountCount } }`,
      { key: org.apiKey, variables: { ws, id: trpcCreated.tag_id } },
    );
    expect(gql.body).toEqual({ data: { updateTag: { id: trpcCreated.tag_id, name: 'Renamed', color: '#FFFFFF', campaignCount: 0, accountCount: 0 } } });
    const gqlCreate = await server.graphql(`mutation($ws: ID!) { createTag(workspaceId: $ws, name: "renamed", color: "#000") { id } }`, { key: org.apiKey, variables: { ws } });
    expect(gqlCreate.body.errors[0].extensions.code).toBe('CONFLICT');
    const gqlList = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { tags { name } } }`, { key: org.apiKey, variables: { ws } });
    expect(gqlList.body.data.workspace.tags).toEqual([{ name: 'Priority' }, { name: 'Renamed' }]);

    const deleted = await server.rest('DELETE', '/tags/delete', { key: org.apiKey, body: { workspace_id: ws, ids: [tagId, trpcCreated.tag_id] } });
    expect(deleted.body).toEqual({ status: 'success', deleted_count: 2 });
  });
});

describe('webhooks', () => {
  it('adds, lists and deletes over REST; tRPC and GraphQL agree without exposing the secret', async () => {
    const campaign = await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws });
    const added = await server.rest('POST', '/hook/add', {
      key: org.apiKey,
      body: { workspace_id: ws, url: 'https://hooks.example.com/a', camp_ids: [campaign.id], event_types: ['BOUNCED_EMAIL', 'LEAD_MARKED_AS_MEETING_BOOKED'], secret: 'shh', ignore_automatic: 1 },
    });
    expect(added.status).toBe(200);
    const hookId = added.body._id;
    const listed = await server.rest('GET', '/hook/list', { key: org.apiKey, query: { workspace_id: ws } });
    expect(listed.body.hooks).toEqual([
      expect.objectContaining({ _id: hookId, secret: 'shh', camp_ids: [campaign.id], evt_types: ['BOUNCED_EMAIL', 'LEAD_MARKED_AS_MEETING_BOOKED'], ignore_ooo: 0, ignore_automatic: 1, status: 'ACTIVE' }),
    ]);
    expect(await server.trpc(org.apiKey).webhook.list.query({ workspace_id: ws })).toEqual(listed.body);
    const badCampaign = await server.rest('POST', '/hook/add', {
      key: org.apiKey,
      body: { workspace_id: ws, url: 'https://hooks.example.com/a', camp_ids: ['ffffffffffffffffffffffff'], event_types: ['EMAIL_SENT'] },
    });
    expect(badCampaign.status).toBe(400);
    expect(badCampaign.body.errors[0].field).toBe('camp_ids.0');

    const gqlAdd = await server.graphql(
      `mutation($ws: ID!) { addWebhook(workspaceId: $ws, url: "http://example.org/h", campaignIds: ["ALL"], eventTypes: ["EMAIL_SENT"], ignoreOoo: true) { id hasSecret campaignIds ignoreOoo status } }`,
      { key: org.apiKey, variables: { ws } },
    );
    expect(gqlAdd.body.data.addWebhook).toEqual({ id: expect.any(String), hasSecret: false, campaignIds: ['ALL'], ignoreOoo: true, status: 'ACTIVE' });
    const gqlList = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { webhooks { id url hasSecret } } }`, { key: org.apiKey, variables: { ws } });
    expect(gqlList.body.data.workspace.webhooks).toEqual([
      { id: hookId, url: 'https://hooks.example.com/a', hasSecret: true },
      { id: gqlAdd.body.data.addWebhook.id, url: 'http://example.org/h', hasSecret: false },
    ]);
    expect(JSON.stringify(gqlList.body)).not.toContain('shh');

    const trpcDeleted = await server.trpc(org.apiKey).webhook.delete.mutate({ workspace_id: ws, ids: [gqlAdd.body.data.addWebhook.id] });
    expect(trpcDeleted.deleted_count).toBe(1);
    const deleted = await server.rest('DELETE', '/hook/del', { key: org.apiKey, body: { workspace_id: ws, ids: [hookId] } });
    expect(deleted.body).toEqual({ status: 'success', deleted_count: 1 });
  });
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

describe('OpenAPI', () => {
  it('documents every route of this catalog', async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, method] of [
      ['/blocklist/list', 'get'], ['/blocklist/add/entries', 'post'], ['/blocklist/delete/entries', 'post'],
      ['/tags/list', 'get'], ['/tags/create', 'post'], ['/tags/update', 'put'], ['/tags/delete', 'delete'],
      ['/hook/list', 'get'], ['/hook/add', 'post'], ['/hook/del', 'delete'],
      ['/client', 'get'], ['/client', 'post'], ['/client', 'put'], ['/client', 'patch'], ['/client', 'delete'],
    ] as const) {
      const entry = Object.entries(doc.paths).find(([p]) => p.endsWith(path))?.[1];
      expect(entry?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});
