import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestOrganization, createTestThread } from '@outreach/core/testing';
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

describe('unibox threads', () => {
  /** Three conversations of `o`, a minute apart, newest last; ben's has no reply. */
  async function conversations(o: { organizationId: string; workspaceId: string }) {
    const base = { db: server.db.prisma, organizationId: o.organizationId, workspaceId: o.workspaceId };
    const mailbox = await createTestMailbox({ ...base, email: `rep-${newId().slice(-6)}@sender.test` });
    const name = `Campaign ${newId().slice(-4)}`;
    const campaign = { name, ...(await createTestCampaign({ ...base, name })) };
    const threads: { id: string; leadId: string; messageIds: string[] }[] = [];
    for (const [i, email] of ['ann@lead.test', 'ben@lead.test', 'cat@lead.test'].entries()) {
      const lead = await createTestLead({ ...base, campaignId: campaign.id, email });
      const at = (seconds: number) => new Date(Date.now() - (10 - i) * 60_000 + seconds * 1000);
      const messages = [{ direction: 'OUT' as const, at: at(0) }, ...(email === 'ben@lead.test' ? [] : [{ direction: 'IN' as const, at: at(1) }])];
      const thread = await createTestThread({ db: server.db.prisma, workspaceId: o.workspaceId, emailAccountId: mailbox.id, leadId: lead.id, campaignId: campaign.id, messages });
      threads.unshift({ ...thread, leadId: lead.id });
    }
    return { campaign, threads };
  }

  it('pages the conversations as REST lists them, each with its lead, campaign, latest e-mail and e-mails', async () => {
    const org = await createTestOrganization({ db: server.db });
    const { campaign, threads } = await conversations(org);
    const rest = await server.rest('GET', '/unibox/threads', { key: org.apiKey, query: { workspace_id: org.workspaceId } });
    expect(rest.body.data.map((t: any) => t.thread_id)).toEqual(threads.map((t) => t.id));

    const page = `query($ws: ID!, $after: String, $type: UniboxEmailType) { uniboxThreads(workspaceId: $ws, first: 2, after: $after, emailType: $type) {
      edges { node { id leadEmail isUnread messageCount lastMessage { id direction } lead { id email } campaign { name } emails(first: 5) { edges { node { id } } } } }
      pageInfo { hasNextPage endCursor } } }`;
    const one = await server.graphql(page, { key: org.apiKey, variables: { ws: org.workspaceId } });
    expect(one.body.errors).toBeUndefined();
    const [cat, ben] = one.body.data.uniboxThreads.edges.map((e: any) => e.node);
    expect(cat).toEqual({
      id: threads[0]!.id, leadEmail: 'cat@lead.test', isUnread: true, messageCount: 2, lastMessage: { id: threads[0]!.messageIds[1], direction: 'IN' },
      lead: { id: threads[0]!.leadId, email: 'cat@lead.test' }, campaign: { name: campaign.name }, emails: { edges: [...threads[0]!.messageIds].reverse().map((id) => ({ node: { id } })) },
    });
    expect(ben).toMatchObject({ leadEmail: 'ben@lead.test', isUnread: false, messageCount: 1 });
    const two = await server.graphql(page, { key: org.apiKey, variables: { ws: org.workspaceId, after: one.body.data.uniboxThreads.pageInfo.endCursor } });
    expect(two.body.data.uniboxThreads.edges.map((e: any) => e.node.id)).toEqual([threads[2]!.id]);
    expect(two.body.data.uniboxThreads.pageInfo.hasNextPage).toBe(false);
    const received = await server.graphql(page, { key: org.apiKey, variables: { ws: org.workspaceId, type: 'received' } });
    expect(received.body.data.uniboxThreads.edges.map((e: any) => e.node.leadEmail)).toEqual(['cat@lead.test', 'ann@lead.test']);
  });

  it("never crosses a workspace: a thread's lead, campaign and e-mails are read in the thread's own workspace", async () => {
    const mine = await createTestOrganization({ db: server.db });
    const theirs = await createTestOrganization({ db: server.db });
    const own = await conversations(mine);
    const foreign = await conversations(theirs);
    // A thread of mine naming their lead and campaign, and one of their e-mails filed in a thread of mine.
    const mailbox = await createTestMailbox({ db: server.db.prisma, organizationId: mine.organizationId, workspaceId: mine.workspaceId, email: `x-${newId().slice(-6)}@sender.test` });
    const stray = await createTestThread({
      db: server.db.prisma, workspaceId: mine.workspaceId, emailAccountId: mailbox.id, leadId: foreign.threads[0]!.leadId, campaignId: foreign.campaign.id,
      messages: [{ direction: 'IN', at: new Date() }],
    });
    const theirEmail = newId();
    await server.db.prisma.uniboxMessage.create({
      data: { id: theirEmail, workspaceId: theirs.workspaceId, threadId: own.threads[0]!.id, direction: 'IN', folder: 'INBOX', messageId: `${theirEmail}@x.test`, fromAddress: 'x@x.test', receivedAt: new Date() },
    });
    const r = await server.graphql(
      `query($ws: ID!, $theirs: ID!) {
        uniboxThreads(workspaceId: $ws, first: 10) { edges { node { id leadId lead { id } campaign { id } emails { edges { node { id } } } } } }
        node(workspaceId: $ws, id: $theirs) { id }
      }`,
      { key: mine.apiKey, variables: { ws: mine.workspaceId, theirs: foreign.threads[0]!.id } },
    );
    expect(r.body.errors).toBeUndefined();
    const nodes = r.body.data.uniboxThreads.edges.map((e: any) => e.node);
    expect(nodes.map((n: any) => n.id)).toEqual([stray.id, ...own.threads.map((t) => t.id)]);
    expect(nodes[0]).toMatchObject({ leadId: foreign.threads[0]!.leadId, lead: null, campaign: null });
    expect(nodes[1].emails.edges.map((e: any) => e.node.id)).toEqual([...own.threads[0]!.messageIds].reverse());
    expect(r.body.data.node).toBeNull();
    const refused = await server.graphql(`query($ws: ID!) { uniboxThreads(workspaceId: $ws) { edges { node { id } } } }`, { key: mine.apiKey, variables: { ws: theirs.workspaceId } });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe("what a unibox send wrote (UniboxSendResult.email)", () => {
  it("is read in the mutation's workspace, under the key's permissions there", async () => {
    const org = await createTestOrganization({ db: server.db });
    await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, email: 'drafts@sender.test' });
    const second = (await server.rest('POST', '/workspaces/add', { key: org.apiKey, body: { workspace_name: 'Second' } })).body._id;
    // Allowed to write in the workspace, to read the inbox only in the other one.
    const grants = [{ workspace_id: org.workspaceId, permissions: ['CAMPAIGN_EDIT'] }, { workspace_id: second, permissions: ['CAMPAIGN_LIST', 'CAMPAIGN_EDIT'] }];
    const client = await server.rest('POST', '/client', { key: org.apiKey, body: { client_email: 'writer@client.test', client_permissions: grants } });
    const r = await server.graphql(`mutation($ws: ID!) { saveUniboxDraft(workspaceId: $ws, from: "drafts@sender.test", subject: "Idea") { id email { id } } }`, {
      key: client.body.api_key,
      variables: { ws: org.workspaceId },
    });
    expect(r.body.data.saveUniboxDraft).toEqual({ id: expect.any(String), email: null });
    expect(r.body.errors.map((e: any) => [e.path, e.extensions.code])).toEqual([[['saveUniboxDraft', 'email'], 'FORBIDDEN']]);
  });
});
