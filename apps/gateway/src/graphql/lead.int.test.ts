import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox } from '@outreach/core/testing';
import { useTestServer } from '../testing/suite';

const { server, org, foreign: other } = useTestServer();

const base = (o: typeof org) => ({ db: server.db.prisma, organizationId: o.organizationId, workspaceId: o.workspaceId });

/** A received e-mail of `email`'s conversation in `o`'s workspace. */
async function inboundEmail(o: typeof org, lead: { id: string }, campaignId: string, email: string) {
  const mailbox = await createTestMailbox({ ...base(o), email: `rep-${newId().slice(-6)}@sender.test` });
  const threadId = newId();
  const at = new Date(Date.now() - 60_000);
  await server.db.prisma.uniboxThread.create({ data: { id: threadId, workspaceId: o.workspaceId, emailAccountId: mailbox.id, leadId: lead.id, campaignId, subject: 'Hello', isUnread: true, lastMessageAt: at } });
  const id = newId();
  await server.db.prisma.uniboxMessage.create({
    data: { id, workspaceId: o.workspaceId, threadId, emailAccountId: mailbox.id, leadId: lead.id, campaignId, direction: 'IN', folder: 'INBOX', messageId: `${id}@lead.test`, fromAddress: email, subject: 'Re: Hello', receivedAt: at },
  });
  return id;
}

describe('lead counts and connection', () => {
  it('counts leads by status and in the connection', async () => {
    const campaign = await createTestCampaign(base(org));
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await createTestLead({ ...base(org), campaignId: campaign.id, email, label: 'INTERESTED' });
    const r = await server.graphql(
      `query($ws: ID!, $id: ID!) { workspace(id: $ws) {
        leadCountsByStatus(campaignId: $id) { status count }
        leads(first: 2, campaignId: $id) { totalCount pageInfo { hasNextPage } }
        prefixed: leads(first: 2, campaignId: $id, email: "a@") { totalCount }
        labelled: leads(first: 1, campaignId: $id, label: "INTERESTED") { totalCount edges { node { email } } pageInfo { endCursor } }
      } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.workspace.leadCountsByStatus.find((c: any) => c.status === 'NOT_CONTACTED').count).toBe(3);
    expect(r.body.data.workspace.leadCountsByStatus).toHaveLength(8);
    expect(r.body.data.workspace.leads).toEqual({ totalCount: 3, pageInfo: { hasNextPage: true } });
    expect(r.body.data.workspace.prefixed).toEqual({ totalCount: 1 });
    // Counted by probing the listing (no counting operation filters by label); pages of another size resume at the cursor.
    const labelled = r.body.data.workspace.labelled;
    expect([labelled.totalCount, labelled.edges]).toEqual([3, [{ node: { email: 'c@example.com' } }]]);
    const rest = await server.graphql(`query($ws: ID!, $id: ID!, $after: String) { workspace(id: $ws) { leads(first: 2, campaignId: $id, label: "INTERESTED", after: $after) { edges { node { email } } pageInfo { hasNextPage } } } }`, {
      key: org.apiKey,
      variables: { ws: org.workspaceId, id: campaign.id, after: labelled.pageInfo.endCursor },
    });
    expect(rest.body.data.workspace.leads).toEqual({ edges: [{ node: { email: 'b@example.com' } }, { node: { email: 'a@example.com' } }], pageInfo: { hasNextPage: false } });
  });

  it('starts a page at any row with offset (a table jumping into a long list), and says what is wrong with a bad one', async () => {
    const campaign = await createTestCampaign(base(org));
    for (let i = 0; i < 7; i++) await createTestLead({ ...base(org), campaignId: campaign.id, email: `row${i}@offset.example.com` });
    const read = (args: string) =>
      server.graphql(`query($ws: ID!, $id: ID!) { workspace(id: $ws) { leads(campaignId: $id, sort: created_at, direction: asc, ${args}) { edges { node { email } } pageInfo { hasNextPage hasPreviousPage } } } }`, {
        key: org.apiKey,
        variables: { ws: org.workspaceId, id: campaign.id },
      });
    const emails = (r: Awaited<ReturnType<typeof read>>) => r.body.data.workspace.leads.edges.map((e: any) => e.node.email);
    const middle = await read('first: 3, offset: 2');
    expect(emails(middle)).toEqual(['row2@offset.example.com', 'row3@offset.example.com', 'row4@offset.example.com']);
    expect(middle.body.data.workspace.leads.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    const end = await read('first: 3, offset: 5');
    expect([emails(end), end.body.data.workspace.leads.pageInfo.hasNextPage]).toEqual([['row5@offset.example.com', 'row6@offset.example.com'], false]);
    expect(emails(await read('first: 3, offset: 9'))).toEqual([]);
    for (const [args, message] of [
      ['first: 3, offset: -1', 'must be a whole number of 0 or more'],
      ['first: 3, offset: 1, after: "x"', 'cannot be combined with after'],
    ] as const) {
      const bad = await read(args);
      expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'offset' }] });
      expect(bad.body.errors[0].message).toContain(message);
    }
  });
});

describe('lead references never cross workspaces', () => {
  it("reads a lead's campaign and conversation in the lead's own workspace only", async () => {
    const mine = await createTestCampaign({ ...base(org), name: 'Mine' });
    const foreign = await createTestCampaign({ ...base(other), name: 'Foreign' });
    const lead = await createTestLead({ ...base(org), campaignId: mine.id, email: 'shared@example.com' });
    // A lead row pointing at another workspace's campaign: its campaign reads as null.
    const stray = await createTestLead({ ...base(org), campaignId: foreign.id, email: 'stray@example.com' });
    const own = await inboundEmail(org, lead, mine.id, 'shared@example.com');
    const theirs = await createTestLead({ ...base(other), campaignId: foreign.id, email: 'shared@example.com' });
    await inboundEmail(other, theirs, foreign.id, 'shared@example.com');

    const r = await server.graphql(
      `query($ws: ID!) {
        shared: leadsByEmail(workspaceId: $ws, email: "shared@example.com") { campaign { name } emails { edges { node { id } } } }
        stray: leadsByEmail(workspaceId: $ws, email: "stray@example.com") { id campaignId campaign { name } }
      }`,
      { key: org.apiKey, variables: { ws: org.workspaceId } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.shared).toEqual([{ campaign: { name: 'Mine' }, emails: { edges: [{ node: { id: own } }] } }]);
    expect(r.body.data.stray).toEqual([{ id: stray.id, campaignId: foreign.id, campaign: null }]);
  });
});
