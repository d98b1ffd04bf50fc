import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead, createTestOrganization, recordTestSend } from '@outreach/core/testing';
import { startTestServer, type TestServer } from '../testing/test-server';
import { isPublicOperation } from './yoga';

let server: TestServer;
let org: Awaited<ReturnType<typeof createTestOrganization>>;
beforeAll(async () => {
  server = await startTestServer();
  org = await createTestOrganization({ db: server.db });
});
afterAll(() => server?.close());

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

describe('catalog reads and writes a UI needs', () => {
  it('answers per-variation stats, lead counts by status, workspace stats, and sets a schedule', async () => {
    const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }, { label: 'B' }] }, { variations: [{ label: 'A' }] }] });
    const v = campaign.variations as Record<number, Record<string, string>>;
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'one@example.com', label: 'INTERESTED' });
    await createTestLead({ ...base, campaignId: campaign.id, email: 'two@example.com' });
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 1, variationId: v[1]!.B!, variationLabel: 'B', sentAt: new Date('2026-06-02T10:00:00Z'), repliedAt: new Date('2026-06-03T10:00:00Z') });
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 2, variationId: v[2]!.A!, variationLabel: 'A', sentAt: new Date('2026-06-05T10:00:00Z') });

    const r = await server.graphql(
      `query($ws: ID!, $id: ID!) {
        campaign(workspaceId: $ws, id: $id) { steps { step variations { label stats { sent reply posReply } } } }
        workspace(id: $ws) {
          leadCountsByStatus(campaignId: $id) { status count }
          campaignStats(startDate: "2026-06-01", endDate: "2026-06-30") { sentCount repliedCount }
        }
      }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.campaign.steps).toEqual([
      { step: 1, variations: [{ label: 'A', stats: { sent: 0, reply: 0, posReply: 0 } }, { label: 'B', stats: { sent: 1, reply: 1, posReply: 1 } }] },
      { step: 2, variations: [{ label: 'A', stats: { sent: 1, reply: 0, posReply: 0 } }] },
    ]);
    expect(r.body.data.workspace.leadCountsByStatus.find((c: any) => c.status === 'NOT_CONTACTED').count).toBe(2);
    expect(r.body.data.workspace.leadCountsByStatus).toHaveLength(8);
    expect(r.body.data.workspace.campaignStats).toMatchObject({ sentCount: 2, repliedCount: 1 });

    const set = await server.graphql(
      `mutation($ws: ID!, $id: ID!, $s: JSON!) { setCampaignSchedule(workspaceId: $ws, id: $id, startDate: "2026-07-01", schedule: $s) }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id, s: { days: { '1': true, '3': true }, timezone: 'Europe/Oslo', timing: { from: '09:00', to: '17:00' } } } },
    );
    expect(set.body.errors).toBeUndefined();
    const listed = await server.rest('GET', '/campaign/list-all', { key: org.apiKey, query: { workspace_id: org.workspaceId, campaign_id: campaign.id } });
    expect(listed.body[0]).toMatchObject({ camp_st_date: '2026-07-01', schedule: { timezone: 'Europe/Oslo', timing: { from: '09:00', to: '17:00' } } });
    const bad = await server.graphql(
      `mutation($ws: ID!, $id: ID!, $s: JSON!) { setCampaignSchedule(workspaceId: $ws, id: $id, startDate: "2026-07-01", schedule: $s) }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id, s: { days: { '1': true }, timezone: 'Mars/Olympus', timing: { from: '09:00', to: '17:00' } } } },
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
