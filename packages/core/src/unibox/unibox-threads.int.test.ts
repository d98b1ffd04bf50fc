// unibox.threads: the inbox's conversations, latest activity first, with their latest
// e-mail in the shape of unibox.emails, filtered and paged by page_trail, per workspace.
import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestTenant, createTestThread, expectDomainError, useTestDatabase, type TestTenant, type TestThreadMessage } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';

const db = useTestDatabase();
const at = (hour: number) => new Date(Date.UTC(2026, 4, 4, hour));

/** A workspace's inbox: three listed threads, one of drafts only, one in "others". */
async function inbox(t: TestTenant) {
  const email = `rep-${newId().slice(-6)}@sender.test`;
  const mailbox = { email, ...(await createTestMailbox({ ...t.base, email })) };
  const one = await createTestCampaign({ ...t.base, name: 'One' });
  const two = await createTestCampaign({ ...t.base, name: 'Two' });
  const jane = await createTestLead({ ...t.base, campaignId: one.id, email: 'jane@acme.test' });
  const bob = await createTestLead({ ...t.base, campaignId: two.id, email: 'bob@beta.test' });
  const thread = (lead: { id: string } | null, campaignId: string | null, subject: string, messages: TestThreadMessage[]) =>
    createTestThread({ db: db.prisma, workspaceId: t.ws, emailAccountId: mailbox.id, leadId: lead?.id ?? null, campaignId, subject, messages });
  // Jane: our campaign e-mail, her reply (unread, INTERESTED), our answer.
  const janeThread = await thread(jane, one.id, 'Hello', [
    { direction: 'OUT', at: at(10) },
    { direction: 'IN', at: at(11), label: 'INTERESTED' },
    { direction: 'OUT', at: at(12), subject: 'Re: Hello' },
  ]);
  // Bob wrote; read. A draft of ours in the thread is no inbox e-mail.
  const bobThread = await thread(bob, two.id, 'Question', [
    { direction: 'IN', at: at(9), unread: false },
    { direction: 'OUT', at: at(13), folder: 'DRAFTS' },
  ]);
  // A new e-mail to Jane from the unibox: sent only.
  const sentThread = await thread(jane, one.id, 'Follow-up', [{ direction: 'OUT', at: at(8) }]);
  // Not listed: drafts only, and a bounce in "others".
  await thread(jane, one.id, 'Draft', [{ direction: 'OUT', at: at(14), folder: 'DRAFTS' }]);
  await thread(null, null, 'Undeliverable', [{ direction: 'IN', at: at(15), folder: 'OTHERS' }]);
  return { mailbox, one, two, jane, bob, janeThread: janeThread.id, janeLast: janeThread.messageIds[2], bobThread: bobThread.id, sentThread: sentThread.id };
}

const threads = (t: TestTenant, input: Record<string, unknown> = {}) => executeOperation({ op: operations.unibox.threads, ctx: t.ctx, input: { workspace_id: t.ws, ...input } });
const ids = (page: { data: { thread_id: string }[] }) => page.data.map((d) => d.thread_id);

describe('unibox.threads', () => {
  it('lists the conversations, latest activity first, each with its latest e-mail as unibox.emails shows it', async () => {
    const t = await createTestTenant({ db });
    const x = await inbox(t);
    const page = await threads(t);
    expect(ids(page)).toEqual([x.janeThread, x.bobThread, x.sentThread]);
    expect(page.page_trail).toBe('');
    const [jane, bob] = page.data;
    expect(jane).toMatchObject({
      thread_id: x.janeThread, subject: 'Hello', lead: 'jane@acme.test', lead_id: x.jane.id, campaign_id: x.one.id, eaccount: x.mailbox.email,
      last_message_at: at(12).toISOString(), message_count: 3, is_unread: 1, label: 'INTERESTED',
    });
    const emails = await executeOperation({ op: operations.unibox.emails, ctx: t.ctx, input: { workspace_id: t.ws, thread_id: x.janeThread } });
    expect(jane!.last_message).toEqual(emails.data[0]);
    expect(jane!.last_message.id).toBe(x.janeLast);
    // A draft is not counted; 0/1 flags are numbers, as the vendor answers them.
    expect(bob).toMatchObject({ message_count: 1, is_unread: 0, label: '', last_message: { direction: 'IN', is_unread: 0 } });
  });

  it('filters by e-mail type, lead, campaign, label and thread, and leaves bodies out with preview_only', async () => {
    const t = await createTestTenant({ db });
    const x = await inbox(t);
    expect(ids(await threads(t, { email_type: 'received' }))).toEqual([x.janeThread, x.bobThread]);
    expect(ids(await threads(t, { email_type: 'sent' }))).toEqual([x.janeThread, x.sentThread]);
    expect(ids(await threads(t, { lead: ' JANE@acme.test ' }))).toEqual([x.janeThread, x.sentThread]);
    expect(ids(await threads(t, { campaign_id: x.two.id }))).toEqual([x.bobThread]);
    expect(ids(await threads(t, { label: 'INTERESTED' }))).toEqual([x.janeThread]);
    expect(ids(await threads(t, { thread_id: x.sentThread }))).toEqual([x.sentThread]);
    expect(ids(await threads(t, { lead: 'jane@acme.test', email_type: 'received' }))).toEqual([x.janeThread]);
    const preview = await threads(t, { preview_only: 'true' });
    expect(preview.data[0]!.last_message.body).toBeUndefined();
    expect(preview.data[0]!.last_message.content_preview).toContain('Text of');
  });

  it('filters by unread, mailbox and the lead\'s current label; marking unread brings a read thread back', async () => {
    const t = await createTestTenant({ db });
    const x = await inbox(t);
    const otherBox = await createTestMailbox({ ...t.base, email: `other-${newId().slice(-6)}@sender.test` });
    const elsewhere = await createTestThread({ db: db.prisma, workspaceId: t.ws, emailAccountId: otherBox.id, leadId: x.bob.id, campaignId: x.two.id, subject: 'Elsewhere', messages: [{ direction: 'IN', at: at(7) }] });
    expect(ids(await threads(t, { is_unread: true }))).toEqual([x.janeThread, elsewhere.id]);
    expect(ids(await threads(t, { is_unread: 'false' }))).toEqual([x.bobThread, x.sentThread]);
    expect(ids(await threads(t, { email_account_id: otherBox.id }))).toEqual([elsewhere.id]);
    expect(ids(await threads(t, { email_account_id: x.mailbox.id, is_unread: true }))).toEqual([x.janeThread]);
    // The lead's label, not the e-mails': Bob is labelled now, his e-mails are not.
    await executeOperation({ op: operations.lead.updateData, ctx: t.ctx, input: { workspace_id: t.ws, campaign_id: x.two.id, email: 'bob@beta.test', label: 'MEETING_BOOKED' } });
    expect(ids(await threads(t, { lead_label: 'MEETING_BOOKED' }))).toEqual([x.bobThread, elsewhere.id]);
    expect(ids(await threads(t, { label: 'MEETING_BOOKED' }))).toEqual([]);
    await expectDomainError(threads(t, { email_account_id: 'nope' }), 'invalid');

    const unread = () => executeOperation({ op: operations.unibox.unreadCount, ctx: t.ctx, input: { workspace_id: t.ws } });
    const before = (await unread()).count;
    await executeOperation({ op: operations.unibox.markThreadUnread, ctx: t.ctx, input: { workspace_id: t.ws, thread_id: x.bobThread } });
    expect(ids(await threads(t, { is_unread: true }))).toEqual([x.janeThread, x.bobThread, elsewhere.id]);
    expect((await unread()).count).toBe(before + 1);
    await expectDomainError(executeOperation({ op: operations.unibox.markThreadUnread, ctx: t.ctx, input: { workspace_id: t.ws, thread_id: x.sentThread } }), 'precondition_failed');
    await expectDomainError(executeOperation({ op: operations.unibox.markThreadUnread, ctx: t.ctx, input: { workspace_id: t.ws, thread_id: newId() } }), 'not_found');
  });

  it('pages by page_trail without repeating or skipping a thread', async () => {
    const t = await createTestTenant({ db });
    const x = await inbox(t);
    const seen: string[] = [];
    let trail: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await threads(t, { limit: 1, ...(trail ? { page_trail: trail } : {}) });
      seen.push(...ids(page));
      if (!page.page_trail) break;
      trail = page.page_trail;
    }
    expect(seen).toEqual([x.janeThread, x.bobThread, x.sentThread]);
    await expectDomainError(threads(t, { page_trail: 'nope' }), 'invalid');
  });

  it("never lists another workspace's threads, nor filters by another workspace's campaign", async () => {
    const t = await createTestTenant({ db });
    const theirs = await createTestTenant({ db });
    const mine = await inbox(t);
    const foreign = await inbox(theirs);
    expect(ids(await threads(t))).toEqual([mine.janeThread, mine.bobThread, mine.sentThread]);
    expect(ids(await threads(t, { thread_id: foreign.janeThread }))).toEqual([]);
    await expectDomainError(threads(t, { campaign_id: foreign.one.id }), 'invalid');
    await expectDomainError(executeOperation({ op: operations.unibox.threads, ctx: t.ctx, input: { workspace_id: theirs.ws } }), 'forbidden');
  });
});
