// The spec's campaign, lead and unibox operations through all three transports.
import { beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { createTestCampaign, createTestLead, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer();
let campaignId: string;
let foreignWorkspaceId: string;

beforeAll(async () => {
  foreignWorkspaceId = foreign.workspaceId;
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
  const campaign = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A', name: 'Intro' }, { label: 'B' }] }] });
  campaignId = campaign.id;
  const lead = await createTestLead({ ...base, campaignId, email: 'reader@example.com', label: 'INTERESTED' });
  const v = campaign.variations as Record<number, Record<string, string>>;
  await recordTestSend({ ...base, campaignId, leadId: lead.id, step: 1, variationId: v[1]!.A!, variationLabel: 'A', sentAt: new Date('2026-05-02T08:00:00Z'), openedAt: new Date('2026-05-02T09:00:00Z'), repliedAt: new Date('2026-05-03T09:00:00Z') });
  await recordTestSend({ ...base, campaignId, leadId: lead.id, step: 1, variationId: v[1]!.B!, variationLabel: 'B', sentAt: new Date('2026-05-04T08:00:00Z') });
});

describe('variation stats through REST, tRPC and GraphQL', () => {
  it('returns the same figures on each transport', async () => {
    const query = { workspace_id: org.workspaceId, campaign_id: campaignId, start_date: '2026-05-01', end_date: '2026-05-31' };
    const rest = await server.rest('GET', '/campaign/get/variation-stats', { key: org.apiKey, query });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual([
      {
        step: 1,
        variations: [
          { variation: 'A', sent: 1, open: 1, reply: 1, pos_reply: 1, name: 'Intro', is_active: true, is_del: false },
          { variation: 'B', sent: 1, open: 0, reply: 0, pos_reply: 0, name: '-', is_active: true, is_del: false },
        ],
      },
    ]);
    expect(await server.trpc(org.apiKey).campaign.variationStats.query(query)).toEqual(rest.body);
    const gql = await server.graphql(
      `query($ws: ID!, $id: ID!) { campaign(workspaceId: $ws, id: $id) { name variationStats(startDate: "2026-05-01", endDate: "2026-05-31") { step variations { variation name sent open reply posReply isActive isDeleted } } } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaignId } },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.campaign.variationStats).toEqual(
      rest.body.map((s: any) => ({
        step: s.step,
        variations: s.variations.map((v: any) => ({ variation: v.variation, name: v.name, sent: v.sent, open: v.open, reply: v.reply, posReply: v.pos_reply, isActive: v.is_active, isDeleted: v.is_del })),
      })),
    );
  });

  it('answers invalid parameters, and a foreign workspace, with 400 { message } as the spec shows', async () => {
    const bad = await server.rest('GET', '/campaign/get/variation-stats', { key: org.apiKey, query: { workspace_id: org.workspaceId, campaign_id: campaignId, start_date: '2026-02-30' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('start_date is not a real calendar date');
    expect(bad.body.status).toBeUndefined();
    const foreign = await server.rest('GET', '/campaign/get/variation-stats', { key: org.apiKey, query: { workspace_id: foreignWorkspaceId, campaign_id: campaignId } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain('is not a workspace of this API key');
    const unauth = await server.rest('GET', '/campaign/get/variation-stats', { query: { workspace_id: org.workspaceId, campaign_id: campaignId } });
    expect(unauth.status).toBe(401);
    expect(typeof unauth.body.message).toBe('string');
  });
});

describe('campaign emails through REST, tRPC and GraphQL', () => {
  it('returns the same page on each transport', async () => {
    const query = { workspace_id: org.workspaceId, lead: 'READER@example.com' };
    const rest = await server.rest('GET', '/unibox/campaign-emails', { key: org.apiKey, query: { ...query, limit: '1' } });
    expect(rest.status).toBe(200);
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.data[0]).toMatchObject({ variation: 'B', sent_on: '2026-05-04T08:00:00.000Z', is_text: 0, parent_camp_id: '' });
    expect(rest.body.page_trail).not.toBe('');
    const next = await server.rest('GET', '/unibox/campaign-emails', { key: org.apiKey, query: { ...query, limit: '1', page_trail: rest.body.page_trail } });
    expect(next.body.data.map((e: any) => e.variation)).toEqual(['A']);
    expect(next.body.page_trail).toBe('');
    expect(await server.trpc(org.apiKey).unibox.campaignEmails.query({ ...query, limit: 1 })).toEqual(rest.body);
    const gql = await server.graphql(`query($ws: ID!) { campaignEmails(workspaceId: $ws, lead: "reader@example.com", limit: 1) { pageTrail emails { id variation sentOn isText parentCampaignId } } }`, {
      key: org.apiKey,
      variables: { ws: org.workspaceId },
    });
    expect(gql.body.data.campaignEmails).toEqual({
      pageTrail: rest.body.page_trail,
      emails: [{ id: rest.body.data[0].id, variation: 'B', sentOn: '2026-05-04T08:00:00.000Z', isText: false, parentCampaignId: '' }],
    });
    const forbidden = await server.rest('GET', '/unibox/campaign-emails', { key: org.apiKey, query: { workspace_id: foreignWorkspaceId, lead: 'x@example.com' } });
    expect(forbidden.status).toBe(403);
  });
});

describe('lead upload and subsequence creation through REST, tRPC and GraphQL', () => {
  it('adds leads on each transport with the same counts', async () => {
    const body = { workspace_id: org.workspaceId, campaign_id: campaignId, leads: [{ email: 'rest1@example.com' }, { email: 'bad' }, { email: 'REST1@example.com' }] };
    const rest = await server.rest('POST', '/lead/add', { key: org.apiKey, body: { ...body, skip_if_in_workspace: 'false' } });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ status: 'success', total_sent: 3, leads_uploaded: 1, invalid_email_count: 1, duplicate_email_count: 1 });
    const trpc = await server.trpc(org.apiKey).lead.add.mutate({ ...body, leads: [{ email: 'trpc1@example.com' }, { email: 'bad' }, { email: 'TRPC1@example.com' }] });
    const gql = await server.graphql(
      `mutation($ws: ID!, $c: ID!) { addLeads(workspaceId: $ws, campaignId: $c, leads: [{ email: "gql1@example.com", firstName: "G", customVariables: { plan: "pro" } }, { email: "bad" }, { email: "GQL1@example.com" }]) { totalSent leadsUploaded invalidEmailCount duplicateEmailCount remainingInPlan } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, c: campaignId } },
    );
    expect(gql.body.errors).toBeUndefined();
    for (const r of [trpc, { ...rest.body }]) expect([r.total_sent, r.leads_uploaded, r.invalid_email_count, r.duplicate_email_count]).toEqual([3, 1, 1, 1]);
    expect(gql.body.data.addLeads).toMatchObject({ totalSent: 3, leadsUploaded: 1, invalidEmailCount: 1, duplicateEmailCount: 1 });
    const stored = await server.db.prisma.lead.findFirstOrThrow({ where: { campaignId, emailNormalized: 'gql1@example.com' } });
    expect([stored.firstName, stored.customVariables]).toEqual(['G', { plan: 'pro' }]);
    const tooMany = await server.rest('POST', '/lead/add', { key: org.apiKey, body: { ...body, leads: Array.from({ length: 10_001 }, (_, i) => ({ email: `x${i}@example.com` })) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toEqual({ field: 'leads', message: 'must contain at most 10000 leads per request' });
  });

  it('creates subsequences on each transport; event violations name the index and field', async () => {
    const rest = await server.rest('POST', '/campaign/add/subsequence', { key: org.apiKey, body: { name: 'Interested', parent_camp_id: campaignId, events: [{ name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_INTERESTED'] }] } });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ status: 'success', id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const trpc = await server.trpc(org.apiKey).campaign.addSubsequence.mutate({ workspace_id: org.workspaceId, name: 'Replies', parent_camp_id: campaignId, events: [{ name: 'LEAD_REPLY_ALL' }] });
    const gql = await server.graphql(
      `mutation($ws: ID!, $c: ID!) { createSubsequence(workspaceId: $ws, parentCampaignId: $c, name: "Pricing", events: [{ name: "LEAD_REPLY_CONTENT", includeText: "price, cost" }]) { id type status parentId triggers: events { event: name includeText } } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, c: campaignId } },
    );
    expect(gql.body.data.createSubsequence).toMatchObject({ type: 'subseq', status: 'DRAFT', parentId: campaignId, triggers: [{ event: 'LEAD_REPLY_CONTENT', includeText: 'price, cost' }] });
    const subs = await server.db.prisma.campaign.findMany({ where: { parentId: campaignId }, orderBy: { createdAt: 'asc' }, select: { id: true } });
    expect(subs.map((s) => s.id)).toEqual(expect.arrayContaining([rest.body.id, trpc.id, gql.body.data.createSubsequence.id]));

    const bad = await server.rest('POST', '/campaign/add/subsequence', { key: org.apiKey, body: { name: 'x', parent_camp_id: campaignId, events: [{ name: 'LEAD_REPLY_CONTENT' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'events.0.include_text', message: 'is required for LEAD_REPLY_CONTENT (comma-separated phrases)' }]);
    const trpcBad = await server.trpc(org.apiKey).campaign.addSubsequence.mutate({ name: 'x', parent_camp_id: campaignId, events: [{ name: 'LEAD_LABEL_UPDATED', val: ['INTERESTED'] }] }).catch((e: unknown) => e);
    expect(trpcBad).toBeInstanceOf(TRPCClientError);
    expect((trpcBad as TRPCClientError<any>).data.errors[0].field).toBe('events.0.val.0');
  });
});
