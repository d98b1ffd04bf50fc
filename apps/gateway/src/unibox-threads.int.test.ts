// GET /unibox/threads ("Get email threads") as vendor clients call it, and the same list over tRPC.
import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestThread, type TestOrganization } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer();

/** Three conversations of `o`'s workspace, one minute apart (the latest first in `threads`). */
async function conversations(o: TestOrganization) {
  const base = { db: server.db.prisma, organizationId: o.organizationId, workspaceId: o.workspaceId };
  const mailbox = await createTestMailbox({ ...base, email: `rep-${newId().slice(-6)}@sender.test` });
  const campaign = await createTestCampaign(base);
  const threads: string[] = [];
  for (const [i, email] of ['ann@lead.test', 'ben@lead.test', 'cat@lead.test'].entries()) {
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email });
    const at = (minutes: number) => new Date(Date.now() - (10 - i) * 60_000 + minutes * 1000);
    const thread = await createTestThread({
      db: server.db.prisma, workspaceId: o.workspaceId, emailAccountId: mailbox.id, leadId: lead.id, campaignId: campaign.id, subject: `Hi ${email}`,
      messages: [{ direction: 'OUT', at: at(0) }, ...(email === 'ben@lead.test' ? [] : [{ direction: 'IN' as const, at: at(1), label: 'INTERESTED' }])],
    });
    threads.unshift(thread.id);
  }
  return { campaign, threads, mailbox };
}

describe('GET /unibox/threads', () => {
  it('pages the way a client loops on page_trail, newest activity first, with 0/1 flags and the latest e-mail', async () => {
    const mine = await conversations(org);
    await conversations(foreign);
    // requests.get(f"{BASE}/unibox/threads", params={"workspace_id": ws, "limit": 2, "page_trail": trail}) until page_trail is "".
    const seen: any[] = [];
    let trail = '';
    for (let calls = 0; calls < 5; calls++) {
      const r = await server.rest('GET', '/unibox/threads', { key: org.apiKey, query: { workspace_id: org.workspaceId, limit: '2', ...(trail ? { page_trail: trail } : {}) } });
      expect(r.status).toBe(200);
      seen.push(...r.body.data);
      trail = r.body.page_trail;
      if (!trail) break;
    }
    // Another organization's threads are never listed.
    expect(seen.map((t) => t.thread_id)).toEqual(mine.threads);
    const [cat] = seen;
    expect(cat).toMatchObject({ subject: 'Hi cat@lead.test', lead: 'cat@lead.test', campaign_id: mine.campaign.id, message_count: 2, is_unread: 1, label: 'INTERESTED' });
    expect(cat.last_message).toMatchObject({ thread_id: cat.thread_id, direction: 'IN', is_unread: 1, lead: 'cat@lead.test' });
    expect(typeof cat.last_message.body.html).toBe('string');
    expect(Date.parse(cat.last_message_at)).toBe(Date.parse(cat.last_message.timestamp_created));

    // Filters as query parameters; tRPC lists the same.
    const received = await server.rest('GET', '/unibox/threads', { key: org.apiKey, query: { workspace_id: org.workspaceId, email_type: 'received', label: 'INTERESTED' } });
    expect(received.body.data.map((t: any) => t.lead)).toEqual(['cat@lead.test', 'ann@lead.test']);
    const byLead = await server.rest('GET', '/unibox/threads', { key: org.apiKey, query: { workspace_id: org.workspaceId, lead: 'BEN@lead.test', campaign_id: mine.campaign.id } });
    expect(byLead.body).toMatchObject({ page_trail: '', data: [{ lead: 'ben@lead.test', is_unread: 0, message_count: 1 }] });
    expect(await server.trpc(org.apiKey).unibox.threads.query({ workspace_id: org.workspaceId, email_type: 'received', label: 'INTERESTED' })).toEqual(received.body);
  });

  it("refuses another organization's workspace, and names a bad parameter", async () => {
    const theirs = await conversations(foreign);
    const refused = await server.rest('GET', '/unibox/threads', { key: org.apiKey, query: { workspace_id: foreign.workspaceId } });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(theirs.threads[0]);
    const bad = await server.rest('GET', '/unibox/threads', { key: org.apiKey, query: { workspace_id: org.workspaceId, email_type: 'spam' } });
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('email_type')]);
  });
});

describe('the unibox filters and mark-unread the web app uses', () => {
  it('filters by unread state, mailbox and lead label, and marks a thread unread, over REST, tRPC and GraphQL', async () => {
    const mine = await conversations(org);
    const [cat, ben, ann] = mine.threads as [string, string, string];
    const threads = (query: Record<string, string>) => server.rest('GET', '/unibox/threads', { key: org.apiKey, query: { workspace_id: org.workspaceId, campaign_id: mine.campaign.id, ...query } });
    expect((await threads({ is_unread: 'true' })).body.data.map((t: any) => t.thread_id)).toEqual([cat, ann]);
    expect((await threads({ is_unread: 'false', email_account_id: mine.mailbox.id })).body.data.map((t: any) => t.thread_id)).toEqual([ben]);
    expect((await threads({ email_account_id: newId() })).body.data).toEqual([]);
    const bad = await threads({ is_unread: 'maybe' });
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('is_unread')]);

    const marked = await server.rest('POST', `/unibox/threads/${cat}/mark-as-read`, { key: org.apiKey, body: { workspace_id: org.workspaceId } });
    expect(marked.status).toBe(200);
    const unread = await server.rest('POST', `/unibox/threads/${cat}/mark-as-unread`, { key: org.apiKey, body: { workspace_id: org.workspaceId } });
    expect(unread.body).toEqual({ status: 'success' });
    expect((await server.rest('POST', `/unibox/threads/${ben}/mark-as-unread`, { key: org.apiKey, body: { workspace_id: org.workspaceId } })).status).toBe(400);
    expect(await server.trpc(org.apiKey).unibox.markThreadUnread.mutate({ workspace_id: org.workspaceId, thread_id: ann })).toEqual({ status: 'success' });

    await server.rest('POST', '/lead/data/update', { key: org.apiKey, body: { workspace_id: org.workspaceId, email: 'ann@lead.test', label: 'MEETING_BOOKED' } });
    const gql = await server.graphql(
      `query($ws: ID!, $c: ID!) { uniboxThreads(workspaceId: $ws, campaignId: $c, isUnread: true, leadLabel: "MEETING_BOOKED") { edges { node { id lead { label } } } } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, c: mine.campaign.id } },
    );
    expect(gql.body.data.uniboxThreads.edges).toEqual([{ node: { id: ann, lead: { label: 'MEETING_BOOKED' } } }]);
  });
});
