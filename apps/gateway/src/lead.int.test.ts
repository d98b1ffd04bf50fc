// The lead catalog through REST (every operation), tRPC and GraphQL (get, workspace leads, data update).
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer();
let campaignId: string;
let subseqId: string;
let leadIds: string[];
let foreignWorkspaceId: string;

beforeAll(async () => {
  foreignWorkspaceId = foreign.workspaceId;
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
  campaignId = (await createTestCampaign({ ...base, status: 'ACTIVE', name: 'Gateway' })).id;
  subseqId = (await createTestCampaign({ ...base, parentId: campaignId })).id;
  leadIds = [];
  for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.com']) {
    leadIds.push((await createTestLead({ ...base, campaignId, email, label: 'INTERESTED', firstName: email.split('@')[0] })).id);
  }
});

const ws = () => org.workspaceId;

describe('lead catalog over REST', () => {
  it('gets a lead by address, lists workspace leads and counts statuses', async () => {
    const got = await server.rest('GET', '/lead/get', { key: org.apiKey, query: { workspace_id: ws(), email: 'ANN@example.com' } });
    expect(got.status).toBe(200);
    expect(got.body).toHaveLength(1);
    expect(got.body[0]).toMatchObject({ _id: leadIds[0], email: 'ann@example.com', camp_name: 'Gateway', label: 'INTERESTED', first_name: 'ann', linkedin_person_url: null });

    const page = await server.rest('GET', '/lead/workspace-leads', { key: org.apiKey, query: { workspace_id: ws(), page: '1', limit: '2', direction: 'asc' } });
    expect(page.status).toBe(200);
    // Created in this order (ids grow with creation), so ascending is the creation order.
    expect(page.body.map((l: any) => l._id)).toEqual(leadIds.slice(0, 2));
    const bad = await server.rest('GET', '/lead/workspace-leads', { key: org.apiKey, query: { workspace_id: ws(), status: 'LOST' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('status');

    const counts = await server.rest('GET', '/lead/count/lead-status', { key: org.apiKey, query: { workspace_id: ws() } });
    expect(counts.status).toBe(200);
    expect(counts.body).toHaveLength(8);
    expect(counts.body[0]).toEqual({ status: 'NOT_CONTACTED', count: 3 });

    const foreign = await server.rest('GET', '/lead/get', { key: org.apiKey, query: { workspace_id: foreignWorkspaceId, email: 'ann@example.com' } });
    expect(foreign.status).toBe(403);
  });

  it('updates data and status, enrols in a subsequence and deletes', async () => {
    const update = await server.rest('POST', '/lead/data/update', { key: org.apiKey, body: { workspace_id: ws(), email: 'bob@example.com', variables: { city: 'Oslo' }, label: 'MEETING_BOOKED' } });
    expect(update).toMatchObject({ status: 200, body: { status: 'success', updated: 1 } });
    const empty = await server.rest('POST', '/lead/data/update', { key: org.apiKey, body: { workspace_id: ws(), email: 'bob@example.com' } });
    expect(empty.status).toBe(400);

    const status = await server.rest('POST', '/lead/update/status', { key: org.apiKey, body: { workspace_id: ws(), campaign_id: campaignId, email: 'cy@example.com', new_status: 'COMPLETED' } });
    expect(status).toMatchObject({ status: 200, body: { status: 'success' } });
    const refused = await server.rest('POST', '/lead/update/status', { key: org.apiKey, body: { workspace_id: ws(), campaign_id: campaignId, email: 'cy@example.com', new_status: 'REPLIED' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('new_status');
    const unknown = await server.rest('POST', '/lead/update/status', { key: org.apiKey, body: { workspace_id: ws(), campaign_id: campaignId, email: 'nobody@example.com', new_status: 'COMPLETED' } });
    expect(unknown.status).toBe(404);

    const enrol = await server.rest('POST', '/lead/add-lead-in-subseq', { key: org.apiKey, body: { workspace_id: ws(), subseq_id: subseqId, parent_lead_ids: [leadIds[0]] } });
    expect(enrol).toMatchObject({ status: 200, body: { status: 'success', inserted: 1, overflowed: 0 } });

    const del = await server.rest('POST', '/lead/delete', { key: org.apiKey, body: { workspace_id: ws(), delete_list: ['ANN@example.com'] } });
    expect(del).toMatchObject({ status: 200, body: { status: 'success', deleted: 2 } });
    const gone = await server.rest('GET', '/lead/get', { key: org.apiKey, query: { workspace_id: ws(), email: 'ann@example.com' } });
    expect(gone.body).toEqual([]);
  });
});

describe('lead catalog over tRPC and GraphQL', () => {
  it('answers get, workspace leads and data update the same way', async () => {
    const client = server.trpc(org.apiKey);
    const rest = await server.rest('GET', '/lead/get', { key: org.apiKey, query: { workspace_id: ws(), email: 'bob@example.com' } });
    expect(await client.lead.get.query({ workspace_id: ws(), email: 'bob@example.com' })).toEqual(rest.body);
    const restPage = await server.rest('GET', '/lead/workspace-leads', { key: org.apiKey, query: { workspace_id: ws() } });
    expect(await client.lead.workspaceLeads.query({ workspace_id: ws() })).toEqual(restPage.body);
    expect(await client.lead.updateData.mutate({ workspace_id: ws(), email: 'bob@example.com', variables: { tier: 'gold' } })).toEqual({ status: 'success', updated: 1 });
    expect((await client.lead.get.query({ workspace_id: ws(), email: 'bob@example.com' }))[0]?.['tier']).toBe('gold');
    expect((await trpcFailure(() => client.lead.updateData.mutate({ workspace_id: ws(), email: 'bob@example.com' }))).status).toBe(400);

    const gqlGet = await server.graphql(`query($ws: ID!) { leadsByEmail(workspaceId: $ws, email: "BOB@example.com") { id email city label customVariables campaign { name } } }`, {
      key: org.apiKey,
      variables: { ws: ws() },
    });
    expect(gqlGet.body.errors).toBeUndefined();
    expect(gqlGet.body.data.leadsByEmail).toEqual([{ id: leadIds[1], email: 'bob@example.com', city: 'Oslo', label: 'MEETING_BOOKED', customVariables: { tier: 'gold', custom_tier: 'gold' }, campaign: { name: 'Gateway' } }]);

    const connection = `query($ws: ID!, $after: String) { workspace(id: $ws) { leads(first: 1, after: $after) { edges { cursor node { id email } } pageInfo { hasNextPage endCursor } } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res: any = await server.graphql(connection, { key: org.apiKey, variables: { ws: ws(), after } });
      expect(res.body.errors).toBeUndefined();
      const leads = res.body.data.workspace.leads;
      seen.push(...leads.edges.map((e: any) => e.node.id));
      if (!leads.pageInfo.hasNextPage) break;
      after = leads.pageInfo.endCursor;
    }
    expect(seen).toEqual(restPage.body.map((l: any) => l._id));
    const filtered = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { leads(first: 10, label: "MEETING_BOOKED") { edges { node { email } } } } }`, { key: org.apiKey, variables: { ws: ws() } });
    expect(filtered.body.data.workspace.leads.edges).toEqual([{ node: { email: 'bob@example.com' } }]);

    const mutation = await server.graphql(`mutation($ws: ID!) { updateLeadData(workspaceId: $ws, email: "bob@example.com", label: null) { count: updated } }`, { key: org.apiKey, variables: { ws: ws() } });
    expect(mutation.body.errors).toBeUndefined();
    expect(mutation.body.data.updateLeadData).toEqual({ count: 1 });
    expect((await server.db.prisma.lead.findUniqueOrThrow({ where: { id: leadIds[1]! } })).label).toBeNull();
    const refused = await server.graphql(`mutation($ws: ID!) { updateLeadData(workspaceId: $ws, email: "bob@example.com", label: "NO_SUCH") { count: updated } }`, { key: org.apiKey, variables: { ws: ws() } });
    expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
