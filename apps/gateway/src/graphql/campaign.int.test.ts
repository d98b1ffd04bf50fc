import { describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead, createTestOrganization, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from '../testing/suite';

const { server, org } = useTestServer();

describe('campaign reads and writes a UI needs', () => {
  it('answers per-variation stats, workspace stats, and sets a schedule', async () => {
    const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }, { label: 'B' }] }, { variations: [{ label: 'A' }] }] });
    const v = campaign.variations as Record<number, Record<string, string>>;
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'one@example.com', label: 'INTERESTED' });
    await createTestLead({ ...base, campaignId: campaign.id, email: 'two@example.com' });
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 1, variationId: v[1]!.B!, variationLabel: 'B', sentAt: new Date('2026-06-02T10:00:00Z'), repliedAt: new Date('2026-06-03T10:00:00Z') });
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 2, variationId: v[2]!.A!, variationLabel: 'A', sentAt: new Date('2026-06-05T10:00:00Z') });

    const r = await server.graphql(
      `query($ws: ID!, $id: ID!) {
        campaign(workspaceId: $ws, id: $id) { steps: variationStats { step variations { label: variation sent reply posReply } } }
        workspace(id: $ws) { campaignStats(startDate: "2026-06-01", endDate: "2026-06-30") { sentCount repliedCount } }
      }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.campaign.steps).toEqual([
      { step: 1, variations: [{ label: 'A', sent: 0, reply: 0, posReply: 0 }, { label: 'B', sent: 1, reply: 1, posReply: 1 }] },
      { step: 2, variations: [{ label: 'A', sent: 1, reply: 0, posReply: 0 }] },
    ]);
    expect(r.body.data.workspace.campaignStats).toMatchObject({ sentCount: 2, repliedCount: 1 });

    const schedule = `mutation($ws: ID!, $id: ID!, $s: [ScheduleInput!]!) { setCampaignSchedule(workspaceId: $ws, id: $id, startDate: "2026-07-01", schedules: $s) }`;
    const set = await server.graphql(schedule, {
      key: org.apiKey,
      variables: { ws: org.workspaceId, id: campaign.id, s: [{ days: { '1': true, '3': true }, timezone: 'Europe/Oslo', timing: { from: '09:00', to: '17:00' } }] },
    });
    expect(set.body.errors).toBeUndefined();
    const listed = await server.rest('GET', '/campaign/list-all', { key: org.apiKey, query: { workspace_id: org.workspaceId, campaign_id: campaign.id } });
    expect(listed.body[0]).toMatchObject({ camp_st_date: '2026-07-01', schedule: { days: ['Monday', 'Wednesday'], tz: 'Europe/Oslo', from_time: '09:00', to_time: '17:00' } });
    const bad = await server.graphql(schedule, {
      key: org.apiKey,
      variables: { ws: org.workspaceId, id: campaign.id, s: [{ days: { '1': true }, timezone: 'Mars/Olympus', timing: { from: '09:00', to: '17:00' } }] },
    });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('campaign lookups and references never cross workspaces', () => {
  it('answers null for another workspace\'s campaign and for a parent in another workspace', async () => {
    const other = await createTestOrganization({ db: server.db });
    const foreign = await createTestCampaign({ db: server.db.prisma, organizationId: other.organizationId, workspaceId: other.workspaceId, name: 'Foreign' });
    // A subsequence whose parent row is in another workspace: the reference resolves in the child's workspace.
    const child = await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, parentId: foreign.id });
    const r = await server.graphql(
      `query($ws: ID!, $child: ID!, $foreign: ID!) { campaign(workspaceId: $ws, id: $child) { id parentId parent { name } } other: campaign(workspaceId: $ws, id: $foreign) { name } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, child: child.id, foreign: foreign.id } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ campaign: { id: child.id, parentId: foreign.id, parent: null }, other: null });
    const refused = await server.graphql(`query($ws: ID!, $id: ID!) { campaign(workspaceId: $ws, id: $id) { name } }`, { key: org.apiKey, variables: { ws: other.workspaceId, id: foreign.id } });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it("answers a subsequence's parent of the same workspace, read by its id alone", async () => {
    const parent = await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, name: 'Parent' });
    const child = await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, parentId: parent.id });
    await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, parentId: (await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId })).id });
    const r = await server.graphql(
      `query($ws: ID!, $id: ID!, $parent: ID!) { campaign(workspaceId: $ws, id: $id) { parent { id name } } workspace(id: $ws) { campaigns(first: 10, parentId: $parent) { edges { node { id } } } } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: child.id, parent: parent.id } },
    );
    expect(r.body).toEqual({ data: { campaign: { parent: { id: parent.id, name: 'Parent' } }, workspace: { campaigns: { edges: [{ node: { id: child.id } }] } } } });
  });

  it("reads a campaign's variation stats only through a campaign read in its own workspace", async () => {
    const other = await createTestOrganization({ db: server.db });
    const theirs = { db: server.db.prisma, organizationId: other.organizationId, workspaceId: other.workspaceId };
    const campaign = await createTestCampaign({ ...theirs, steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...theirs, campaignId: campaign.id, email: 'theirs@example.com' });
    const variationId = (campaign.variations as Record<number, Record<string, string>>)[1]!.A!;
    await recordTestSend({ ...theirs, campaignId: campaign.id, leadId: lead.id, step: 1, variationId, variationLabel: 'A', sentAt: new Date('2026-06-02T10:00:00Z') });
    // A lead of ours naming their campaign: neither it nor its stats are read through our workspace.
    await createTestLead({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, campaignId: campaign.id, email: 'ours@example.com' });
    const query = `query($ws: ID!, $id: ID!, $email: String!) { campaign(workspaceId: $ws, id: $id) { variationStats { variations { sent } } } leadsByEmail(workspaceId: $ws, email: $email) { campaign { variationStats { variations { sent } } } } }`;
    const ours = await server.graphql(query, { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id, email: 'ours@example.com' } });
    expect(ours.body).toEqual({ data: { campaign: null, leadsByEmail: [{ campaign: null }] } });
    const own = await server.graphql(query, { key: other.apiKey, variables: { ws: other.workspaceId, id: campaign.id, email: 'theirs@example.com' } });
    expect(own.body.data.campaign.variationStats).toEqual([{ variations: [{ sent: 1 }] }]);
    expect(own.body.data.leadsByEmail).toEqual([{ campaign: { variationStats: [{ variations: [{ sent: 1 }] }] } }]);
  });

  it('pages campaigns with opaque cursors and counts them', async () => {
    const ws = await createTestOrganization({ db: server.db });
    for (let i = 0; i < 5; i++) await createTestCampaign({ db: server.db.prisma, organizationId: ws.organizationId, workspaceId: ws.workspaceId, name: `C${i}` });
    const page = `query($ws: ID!, $after: String) { workspace(id: $ws) { campaigns(first: 2, after: $after) { totalCount edges { node { name } } pageInfo { hasNextPage endCursor } } } }`;
    const names: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const r: any = await server.graphql(page, { key: ws.apiKey, variables: { ws: ws.workspaceId, after } });
      expect(r.body.data.workspace.campaigns.totalCount).toBe(5);
      names.push(...r.body.data.workspace.campaigns.edges.map((e: any) => e.node.name));
      if (!r.body.data.workspace.campaigns.pageInfo.hasNextPage) break;
      after = r.body.data.workspace.campaigns.pageInfo.endCursor;
    }
    expect(names).toEqual(['C4', 'C3', 'C2', 'C1', 'C0']);
    const bad = await server.graphql(page, { key: ws.apiKey, variables: { ws: ws.workspaceId, after: 'nope' } });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'after' }] });
  });

  it('sorts and filters the campaigns a UI lists, and counts what the filter keeps', async () => {
    const ws = await createTestOrganization({ db: server.db });
    for (const name of ['beta launch', 'Alpha outreach', 'gamma Launch', 'delta']) await createTestCampaign({ db: server.db.prisma, organizationId: ws.organizationId, workspaceId: ws.workspaceId, name });
    const r = await server.graphql(
      `query($ws: ID!) { workspace(id: $ws) { campaigns(first: 10, name: "launch", sort: camp_name, direction: desc) { totalCount edges { node { name } } } } }`,
      { key: ws.apiKey, variables: { ws: ws.workspaceId } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.workspace.campaigns).toEqual({ totalCount: 2, edges: [{ node: { name: 'gamma Launch' } }, { node: { name: 'beta launch' } }] });
  });
});
