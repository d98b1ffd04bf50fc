import { describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead, createTestMailbox, createTestOrganization, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from '../testing/suite';

const { server } = useTestServer();

describe('GraphQL campaign statistics', () => {
  it("answers a campaign's daily statistics and the workspace's campaigns by status", async () => {
    const org = await createTestOrganization({ db: server.db });
    const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const a = await createTestMailbox({ ...base, email: 'a@out.test' });
    const campaign = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'x@example.com' });
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, emailAccountId: a.id, step: 1, variationId: (campaign.variations as any)[1].A, variationLabel: 'A', sentAt: new Date('2026-03-02T10:00:00Z'), openedAt: new Date('2026-03-02T11:00:00Z') });

    const stats = await server.graphql(
      `query($ws: ID!, $id: ID!) {
        workspace(id: $ws) { campaignCount { total active } }
        campaign(workspaceId: $ws, id: $id) { dailyStats(startDate: "2026-03-01", endDate: "2026-03-03") { date sentCount openedCount } }
      }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id } },
    );
    expect(stats.body.errors).toBeUndefined();
    expect(stats.body.data.workspace.campaignCount).toEqual({ total: 1, active: 1 });
    expect(stats.body.data.campaign.dailyStats).toEqual([
      { date: '2026-03-01', sentCount: 0, openedCount: 0 },
      { date: '2026-03-02', sentCount: 1, openedCount: 1 },
      { date: '2026-03-03', sentCount: 0, openedCount: 0 },
    ]);
  });
});
