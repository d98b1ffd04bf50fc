// API keys over GraphQL and tRPC (no REST path): a key made there works on REST at once, is
// listed without its secret, and answers 401 as soon as it is revoked.
import { describe, expect, it } from 'vitest';
import { useTestServer } from './testing/suite';
import { trpcFailure } from './testing/test-server';

const { server, org, foreign } = useTestServer();
const KEY = 'id name keyPrefix workspaceId role partnerName clientId createdAt lastUsedAt revokedAt';

describe('API keys over GraphQL', () => {
  it('creates a key shown once that works on REST, lists it without the secret, and revoking it is a 401 at once', async () => {
    const created = await server.graphql(`mutation { createApiKey(name: "Zapier", role: READ_ONLY) { apiKey key { ${KEY} } } }`, { key: org.apiKey });
    expect(created.body.errors).toBeUndefined();
    const { apiKey, key } = created.body.data.createApiKey;
    expect(key).toMatchObject({ name: 'Zapier', role: 'READ_ONLY', workspaceId: null, revokedAt: null, lastUsedAt: null, keyPrefix: apiKey.slice(0, 8) });
    const before = Date.now();
    expect((await server.rest('GET', '/workspaces', { key: apiKey })).status).toBe(200);

    // Listed as made, with the REST request as its last use.
    const listed = await server.graphql(`{ apiKeys { ${KEY} } }`, { key: org.apiKey });
    const { lastUsedAt, ...rest } = listed.body.data.apiKeys[0];
    expect({ ...rest, lastUsedAt: null }).toEqual(key);
    expect(Date.parse(lastUsedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(lastUsedAt)).toBeLessThanOrEqual(Date.now());
    expect(JSON.stringify(listed.body)).not.toContain(apiKey);

    // A READ_ONLY key may not manage keys.
    const refused = await server.graphql(`{ apiKeys { id } }`, { key: apiKey });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', domain_code: 'auth.role_forbidden' });

    const revoked = await server.graphql(`mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`, { key: org.apiKey, variables: { id: key.id } });
    expect(revoked.body.data.revokeApiKey).toEqual({ id: key.id, revokedAt: expect.any(String) });
    expect((await server.rest('GET', '/workspaces', { key: apiKey })).status).toBe(401);
  });

  it("names the bad field, and another organization's key is not found", async () => {
    const bad = await server.graphql('mutation { createApiKey(name: "  ") { apiKey } }', { key: org.apiKey });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'name', message: 'must not be empty' }] });
    const other = await server.graphql(`mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { key: org.apiKey, variables: { id: foreign.apiKeyId } });
    expect(other.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', domain_code: 'auth.key_not_found' });
    expect((await server.rest('GET', '/workspaces', { key: foreign.apiKey })).status).toBe(200);
  });
});

describe('API keys over tRPC', () => {
  it('create, list and revoke; 404 for another organization, 400 naming the field', async () => {
    const trpc = server.trpc(org.apiKey);
    const created = await trpc.apiKey.create.mutate({ name: 'CI', workspace_id: org.workspaceId });
    expect(created.key).toMatchObject({ name: 'CI', workspace_id: org.workspaceId, role: null });
    const workspaces = await server.rest('GET', '/workspaces', { key: created.api_key });
    expect(workspaces.status).toBe(200);
    expect((await trpc.apiKey.list.query({})).api_keys.map((k) => k.id)).toContain(created.key.id);
    await trpc.apiKey.revoke.mutate({ id: created.key.id });
    expect((await server.rest('GET', '/workspaces', { key: created.api_key })).status).toBe(401);

    expect(await trpcFailure(() => trpc.apiKey.revoke.mutate({ id: foreign.apiKeyId }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await trpcFailure(() => trpc.apiKey.create.mutate({ name: 'x', role: 'KING' as never }))).toMatchObject({ status: 400, field: 'role' });
  });
});
