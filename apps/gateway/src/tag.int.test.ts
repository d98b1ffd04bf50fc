// Tags through REST, tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from './testing/suite';

const { server, org } = useTestServer();
let ws: string;

beforeAll(() => {
  ws = org.workspaceId;
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
