// The blocklist through REST, tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
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
