import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestThread } from '@outreach/core/testing';
import { useTestServer } from '../testing/suite';
import { isPublicOperation } from './yoga';

const { server, org, foreign } = useTestServer();

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

describe('lookups by id: lead(id) and node(id)', () => {
  it("reads each kind of object by its id in the workspace, and null for another workspace's", async () => {
    const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const campaign = await createTestCampaign({ ...base, name: 'Found' });
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'found@lead.test' });
    const mailbox = await createTestMailbox({ ...base, email: 'node@sender.test' });
    const thread = await createTestThread({ db: server.db.prisma, workspaceId: org.workspaceId, emailAccountId: mailbox.id, leadId: lead.id, campaignId: campaign.id, messages: [{ direction: 'IN', at: new Date() }] });
    const tag = await server.rest('POST', '/tags/create', { key: org.apiKey, body: { workspace_id: org.workspaceId, name: 'Node', color: '#123456' } });
    const webhookId = newId();
    await server.db.prisma.webhook.create({ data: { id: webhookId, organizationId: org.organizationId, workspaceId: org.workspaceId, url: 'https://hooks.example/in', campIds: ['ALL'], eventTypes: ['EMAIL_SENT'] } });
    const theirs = await createTestCampaign({ db: server.db.prisma, organizationId: foreign.organizationId, workspaceId: foreign.workspaceId });
    const theirLead = await createTestLead({ db: server.db.prisma, organizationId: foreign.organizationId, workspaceId: foreign.workspaceId, campaignId: theirs.id, email: 'found@lead.test' });

    const ids = { ws: org.workspaceId, campaign: campaign.id, lead: lead.id, thread: thread.id, tag: tag.body.tag_id, webhook: webhookId, mailbox: mailbox.id };
    const nodes = Object.keys(ids).map((k) => `${k}Node: node(workspaceId: $ws, id: $${k}) { __typename id }`).join(' ');
    const r = await server.graphql(
      `query(${Object.keys(ids).map((k) => `$${k}: ID!`).join(', ')}, $theirs: ID!, $theirLead: ID!) { ${nodes}
        other: node(workspaceId: $ws, id: $theirs) { id }
        lead(workspaceId: $ws, id: $lead) { email campaign { name } }
        otherLead: lead(workspaceId: $ws, id: $theirLead) { email }
        named: node(workspaceId: $ws, id: $campaign) { ... on Campaign { name } } }`,
      { key: org.apiKey, variables: { ...ids, theirs: theirs.id, theirLead: theirLead.id } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({
      wsNode: { __typename: 'Workspace', id: org.workspaceId },
      campaignNode: { __typename: 'Campaign', id: campaign.id },
      leadNode: { __typename: 'Lead', id: lead.id },
      threadNode: { __typename: 'UniboxThread', id: thread.id },
      tagNode: { __typename: 'Tag', id: tag.body.tag_id },
      webhookNode: { __typename: 'Webhook', id: webhookId },
      mailboxNode: { __typename: 'EmailAccount', id: mailbox.id },
      lead: { email: 'found@lead.test', campaign: { name: 'Found' } },
      other: null,
      otherLead: null,
      named: { name: 'Found' },
    });

    const bad = await server.graphql(`query($ws: ID!) { node(workspaceId: $ws, id: "nope") { id } }`, { key: org.apiKey, variables: { ws: org.workspaceId } });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'id' }] });
    const refused = await server.graphql(`query($ws: ID!, $id: ID!) { node(workspaceId: $ws, id: $id) { id } lead(workspaceId: $ws, id: $id) { id } }`, { key: org.apiKey, variables: { ws: foreign.workspaceId, id: theirLead.id } });
    expect(refused.body.errors.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);

    // A client key reads the kinds its permissions allow: a tag is no node for a key without TAG_LIST.
    const client = await server.rest('POST', '/client', { key: org.apiKey, body: { client_email: 'nodes@client.test', client_permissions: [{ workspace_id: org.workspaceId, permissions: ['CAMPAIGN_LIST'] }] } });
    const limited = await server.graphql(`query($ws: ID!, $c: ID!, $t: ID!) { c: node(workspaceId: $ws, id: $c) { id } t: node(workspaceId: $ws, id: $t) { id } }`, {
      key: client.body.api_key,
      variables: { ws: org.workspaceId, c: campaign.id, t: tag.body.tag_id },
    });
    expect(limited.body).toEqual({ data: { c: { id: campaign.id }, t: null } });
  });
});
