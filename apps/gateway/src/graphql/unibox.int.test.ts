import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestOrganization } from '@outreach/core/testing';
import { useTestServer } from '../testing/suite';

const { server } = useTestServer();

describe('the unibox as a connection over page_trail', () => {
  it('pages the inbox from any edge, in the order REST lists it', async () => {
    const org = await createTestOrganization({ db: server.db });
    const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const mailbox = await createTestMailbox({ ...base, email: 'rep@sender.test' });
    const campaign = await createTestCampaign(base);
    for (let i = 0; i < 5; i++) {
      const lead = await createTestLead({ ...base, campaignId: campaign.id, email: `l${i}@lead.test` });
      const threadId = newId();
      const at = new Date(Date.now() - (i + 1) * 60_000);
      await server.db.prisma.uniboxThread.create({ data: { id: threadId, workspaceId: org.workspaceId, emailAccountId: mailbox.id, leadId: lead.id, campaignId: campaign.id, subject: 'Hi', isUnread: true, lastMessageAt: at } });
      const id = newId();
      await server.db.prisma.uniboxMessage.create({ data: { id, workspaceId: org.workspaceId, threadId, emailAccountId: mailbox.id, leadId: lead.id, campaignId: campaign.id, direction: 'IN', folder: 'INBOX', messageId: `${id}@lead.test`, fromAddress: `l${i}@lead.test`, subject: 'Re: Hi', receivedAt: at } });
    }
    const rest = await server.rest('GET', '/unibox/emails', { key: org.apiKey, query: { workspace_id: org.workspaceId } });
    const order = rest.body.data.map((e: any) => e.id);
    expect(order).toHaveLength(5);

    const page = `query($ws: ID!, $first: Int, $after: String) { uniboxEmails(workspaceId: $ws, first: $first, after: $after, previewOnly: true) { totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`;
    const read = async (first: number, after: string | null) => (await server.graphql(page, { key: org.apiKey, variables: { ws: org.workspaceId, first, after } })).body.data.uniboxEmails;
    const one = await read(2, null);
    expect(one.edges.map((e: any) => e.node.id)).toEqual(order.slice(0, 2));
    expect([one.totalCount, one.pageInfo.hasNextPage]).toEqual([null, true]);
    // From the page's last edge, then from a middle edge.
    const two = await read(2, one.pageInfo.endCursor);
    expect(two.edges.map((e: any) => e.node.id)).toEqual(order.slice(2, 4));
    const fromMiddle = await read(3, one.edges[0].cursor);
    expect(fromMiddle.edges.map((e: any) => e.node.id)).toEqual(order.slice(1, 4));
    const last = await read(2, two.pageInfo.endCursor);
    expect([last.edges.map((e: any) => e.node.id), last.pageInfo.hasNextPage]).toEqual([order.slice(4), false]);
  });
});
