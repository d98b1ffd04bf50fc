// The unibox in a real browser (Debian's Chromium through playwright-core) against the real server,
// with a local SMTP server and Dovecot as the mailbox's provider: the engine sends a campaign e-mail,
// the lead's reply is appended to the mailbox's INBOX and read by the reply reader; the open unibox
// shows it without a reload; the owner answers it from the app (threaded, with an attachment),
// marks it read and sets the lead's label. Every state passes axe-core; screenshots at 1280 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ImapFlow } from 'imapflow';
import { newId } from '@outreach/db';
import { runSchedulerTick, syncMailbox } from '@outreach/core';
import { createTestCampaign, imapServerUnavailable, startImapServer, startSmtpServer, type ImapTestServer, type SmtpTestServer } from '@outreach/core/testing';
import { openAllDay } from './testing/schedule';
import { useTestServer } from './testing/suite';
import { signUpOwner } from './testing/web-owner';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations, VIEWPORTS } from './testing/browser';

/** The owner who signs up: an address of its own, as the suite's files share one database and addresses are unique. */
const OWNER = `ada-${newId()}@acme.test`;
const unavailable = browserUnavailable() ?? imapServerUnavailable();
const { server } = useTestServer();
const MAILBOX = 'sales@acme.test';
const PASSWORD = 'mailbox-pw-1';
const LEAD = 'grace@example.com';

let browser: Browser | undefined;
let smtp: SmtpTestServer | undefined;
let imap: ImapTestServer | undefined;

beforeAll(async () => {
  if (unavailable) return;
  smtp = await startSmtpServer({ users: { [MAILBOX]: PASSWORD } });
  imap = await startImapServer({ users: { [MAILBOX]: PASSWORD } });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
  await imap?.close();
});

/** Axe-core on the screen as it is: no serious or critical violation; then, if named, its screenshot. */
async function check(page: Page, state: string, name?: string) {
  expect(await seriousViolations(page), `accessibility of ${state}`).toEqual([]);
  if (name) await screenshot(page, name);
}

/** The lead's reply as a mail client writes it, answering our campaign e-mail. */
function replyOf(options: { messageId: string; inReplyTo: string }): Buffer {
  return Buffer.from(
    [
      `From: Grace Hopper <${LEAD}>`,
      `To: ${MAILBOX}`,
      'Subject: Re: Hello Grace',
      `Message-ID: <${options.messageId}>`,
      `In-Reply-To: ${options.inReplyTo}`,
      `References: ${options.inReplyTo}`,
      // A Date header has whole seconds: one second on, so the reply never reads as older than the e-mail it answers.
      `Date: ${new Date(Date.now() + 1_000).toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Sounds interesting <script>alert(1)</script>, tell me more.',
      '',
    ].join('\r\n'),
  );
}

describe.skipIf(unavailable)('the unibox in a browser', () => {
  it('shows a reply as it arrives, answers it threaded, marks it read and labels the lead', async () => {
    const s = server;
    const { page, context, errors } = await openPage(browser!);

    // The owner signs up from the setup link.
    const owner = await signUpOwner(page, s, { email: OWNER, organization: 'Acme', name: 'Ada Lovelace' });
    const { workspaceId } = owner;
    const base = { organizationId: owner.organizationId, workspaceId };

    // A mailbox on the local SMTP server and Dovecot, and an active campaign sending from it all day, every day.
    const mailboxId = newId();
    await s.db.prisma.emailAccount.create({
      data: {
        id: mailboxId, ...base, email: MAILBOX, emailNormalized: MAILBOX, firstName: 'Sam', lastName: 'Sales',
        smtpHost: '127.0.0.1', smtpPort: smtp!.port, smtpUsername: MAILBOX, smtpPasswordEnc: s.deps.service.secrets.encrypt(PASSWORD),
        imapHost: '127.0.0.1', imapPort: imap!.port, imapUsername: MAILBOX, imapPasswordEnc: s.deps.service.secrets.encrypt(PASSWORD),
        dailyLimit: 50, sendingGap: 0,
      },
    });
    const campaign = await createTestCampaign({ db: s.db.prisma, ...base, name: 'Launch week', status: 'ACTIVE', steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>Quick question.</p>' }] }] });
    await s.db.prisma.campaign.update({ where: { id: campaign.id }, data: { schedule: openAllDay(), dailyLimit: 100 } });
    await s.db.prisma.campaignEmailAccount.create({ data: { campaignId: campaign.id, emailAccountId: mailboxId } });
    const leadId = newId();
    await s.db.prisma.lead.create({ data: { id: leadId, ...base, campaignId: campaign.id, email: LEAD, emailNormalized: LEAD, firstName: 'Grace', nextSendAt: new Date(Date.now() - 60_000) } });

    // The engine sends the first step.
    for (let i = 0; i < 5 && smtp!.messages.length < 1; i++) await runSchedulerTick({ deps: s.deps.service, workspaceIds: [workspaceId] });
    expect(smtp!.messages.map((m) => m.to)).toEqual([[LEAD]]);
    const sent = await s.db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });

    // The unibox is open, and empty: nothing came back yet.
    await page.getByRole('link', { name: 'Unibox' }).click();
    await page.getByRole('heading', { name: 'Unibox' }).waitFor();
    await page.getByText('No conversations yet.').waitFor();
    await check(page, 'the empty unibox');

    // Grace answers: her reply lands in the mailbox's INBOX on Dovecot, and the reply reader reads it.
    // Its time is the server's INTERNALDATE, in whole seconds: appended in the second of the send,
    // it would read as older than the e-mail it answers (a CI run saw it so), so it waits for the next.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, sent.sentAt.getTime() + 1_000 - (sent.sentAt.getTime() % 1_000) - Date.now()) + 20));
    const replyId = `reply-${newId()}@example.com`;
    const client = new ImapFlow({ host: '127.0.0.1', port: imap!.port, secure: false, auth: { user: MAILBOX, pass: PASSWORD }, logger: false });
    await client.connect();
    await client.append('INBOX', replyOf({ messageId: replyId, inReplyTo: sent.messageId.startsWith('<') ? sent.messageId : `<${sent.messageId}>` }));
    await client.logout();
    expect(await syncMailbox({ deps: s.deps.service, mailboxId })).toMatchObject({ status: 'ok', stored: 1 });

    // Without a reload, the thread appears (the list reads again while the page is visible), unread.
    const thread = page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(LEAD) });
    await thread.waitFor();
    expect(await thread.innerText()).toMatch(/Unread/i);
    expect(await thread.innerText()).toMatch(/Re: Hello Grace/);
    await check(page, 'the unibox with a reply', 'unibox');

    // The conversation: our e-mail, then her reply, as text (her markup is shown, never run).
    await thread.click();
    const conversation = page.getByRole('region', { name: 'Conversation', exact: true });
    await conversation.getByRole('heading', { name: 'Re: Hello Grace' }).waitFor();
    const emails = conversation.getByRole('article');
    await expect.poll(() => emails.count()).toBe(2);
    expect(await emails.nth(0).getAttribute('aria-label')).toMatch(new RegExp(`^E-mail from ${MAILBOX}`));
    expect(await emails.nth(1).getAttribute('aria-label')).toMatch(new RegExp(`^E-mail from ${LEAD}`));
    expect(await emails.nth(1).innerText()).toContain('Sounds interesting <script>alert(1)</script>, tell me more.');
    await check(page, 'the conversation');

    // A reply with nothing written is refused next to its field; then the owner answers, with a file attached.
    await conversation.getByRole('button', { name: 'Reply', exact: true }).click();
    await page.getByRole('button', { name: 'Send the reply' }).click();
    await page.getByText('Write the message').waitFor();
    await check(page, 'the reply form with its error');
    await page.getByRole('textbox', { name: 'Message' }).fill('Happy to!\nHow about a call on Thursday?');
    await page.locator('input[type="file"]').setInputFiles({ name: 'agenda.txt', mimeType: 'text/plain', buffer: Buffer.from('1. Outreach\n2. Questions\n') });
    await page.getByRole('button', { name: 'Send the reply' }).click();
    await page.getByText('Your reply is sent.').waitFor();
    await expect.poll(() => smtp!.messages.length).toBe(2);
    const answer = smtp!.messages[1]!;
    expect(answer.to).toEqual([LEAD]);
    expect(answer.raw).toMatch(new RegExp(`^In-Reply-To: <${replyId.replace(/\./g, '\\.')}>`, 'm'));
    expect(answer.raw).toMatch(/^Subject: Re: Hello Grace/m);
    expect(answer.raw).toMatch(/filename="?agenda\.txt"?/);
    expect(answer.raw).toContain('How about a call on Thursday?');
    await expect.poll(() => emails.count()).toBe(3);
    expect(await emails.nth(2).innerText()).toContain('How about a call on Thursday?');

    // Read: the thread is no longer unread, in the list and in the database.
    await conversation.getByRole('button', { name: 'Mark as read' }).click();
    await conversation.getByRole('button', { name: 'Mark as unread' }).waitFor();
    await expect.poll(() => thread.innerText()).not.toMatch(/Unread/i);
    const threadRow = await s.db.prisma.uniboxThread.findFirstOrThrow({ where: { leadId } });
    expect(threadRow.isUnread).toBe(false);

    // The lead's label, set from the conversation, and the list filtered by it.
    await conversation.getByRole('textbox', { name: 'Lead label' }).click();
    await page.getByRole('option', { name: 'Interested', exact: true }).click();
    await page.getByText('Label set: Interested').waitFor();
    expect((await s.db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).label).toBe('INTERESTED');
    await expect.poll(() => thread.innerText()).toMatch(/Interested/i);
    await check(page, 'the answered, read and labelled conversation', 'unibox-thread');

    await page.getByRole('textbox', { name: 'Label', exact: true }).click();
    await page.getByRole('option', { name: 'Interested', exact: true }).click();
    await thread.waitFor();
    await page.getByRole('textbox', { name: 'Show', exact: true }).click();
    await page.getByRole('option', { name: 'Unread', exact: true }).click();
    await page.getByText('No conversation matches these filters.').waitFor();
    await check(page, 'the list filtered to nothing');

    // On a phone: the list, then the conversation alone with a way back.
    const phone = await browser!.newContext({ viewport: VIEWPORTS.phone, reducedMotion: 'reduce', storageState: await context.storageState() });
    const small = await phone.newPage();
    small.on('pageerror', (error) => errors.push(error.message));
    await small.goto(`${s.url}/unibox`);
    const phoneThread = small.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(LEAD) });
    await phoneThread.click();
    await small.getByRole('heading', { name: 'Re: Hello Grace' }).waitFor();
    expect(await small.getByRole('list', { name: 'Conversations' }).count()).toBe(0);
    await check(small, 'the conversation on a phone', 'unibox-phone');
    await small.getByRole('link', { name: /Back to the inbox/ }).click();
    await phoneThread.waitFor();
    await check(small, 'the list on a phone');

    await phone.close();
    await context.close();
    expect(errors).toEqual([]);
  }, 180_000);
});
