// The campaign catalog over REST (one round trip per operation), and create, list and
// launch over tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestOrganization, recordTestSend } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server, org } = useTestServer();
let ws: { workspace_id: string };
const SCHEDULE = { days: { '1': true, '2': true, '3': true }, timezone: 'Europe/Berlin', timing: { from: '09:00', to: '17:00' } };
const SEQUENCE = [{ step: 1, wait_time: 0, variations: [{ variation: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }];

beforeAll(async () => {
  ws = { workspace_id: org.workspaceId };
  await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, email: 'sender@out.test' });
});

const rest = (method: string, path: string, input: Record<string, unknown> = {}) =>
  method === 'GET'
    ? server.rest(method, path, { key: org.apiKey, query: Object.fromEntries(Object.entries({ ...ws, ...input }).map(([k, v]) => [k, String(v)])) })
    : server.rest(method, path, { key: org.apiKey, body: { ...ws, ...input } });

describe('campaign catalog over REST', () => {
  it('runs a campaign through its life: create, read, edit, launch, pause, duplicate, tag, list, archive, delete', async () => {
    const created = await rest('POST', '/campaign/add/campaign', { camp_name: 'REST campaign' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const id = created.body.id as string;
    const ref = { campaign_id: id };

    expect((await rest('GET', '/campaign/get/name', ref)).body).toEqual({ campaign_id: id, campaign_name: 'REST campaign' });
    expect((await rest('GET', '/campaign/get/status', ref)).body).toEqual({ campaign_id: id, status: 'DRAFT' });
    expect((await rest('GET', '/campaign/get/accounts', ref)).body).toEqual([]);
    expect((await rest('POST', '/campaign/set/name', { ...ref, name: 'Renamed' })).body).toEqual({ status: 'success' });

    const notReady = await rest('POST', '/campaign/launch', ref);
    expect(notReady.status).toBe(400);
    expect(notReady.body).toMatchObject({ status: 'error', code: 'campaign.not_launchable' });
    expect(notReady.body.errors.map((e: { field: string }) => e.field)).toEqual(['sequences', 'email_accounts', 'schedules']);

    const updated = await rest('PATCH', '/campaign/update/campaign', { ...ref, sequences: SEQUENCE, email_accounts: ['SENDER@out.test'], daily_limit: 25 });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ id, camp_name: 'Renamed', status: 'DRAFT', updated_at: expect.any(String) });
    expect((await rest('POST', '/campaign/set/schedules', { ...ref, start_date: '2026-09-01', schedules: [SCHEDULE] })).body).toEqual({ status: 'success' });
    expect((await rest('GET', '/campaign/get/accounts', ref)).body).toEqual(['sender@out.test']);

    expect((await rest('POST', '/campaign/launch', ref)).body).toEqual({ status: 'success', campaign_id: id, campaign_status: 'ACTIVE' });
    const again = await rest('POST', '/campaign/launch', ref);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'error', code: 'campaign.invalid_transition', message: 'campaign is already ACTIVE' });
    expect((await rest('POST', '/campaign/pause', ref)).body).toEqual({ status: 'success', campaign_id: id, campaign_status: 'PAUSED' });

    const copy = await rest('POST', '/campaign/duplicate', { ...ref, camp_name: 'Copy' });
    expect(copy.body).toEqual({ status: 'success', id: expect.stringMatching(/^[0-9a-f]{24}$/) });

    const tagId = newId();
    await server.db.prisma.tag.create({ data: { id: tagId, workspaceId: org.workspaceId, name: 'Q3', nameNormalized: 'q3' } });
    const tagged = await rest('PUT', '/campaign/bulk-assign-tags', { ids: [id, copy.body.id], tag_id: tagId, action: 'ASSIGN' });
    expect(tagged.body).toEqual({ status: 'success', updated_count: 2 });

    const list = await rest('GET', '/campaign/list', { limit: 10 });
    expect(list.body).toEqual([
      { id: copy.body.id, status: 'DRAFT', name: 'Copy', tags: ['Q3'], last_lead_sent: null, last_lead_replied: null },
      { id, status: 'PAUSED', name: 'Renamed', tags: ['Q3'], last_lead_sent: null, last_lead_replied: null },
    ]);
    const all = await rest('GET', '/campaign/list-all', { campaign_id: id });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(1);
    expect(all.body[0]).toMatchObject({
      id,
      camp_name: 'Renamed',
      parent_camp_id: '',
      status: 'PAUSED',
      daily_limit: 25,
      email_accounts: ['sender@out.test'],
      tags: ['Q3'],
      schedule: { days: ['Monday', 'Tuesday', 'Wednesday'], from_time: '09:00', to_time: '17:00', tz: 'Europe/Berlin', timezone: 'Europe/Berlin', start_date: '2026-09-01', end_date: null },
      camp_st_date: '2026-09-01',
      sequences: [{ step: 1, wait_time: 0, variations: [{ variation: 'A', name: null, subject: 'Hello', body: '<p>Hi</p>' }] }],
      lead_count: 0,
      open_rate: 0,
    });

    expect((await rest('DELETE', '/campaign/delete', { ...ref, is_archive: 'yes', is_save_lead_data: 'no' })).body).toEqual({ status: 'success' });
    expect((await rest('GET', '/campaign/get/status', ref)).body.status).toBe('ARCHIVED');
    expect((await rest('DELETE', '/campaign/delete', { campaign_id: copy.body.id, is_archive: 'no', is_save_lead_data: 'no' })).body).toEqual({ status: 'success' });
    const gone = await rest('GET', '/campaign/get/name', { campaign_id: copy.body.id });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ status: 'error', code: 'campaign.not_found' });
  });

  it('answers stats/all from the workspace\'s sends', async () => {
    const other = await createTestOrganization({ db: server.db });
    const base = { db: server.db.prisma, organizationId: other.organizationId, workspaceId: other.workspaceId };
    const c = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...base, campaignId: c.id, email: 'x@y.test' });
    await recordTestSend({ ...base, campaignId: c.id, leadId: lead.id, step: 1, variationId: c.variations[1]!.A!, variationLabel: 'A', sentAt: new Date('2026-04-02T10:00:00Z'), openedAt: new Date('2026-04-02T11:00:00Z') });
    const r = await server.rest('GET', '/campaign/stats/all', { key: other.apiKey, query: { workspace_id: other.workspaceId, start_date: '2026-04-01', end_date: '2026-04-30' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      lead_count: 1,
      contacted_count: 1,
      sent_count: 1,
      unique_opened_count: 1,
      replied_count: 0,
      bounced_count: 0,
      unsubscribed_count: 0,
      positive_reply_count: 0,
      open_rate: 100,
      reply_rate: 0,
      bounce_rate: 0,
    });
    const missing = await server.rest('GET', '/campaign/stats/all', { key: other.apiKey, query: { workspace_id: other.workspaceId } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('start_date');
    // Another organization's campaign id is a 404, without its data.
    const foreign = await server.rest('GET', '/campaign/get/name', { key: org.apiKey, query: { ...ws, campaign_id: c.id } });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain(`Campaign ${c.id.slice(-6)}`);
  });
});

describe('campaign create, list and launch over tRPC and GraphQL', () => {
  it('creates, lists and launches through tRPC', async () => {
    const client = server.trpc(org.apiKey);
    const created = await client.campaign.create.mutate({ ...ws, camp_name: 'tRPC campaign' });
    expect(created.status).toBe('success');
    const listed = await client.campaign.listAll.query({ ...ws, campaign_id: created.id });
    expect(listed.map((c) => [c.camp_name, c.status])).toEqual([['tRPC campaign', 'DRAFT']]);
    const refused = await trpcFailure(() => client.campaign.launch.mutate({ ...ws, campaign_id: created.id }));
    expect(refused).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'sequences' });
    await client.campaign.update.mutate({ ...ws, campaign_id: created.id, sequences: SEQUENCE, email_accounts: ['sender@out.test'], schedules: SCHEDULE });
    expect(await client.campaign.launch.mutate({ ...ws, campaign_id: created.id })).toEqual({ status: 'success', campaign_id: created.id, campaign_status: 'ACTIVE' });
    expect(await trpcFailure(() => client.campaign.launch.mutate({ ...ws, campaign_id: created.id }))).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('creates, lists (connection with filters) and launches through GraphQL', async () => {
    const gql = (query: string, variables: Record<string, unknown>) => server.graphql(query, { key: org.apiKey, variables });
    const created = await gql(`mutation($ws: ID!) { createCampaign(workspaceId: $ws, name: "GraphQL campaign") { id name status type tags emailAccounts } }`, { ws: org.workspaceId });
    expect(created.body.errors).toBeUndefined();
    const campaign = created.body.data.createCampaign;
    expect(campaign).toMatchObject({ name: 'GraphQL campaign', status: 'DRAFT', type: 'parent', tags: [], emailAccounts: [] });

    const refused = await gql(`mutation($ws: ID!, $id: ID!) { launchCampaign(workspaceId: $ws, id: $id) { status } }`, { ws: org.workspaceId, id: campaign.id });
    expect(refused.body.errors[0].extensions.code).toBe('PRECONDITION_FAILED');

    const updated = await gql(
      `mutation($ws: ID!, $id: ID!, $seq: [SequenceStepInput!]) { updateCampaign(workspaceId: $ws, id: $id, emailAccounts: ["sender@out.test"], dailyLimit: 9, sequences: $seq) { dailyLimit emailAccounts steps: sequences { step variations { label: variation subject } } } }`,
      { ws: org.workspaceId, id: campaign.id, seq: [{ step: 1, waitTime: 0, variations: [{ variation: 'A', subject: 'S', body: 'B' }] }] },
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateCampaign).toEqual({ dailyLimit: 9, emailAccounts: ['sender@out.test'], steps: [{ step: 1, variations: [{ label: 'A', subject: 'S' }] }] });
    await server.rest('POST', '/campaign/set/schedules', { key: org.apiKey, body: { ...ws, campaign_id: campaign.id, start_date: '2026-09-01', schedules: [SCHEDULE] } });
    const launched = await gql(`mutation($ws: ID!, $id: ID!) { launchCampaign(workspaceId: $ws, id: $id) { id status leadCount sentCount openRate } }`, { ws: org.workspaceId, id: campaign.id });
    expect(launched.body.errors).toBeUndefined();
    expect(launched.body.data.launchCampaign).toEqual({ id: campaign.id, status: 'ACTIVE', leadCount: 0, sentCount: 0, openRate: 0 });

    const listed = await gql(
      `query { workspaces { id campaigns(first: 50, status: ACTIVE, type: parent) { edges { node { id name status } } pageInfo { hasNextPage } } } }`,
      {},
    );
    expect(listed.body.errors).toBeUndefined();
    const mine = listed.body.data.workspaces.find((w: { id: string }) => w.id === org.workspaceId);
    const nodes = mine.campaigns.edges.map((e: { node: { name: string; status: string } }) => e.node);
    expect(nodes.every((n: { status: string }) => n.status === 'ACTIVE')).toBe(true);
    expect(nodes.map((n: { name: string }) => n.name)).toContain('GraphQL campaign');
    const page = await gql(`query { workspaces { id campaigns(first: 1) { edges { node { name } } pageInfo { hasNextPage } } } }`, {});
    const first = page.body.data.workspaces.find((w: { id: string }) => w.id === org.workspaceId).campaigns;
    expect(first.edges).toHaveLength(1);
    expect(first.pageInfo.hasNextPage).toBe(true);
  });
});

describe('campaign counters in a GraphQL page', () => {
  it('answers each campaign with its own counters, loaded together', async () => {
    const other = await createTestOrganization({ db: server.db });
    const base = { db: server.db.prisma, organizationId: other.organizationId, workspaceId: other.workspaceId };
    const expected = new Map<string, number>();
    for (const leads of [0, 2, 3]) {
      const campaign = await createTestCampaign({ ...base });
      for (let i = 0; i < leads; i++) await createTestLead({ ...base, campaignId: campaign.id, email: `c${leads}-${i}@example.com` });
      expected.set(campaign.id, leads);
    }
    const r = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { campaigns(first: 10) { edges { node { id leadCount } } } } }`, {
      key: other.apiKey,
      variables: { ws: other.workspaceId },
    });
    expect(r.body.errors).toBeUndefined();
    const got = new Map<string, number>(r.body.data.workspace.campaigns.edges.map((e: any) => [e.node.id, e.node.leadCount]));
    expect(got).toEqual(expected);
  });
});
