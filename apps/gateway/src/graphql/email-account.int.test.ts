import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestOrganization, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from '../testing/suite';

const { server } = useTestServer();

describe('GraphQL for mailbox bulk changes and statistics', () => {
  it('sets warmup, tags and moves mailboxes, and answers mailbox statistics', async () => {
    const org = await createTestOrganization({ db: server.db });
    const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const a = await createTestMailbox({ ...base, email: 'a@out.test' });
    const b = await createTestMailbox({ ...base, email: 'b@out.test' });
    const tagId = newId();
    await server.db.prisma.tag.create({ data: { id: tagId, workspaceId: org.workspaceId, name: 'EU', nameNormalized: 'eu' } });
    const campaign = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'x@example.com' });
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, emailAccountId: a.id, step: 1, variationId: (campaign.variations as any)[1].A, variationLabel: 'A', sentAt: new Date('2026-03-02T10:00:00Z'), openedAt: new Date('2026-03-02T11:00:00Z') });
    const vars = { ws: org.workspaceId, ids: [a.id, b.id], tag: tagId };

    const r = await server.graphql(
      `mutation($ws: ID!, $ids: [ID!]!, $tag: ID!) { setEmailAccountsWarmup(workspaceId: $ws, ids: $ids, warmupStatus: ACTIVE) assignEmailAccountTag(workspaceId: $ws, ids: $ids, tagId: $tag, action: ASSIGN) }`,
      { key: org.apiKey, variables: vars },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ setEmailAccountsWarmup: 2, assignEmailAccountTag: 2 });
    expect(await server.db.prisma.emailAccountTag.count({ where: { tagId } })).toBe(2);

    const stats = await server.graphql(
      `query($ws: ID!) { workspace(id: $ws) { emailStats(startDate: "2026-03-01", endDate: "2026-03-03") { header { totalSentCount totalOpenCount totalOooReplyCount replyRateWithOoo } chart { label date totalSentCount } } } }`,
      { key: org.apiKey, variables: vars },
    );
    expect(stats.body.errors).toBeUndefined();
    expect(stats.body.data.workspace.emailStats.header).toEqual({ totalSentCount: 1, totalOpenCount: 1, totalOooReplyCount: 0, replyRateWithOoo: 0 });
    expect(stats.body.data.workspace.emailStats.chart.map((d: any) => [d.label, d.totalSentCount])).toEqual([['Mar 01', 0], ['Mar 02', 1], ['Mar 03', 0]]);

    const bulk = await server.graphql(
      `query($ws: ID!, $ids: [ID!]) { workspace(id: $ws) { emailStatsBulk(startDate: "2026-03-01", endDate: "2026-03-03", emailAccountIds: $ids, includeChart: false) { page limit totalAccounts hasMore accounts { emailAccountId email header { totalSentCount openRate } chart { date } } } } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, ids: [a.id] } },
    );
    expect(bulk.body.errors).toBeUndefined();
    expect(bulk.body.data.workspace.emailStatsBulk).toEqual({
      page: 1,
      limit: 100,
      totalAccounts: 1,
      hasMore: false,
      accounts: [{ emailAccountId: a.id, email: 'a@out.test', header: { totalSentCount: 1, openRate: 100 }, chart: [] }],
    });

    const tooLong = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { emailStats(startDate: "2026-01-01", endDate: "2026-12-31") { header { totalSentCount } } } }`, { key: org.apiKey, variables: vars });
    expect(tooLong.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');

    const target = await server.rest('POST', '/workspaces/add', { key: org.apiKey, body: { workspace_name: 'Second' } });
    const moved = await server.graphql(`mutation($ws: ID!, $to: ID!, $ids: [ID!]!) { moveEmailAccounts(workspaceId: $ws, toWorkspaceId: $to, ids: $ids) }`, {
      key: org.apiKey,
      variables: { ws: org.workspaceId, to: target.body._id, ids: [b.id] },
    });
    expect(moved.body.data.moveEmailAccounts).toBe(1);
    expect((await server.db.prisma.emailAccount.findUniqueOrThrow({ where: { id: b.id } })).workspaceId).toBe(target.body._id);
    const foreign = await createTestOrganization({ db: server.db });
    const refused = await server.graphql(`mutation($ws: ID!, $to: ID!, $ids: [ID!]!) { moveEmailAccounts(workspaceId: $ws, toWorkspaceId: $to, ids: $ids) }`, {
      key: org.apiKey,
      variables: { ws: org.workspaceId, to: foreign.workspaceId, ids: [a.id] },
    });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');

    const listed = await server.graphql(
      `query($ws: ID!) { workspace(id: $ws) { emailAccounts(first: 10) { totalCount edges { node { id email health { account status lastError } payload { analytics { healthScores { healthScore overallWarmupHealth7d bounceRate3d } replyRates { replyRate7d } dailyCounters { emailSentToday } } } } } } } }`,
      { key: org.apiKey, variables: vars },
    );
    expect(listed.body.errors).toBeUndefined();
    // The send of 2026-03-02 is older than the last 7 days.
    expect(listed.body.data.workspace.emailAccounts).toEqual({
      totalCount: 1,
      edges: [
        {
          node: {
            id: a.id,
            email: 'a@out.test',
            health: { account: 'a@out.test', status: 'ACTIVE', lastError: null },
            payload: { analytics: { healthScores: { healthScore: 100, overallWarmupHealth7d: 100, bounceRate3d: -1 }, replyRates: { replyRate7d: -1 }, dailyCounters: { emailSentToday: 0 } } },
          },
        },
      ],
    });
  });
});
