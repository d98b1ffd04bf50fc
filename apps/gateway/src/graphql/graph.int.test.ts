import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestOrganization, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from '../testing/suite';

const { server, org } = useTestServer();

/** A campaign of `org` with two steps, a lead, and one send with an open; plus a second organization. */
async function seed() {
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
  const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }, { label: 'B' }] }, { variations: [{ label: 'A' }] }] });
  const v = campaign.variations as Record<number, Record<string, string>>;
  const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'graph@example.com' });
  const sent = await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 1, variationId: v[1]!.B!, variationLabel: 'B', sentAt: new Date('2026-06-02T10:00:00Z'), subject: 'Hello' });
  await server.db.prisma.emailEvent.create({
    data: { id: newId(), workspaceId: org.workspaceId, sentEmailId: sent.id, campaignId: campaign.id, leadId: lead.id, type: 'OPEN', occurredAt: new Date('2026-06-02T11:00:00Z') },
  });
  const other = await createTestOrganization({ db: server.db });
  return { campaign, v, lead, sent, other };
}

const CAMPAIGN = `query($ws: ID!, $id: ID!) { campaign(workspaceId: $ws, id: $id) { steps { step waitTime variations { label subject isDeleted } } } }`;
const LEAD = `query($ws: ID!, $id: ID!) { lead(workspaceId: $ws, id: $id) { messages { step variationLabel subject sentAt openedAt events { type isMachine occurredAt } } } }`;

describe('the graph below a campaign and a lead (Pothos Prisma relations)', () => {
  it("answers a campaign's steps with their variations, and a lead's messages with their events", async () => {
    const { campaign, lead } = await seed();
    const steps = await server.graphql(CAMPAIGN, { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id } });
    expect(steps.body.errors).toBeUndefined();
    expect(steps.body.data.campaign.steps).toEqual([
      { step: 1, waitTime: expect.any(Number), variations: [expect.objectContaining({ label: 'A', isDeleted: false }), expect.objectContaining({ label: 'B', isDeleted: false })] },
      { step: 2, waitTime: expect.any(Number), variations: [expect.objectContaining({ label: 'A' })] },
    ]);
    const messages = await server.graphql(LEAD, { key: org.apiKey, variables: { ws: org.workspaceId, id: lead.id } });
    expect(messages.body.errors).toBeUndefined();
    expect(messages.body.data.lead.messages).toEqual([
      { step: 1, variationLabel: 'B', subject: 'Hello', sentAt: '2026-06-02T10:00:00.000Z', openedAt: null, events: [{ type: 'OPEN', isMachine: false, occurredAt: '2026-06-02T11:00:00.000Z' }] },
    ]);
  });

  it('Campaign.steps and Lead.messages read in the workspace the parent was read in: rows of another workspace never show', async () => {
    const { campaign, v, lead, other } = await seed();
    // Rows that name the parent but belong to another workspace (what a bug elsewhere could write).
    await server.db.prisma.sequenceStep.create({ data: { id: newId(), workspaceId: other.workspaceId, campaignId: campaign.id, step: 9 } });
    await recordTestSend({ db: server.db.prisma, organizationId: other.organizationId, workspaceId: other.workspaceId, campaignId: campaign.id, leadId: lead.id, step: 9, variationId: v[1]!.A!, variationLabel: 'Z', sentAt: new Date('2026-06-09T10:00:00Z') });
    const steps = await server.graphql(CAMPAIGN, { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id } });
    expect(steps.body.data.campaign.steps.map((s: { step: number }) => s.step)).toEqual([1, 2]);
    const messages = await server.graphql(LEAD, { key: org.apiKey, variables: { ws: org.workspaceId, id: lead.id } });
    expect(messages.body.data.lead.messages.map((m: { step: number }) => m.step)).toEqual([1]);
    // Another organization's key reaches neither parent, so neither relation.
    const foreign = await server.graphql(CAMPAIGN, { key: other.apiKey, variables: { ws: org.workspaceId, id: campaign.id } });
    expect(foreign.body.data?.campaign ?? null).toBeNull();
    expect(foreign.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('CampaignStep.variations and LeadMessage.events keep the child rows of the parent row\'s workspace only', async () => {
    const { campaign, lead, sent, other } = await seed();
    const step1 = await server.db.prisma.sequenceStep.findFirstOrThrow({ where: { campaignId: campaign.id, step: 1 } });
    await server.db.prisma.variation.create({ data: { id: newId(), workspaceId: other.workspaceId, campaignId: campaign.id, stepId: step1.id, label: 'X', subject: 'foreign' } });
    await server.db.prisma.emailEvent.create({
      data: { id: newId(), workspaceId: other.workspaceId, sentEmailId: sent.id, campaignId: campaign.id, leadId: lead.id, type: 'CLICK', occurredAt: new Date('2026-06-03T10:00:00Z') },
    });
    const steps = await server.graphql(CAMPAIGN, { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id } });
    expect(steps.body.data.campaign.steps[0].variations.map((x: { label: string }) => x.label)).toEqual(['A', 'B']);
    const messages = await server.graphql(LEAD, { key: org.apiKey, variables: { ws: org.workspaceId, id: lead.id } });
    expect(messages.body.data.lead.messages[0].events.map((e: { type: string }) => e.type)).toEqual(['OPEN']);
  });
});
