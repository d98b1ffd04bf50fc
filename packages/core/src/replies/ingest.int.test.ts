// Reply ingestion end to end: campaigns really send through a local SMTP server, then
// what comes back (replies, out-of-office, bounces, strangers, colleagues) is ingested,
// and the leads, statistics, unified inbox, subsequences and webhook outbox are checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImapFlow } from 'imapflow';
import { newId, type Database } from '@outreach/db';
import { createSendingFixture, rawMail as raw, startSmtpServer, testDatabase, testCtx, type SmtpTestServer } from '../testing/index';
import { imapServerUnavailable, startImapServer, type ImapTestServer } from '../testing/imap-server';
import { executeOperation } from '../shared/operation';
import { leadOperations } from '../lead/index';
import { uniboxOperations } from '../unibox/index';
import { createMailboxReader } from '../shared/mailbox-reader';
import { stubMailboxReader } from '../testing/mailbox-reader-stub';
import { ingestMessage } from './ingest.service';
import { syncMailbox } from './mailbox-sync.service';
import { startReplyWorker } from './reply-worker.service';

const PASSWORDS: Record<string, string> = { 'alice@sender.test': 'alice-pw', 'bob@sender.test': 'bob-pw' };
const MINUTE = 60_000;
const DAY = 86_400_000;
const missingImap = imapServerUnavailable();

let db: Database;
let smtp: SmtpTestServer;
let imap: ImapTestServer | undefined;
beforeAll(async () => {
  db = await testDatabase();
  smtp = await startSmtpServer({ users: PASSWORDS });
  if (!missingImap) imap = await startImapServer({ users: PASSWORDS });
}, 30_000);
afterAll(async () => {
  await smtp?.close();
  await imap?.close();
});

function dsn(options: { from: string; to: string; originalMessageId: string; recipient: string }): Buffer {
  const b = 'dsn-boundary-1';
  return Buffer.from(
    [
      'From: MAILER-DAEMON@mx.lead.test (Mail Delivery System)',
      `To: ${options.to}`,
      'Subject: Undelivered Mail Returned to Sender',
      `Message-ID: <dsn-${newId()}@mx.lead.test>`,
      'Date: Mon, 23 Nov 2026 10:01:00 +0000',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=delivery-status; boundary="${b}"`,
      '',
      `--${b}`,
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'I\'m sorry to have to inform you that your message could not be delivered.',
      '',
      `--${b}`,
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.lead.test',
      '',
      `Final-Recipient: rfc822; ${options.recipient}`,
      'Action: failed',
      'Status: 5.1.1',
      `Diagnostic-Code: smtp; 550 5.1.1 <${options.recipient}>: Recipient address rejected: User unknown`,
      '',
      `--${b}`,
      'Content-Type: text/rfc822-headers',
      '',
      `From: ${options.from}`,
      `To: ${options.recipient}`,
      `Message-ID: <${options.originalMessageId}>`,
      'Subject: Hello',
      '',
      `--${b}--`,
      '',
    ].join('\r\n'),
  );
}

async function setup() {
  const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
  const alice = await t.mailbox('alice@sender.test', { imapPort: imap?.port ?? 1 });
  const mailbox = { id: alice, workspaceId: t.ws, organizationId: t.org.organizationId, email: 'alice@sender.test' };
  const hook = async (events: string[], extra: { ignoreOoo?: boolean } = {}) => {
    const id = newId();
    await db.prisma.webhook.create({
      data: { id, organizationId: t.org.organizationId, workspaceId: t.ws, url: 'http://127.0.0.1:9/hook', campIds: ['ALL'], eventTypes: events, ignoreOoo: extra.ignoreOoo ?? false },
    });
    return id;
  };
  const queued = async (webhookId: string) =>
    (await db.prisma.webhookDelivery.findMany({ where: { webhookId }, orderBy: { createdAt: 'asc' } })).map((d) => ({ event: d.event, payload: d.payload as Record<string, unknown> }));
  return { ...t, alice, mailbox, hook, queued };
}

const TWO_STEPS = [
  { variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>Hi</p>' }] },
  { waitTime: 1, variations: [{ label: 'A', subject: '', body: '<p>Following up</p>' }] },
];

describe('replies', () => {
  it('a reply stops the sequence, counts once, lands in the inbox thread and queues the reply events', async () => {
    const t = await setup();
    const hook = await t.hook(['FIRST_EMAIL_REPLIES', 'ALL_EMAIL_REPLIES', 'ALL_POSITIVE_REPLIES']);
    const c = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const leadId = await t.lead(c.id, 'ann@lead.test', { firstName: 'Ann' });
    await t.tick();
    const sent = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });

    t.clock.advance(30 * MINUTE);
    const reply = raw({ from: 'Ann <ann@lead.test>', to: 'alice@sender.test', subject: 'Re: Hello Ann', messageId: `r1-${newId()}@lead.test`, inReplyTo: sent.messageId, text: 'Sounds interesting, tell me more.\n\nOn Mon, Alice wrote:\n> Hi' });
    const stored = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: reply });
    expect(stored).toMatchObject({ status: 'stored', kind: 'reply', matched: true, leadId });
    expect(await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: reply })).toMatchObject({ status: 'duplicate' });

    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect([lead.status, lead.nextSendAt, lead.isCompleted]).toEqual(['REPLIED', null, true]);
    expect((await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sent.id } })).repliedAt).toEqual(t.clock.now());
    expect(await db.prisma.emailEvent.count({ where: { sentEmailId: sent.id, type: 'REPLY' } })).toBe(1);

    // The thread holds our e-mail and the reply, in order.
    const thread = await db.prisma.uniboxThread.findFirstOrThrow({ where: { leadId }, include: { messages: { orderBy: { receivedAt: 'asc' } } } });
    expect(thread.messages.map((m) => [m.direction, m.folder, m.classification ?? null])).toEqual([
      ['OUT', 'INBOX', null],
      ['IN', 'INBOX', 'REPLY'],
    ]);
    expect(thread.isUnread).toBe(true);

    // The follow-up never goes out.
    t.clock.advance(2 * DAY);
    await t.runUntil(new Date(t.clock.now().getTime() + 8 * 3_600_000).toISOString(), 30 * MINUTE);
    expect(await db.prisma.sentEmail.count({ where: { leadId } })).toBe(1);

    const events = await t.queued(hook);
    expect(events.map((e) => e.event)).toEqual(['FIRST_EMAIL_REPLIES', 'ALL_EMAIL_REPLIES']);
    expect(events[0]!.payload).toMatchObject({ webhook_event: 'FIRST_EMAIL_REPLIES', from_email: 'ann@lead.test', first_name: 'Ann', camp_id: c.id, subject: 'Re: Hello Ann', thread_id: thread.id });

    // A second reply is ALL_EMAIL_REPLIES only; once labelled positive, ALL_POSITIVE_REPLIES too.
    await db.prisma.lead.update({ where: { id: leadId }, data: { label: 'INTERESTED' } });
    await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'ann@lead.test', to: 'alice@sender.test', subject: 'Re: Hello Ann', messageId: `r2-${newId()}@lead.test`, references: `<${sent.messageId}>`, text: 'Any news?' }) });
    expect((await t.queued(hook)).map((e) => e.event)).toEqual(['FIRST_EMAIL_REPLIES', 'ALL_EMAIL_REPLIES', 'ALL_EMAIL_REPLIES', 'ALL_POSITIVE_REPLIES']);
  });

  it('an out-of-office reply is labelled, not counted, and the sequence goes on', async () => {
    const t = await setup();
    const ignoring = await t.hook(['ALL_EMAIL_REPLIES'], { ignoreOoo: true });
    const all = await t.hook(['ALL_EMAIL_REPLIES', 'LEAD_MARKED_AS_OUT_OF_OFFICE']);
    const c = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const leadId = await t.lead(c.id, 'olaf@lead.test');
    await t.tick();
    const sent = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });
    await ingestMessage({
      deps: t.deps,
      mailbox: t.mailbox,
      raw: raw({ from: 'olaf@lead.test', to: 'alice@sender.test', subject: 'Automatic reply: Hello Ada', messageId: `ooo-${newId()}@lead.test`, inReplyTo: sent.messageId, headers: { 'Auto-Submitted': 'auto-replied' }, text: 'I am out of the office until Monday.' }),
    });
    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect([lead.status, lead.label]).toEqual(['CONTACTED', 'OUT_OF_OFFICE']);
    expect((await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sent.id } })).repliedAt).toBeNull();
    expect(await db.prisma.uniboxMessage.findFirstOrThrow({ where: { leadId, direction: 'IN' } })).toMatchObject({ classification: 'OUT_OF_OFFICE', label: 'OUT_OF_OFFICE' });
    expect(await t.queued(ignoring)).toEqual([]);
    expect((await t.queued(all)).map((e) => e.event).sort()).toEqual(['ALL_EMAIL_REPLIES', 'LEAD_MARKED_AS_OUT_OF_OFFICE']);

    t.clock.advance(DAY + MINUTE);
    await t.tick();
    expect(await db.prisma.sentEmail.count({ where: { leadId } })).toBe(2);
  });

  it('a delivery status notification bounces the lead it names; strangers go to "others"; a colleague is linked to the lead', async () => {
    const t = await setup();
    const c = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const gone = await t.lead(c.id, 'gone@corp.test');
    const boss = await t.lead(c.id, 'boss@bigcorp.test');
    await t.tick();
    t.clock.advance(2 * MINUTE);
    await t.tick();
    const goneSend = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId: gone } });

    const bounced = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: dsn({ from: 'alice@sender.test', to: 'alice@sender.test', originalMessageId: goneSend.messageId, recipient: 'gone@corp.test' }) });
    expect(bounced).toMatchObject({ status: 'stored', kind: 'bounce', leadId: gone });
    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: gone } });
    expect([lead.status, lead.nextSendAt]).toEqual(['BOUNCED', null]);
    expect(lead.bounceMessage).toContain('User unknown');
    expect((await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: goneSend.id } })).bouncedAt).not.toBeNull();

    const stranger = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'news@random.test', to: 'alice@sender.test', subject: 'Our newsletter', messageId: `n-${newId()}@random.test`, text: 'Hello' }) });
    expect(stranger).toMatchObject({ status: 'stored', matched: false });
    expect((await db.prisma.uniboxMessage.findFirstOrThrow({ where: { fromAddress: 'news@random.test', workspaceId: t.ws } })).folder).toBe('OTHERS');

    const colleague = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'assistant@bigcorp.test', to: 'alice@sender.test', subject: 'Re: Hello', messageId: `c-${newId()}@bigcorp.test`, text: 'I handle this for my boss. Call me.' }) });
    expect(colleague).toMatchObject({ status: 'stored', kind: 'reply', leadId: boss });
    expect(await db.prisma.uniboxMessage.findFirstOrThrow({ where: { workspaceId: t.ws, fromAddress: 'assistant@bigcorp.test' } })).toMatchObject({ fromOtherAddress: true, folder: 'INBOX', leadId: boss });
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: boss } })).status).toBe('REPLIED');

    // A sender's domain is compared as it is, not as a pattern ("_" is not a wildcard).
    const lookalike = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'spam@bigcorp_test', to: 'alice@sender.test', subject: 'Re: Hello', messageId: `l-${newId()}@x.test`, text: 'Hi' }) });
    expect(lookalike).toMatchObject({ status: 'stored', matched: false });
  });

  it('keeps a message it cannot read, raw with the error, in "others", once', async () => {
    const t = await setup();
    // No header fields at all, and a NUL byte that a PostgreSQL text column refuses.
    const garbage = Buffer.concat([Buffer.from('\x00\x01binary junk with no headers '), Buffer.from(newId())]);
    const first = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: garbage });
    expect(first).toMatchObject({ status: 'stored', kind: 'unparsed', matched: false });
    const kept = await db.prisma.uniboxMessage.findFirstOrThrow({ where: { workspaceId: t.ws, classification: 'UNPARSED', raw: { contains: 'binary junk' } } });
    expect(kept.folder).toBe('OTHERS');
    expect(kept.parseError).toMatch(/unreadable message/);
    expect(kept.raw).toContain(garbage.subarray(2).toString('utf8'));
    expect(await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: garbage })).toMatchObject({ status: 'duplicate' });

    // A readable message with a NUL in its body is stored too, the NUL shown as U+FFFD.
    const nulBody = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'odd@random.test', to: 'alice@sender.test', subject: 'Odd', messageId: `z-${newId()}@random.test`, text: 'before\x00after' }) });
    expect(nulBody).toMatchObject({ status: 'stored' });
    expect((await db.prisma.uniboxMessage.findFirstOrThrow({ where: { workspaceId: t.ws, fromAddress: 'odd@random.test' } })).textBody).toContain('before\uFFFDafter');
  });

  it('a message whose ingestion keeps failing is kept aside raw and the mailbox reads on; a failing database stops the round without skipping anything', async () => {
    const t = await setup();
    const c = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const leadId = await t.lead(c.id, 'after@lead.test');
    await t.tick();
    const sent = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });
    const poison = raw({ from: 'poison@random.test', to: 'alice@sender.test', subject: 'Poison', messageId: `p-${newId()}@random.test`, text: 'x' });
    const reply = raw({ from: 'after@lead.test', to: 'alice@sender.test', subject: 'Re: Hello', messageId: `a-${newId()}@lead.test`, inReplyTo: sent.messageId, text: 'Yes.' });
    // IMAP UIDs are 32-bit unsigned: above the range of a 32-bit signed column.
    const uids = [3_000_000_001n, 3_000_000_002n];
    const reader = stubMailboxReader(async ({ lastUid }) => ({
      uidValidity: 7n,
      reset: false,
      messages: [poison, reply].map((m, i) => ({ uid: uids[i]!, raw: m, internalDate: t.clock.now() })).filter((m) => m.uid > lastUid),
    }));
    // The database refuses this mailbox's transactions on demand (the poison message: twice).
    let refuse = 0;
    const flaky = new Proxy(db.prisma, {
      get(target, prop, receiver) {
        if (prop === '$transaction' && refuse > 0) {
          refuse -= 1;
          return async () => {
            throw new Error('injected failure');
          };
        }
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const deps = { ...t.deps, db: flaky, ports: { ...t.deps.ports, imap: reader } };

    // Everything fails: nothing is recorded as read, and the round ends (no immediate retry).
    refuse = 3;
    const down = await syncMailbox({ deps, mailboxId: t.alice });
    expect([down.status, down.more, down.stored]).toEqual(['ok', false, 0]);
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: t.alice } })).imapLastUid).toBe(0n);

    // The poison fails twice, then is kept raw with the error; the reply after it goes in as usual.
    refuse = 2;
    const round = await syncMailbox({ deps, mailboxId: t.alice });
    expect([round.status, round.read, round.stored, round.more]).toEqual(['ok', 2, 2, false]);
    const kept = await db.prisma.uniboxMessage.findFirstOrThrow({ where: { workspaceId: t.ws, classification: 'UNPARSED', imapUid: uids[0] } });
    expect([kept.folder, kept.parseError]).toEqual(['OTHERS', 'ingestion failed: injected failure']);
    expect(kept.raw).toContain('Poison');
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).status).toBe('REPLIED');
    expect((await db.prisma.uniboxMessage.findFirstOrThrow({ where: { leadId, direction: 'IN' } })).imapUid).toBe(uids[1]);
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: t.alice } })).imapLastUid).toBe(uids[1]);
  });
});

describe('subsequence enrolment', () => {
  it('enrols on reply content and on a label change, once each, continuing in the same thread from the same mailbox', async () => {
    const t = await setup();
    const parent = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const pricing = await t.campaign({ mailboxes: [t.alice], parentId: parent.id, settings: { firstWaitTime: 1 }, steps: [{ variations: [{ label: 'A', subject: '', body: '<p>Here is our pricing.</p>' }] }] });
    const interested = await t.campaign({ mailboxes: [t.alice], parentId: parent.id, steps: [{ variations: [{ label: 'A', subject: '', body: '<p>Great, let us talk.</p>' }] }] });
    await db.prisma.subsequenceTrigger.createMany({
      data: [
        { id: newId(), workspaceId: t.ws, subsequenceId: pricing.id, parentCampaignId: parent.id, position: 0, event: 'LEAD_REPLY_CONTENT', labels: [], includeText: ['pricing', 'price list'], excludeText: ['not interested'] },
        { id: newId(), workspaceId: t.ws, subsequenceId: interested.id, parentCampaignId: parent.id, position: 0, event: 'LEAD_LABEL_UPDATED', labels: ['INTERESTED'], includeText: [], excludeText: [] },
      ],
    });
    const asker = await t.lead(parent.id, 'asker@lead.test');
    const refuser = await t.lead(parent.id, 'refuser@lead.test');
    const fan = await t.lead(parent.id, 'fan@lead.test');
    for (let i = 0; i < 3; i++) {
      await t.tick();
      t.clock.advance(2 * MINUTE);
    }
    const sendOf = async (leadId: string) => db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });

    await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'asker@lead.test', to: 'alice@sender.test', subject: 'Re: Hello Ada', messageId: `a-${newId()}@lead.test`, inReplyTo: (await sendOf(asker)).messageId, text: 'Could you send me your PRICING?\n\n> Hello' }) });
    await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'refuser@lead.test', to: 'alice@sender.test', subject: 'Re: Hello Ada', messageId: `b-${newId()}@lead.test`, inReplyTo: (await sendOf(refuser)).messageId, text: 'Not interested in your pricing.' }) });
    const ctx = testCtx({ deps: t.deps, actor: t.org.actor });
    await executeOperation({ op: leadOperations.updateData, ctx, input: { workspace_id: t.ws, email: 'fan@lead.test', campaign_id: parent.id, label: 'INTERESTED' } });
    await executeOperation({ op: leadOperations.updateData, ctx, input: { workspace_id: t.ws, email: 'fan@lead.test', campaign_id: parent.id, label: null } });
    await executeOperation({ op: leadOperations.updateData, ctx, input: { workspace_id: t.ws, email: 'fan@lead.test', campaign_id: parent.id, label: 'INTERESTED' } });

    const inPricing = await db.prisma.lead.findMany({ where: { campaignId: pricing.id } });
    expect(inPricing.map((l) => [l.email, l.sourceLeadId])).toEqual([['asker@lead.test', asker]]);
    expect(inPricing[0]!.nextSendAt).toEqual(new Date(t.clock.now().getTime() + DAY));
    const inInterested = await db.prisma.lead.findMany({ where: { campaignId: interested.id } });
    expect(inInterested.map((l) => [l.email, l.sourceLeadId])).toEqual([['fan@lead.test', fan]]);
    const fanParent = await db.prisma.lead.findUniqueOrThrow({ where: { id: fan } });
    expect([fanParent.isCompleted, fanParent.nextSendAt]).toEqual([true, null]);
    expect(await db.prisma.lead.count({ where: { workspaceId: t.ws, email: 'refuser@lead.test' } })).toBe(1);

    // The subsequences send from alice, in the thread started by the parent campaign.
    t.clock.advance(DAY + MINUTE);
    for (let i = 0; i < 3; i++) {
      await t.tick();
      t.clock.advance(2 * MINUTE);
    }
    const followUp = await db.prisma.sentEmail.findFirstOrThrow({ where: { campaignId: pricing.id } });
    expect([followUp.parentCampaignId, followUp.emailAccountId, followUp.subject]).toEqual([parent.id, t.alice, 'Re: Hello Ada']);
    const wire = smtp.messages.filter((m) => m.raw.includes(`<${followUp.messageId}>`));
    expect(wire).toHaveLength(1);
    expect(wire[0]!.raw).toContain(`In-Reply-To: <${(await sendOf(asker)).messageId}>`);
    // …and in the unified inbox, in the conversation the reply opened.
    const threads = await db.prisma.uniboxThread.findMany({ where: { workspaceId: t.ws, leadId: asker }, include: { messages: { orderBy: { receivedAt: 'asc' } } } });
    expect(threads).toHaveLength(1);
    expect(threads[0]!.messages.map((m) => [m.direction, m.sentEmailId])).toEqual([
      ['OUT', (await sendOf(asker)).id],
      ['IN', (await sendOf(asker)).id],
      ['OUT', followUp.id],
    ]);
    // Writing to the subsequence lead from the unibox continues that same conversation.
    const composed = await executeOperation({ op: uniboxOperations.compose, ctx, input: { workspace_id: t.ws, lead_id: inPricing[0]!.id, subject: 'One more thing', body: '<p>Any questions?</p>' } });
    expect(composed.thread_id).toBe(threads[0]!.id);
    expect(await db.prisma.uniboxThread.count({ where: { workspaceId: t.ws, leadId: { in: [asker, inPricing[0]!.id] } } })).toBe(1);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: interested.id } })).toBe(1);
  });
});

describe('reply-triggered subsequences', () => {
  it('any reply (out-of-office included) enrols into LEAD_REPLY_ALL; only a real reply into …_EXCEPT_OOO_AUTOMATIC_REPLY; a sender-only match counts', async () => {
    const t = await setup();
    const parent = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const anyReply = await t.campaign({ mailboxes: [t.alice], parentId: parent.id, steps: [{ variations: [{ label: 'A', subject: '', body: '<p>Thanks for getting back.</p>' }] }] });
    const realReply = await t.campaign({ mailboxes: [t.alice], parentId: parent.id, steps: [{ variations: [{ label: 'A', subject: '', body: '<p>Glad you answered.</p>' }] }] });
    await db.prisma.subsequenceTrigger.createMany({
      data: [
        { id: newId(), workspaceId: t.ws, subsequenceId: anyReply.id, parentCampaignId: parent.id, position: 0, event: 'LEAD_REPLY_ALL', labels: [], includeText: [], excludeText: [] },
        { id: newId(), workspaceId: t.ws, subsequenceId: realReply.id, parentCampaignId: parent.id, position: 0, event: 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY', labels: [], includeText: [], excludeText: [] },
      ],
    });
    const away = await t.lead(parent.id, 'away@lead.test');
    const human = await t.lead(parent.id, 'human@lead.test');
    for (let i = 0; i < 2; i++) {
      await t.tick();
      t.clock.advance(2 * MINUTE);
    }
    const awaySend = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId: away } });
    await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'away@lead.test', to: 'alice@sender.test', subject: 'Out of office', messageId: `o-${newId()}@lead.test`, inReplyTo: awaySend.messageId, headers: { 'X-Autoreply': 'yes' }, text: 'Back next week.' }) });
    // No threading headers at all: matched by the sender, a lead this mailbox wrote to.
    const bySender = await ingestMessage({ deps: t.deps, mailbox: t.mailbox, raw: raw({ from: 'Hu Man <HUMAN@lead.test>', to: 'alice@sender.test', subject: 'your email', messageId: `h-${newId()}@lead.test`, text: 'Sure, tell me more.' }) });
    expect(bySender).toMatchObject({ status: 'stored', kind: 'reply', leadId: human });

    const members = async (campaignId: string) => (await db.prisma.lead.findMany({ where: { campaignId }, orderBy: { email: 'asc' } })).map((l) => l.email);
    expect(await members(anyReply.id)).toEqual(['away@lead.test', 'human@lead.test']);
    expect(await members(realReply.id)).toEqual(['human@lead.test']);

    // The subsequences send, carrying parent_camp_id, from the parent's mailbox.
    for (let i = 0; i < 4; i++) {
      await t.tick();
      t.clock.advance(2 * MINUTE);
    }
    const subSends = await db.prisma.sentEmail.findMany({ where: { campaignId: { in: [anyReply.id, realReply.id] } } });
    expect(subSends.map((s) => [s.parentCampaignId, s.emailAccountId])).toEqual(subSends.map(() => [parent.id, t.alice]));
    expect(subSends.length).toBeGreaterThanOrEqual(2);
  });
});

describe.skipIf(missingImap)('reading a real mailbox over IMAP', () => {
  it('reads new messages once, marks a mailbox with a refused login disconnected, and reconnects it when the login works again', async () => {
    const t = await setup();
    const deps = { ...t.deps, ports: { ...t.deps.ports, imap: createMailboxReader({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    const c = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const leadId = await t.lead(c.id, 'imap@lead.test');
    const awayId = await t.lead(c.id, 'imap-away@lead.test');
    const goneId = await t.lead(c.id, 'imap-gone@lead.test');
    for (let i = 0; i < 3; i++) {
      await t.tick();
      t.clock.advance(2 * MINUTE);
    }
    const sendOf = async (id: string) => db.prisma.sentEmail.findFirstOrThrow({ where: { leadId: id } });
    const sent = await sendOf(leadId);

    const client = new ImapFlow({ host: '127.0.0.1', port: imap!.port, secure: false, auth: { user: 'alice@sender.test', pass: PASSWORDS['alice@sender.test']! }, logger: false });
    client.on('error', () => {});
    await client.connect();
    // Other tests may have left mail in this mailbox; only what this test appends is checked.
    const strayId = `stray-${newId()}@elsewhere.test`;
    await client.append('INBOX', raw({ from: 'imap@lead.test', to: 'alice@sender.test', subject: 'Re: Hello Ada', messageId: `imap-${newId()}@lead.test`, inReplyTo: sent.messageId, text: 'Yes please.' }));
    await client.append('INBOX', raw({ from: 'imap-away@lead.test', to: 'alice@sender.test', subject: 'Abwesenheitsnotiz: Hello Ada', messageId: `away-${newId()}@lead.test`, references: `<${(await sendOf(awayId)).messageId}>`, headers: { 'Auto-Submitted': 'auto-replied' }, text: 'Ich bin bis Montag nicht im Büro.' }));
    await client.append('INBOX', dsn({ from: 'alice@sender.test', to: 'alice@sender.test', originalMessageId: (await sendOf(goneId)).messageId, recipient: 'imap-gone@lead.test' }));
    await client.append('INBOX', raw({ from: 'promo@elsewhere.test', to: 'alice@sender.test', subject: 'A deal for you', messageId: strayId, text: 'Buy now' }));
    await client.logout();

    const first = await syncMailbox({ deps, mailboxId: t.alice });
    expect(first.status).toBe('ok');
    const statusOf = async (id: string) => (await db.prisma.lead.findUniqueOrThrow({ where: { id } })).status;
    expect(await statusOf(leadId)).toBe('REPLIED');
    expect(await statusOf(awayId)).toBe('CONTACTED');
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: awayId } })).label).toBe('OUT_OF_OFFICE');
    expect(await statusOf(goneId)).toBe('BOUNCED');
    expect((await db.prisma.uniboxMessage.findFirstOrThrow({ where: { workspaceId: t.ws, messageId: strayId } })).folder).toBe('OTHERS');
    const again = await syncMailbox({ deps, mailboxId: t.alice });
    expect([again.status, again.read]).toEqual(['ok', 0]);
    expect(await db.prisma.uniboxMessage.count({ where: { leadId, direction: 'IN' } })).toBe(1);

    // A restart that lost the read position (a crash before the UID was recorded): a new
    // reader reads the INBOX again, and every message is still stored once.
    await db.prisma.emailAccount.update({ where: { id: t.alice }, data: { imapLastUid: 0n } });
    const restarted = { ...t.deps, ports: { ...t.deps.ports, imap: createMailboxReader({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    const reread = await syncMailbox({ deps: restarted, mailboxId: t.alice });
    expect(reread.status).toBe('ok');
    expect(reread.read).toBeGreaterThanOrEqual(1);
    expect(reread.stored).toBe(0);
    expect(await db.prisma.uniboxMessage.count({ where: { leadId, direction: 'IN' } })).toBe(1);
    expect(await db.prisma.emailEvent.count({ where: { leadId, type: 'REPLY' } })).toBe(1);

    await db.prisma.emailAccount.update({ where: { id: t.alice }, data: { imapPasswordEnc: t.deps.secrets.encrypt('wrong') } });
    expect((await syncMailbox({ deps, mailboxId: t.alice })).status).toBe('auth_failed');
    const down = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: t.alice } });
    expect([down.status, down.disconnectReason, down.imapFailures]).toEqual(['DISCONNECTED', 'imap_auth', 1]);
    expect(down.imapRetryAt!.getTime()).toBe(t.clock.now().getTime() + MINUTE);

    await db.prisma.emailAccount.update({ where: { id: t.alice }, data: { imapPasswordEnc: t.deps.secrets.encrypt(PASSWORDS['alice@sender.test']!) } });
    t.clock.advance(MINUTE);
    expect((await syncMailbox({ deps, mailboxId: t.alice })).status).toBe('ok');
    const up = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: t.alice } });
    expect([up.status, up.disconnectReason, up.imapFailures]).toEqual(['ACTIVE', null, 0]);
  });

  it('a read that finds nothing new writes nothing to the mailbox until its recorded read time is 5 minutes old', async () => {
    const t = await setup();
    const deps = { ...t.deps, ports: { ...t.deps.ports, imap: createMailboxReader({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    const row = async () =>
      (await db.prisma.$queryRawUnsafe<{ version: string; synced: Date | null; failures: number }[]>(
        'SELECT xmin::text AS version, imap_synced_at AS synced, imap_failures AS failures FROM email_accounts WHERE id = $1',
        t.alice,
      ))[0]!;
    const read = async () => expect((await syncMailbox({ deps, mailboxId: t.alice })).status).toBe('ok');
    await read();
    const first = await row();
    expect(first.synced?.getTime()).toBe(t.clock.now().getTime());

    // Nothing new a minute later: the row is not written (the same row version).
    t.clock.advance(MINUTE);
    await read();
    expect(await row()).toEqual(first);

    // A message: written, with the read's time.
    const client = new ImapFlow({ host: '127.0.0.1', port: imap!.port, secure: false, auth: { user: 'alice@sender.test', pass: PASSWORDS['alice@sender.test']! }, logger: false });
    client.on('error', () => {});
    await client.connect();
    await client.append('INBOX', raw({ from: 'news@elsewhere.test', to: 'alice@sender.test', subject: 'Weekly news', messageId: `news-${newId()}@elsewhere.test`, text: 'News.' }));
    await client.logout();
    await read();
    const afterMessage = await row();
    expect(afterMessage.version).not.toBe(first.version);
    expect(afterMessage.synced?.getTime()).toBe(t.clock.now().getTime());

    // Nothing new for 4 minutes more: still not written; at 5 minutes, the time is recorded.
    t.clock.advance(4 * MINUTE);
    await read();
    expect(await row()).toEqual(afterMessage);
    t.clock.advance(MINUTE);
    await read();
    expect((await row()).synced?.getTime()).toBe(t.clock.now().getTime());

    // Earlier failures are cleared by the next read that works, whenever it comes.
    await db.prisma.emailAccount.update({ where: { id: t.alice }, data: { imapFailures: 2 } });
    t.clock.advance(MINUTE);
    await read();
    expect(await row()).toMatchObject({ failures: 0, synced: t.clock.now() });
  });

  it('the reply worker reads a mailbox as soon as IMAP IDLE reports new mail (its clock moving)', async () => {
    const t = await setup();
    // The worker's clock moves, as in production: the fixture's start, advancing with real time.
    const started = Date.now();
    const clock = { now: () => new Date(t.clock.at.getTime() + (Date.now() - started)) };
    const deps = { ...t.deps, ports: { ...t.deps.ports, clock, imap: createMailboxReader({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    const c = await t.campaign({ mailboxes: [t.alice], steps: TWO_STEPS });
    const leadId = await t.lead(c.id, 'idle@lead.test');
    await t.tick();
    const sent = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });
    // Polling once an hour: only IDLE can bring the reply in within this test's time limit.
    const worker = startReplyWorker({ deps, pollMs: 3_600_000, refreshMs: 3_600_000, workspaceIds: [t.ws] });
    try {
      const until = async (check: () => Promise<boolean>) => {
        while (!(await check())) await new Promise((r) => setTimeout(r, 100));
      };
      await until(async () => (await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: t.alice } })).imapSyncedAt !== null);
      await new Promise((r) => setTimeout(r, 500)); // the loop is now waiting in IDLE
      const client = new ImapFlow({ host: '127.0.0.1', port: imap!.port, secure: false, auth: { user: 'alice@sender.test', pass: PASSWORDS['alice@sender.test']! }, logger: false });
      client.on('error', () => {});
      await client.connect();
      await client.append('INBOX', raw({ from: 'idle@lead.test', to: 'alice@sender.test', subject: 'Re: Hello Ada', messageId: `idle-${newId()}@lead.test`, inReplyTo: sent.messageId, text: 'Got it.' }));
      await client.logout();
      await until(async () => (await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).status === 'REPLIED');
    } finally {
      await worker.stop();
    }
  }, 20_000);
});
