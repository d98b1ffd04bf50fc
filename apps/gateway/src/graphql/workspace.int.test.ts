import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/suite';
import { isPublicOperation } from './yoga';

const { server, org } = useTestServer();

async function anonymous(query: string, variables?: Record<string, unknown>) {
  const r = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: r.status, body: (await r.json()) as any };
}

describe('GraphQL without an API key', () => {
  it('lets only a mutation of public fields through', () => {
    expect(isPublicOperation({ query: 'mutation { acceptInvite(token: "x") { apiKey } }' })).toBe(true);
    expect(isPublicOperation({ query: 'mutation A { acceptInvite(token: "x") { apiKey } __typename }' })).toBe(true);
    expect(isPublicOperation({ query: 'mutation { acceptInvite(token: "x") { apiKey } createWorkspace(name: "x") { id } }' })).toBe(false);
    expect(isPublicOperation({ query: '{ workspaces { id } }' })).toBe(false);
    expect(isPublicOperation({ query: 'query Q { workspaces { id } } mutation M { acceptInvite(token: "x") { apiKey } }', operationName: 'Q' })).toBe(false);
    expect(isPublicOperation({ query: 'query Q { workspaces { id } } mutation M { acceptInvite(token: "x") { apiKey } }', operationName: 'M' })).toBe(true);
    expect(isPublicOperation({ query: 'mutation {' })).toBe(false);
  });

  it('accepts an invitation, and the issued key reaches only that workspace', async () => {
    const invite = await server.rest('POST', '/workspaces/invite-user', { key: org.apiKey, body: { workspace_id: org.workspaceId, email: 'new@example.com', role: 'MEMBER' } });
    expect(invite.status).toBe(200);
    const accepted = await anonymous('mutation($t: String!) { acceptInvite(token: $t) { workspaceId apiKey } }', { t: invite.body.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.acceptInvite.workspaceId).toBe(org.workspaceId);
    const listed = await server.rest('GET', '/workspaces', { key: accepted.body.data.acceptInvite.apiKey });
    expect(listed.body.workspaces.map((w: any) => w._id)).toEqual([org.workspaceId]);
    const again = await anonymous('mutation($t: String!) { acceptInvite(token: $t) { apiKey } }', { t: invite.body.token });
    expect(again.body.errors[0].extensions.domain_code).toBe('invite.invalid_token');
    expect((await anonymous('{ workspaces { id } }')).status).toBe(401);
    expect((await anonymous('mutation { acceptInvite(token: "x") { apiKey } createWorkspace(name: "x") { id } }')).status).toBe(401);
  });
});
