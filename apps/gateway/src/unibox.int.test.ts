// The unified inbox through REST, tRPC and GraphQL: listing, unread count, mark as read,
// deletes, and replies that really go out through a local SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, startSmtpServer, type SmtpTestServer } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

let smtp: SmtpTestServer;
let ws: string;
let foreignWs: string;
let mailboxId: string;

beforeAll(async () => {
  smtp = await startSmtpServer({ users: { 'rep@sender.test': 'rep-pw' } });
});
afterAll(() => smtp?.close());
// Registered after the SMTP server's hooks, so the app closes before it.
const { server, org, foreign } = useTestServer();

beforeAll(async () => {
  ws = org.workspaceId;
  foreignWs = foreign.workspaceId;
  mailboxId = newId();
  await server.db.prisma.emailAccount.create({
    data: {
      id: mailboxId,
      organizationId: org.organizationId,
      workspaceId: ws,
      email: 'rep@sender.test',
      emailNormalized: 'rep@sender.test',
      firstName: 'Rep',
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpUsername: 'rep@sender.test',
      smtpPasswordEnc: server.deps.service.secrets.encrypt('rep-pw'),
      imapHost: '127.0.0.1',
      imapPort: 1,
      imapUsername: 'rep@sender.test',
      imapPasswordEnc: server.deps.service.secrets.encrypt('rep-pw'),
      dailyLimit: 100,
    },
  });
});
afterAll(async () => {
  // Pooled SMTP connections would keep the test server's close waiting.
  await server?.deps.service.ports.smtp.close();
});

/** A lead conversation with one unread reply; answers the thread and the reply's ids. */
async function conversation(email: string) {
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws };
  const campaign = await createTestCampaign({ ...base, status: 'ACTIVE' });
  const lead = await createTestLead({ ...base, campaignId: campaign.id, email });
  const threadId = newId();
  const at = new Date(Date.now() - 60_000);
  await server.db.prisma.uniboxThread.create({ data: { id: threadId, workspaceId: ws, emailAccountId: mailboxId, leadId: lead.id, campaignId: campaign.id, subject: 'Hello', isUnread: true, lastMessageAt: at } });
  const id = newId();
  const messageId = `${id}@lead.test`;
  await server.db.prisma.uniboxMessage.create({
    data: {
      id, workspaceId: ws, threadId, emailAccountId: mailboxId, leadId: lead.id, campaignId: campaign.id, direction: 'IN', folder: 'INBOX', messageId,
      fromAddress: email, fromJson: [{ address: email, name: '' }], toJson: [{ address: 'rep@sender.test', name: '' }],
      subject: 'Re: Hello', textBody: 'Interested, tell me more', isUnread: true, label: 'INTERESTED', receivedAt: at,
    },
  });
  return { threadId, id, messageId, leadId: lead.id, campaignId: campaign.id };
}

describe('unibox over REST, tRPC and GraphQL', () => {
  it('lists the same page on each transport and pages with page_trail', async () => {
    const a = await conversation('list-a@lead.test');
    const b = await conversation('list-b@lead.test');
    const query = { workspace_id: ws, limit: '1' };
    const first = await server.rest('GET', '/unibox/emails', { key: org.apiKey, query });
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: any) => e.id)).toEqual([b.id]);
    expect(first.body.data[0]).toMatchObject({ message_id: `<${b.messageId}>`, thread_id: b.threadId, direction: 'IN', lead: 'list-b@lead.test', to_address_email_list: 'rep@sender.test', content_preview: 'Interested, tell me more' });
    const second = await server.rest('GET', '/unibox/emails', { key: org.apiKey, query: { ...query, lead: 'LIST-A@lead.test', page_trail: '' } });
    expect(second.body.data.map((e: any) => e.id)).toEqual([a.id]);
    expect(second.body.page_trail).toBe('');

    expect(await server.trpc(org.apiKey).unibox.emails.query({ workspace_id: ws, limit: 1 })).toEqual(first.body);
    const gql = await server.graphql(
      `query($ws: ID!, $t: ID) { uniboxEmails(workspaceId: $ws, threadId: $t, emailType: received, previewOnly: true) { pageInfo { hasNextPage } edges { node { id messageId direction isUnread label lead contentPreview body { html } from { address } } } } }`,
      { key: org.apiKey, variables: { ws, t: b.threadId } },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.uniboxEmails).toEqual({
      pageInfo: { hasNextPage: false },
      edges: [{ node: { id: b.id, messageId: `<${b.messageId}>`, direction: 'IN', isUnread: true, label: 'INTERESTED', lead: 'list-b@lead.test', contentPreview: 'Interested, tell me more', body: null, from: [{ address: 'list-b@lead.test' }] } }],
    });
    const others = await server.rest('GET', '/unibox/other-emails', { key: org.apiKey, query: { workspace_id: ws } });
    expect(others.body).toEqual({ page_trail: '', data: [] });

    const bad = await server.rest('GET', '/unibox/emails', { key: org.apiKey, query: { workspace_id: ws, email_type: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'email_type', message: 'must be all, received or sent' }]);
    const foreign = await server.rest('GET', '/unibox/emails', { key: org.apiKey, query: { workspace_id: foreignWs } });
    expect(foreign.status).toBe(403);
  });

  it('counts unread e-mails and marks threads read; an unknown thread is 404', async () => {
    const start = (await server.rest('GET', '/unibox/emails/count/unread', { key: org.apiKey, query: { workspace_id: ws } })).body.count as number;
    const c = await conversation('unread@lead.test');
    const d = await conversation('unread2@lead.test');
    expect((await server.rest('GET', '/unibox/emails/count/unread', { key: org.apiKey, query: { workspace_id: ws } })).body).toEqual({ count: start + 2 });
    // workspace_id in the query string on a POST, as some clients send it.
    const marked = await server.rest('POST', `/unibox/threads/${c.threadId}/mark-as-read?workspace_id=${ws}`, { key: org.apiKey });
    expect([marked.status, marked.body]).toEqual([200, { status: 'success' }]);
    const gql = await server.graphql(`mutation($ws: ID!, $t: ID!) { markUniboxThreadRead(workspaceId: $ws, threadId: $t) }`, { key: org.apiKey, variables: { ws, t: d.threadId } });
    expect(gql.body.data.markUniboxThreadRead).toBe(true);
    const thread = await server.graphql(`query($ws: ID!, $t: ID!) { uniboxEmails(workspaceId: $ws, threadId: $t) { edges { node { threadId id isUnread eaccount } } } }`, { key: org.apiKey, variables: { ws, t: d.threadId } });
    expect(thread.body.data.uniboxEmails.edges).toEqual([{ node: { threadId: d.threadId, id: d.id, isUnread: false, eaccount: 'rep@sender.test' } }]);
    expect(await server.trpc(org.apiKey).unibox.unreadCount.query({ workspace_id: ws })).toEqual({ count: start });
    expect((await server.graphql(`query($ws: ID!) { uniboxUnreadCount(workspaceId: $ws) }`, { key: org.apiKey, variables: { ws } })).body.data.uniboxUnreadCount).toBe(start);

    const missing = await server.rest('POST', `/unibox/threads/${newId()}/mark-as-read`, { key: org.apiKey, body: { workspace_id: ws } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'error', code: 'unibox.thread_not_found' });
    expect(await trpcFailure(() => server.trpc(org.apiKey).unibox.markThreadRead.mutate({ workspace_id: ws, thread_id: newId() }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('replies through SMTP over REST and GraphQL, and answers the daily limit with 429 and Retry-After', async () => {
    const c = await conversation('reply@lead.test');
    const rest = await server.rest('POST', `/unibox/emails/reply?workspace_id=${ws}`, { key: org.apiKey, body: { reply_to_id: c.messageId, body: '<p>Sure!</p>' } });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ status: 'success', id: expect.any(String), thread_id: c.threadId, message_id: `<${rest.body.id}@sender.test>` });
    const sent = smtp.messages.find((m) => m.raw.includes(rest.body.id));
    expect(sent?.to).toEqual(['reply@lead.test']);
    expect(sent?.raw).toContain(`In-Reply-To: <${c.messageId}>`);
    expect(sent?.raw).toContain('Subject: Re: Hello');

    const gql = await server.graphql(
      `mutation($ws: ID!, $r: ID!) { replyToUniboxEmail(workspaceId: $ws, replyToId: $r, body: "<p>Also</p>", attachments: [{ fileName: "a.txt", content: "aGk=" }]) { id messageId threadId email { direction subject headers attachments { fileName size } } } }`,
      { key: org.apiKey, variables: { ws, r: c.id } },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.replyToUniboxEmail).toMatchObject({ threadId: c.threadId, email: { direction: 'OUT', subject: 'Re: Hello', headers: { 'In-Reply-To': `<${c.messageId}>` }, attachments: [{ fileName: 'a.txt', size: 2 }] } });
    expect((await server.db.prisma.uniboxMessage.findUniqueOrThrow({ where: { id: gql.body.data.replyToUniboxEmail.id } })).folder).toBe('INBOX');

    const badTo = await server.rest('POST', '/unibox/emails/send', { key: org.apiKey, body: { workspace_id: ws, from: 'rep@sender.test', to: ['nope'], subject: 's', body: 'b' } });
    expect(badTo.status).toBe(400);
    expect(badTo.body.errors).toEqual([{ field: 'to.0', message: 'must be an email address' }]);

    await server.db.prisma.emailAccount.update({ where: { id: mailboxId }, data: { dailyLimit: 0 } });
    try {
      const limited = await server.rest('POST', '/unibox/emails/send', { key: org.apiKey, body: { workspace_id: ws, from: 'rep@sender.test', to: 'x@else.test', subject: 's', body: 'b' } });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('unibox.daily_limit_reached');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.db.prisma.emailAccount.update({ where: { id: mailboxId }, data: { dailyLimit: 100 } });
    }
  });

  it('saves drafts over tRPC and deletes e-mails and threads over REST and GraphQL', async () => {
    const c = await conversation('delete@lead.test');
    const draft = await server.trpc(org.apiKey).unibox.saveDraft.mutate({ workspace_id: ws, parent_message_id: c.id, from: 'rep@sender.test', body: '<p>later</p>' });
    expect(draft).toMatchObject({ status: 'success', thread_id: c.threadId });
    // Drafts are not listed by the inbox: the answer's e-mail is null; the stored draft is checked.
    const gqlDraft = await server.graphql(`mutation($ws: ID!) { saveUniboxDraft(workspaceId: $ws, from: "rep@sender.test", subject: "Idea") { id email { id } } }`, { key: org.apiKey, variables: { ws } });
    expect(gqlDraft.body.data.saveUniboxDraft).toMatchObject({ email: null });
    expect(await server.db.prisma.uniboxMessage.findUniqueOrThrow({ where: { id: gqlDraft.body.data.saveUniboxDraft.id } })).toMatchObject({ folder: 'DRAFTS', subject: 'Idea' });

    const deleted = await server.rest('DELETE', '/unibox/emails/delete', { key: org.apiKey, body: { workspace_id: ws, message_id: `<${c.messageId}>` } });
    expect([deleted.status, deleted.body]).toEqual([200, { status: 'success' }]);
    const again = await server.rest('DELETE', '/unibox/emails/delete', { key: org.apiKey, body: { workspace_id: ws, message_id: c.messageId } });
    expect([again.status, again.body.code]).toEqual([404, 'unibox.email_not_found']);
    const gql = await server.graphql(`mutation($ws: ID!, $id: ID!) { deleteUniboxEmail(workspaceId: $ws, messageId: $id) }`, { key: org.apiKey, variables: { ws, id: draft.id } });
    expect(gql.body.data.deleteUniboxEmail).toBe(true);
    // Its last e-mail gone, so is the thread.
    expect(await server.db.prisma.uniboxThread.count({ where: { id: c.threadId } })).toBe(0);

    const e = await conversation('delete2@lead.test');
    const thread = await server.rest('DELETE', '/unibox/threads/delete', { key: org.apiKey, body: { workspace_id: ws, thread_id: e.threadId } });
    expect([thread.status, thread.body]).toEqual([200, { status: 'success' }]);
    const gqlMissing = await server.graphql(`mutation($ws: ID!, $t: ID!) { deleteUniboxThread(workspaceId: $ws, threadId: $t) }`, { key: org.apiKey, variables: { ws, t: e.threadId } });
    expect(gqlMissing.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', domain_code: 'unibox.thread_not_found' });
    const wrongMethod = await server.rest('GET', '/unibox/threads/delete', { key: org.apiKey });
    expect(wrongMethod.status).toBe(405);
  });
});
