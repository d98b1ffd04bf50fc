// The analytics operations over REST (one round trip per operation, the range and
// tenancy refusals), tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead, createTestOrganization, recordTestSend } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';
import { routes } from './rest/routes';
import { analyticsRoutes } from './rest/routes/analytics.routes';

// The analytics routes are added here so this suite runs whether or not the shared route table lists them yet.
const { server, org } = useTestServer({ routes: [...routes.filter((r) => !analyticsRoutes.includes(r)), ...analyticsRoutes] });
let campaignId: string;

/**
 * Gamma (ACTIVE) with lead A (positive label: sent on 03-02, opened and replied, and on
 * 03-03, opened) and lead B (sent on 03-03, bounced).
 */
beforeAll(async () => {
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
  const campaign = await createTestCampaign({ ...base, name: 'Gamma', status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
  campaignId = campaign.id;
  const a = await createTestLead({ ...base, campaignId, email: 'a@analytics.test', label: 'INTERESTED' });
  const b = await createTestLead({ ...base, campaignId, email: 'b@analytics.test' });
  const send = (leadId: string, sentAt: string, opened = false, replied = false) =>
    recordTestSend({
      ...base,
      campaignId,
      leadId,
      step: 1,
      variationId: campaign.variations[1]!['A']!,
      variationLabel: 'A',
      sentAt: new Date(sentAt),
      openedAt: opened ? new Date(sentAt) : null,
      repliedAt: replied ? new Date(sentAt) : null,
    });
  await send(a.id, '2026-03-02T09:00:00Z', true, true);
  await send(a.id, '2026-03-03T09:00:00Z', true);
  const bounced = await send(b.id, '2026-03-03T10:00:00Z');
  await server.db.prisma.sentEmail.update({ where: { id: bounced.id }, data: { bouncedAt: new Date('2026-03-03T10:05:00Z') } });
});

const get = (path: string, query: Record<string, string> = {}, key = org.apiKey) =>
  server.rest('GET', path, { key, query: { workspace_id: org.workspaceId, ...query } });
const range = { start_date: '2026-03-01', end_date: '2026-03-03' };

const SUMMARY = {
  campaign_name: 'Gamma',
  completed: 0,
  contacted: 2,
  leads_who_read: 1,
  leads_who_replied: 1,
  bounced: 1,
  unsubscribed: 0,
  positive_reply_count: 1,
  total_sent_emails: 3,
};
const WORKSPACE_SUMMARY = {
  total_sent: 3,
  contacted: 2,
  opened: 1,
  replied: 1,
  positive_replies: 1,
  bounced: 1,
  unsubscribed: 0,
  open_rate: 50,
  reply_rate: 50,
  bounce_rate: 33.33,
  active_campaigns: 1,
};

describe('analytics over REST', () => {
  it('GET /analytics/campaign/summary', async () => {
    const r = await get('/analytics/campaign/summary', { campaign_id: campaignId });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(SUMMARY);
  });

  it('GET /analytics/campaign/stats', async () => {
    const r = await get('/analytics/campaign/stats', { campaign_id: campaignId, ...range });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ...range,
      data: {
        [campaignId]: {
          campaign_id: campaignId,
          camp_name: 'Gamma',
          sent_count: 3,
          replied_count: 1,
          bounced_count: 1,
          positive_reply_count: 1,
          opened_count: 2,
          unique_opened_count: 1,
          lead_contacted_count: 2,
        },
      },
      daily: [
        { date: '2026-03-01', sent_count: 0, opened_count: 0, replied_count: 0, bounced_count: 0, unsubscribed_count: 0 },
        { date: '2026-03-02', sent_count: 1, opened_count: 1, replied_count: 1, bounced_count: 0, unsubscribed_count: 0 },
        { date: '2026-03-03', sent_count: 2, opened_count: 1, replied_count: 0, bounced_count: 1, unsubscribed_count: 0 },
      ],
    });
  });

  it('GET /analytics/campaign/count', async () => {
    const r = await get('/analytics/campaign/count');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ total: 1, active: 1, paused: 0, completed: 0, archived: 0, draft: 0 });
  });

  it('GET /analytics/workspace/summary', async () => {
    const r = await get('/analytics/workspace/summary', range);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(WORKSPACE_SUMMARY);
  });

  it('GET /analytics/workspace/performance', async () => {
    const r = await get('/analytics/workspace/performance', range);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        campaign_id: campaignId,
        campaign_name: 'Gamma',
        status: 'ACTIVE',
        sent: 3,
        contacted: 2,
        opened: 1,
        replied: 1,
        positive_replies: 1,
        bounced: 1,
        open_rate: 50,
        reply_rate: 50,
      },
    ]);
  });

  it('answers 400 for a backwards or over-long range, 404 for another organization\'s campaign, 403 for its workspace', async () => {
    const backwards = await get('/analytics/workspace/summary', { start_date: '2026-03-03', end_date: '2026-03-01' });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ status: 'error', code: 'analytics.invalid_range', errors: [{ field: 'start_date' }] });
    const tooLong = await get('/analytics/campaign/stats', { campaign_id: campaignId, start_date: '2025-01-01', end_date: '2026-01-02' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 'analytics.range_too_long', errors: [{ field: 'end_date' }] });

    const other = await createTestOrganization({ db: server.db });
    const foreign = await createTestCampaign({ db: server.db.prisma, organizationId: other.organizationId, workspaceId: other.workspaceId });
    const notFound = await get('/analytics/campaign/summary', { campaign_id: foreign.id });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ status: 'error', code: 'campaign.not_found' });
    const forbidden = await server.rest('GET', '/analytics/campaign/summary', {
      key: org.apiKey,
      query: { workspace_id: other.workspaceId, campaign_id: foreign.id },
    });
    expect(forbidden.status).toBe(403);
  });
});

describe('analytics in the API reference', () => {
  it('documents each route with its query parameters and decisions', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as any;
    const stats = doc.paths['/analytics/campaign/stats'].get;
    expect(stats['x-trpc-procedure']).toBe('analytics.campaignStats');
    expect(stats.parameters.map((p: any) => [p.name, p.required])).toEqual([
      ['workspace_id', true],
      ['campaign_id', false],
      ['start_date', true],
      ['end_date', false],
    ]);
    expect(stats.description).toContain('366 days');
    for (const path of ['/analytics/campaign/summary', '/analytics/campaign/count', '/analytics/workspace/summary', '/analytics/workspace/performance']) {
      expect(doc.paths[path]?.get?.responses['200'], path).toBeDefined();
    }
  });
});

// These two need the registry lines in trpc/router.ts and graphql/schema.ts.
describe('analytics over tRPC and GraphQL', () => {
  it('runs the operations as tRPC procedures', async () => {
    const client = server.trpc(org.apiKey);
    const ws = { workspace_id: org.workspaceId };
    expect(await client.analytics.campaignSummary.query({ ...ws, campaign_id: campaignId })).toEqual(SUMMARY);
    expect(await client.analytics.workspaceSummary.query({ ...ws, ...range })).toEqual(WORKSPACE_SUMMARY);
    expect((await client.analytics.campaignStats.query({ ...ws, campaign_id: campaignId, ...range })).daily).toHaveLength(3);
    expect((await client.analytics.campaignCount.query(ws)).total).toBe(1);
    expect((await client.analytics.workspacePerformance.query({ ...ws, ...range })).map((r) => r.sent)).toEqual([3]);
    const refused = await trpcFailure(() => client.analytics.workspaceSummary.query({ ...ws, start_date: '2026-03-03', end_date: '2026-03-01' }));
    expect(refused).toEqual({ status: 400, code: 'BAD_REQUEST', field: 'start_date' });
  });

  it('answers a campaign\'s summary and a workspace\'s analytics in GraphQL', async () => {
    const r = await server.graphql(
      `query($ws: ID!, $id: ID!) {
        campaign(workspaceId: $ws, id: $id) { summary { contacted leadsWhoRead leadsWhoReplied bounced positiveReplyCount totalSentEmails } }
        analytics: workspace(id: $ws) {
          summary: analyticsSummary(startDate: "2026-03-01", endDate: "2026-03-03") { totalSent contacted opened bounceRate activeCampaigns }
          performance: campaignPerformance(startDate: "2026-03-01", endDate: "2026-03-03") { campaignId campaignName status sent openRate }
        }
      }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaignId } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.campaign.summary).toEqual({ contacted: 2, leadsWhoRead: 1, leadsWhoReplied: 1, bounced: 1, positiveReplyCount: 1, totalSentEmails: 3 });
    expect(r.body.data.analytics).toEqual({
      summary: { totalSent: 3, contacted: 2, opened: 1, bounceRate: 33.33, activeCampaigns: 1 },
      performance: [{ campaignId, campaignName: 'Gamma', status: 'ACTIVE', sent: 3, openRate: 50 }],
    });

    const refused = await server.graphql(
      `query($ws: ID!) { workspace(id: $ws) { analyticsSummary(startDate: "2026-03-03", endDate: "2026-03-01") { totalSent } } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId } },
    );
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', domain_code: 'analytics.invalid_range' });
  });
});
