// The unified inbox end to end: listing and paging what reply ingestion stores (rows
// written directly here), unread counts, deletes, and sending through a real local SMTP
// server (replies, forwards, new e-mails, drafts) under the mailbox's status and daily limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { z } from 'zod';
import { newId, type Prisma } from '@outreach/db';
import { createSendingFixture, expectDomainError, recordTestSend, startSmtpServer, testCtx, useTestDatabase, type SmtpTestServer } from '../testing/index';
import { executeOperation, type Operation } from '../shared/operation';
import { operations } from '../operations';

const PASSWORDS: Record<string, string> = { 'alice@sender.test': 'alice-pw', 'bob@sender.test': 'bob-pw', 'carol@sender.test': 'carol-pw' };
const START = '2026-03-10T12:00:00.000Z';

const db = useTestDatabase();
let smtp: SmtpTestServer;
beforeAll(async () => {
  smtp = await startSmtpServer({ users: PASSWORDS });
}, 30_000);
const senders: { close(): Promise<void> }[] = [];
afterAll(async () => {
  // Pooled SMTP connections would keep the test server's close waiting.
  await Promise.all(senders.map((s) => s.close()));
  await smtp?.close();
});

const ops = operations.unibox;

async function setup(options: { timezone?: string; mailbox?: { dailyLimit?: number; password?: string } } = {}) {
  const f = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: START });
  senders.push(f.deps.ports.smtp);
  if (options.timezone) await db.prisma.workspace.update({ where: { id: f.ws }, data: { timezone: options.timezone } });
  const ctx = testCtx({ deps: f.deps, actor: f.org.actor });
  const alice = await f.mailbox('alice@sender.test', options.mailbox ?? {});
  const campaign = await f.campaign({ steps: [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }], mailboxes: [alice] });
  const run = <I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>, input: Record<string, unknown> = {}) =>
    executeOperation({ op, ctx, input: { workspace_id: f.ws, ...input } });

  const thread = async (t: { leadId?: string | null; campaignId?: string | null; mailboxId?: string | null; subject?: string; at: string; unread?: boolean }) => {
    const id = newId(Date.parse(t.at));
    await db.prisma.uniboxThread.create({
      data: { id, workspaceId: f.ws, emailAccountId: t.mailboxId === undefined ? alice : t.mailboxId, leadId: t.leadId ?? null, campaignId: t.campaignId ?? null, subject: t.subject ?? '', isUnread: t.unread ?? false, lastMessageAt: new Date(t.at) },
    });
    return id;
  };
  const message = async (m: {
    threadId: string;
    direction: 'IN' | 'OUT';
    at: string;
    folder?: 'INBOX' | 'OTHERS' | 'DRAFTS';
    leadId?: string | null;
    campaignId?: string | null;
    from: string;
    fromName?: string;
    to: string[];
    cc?: string[];
    subject?: string;
    text?: string;
    html?: string;
    unread?: boolean;
    label?: string | null;
    messageId?: string;
    references?: string[];
    sentEmailId?: string | null;
    attachments?: { file_name: string; content_type: string; size: number }[];
    id?: string;
  }) => {
    const id = m.id ?? newId(Date.parse(m.at));
    const messageId = m.messageId ?? `${id}@${m.from.split('@')[1]}`;
    await db.prisma.uniboxMessage.create({
      data: {
        id,
        workspaceId: f.ws,
        threadId: m.threadId,
        emailAccountId: alice,
        leadId: m.leadId ?? null,
        campaignId: m.campaignId ?? null,
        sentEmailId: m.sentEmailId ?? null,
        direction: m.direction,
        folder: m.folder ?? 'INBOX',
        messageId,
        references: m.references ?? [],
        fromAddress: m.from.toLowerCase(),
        fromJson: [{ address: m.from, name: m.fromName ?? '' }],
        toJson: m.to.map((address) => ({ address, name: '' })),
        ccJson: (m.cc ?? []).map((address) => ({ address, name: '' })),
        subject: m.subject ?? 'Hello',
        textBody: m.text ?? '',
        htmlBody: m.html ?? '',
        isUnread: m.unread ?? (m.direction === 'IN'),
        label: m.label ?? null,
        attachments: (m.attachments ?? []) as Prisma.InputJsonValue,
        receivedAt: new Date(m.at),
      },
    });
    return { id, messageId };
  };
  const webhook = async (events = ['UNIBOX_EMAIL_SENT']) => {
    const id = newId();
    await db.prisma.webhook.create({ data: { id, organizationId: f.org.organizationId, workspaceId: f.ws, url: 'https://hooks.example/in', campIds: ['ALL'], eventTypes: events } });
    return id;
  };
  return { ...f, ctx, alice, camp: campaign, run, thread, message, webhook };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** The e-mail the SMTP sink received with this Message-ID, parsed. */
async function delivered(messageId: string): Promise<ParsedMail & { envelope: { from: string | null; to: string[] } }> {
  const bare = messageId.replace(/^<|>$/g, '');
  const found = smtp.messages.find((m) => m.raw.includes(bare));
  expect(found, `message ${bare} at the SMTP sink`).toBeDefined();
  return Object.assign(await simpleParser(found!.raw), { envelope: { from: found!.from, to: found!.to } });
}

/** A workspace with two lead conversations, an "others" e-mail and a draft. */
async function inbox(s: Setup) {
  const jane = await s.lead(s.camp.id, 'Jane@Acme.test');
  const other = await s.campaign({ steps: [{ variations: [{ label: 'A' }] }], mailboxes: [s.alice] });
  const bob = await s.lead(other.id, 'bob@beta.test');
  const send = await recordTestSend({
    db: db.prisma, organizationId: s.org.organizationId, workspaceId: s.ws, campaignId: s.camp.id, leadId: jane, emailAccountId: s.alice,
    step: 1, variationId: s.camp.variations[1]!.A!, variationLabel: 'A', sentAt: new Date('2026-03-01T09:00:00Z'), subject: 'Hello',
  });
  const t1 = await s.thread({ leadId: jane, campaignId: s.camp.id, subject: 'Hello', at: '2026-03-02T10:00:00Z', unread: true });
  const copy = await s.message({ id: send.id, threadId: t1, direction: 'OUT', at: '2026-03-01T09:00:00Z', leadId: jane, campaignId: s.camp.id, from: 'alice@sender.test', to: ['Jane@Acme.test'], html: '<p>Hi</p>', messageId: send.messageId, sentEmailId: send.id });
  const janeReply = await s.message({
    threadId: t1, direction: 'IN', at: '2026-03-02T10:00:00Z', leadId: jane, campaignId: s.camp.id, from: 'jane@acme.test', fromName: 'Jane', to: ['alice@sender.test'], cc: ['boss@acme.test', 'pa@acme.test'],
    subject: 'Re: Hello', text: `Sounds   good.\n\nLet's\ttalk ${'x'.repeat(300)}`, html: '<p>Sounds good.</p>', label: 'INTERESTED', references: [send.messageId],
    attachments: [{ file_name: 'deck.pdf', content_type: 'application/pdf', size: 1234 }],
  });
  const t2 = await s.thread({ leadId: bob, campaignId: other.id, subject: 'Question', at: '2026-03-03T10:00:00Z', unread: true });
  const bobReply = await s.message({ threadId: t2, direction: 'IN', at: '2026-03-03T08:00:00Z', leadId: bob, campaignId: other.id, from: 'bob@beta.test', to: ['alice@sender.test'], subject: 'Question', text: 'Price?' });
  // Same time as bob's reply: the id breaks the tie.
  const bobAgain = await s.message({ threadId: t2, direction: 'IN', at: '2026-03-03T08:00:00Z', leadId: bob, campaignId: other.id, from: 'bob@beta.test', to: ['alice@sender.test'], subject: 'Question', text: 'And terms?', unread: false });
  const ourAnswer = await s.message({ threadId: t2, direction: 'OUT', at: '2026-03-03T10:00:00Z', leadId: bob, campaignId: other.id, from: 'alice@sender.test', to: ['bob@beta.test'], subject: 'Re: Question', html: '<p>10 EUR</p>' });
  const t3 = await s.thread({ subject: 'Win a prize', at: '2026-03-04T10:00:00Z', unread: true });
  const stranger = await s.message({ threadId: t3, direction: 'IN', folder: 'OTHERS', at: '2026-03-04T10:00:00Z', from: 'spam@prize.test', to: ['alice@sender.test'], subject: 'Win a prize', text: 'Click' });
  const draft = await s.message({ threadId: t2, direction: 'OUT', folder: 'DRAFTS', at: '2026-03-05T10:00:00Z', from: 'alice@sender.test', to: ['bob@beta.test'], subject: 'Re: Question', html: '<p>draft</p>' });
  return { jane, bob, other, send, t1, t2, t3, copy, janeReply, bobReply, bobAgain, ourAnswer, stranger, draft };
}

describe('listing the unified inbox', () => {
  it('lists inbox e-mails newest first in the vendor shape, without drafts or "others"', async () => {
    const s = await setup();
    const m = await inbox(s);
    const all = await s.run(ops.emails);
    expect(all.page_trail).toBe('');
    const [bobFirst, bobSecond] = [m.bobReply.id, m.bobAgain.id].sort().reverse();
    expect(all.data.map((e) => e.id)).toEqual([m.ourAnswer.id, bobFirst, bobSecond, m.janeReply.id, m.copy.id]);
    const reply = all.data.find((e) => e.id === m.janeReply.id)!;
    expect(reply).toEqual({
      id: m.janeReply.id,
      message_id: `<${m.janeReply.messageId}>`,
      thread_id: m.t1,
      direction: 'IN',
      is_unread: 1,
      label: 'INTERESTED',
      lead: 'Jane@Acme.test',
      lead_id: m.jane,
      campaign_id: s.camp.id,
      eaccount: 'alice@sender.test',
      from_address_email: 'jane@acme.test',
      from_address_json: [{ address: 'jane@acme.test', name: 'Jane' }],
      to_address_email_list: 'alice@sender.test',
      to_address_json: [{ address: 'alice@sender.test', name: '' }],
      cc_address_email_list: 'boss@acme.test,pa@acme.test',
      cc_address_json: [{ address: 'boss@acme.test', name: '' }, { address: 'pa@acme.test', name: '' }],
      bcc_address_email_list: '',
      bcc_address_json: [],
      subject: 'Re: Hello',
      content_preview: `Sounds good. Let's talk ${'x'.repeat(200 - "Sounds good. Let's talk ".length)}`,
      body: { html: '<p>Sounds good.</p>', text: expect.stringContaining('Sounds   good.') },
      headers: { 'Message-ID': `<${m.janeReply.messageId}>`, References: `<${m.send.messageId}>` },
      attachments: [{ file_name: 'deck.pdf', content_type: 'application/pdf', size: 1234 }],
      timestamp_created: '2026-03-02T10:00:00.000Z',
      source_modified_at: expect.any(String),
    });
    expect(reply.content_preview).toHaveLength(200);
    const copy = all.data.find((e) => e.id === m.copy.id)!;
    expect([copy.direction, copy.content_preview, copy.label]).toEqual(['OUT', 'Hi', '']);
  });

  it('filters by type, lead, campaign, label and thread; preview_only leaves the body out', async () => {
    const s = await setup();
    const m = await inbox(s);
    const ids = async (input: Record<string, unknown>) => (await s.run(ops.emails, input)).data.map((e) => e.id).sort();
    expect(await ids({ email_type: 'received' })).toEqual([m.janeReply.id, m.bobReply.id, m.bobAgain.id].sort());
    expect(await ids({ email_type: 'sent' })).toEqual([m.copy.id, m.ourAnswer.id].sort());
    expect(await ids({ lead: ' JANE@acme.TEST ' })).toEqual([m.copy.id, m.janeReply.id].sort());
    expect(await ids({ lead: 'nobody@acme.test' })).toEqual([]);
    expect(await ids({ campaign_id: m.other.id, email_type: 'received' })).toEqual([m.bobReply.id, m.bobAgain.id].sort());
    expect(await ids({ label: 'INTERESTED' })).toEqual([m.janeReply.id]);
    expect(await ids({ thread_id: m.t2 })).toEqual([m.bobReply.id, m.bobAgain.id, m.ourAnswer.id].sort());
    const preview = await s.run(ops.emails, { preview_only: 'true', thread_id: m.t2, email_type: 'sent' });
    expect(preview.data).toHaveLength(1);
    expect(preview.data[0]!.body).toBeUndefined();
    expect(preview.data[0]!.content_preview).toBe('10 EUR');
    const full = await s.run(ops.emails, { preview_only: 'false', thread_id: m.t2, email_type: 'sent' });
    expect(full.data[0]!.body).toEqual({ html: '<p>10 EUR</p>', text: '' });

    const unknown = await expectDomainError(s.run(ops.emails, { campaign_id: newId() }), 'invalid', 'campaign.not_found');
    expect(unknown.fieldErrors[0]!.field).toBe('campaign_id');
    const badType = await expectDomainError(s.run(ops.emails, { email_type: 'inbox' }), 'invalid');
    expect(badType.fieldErrors[0]).toEqual({ field: 'email_type', message: 'must be all, received or sent' });
  });

  it('pages with page_trail to the end, ties broken by id', async () => {
    const s = await setup();
    const m = await inbox(s);
    const everything = (await s.run(ops.emails)).data.map((e) => e.id);
    const seen: string[] = [];
    let trail = '';
    let pages = 0;
    do {
      const page = await s.run(ops.emails, { limit: '2', ...(trail ? { page_trail: trail } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((e) => e.id));
      trail = page.page_trail;
      pages++;
    } while (trail);
    expect(pages).toBe(3);
    expect(seen).toEqual(everything);
    expect(seen).toHaveLength(5);
    expect(m).toBeDefined();
    const bad = await expectDomainError(s.run(ops.emails, { page_trail: 'garbage' }), 'invalid');
    expect(bad.fieldErrors[0]!.field).toBe('page_trail');
    const none = await expectDomainError(s.run(ops.emails, { limit: 0 }), 'invalid');
    expect(none.fieldErrors[0]).toEqual({ field: 'limit', message: 'must be at least 1' });
    // A limit above 1,000 is read as 1,000: every e-mail on one page.
    expect((await s.run(ops.emails, { limit: 5000 })).data).toHaveLength(5);
  });

  it('lists the "others" folder on its own', async () => {
    const s = await setup();
    const m = await inbox(s);
    const t4 = await s.thread({ at: '2026-03-06T10:00:00Z' });
    const later = await s.message({ threadId: t4, direction: 'IN', folder: 'OTHERS', at: '2026-03-06T10:00:00Z', from: 'x@y.test', to: ['alice@sender.test'], text: 'x' });
    const first = await s.run(ops.otherEmails, { limit: 1 });
    expect(first.data.map((e) => [e.id, e.lead, e.lead_id, e.campaign_id])).toEqual([[later.id, '', '', '']]);
    const second = await s.run(ops.otherEmails, { limit: 1, page_trail: first.page_trail });
    expect(second.data.map((e) => e.id)).toEqual([m.stranger.id]);
    expect(second.page_trail).toBe('');
  });
});

describe('unread count, mark as read, deletes', () => {
  it('counts unread received inbox e-mails and marks a thread read', async () => {
    const s = await setup();
    const m = await inbox(s);
    // jane's reply and bob's first one (bob's second is read; others and OUT do not count).
    expect(await s.run(ops.unreadCount)).toEqual({ count: 2 });
    expect(await s.run(ops.markThreadRead, { thread_id: m.t2 })).toEqual({ status: 'success' });
    expect(await s.run(ops.unreadCount)).toEqual({ count: 1 });
    const thread = await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: m.t2 } });
    expect(thread.isUnread).toBe(false);
    expect((await s.run(ops.emails, { thread_id: m.t2 })).data.every((e) => e.is_unread === 0)).toBe(true);
    await expectDomainError(s.run(ops.markThreadRead, { thread_id: newId() }), 'not_found', 'unibox.thread_not_found');
    const bad = await expectDomainError(s.run(ops.markThreadRead, { thread_id: 'nope' }), 'invalid');
    expect(bad.fieldErrors[0]!.field).toBe('thread_id');
  });

  it('deletes e-mails by Message-ID (with or without brackets) or id, and the thread with its last e-mail', async () => {
    const s = await setup();
    const m = await inbox(s);
    expect(await s.run(ops.deleteEmail, { message_id: `<${m.bobReply.messageId}>` })).toEqual({ status: 'success' });
    await s.run(ops.deleteEmail, { message_id: m.bobAgain.messageId });
    let thread = await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: m.t2 } });
    expect(thread.isUnread).toBe(false);
    await s.run(ops.deleteEmail, { message_id: m.ourAnswer.id });
    // The draft is left: the thread stays until its last e-mail goes.
    thread = await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: m.t2 } });
    expect(thread.lastMessageAt.toISOString()).toBe('2026-03-05T10:00:00.000Z');
    await s.run(ops.deleteEmail, { message_id: m.draft.id });
    expect(await db.prisma.uniboxThread.findUnique({ where: { id: m.t2 } })).toBeNull();
    await expectDomainError(s.run(ops.deleteEmail, { message_id: m.draft.id }), 'not_found', 'unibox.email_not_found');

    expect(await s.run(ops.deleteThread, { thread_id: m.t1 })).toEqual({ status: 'success' });
    expect(await db.prisma.uniboxMessage.count({ where: { threadId: m.t1 } })).toBe(0);
    await expectDomainError(s.run(ops.deleteThread, { thread_id: m.t1 }), 'not_found', 'unibox.thread_not_found');
    // The campaign send itself stays.
    expect(await db.prisma.sentEmail.count({ where: { id: m.send.id } })).toBe(1);
    expect((await s.run(ops.emails)).data).toEqual([]);
  });
});

describe('sending from the unibox', () => {
  it('replies in the thread with threading headers, an attachment, and a UNIBOX_EMAIL_SENT event', async () => {
    const s = await setup();
    const m = await inbox(s);
    const hook = await s.webhook();
    s.clock.at = new Date('2026-03-10T12:30:00Z');
    const content = Buffer.from('hello attachment');
    const out = await s.run(ops.reply, {
      reply_to_id: `<${m.janeReply.messageId}>`,
      body: '<p>Great, <b>Tuesday</b>?</p>',
      cc: 'boss@acme.test',
      attachments: [{ file_name: 'notes.txt', content: content.toString('base64') }],
    });
    expect(out).toEqual({ status: 'success', id: expect.stringMatching(/^[0-9a-f]{24}$/), thread_id: m.t1, message_id: `<${out.id}@sender.test>` });

    const mail = await delivered(out.message_id);
    expect(mail.subject).toBe('Re: Hello');
    expect(mail.messageId).toBe(out.message_id);
    expect(mail.inReplyTo).toBe(`<${m.janeReply.messageId}>`);
    expect([mail.references].flat()).toEqual([`<${m.send.messageId}>`, `<${m.janeReply.messageId}>`]);
    expect(mail.envelope.to.sort()).toEqual(['boss@acme.test', 'jane@acme.test']);
    expect(mail.from?.value[0]).toEqual({ address: 'alice@sender.test', name: 'Alice Sender' });
    expect(mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['notes.txt', 'hello attachment']]);
    expect(mail.text).toContain('Great, Tuesday?');

    const [latest] = (await s.run(ops.emails, { thread_id: m.t1 })).data;
    expect(latest).toMatchObject({
      id: out.id,
      direction: 'OUT',
      is_unread: 0,
      lead_id: m.jane,
      campaign_id: s.camp.id,
      from_address_email: 'alice@sender.test',
      to_address_email_list: 'jane@acme.test',
      cc_address_email_list: 'boss@acme.test',
      subject: 'Re: Hello',
      body: { html: '<p>Great, <b>Tuesday</b>?</p>', text: 'Great, Tuesday?' },
      headers: { 'Message-ID': out.message_id, 'In-Reply-To': `<${m.janeReply.messageId}>`, References: `<${m.send.messageId}> <${m.janeReply.messageId}>` },
      attachments: [{ file_name: 'notes.txt', content_type: 'text/plain', size: content.length }],
      timestamp_created: '2026-03-10T12:30:00.000Z',
    });
    const stored = await db.prisma.uniboxMessage.findUniqueOrThrow({ where: { id: out.id } });
    expect([stored.folder, stored.sentEmailId, stored.emailAccountId]).toEqual(['INBOX', null, s.alice]);
    const thread = await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: m.t1 } });
    expect(thread.lastMessageAt.toISOString()).toBe('2026-03-10T12:30:00.000Z');

    const deliveries = await db.prisma.webhookDelivery.findMany({ where: { webhookId: hook } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.event).toBe('UNIBOX_EMAIL_SENT');
    expect(deliveries[0]!.payload).toMatchObject({
      webhook_event: 'UNIBOX_EMAIL_SENT',
      webhook_id: hook,
      workspace_id: s.ws,
      from_email: 'alice@sender.test',
      to_email: 'jane@acme.test',
      cc: 'boss@acme.test',
      subject: 'Re: Hello',
      body: '<p>Great, <b>Tuesday</b>?</p>',
      thread_id: m.t1,
      message_id: out.message_id.slice(1, -1),
      email_account_id: s.alice,
      last_email_id: out.id,
      lead_id: m.jane,
      email: 'Jane@Acme.test',
      first_name: 'Ada',
      camp_id: s.camp.id,
      sent_date: '2026-03-10T12:30:00.000Z',
    });

    // Answering our own e-mail by its id: to its recipients; a given subject is kept as written.
    const again = await s.run(ops.reply, { reply_to_id: m.ourAnswer.id, subject: 'Re: Question (2)', body: '<p>Reminder</p>' });
    const second = await delivered(again.message_id);
    expect([second.subject, second.envelope.to, second.inReplyTo]).toEqual(['Re: Question (2)', ['bob@beta.test'], `<${m.ourAnswer.messageId}>`]);
  });

  it('forwards an e-mail below a quote naming its attachments, in the same thread', async () => {
    const s = await setup();
    const m = await inbox(s);
    const out = await s.run(ops.forward, { reply_to_id: m.janeReply.id, to: ['partner@else.test'], body: '<p>FYI</p>' });
    const mail = await delivered(out.message_id);
    expect(mail.subject).toBe('Fwd: Re: Hello');
    expect(mail.envelope.to).toEqual(['partner@else.test']);
    expect(mail.attachments).toEqual([]);
    expect(mail.html).toContain('<p>FYI</p>');
    expect(mail.html).toContain('Forwarded message');
    expect(mail.html).toContain('<p>Sounds good.</p>');
    expect(mail.html).toContain('deck.pdf');
    expect(mail.html).toContain('Jane &lt;jane@acme.test&gt;');
    expect(mail.inReplyTo).toBeUndefined();
    expect(out.thread_id).toBe(m.t1);
    const stored = await db.prisma.uniboxMessage.findUniqueOrThrow({ where: { id: out.id } });
    expect([stored.direction, stored.leadId, stored.attachments]).toEqual(['OUT', m.jane, []]);
  });

  it('composes to a lead: a new thread that starts with its campaign e-mails, then its existing thread', async () => {
    const s = await setup();
    const lead = await s.lead(s.camp.id, 'new@lead.test');
    const send = await recordTestSend({
      db: db.prisma, organizationId: s.org.organizationId, workspaceId: s.ws, campaignId: s.camp.id, leadId: lead, emailAccountId: s.alice,
      step: 1, variationId: s.camp.variations[1]!.A!, variationLabel: 'A', sentAt: new Date('2026-03-09T09:00:00Z'),
    });
    await db.prisma.lead.update({ where: { id: lead }, data: { emailAccountId: s.alice } });
    const first = await s.run(ops.compose, { lead_id: lead, camp_id: s.camp.id, subject: 'A thought', body: '<p>Hi again</p>' });
    const mail = await delivered(first.message_id);
    expect([mail.subject, mail.envelope.to, mail.from?.value[0]?.address]).toEqual(['A thought', ['new@lead.test'], 'alice@sender.test']);
    const thread = await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: first.thread_id } });
    expect([thread.leadId, thread.campaignId, thread.emailAccountId, thread.subject]).toEqual([lead, s.camp.id, s.alice, 'A thought']);
    const listed = (await s.run(ops.emails, { thread_id: first.thread_id })).data;
    expect(listed.map((e) => e.id)).toEqual([first.id, send.id]);
    const second = await s.run(ops.compose, { lead_id: lead, subject: 'Follow-up', body: '<p>Still there?</p>', from: 'ALICE@sender.test' });
    expect(second.thread_id).toBe(first.thread_id);

    await expectDomainError(s.run(ops.compose, { lead_id: newId(), subject: 'x', body: 'x' }), 'not_found', 'lead.not_found');
    const other = await s.campaign({ steps: [{ variations: [{ label: 'A' }] }], mailboxes: [s.alice] });
    const wrong = await expectDomainError(s.run(ops.compose, { lead_id: lead, camp_id: other.id, subject: 'x', body: 'x' }), 'invalid');
    expect(wrong.fieldErrors[0]!.field).toBe('camp_id');
  });

  it('sends to any address in a new thread, linked to a lead when the recipient is one', async () => {
    const s = await setup();
    const lead = await s.lead(s.camp.id, 'Known@Lead.test');
    const out = await s.run(ops.send, { from: 'alice@sender.test', to: 'someone@else.test; other@else.test', subject: 'Intro', body: '<p>Hello</p>', bcc: ['audit@sender.test'] });
    const mail = await delivered(out.message_id);
    expect(mail.envelope.to.sort()).toEqual(['audit@sender.test', 'other@else.test', 'someone@else.test']);
    const [listed] = (await s.run(ops.emails, { thread_id: out.thread_id })).data;
    expect(listed).toMatchObject({ to_address_email_list: 'someone@else.test,other@else.test', bcc_address_email_list: 'audit@sender.test', lead_id: '', campaign_id: '' });
    const linked = await s.run(ops.send, { from: 'alice@sender.test', to: 'known@lead.test', subject: 'Hi', body: '<p>Hi</p>' });
    expect(linked.thread_id).not.toBe(out.thread_id);
    const [asLead] = (await s.run(ops.emails, { lead: 'known@lead.test' })).data;
    expect([asLead?.id, asLead?.lead_id, asLead?.campaign_id]).toEqual([linked.id, lead, s.camp.id]);
  });

  it('keeps an e-mail whose mailbox was deleted while it was on its way, in the unified inbox without the mailbox', async () => {
    const s = await setup();
    const lead = await s.lead(s.camp.id, 'known@lead.test');
    smtp.beforeAnswer = async ({ phase }) => {
      if (phase !== 'body') return;
      smtp.beforeAnswer = null;
      await db.prisma.emailAccount.delete({ where: { id: s.alice } });
    };
    const out = await s.run(ops.send, { from: 'alice@sender.test', to: 'known@lead.test', subject: 'Last one', body: '<p>Hello</p>' });
    expect(smtp.beforeAnswer).toBeNull();
    await delivered(out.message_id);
    expect(out.thread_id).toMatch(/^[0-9a-f]{24}$/);
    const [listed] = (await s.run(ops.emails, { thread_id: out.thread_id })).data;
    expect(listed).toMatchObject({ id: out.id, subject: 'Last one', lead_id: lead, campaign_id: s.camp.id });
    expect(await db.prisma.uniboxMessage.findUnique({ where: { id: out.id }, select: { emailAccountId: true } })).toEqual({ emailAccountId: null });
  });

  it('saves drafts without sending them: not listed, not counted, answering their parent', async () => {
    const s = await setup();
    const m = await inbox(s);
    const before = smtp.messages.length;
    const draft = await s.run(ops.saveDraft, { parent_message_id: `<${m.janeReply.messageId}>`, from: 'alice@sender.test', body: '<p>Maybe</p>' });
    expect(draft).toMatchObject({ status: 'success', thread_id: m.t1 });
    const stored = await db.prisma.uniboxMessage.findUniqueOrThrow({ where: { id: draft.id } });
    expect([stored.folder, stored.direction, stored.subject, stored.inReplyTo, stored.references]).toEqual(['DRAFTS', 'OUT', 'Re: Hello', m.janeReply.messageId, [m.send.messageId, m.janeReply.messageId]]);
    expect(stored.toJson).toEqual([{ address: 'jane@acme.test', name: '' }]);
    const lone = await s.run(ops.saveDraft, { from: 'alice@sender.test', subject: 'Idea', body: '<p>later</p>', to: 'x@y.test' });
    expect(lone.thread_id).not.toBe(m.t1);
    expect(smtp.messages.length).toBe(before);
    expect((await s.run(ops.emails)).data.map((e) => e.id)).not.toContain(draft.id);
    const thread = await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: m.t1 } });
    expect(thread.lastMessageAt.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    const bad = await expectDomainError(s.run(ops.saveDraft, { from: 'nobody@sender.test' }), 'invalid', 'unibox.unknown_mailbox');
    expect(bad.fieldErrors[0]!.field).toBe('from');
  });

  it('stops at the daily limit: campaign, warmup and unibox sends since midnight in the workspace zone', async () => {
    const s = await setup({ timezone: 'America/New_York', mailbox: { dailyLimit: 3 } });
    const lead = await s.lead(s.camp.id, 'limit@lead.test');
    const sendAt = (at: string) =>
      recordTestSend({ db: db.prisma, organizationId: s.org.organizationId, workspaceId: s.ws, campaignId: s.camp.id, leadId: lead, emailAccountId: s.alice, step: 1, variationId: s.camp.variations[1]!.A!, variationLabel: 'A', sentAt: new Date(at) });
    // 23:00 on the 9th in New York (04:00 UTC on the 10th is its midnight): yesterday.
    await sendAt('2026-03-10T03:00:00Z');
    // A warmup e-mail this morning counts as the sending engine counts it.
    const peer = await s.mailbox('peer@sender.test');
    const warmupId = newId();
    await db.prisma.warmupMessage.create({
      data: {
        id: warmupId,
        organizationId: s.org.organizationId,
        workspaceId: s.ws,
        senderAccountId: s.alice,
        recipientAccountId: peer,
        code: `code-${warmupId}`,
        messageId: `${warmupId}@sender.test`,
        threadId: `${warmupId}@sender.test`,
        subject: 'warmup',
        sentAt: new Date('2026-03-10T05:00:00Z'),
      },
    });
    const counted = await sendAt('2026-03-10T11:00:00Z');
    // A campaign send's copy in a thread, and a draft, do not count again.
    const t = await s.thread({ leadId: lead, at: '2026-03-10T11:00:00Z' });
    await s.message({ id: counted.id, threadId: t, direction: 'OUT', at: '2026-03-10T11:00:00Z', from: 'alice@sender.test', to: ['limit@lead.test'], messageId: counted.messageId, sentEmailId: counted.id });
    await s.run(ops.saveDraft, { from: 'alice@sender.test', subject: 'draft' });

    // Two sends at once for the last one left: exactly one goes out.
    const raced = await Promise.allSettled([
      s.run(ops.send, { from: 'alice@sender.test', to: 'a@else.test', subject: 'one', body: 'one' }),
      s.run(ops.send, { from: 'alice@sender.test', to: 'a2@else.test', subject: 'one too', body: 'one too' }),
    ]);
    expect(raced.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const sentOne = (raced.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ thread_id: string }>).value;
    // Deleting what was sent gives no send back.
    await s.run(ops.deleteThread, { thread_id: sentOne.thread_id });
    const before = smtp.messages.length;
    const limited = await expectDomainError(s.run(ops.send, { from: 'alice@sender.test', to: 'b@else.test', subject: 'two', body: 'two' }), 'rate_limited', 'unibox.daily_limit_reached');
    // Until midnight in New York: 04:00 UTC on the 11th.
    expect(limited.retryAfter).toBe((Date.parse('2026-03-11T04:00:00Z') - Date.parse(START)) / 1000);
    expect(smtp.messages.length).toBe(before);
    // The next day in New York, it may send again.
    s.clock.at = new Date('2026-03-11T04:00:00Z');
    await s.run(ops.send, { from: 'alice@sender.test', to: 'b@else.test', subject: 'two', body: 'two' });
  });

  it('refuses disconnected and paused mailboxes, and maps SMTP refusals without recording anything', async () => {
    const s = await setup();
    const carol = await s.mailbox('carol@sender.test', { password: 'wrong-password' });
    const before = smtp.messages.length;
    const count = () => db.prisma.uniboxMessage.count({ where: { workspaceId: s.ws } });

    const refused = await expectDomainError(s.run(ops.send, { from: 'carol@sender.test', to: 'x@else.test', subject: 's', body: 'b' }), 'precondition_failed', 'unibox.mailbox_disconnected');
    expect(refused.message).toContain('could not log in');
    // The mailbox is left as it is.
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: carol } })).status).toBe('ACTIVE');

    await db.prisma.emailAccount.update({ where: { id: s.alice }, data: { status: 'DISCONNECTED' } });
    await expectDomainError(s.run(ops.send, { from: 'alice@sender.test', to: 'x@else.test', subject: 's', body: 'b' }), 'precondition_failed', 'unibox.mailbox_disconnected');
    await db.prisma.emailAccount.update({ where: { id: s.alice }, data: { status: 'PAUSED' } });
    await expectDomainError(s.run(ops.send, { from: 'alice@sender.test', to: 'x@else.test', subject: 's', body: 'b' }), 'precondition_failed', 'unibox.mailbox_not_active');
    await db.prisma.emailAccount.update({ where: { id: s.alice }, data: { status: 'ACTIVE' } });

    smtp.rejections.set('gone@else.test', { code: 550, message: '5.1.1 No such user', times: 1 });
    const rejected = await expectDomainError(s.run(ops.send, { from: 'alice@sender.test', to: 'gone@else.test', subject: 's', body: 'b' }), 'precondition_failed', 'unibox.send_failed');
    expect(rejected.message).toContain('550');
    expect(rejected.message).toContain('No such user');
    expect(smtp.messages.length).toBe(before);
    expect(await count()).toBe(0);
  });

  it('validates fields by name', async () => {
    const s = await setup();
    const m = await inbox(s);
    const to = await expectDomainError(s.run(ops.send, { from: 'alice@sender.test', to: ['ok@else.test', 'not-an-address'], subject: 's', body: 'b' }), 'invalid');
    expect(to.fieldErrors[0]).toEqual({ field: 'to.1', message: 'must be an email address' });
    const missing = await expectDomainError(s.run(ops.send, { from: 'alice@sender.test', subject: 's', body: 'b' }), 'invalid');
    expect(missing.fieldErrors[0]!.field).toBe('to');
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 1).toString('base64');
    const tooBig = await expectDomainError(s.run(ops.reply, { reply_to_id: m.janeReply.id, body: 'b', attachments: [{ file_name: 'big.bin', content: big }] }), 'invalid', 'unibox.attachments_too_large');
    expect(tooBig.fieldErrors[0]!.field).toBe('attachments');
    const notBase64 = await expectDomainError(s.run(ops.reply, { reply_to_id: m.janeReply.id, body: 'b', attachments: [{ file_name: 'x', content: '***' }] }), 'invalid');
    expect(notBase64.fieldErrors[0]!.field).toBe('attachments.0.content');
    await expectDomainError(s.run(ops.reply, { reply_to_id: '<unknown@nowhere.test>', body: 'b' }), 'not_found', 'unibox.email_not_found');
    // A draft is not something to answer.
    await expectDomainError(s.run(ops.reply, { reply_to_id: m.draft.id, body: 'b' }), 'not_found', 'unibox.email_not_found');
  });
});

describe('tenancy', () => {
  it("another workspace's threads, e-mails and mailboxes are out of reach", async () => {
    const mine = await setup();
    const theirs = await setup();
    const m = await inbox(theirs);
    await expectDomainError(mine.run(ops.markThreadRead, { thread_id: m.t1 }), 'not_found', 'unibox.thread_not_found');
    await expectDomainError(mine.run(ops.deleteThread, { thread_id: m.t1 }), 'not_found', 'unibox.thread_not_found');
    await expectDomainError(mine.run(ops.deleteEmail, { message_id: m.janeReply.messageId }), 'not_found', 'unibox.email_not_found');
    await expectDomainError(mine.run(ops.reply, { reply_to_id: m.janeReply.id, body: 'b' }), 'not_found', 'unibox.email_not_found');
    await expectDomainError(mine.run(ops.compose, { lead_id: m.jane, subject: 's', body: 'b' }), 'not_found', 'lead.not_found');
    expect((await mine.run(ops.emails, { thread_id: m.t1 })).data).toEqual([]);
    expect(await mine.run(ops.unreadCount)).toEqual({ count: 0 });
    // Their mailbox is not ours to send from.
    await db.prisma.emailAccount.update({ where: { id: mine.alice }, data: { email: 'mine@sender.test', emailNormalized: 'mine@sender.test' } });
    const from = await expectDomainError(mine.run(ops.send, { from: 'alice@sender.test', to: 'x@else.test', subject: 's', body: 'b' }), 'invalid', 'unibox.unknown_mailbox');
    expect(from.fieldErrors[0]!.field).toBe('from');
    // Their workspace itself is forbidden.
    await expectDomainError(executeOperation({ op: ops.emails, ctx: mine.ctx, input: { workspace_id: theirs.ws } }), 'forbidden');
    expect(await db.prisma.uniboxThread.count({ where: { id: m.t1 } })).toBe(1);
  });

  it('a client key that may only list campaigns reads the inbox but neither sends nor deletes', async () => {
    const s = await setup();
    const m = await inbox(s);
    const readOnly = testCtx({ deps: s.deps, actor: { ...s.org.actor, clientGrants: { [s.ws]: { permissions: ['CAMPAIGN_LIST'], hideLabels: [] } } } });
    const as = (op: Operation<z.ZodType, z.ZodType>, input: Record<string, unknown>) => executeOperation({ op, ctx: readOnly, input: { workspace_id: s.ws, ...input } });
    expect((await executeOperation({ op: ops.emails, ctx: readOnly, input: { workspace_id: s.ws } })).data.length).toBeGreaterThan(0);
    await as(ops.markThreadRead, { thread_id: m.t1 });
    await expectDomainError(as(ops.reply, { reply_to_id: m.janeReply.id, body: 'b' }), 'forbidden');
    await expectDomainError(as(ops.send, { from: 'alice@sender.test', to: 'x@else.test', subject: 's', body: 'b' }), 'forbidden');
    await expectDomainError(as(ops.deleteThread, { thread_id: m.t1 }), 'forbidden');
    expect(await db.prisma.uniboxThread.count({ where: { id: m.t1 } })).toBe(1);
  });
});
