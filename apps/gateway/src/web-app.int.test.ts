// The web app in a real browser (Debian's Chromium through playwright-core) against the real
// server on the suite's database, with a local SMTP server and Dovecot as the mailboxes' provider,
// the whole way a person goes: the owner signs up from the setup link, writes a two-step
// campaign, picks its mailboxes and schedule, imports 1,000 leads from a CSV file (the progress
// bar moves), launches it, the sends reach the SMTP server, a lead's reply delivered into Dovecot
// shows in the unibox, the owner answers it from the app, and the analytics count it. Every
// screen passes axe-core and is photographed for docs/screenshots/ at 1280 px and 390 px. (Each
// screen's own test goes deeper: web-leads, web-unibox, web-mailboxes, web-analytics-settings.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newId } from '@outreach/db';
import { ImapFlow } from 'imapflow';
import { createSetupLink, runSchedulerTick, syncMailbox } from '@outreach/core';
import { imapServerUnavailable, startImapServer, startSmtpServer, type ImapTestServer, type SmtpTestServer } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations, watchProgress } from './testing/browser';
import { openAllDay } from './testing/schedule';

/** The owner who signs up: an address of its own, as the suite's files share one database and addresses are unique. */
const OWNER = `ada-${newId()}@acme.test`;
const unavailable = browserUnavailable() ?? imapServerUnavailable();
const { server } = useTestServer();
/** Two mailboxes on the local SMTP server and Dovecot: the campaign rotates its sends across them (one each per tick). */
const MAILBOXES = { 'sales@acme.test': 'mailbox-pw-1', 'hello@acme.test': 'mailbox-pw-2' };

let browser: Browser | undefined;
let smtp: SmtpTestServer | undefined;
let imap: ImapTestServer | undefined;

beforeAll(async () => {
  if (unavailable) return;
  smtp = await startSmtpServer({ users: MAILBOXES });
  imap = await startImapServer({ users: MAILBOXES });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
  await imap?.close();
});

/** 1,000 leads, `First<i>` each. */
const csvFile = () => ['Email,First Name,Company', ...Array.from({ length: 1000 }, (_, i) => `lead${i}@example.com,First${i},Company ${i % 7}`)].join('\r\n');

/** A lead's answer to one of our e-mails, as their mail program writes it. */
function replyTo(sent: { raw: string; from: string | null; to: string[] }, messageId: string): Buffer {
  const original = /^Message-ID:\s*(<[^>]+>)/im.exec(sent.raw)![1]!;
  const subject = /^Subject: (.*)$/m.exec(sent.raw)![1]!.trim();
  return Buffer.from(
    [
      `From: ${sent.to[0]}`,
      `To: ${sent.from}`,
      `Subject: Re: ${subject}`,
      `Message-ID: <${messageId}>`,
      `In-Reply-To: ${original}`,
      `References: ${original}`,
      // Whole seconds: one on, so the reply never reads as older than what it answers.
      `Date: ${new Date(Date.now() + 1_000).toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Interesting, tell me more.',
      '',
    ].join('\r\n'),
  );
}

/** Axe-core on the screen as it is: no serious or critical violation; then its screenshot. */
async function check(page: Page, name: string) {
  expect(await seriousViolations(page), `accessibility of ${name}`).toEqual([]);
  await screenshot(page, name);
}

describe.skipIf(unavailable)('the web app in a browser', () => {
  it('signs up the owner, writes a two-step campaign, imports 1,000 leads, launches, answers a reply and sees it counted', async () => {
    const s = server;
    // The browser in a zone whose day is not about to end: the schedule saved below (every day,
    // 00:00–23:59 in the browser's zone, the form's default) is open while the engine sends on the real clock.
    const { page, errors } = await openPage(browser!, 'desktop', { timezoneId: openAllDay().timezone });

    // Signed out, the app sends the person to sign in.
    await page.goto(`${s.url}/campaigns`);
    await page.waitForURL(/\/sign-in/);
    await check(page, 'sign-in');

    // The one-time setup link creates the owner; a password too short is refused next to its field, and the form keeps its input.
    const setup = await createSetupLink({ db: s.db.prisma, publicUrl: s.url });
    await page.goto(setup.link);
    await page.getByLabel('Organization name').fill('Acme');
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill(OWNER);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await expect.poll(() => page.getByText(/at least 10 characters/i).count()).toBeGreaterThan(0);
    expect(await page.getByLabel('Organization name').inputValue()).toBe('Acme');
    await check(page, 'setup');
    await page.getByLabel('Password').fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.getByText('No campaigns yet.').waitFor();
    await check(page, 'campaigns-empty');

    // The owner's organization gets a mailbox on the local SMTP server (the mailbox screen is a later slice).
    const user = await s.db.prisma.user.findUniqueOrThrow({ where: { email: OWNER } });
    const workspace = await s.db.prisma.workspace.findFirstOrThrow({ where: { organizationId: user.organizationId } });
    const mailboxIds: Record<string, string> = {};
    for (const [email, password] of Object.entries(MAILBOXES)) {
      mailboxIds[email] = newId();
      await s.db.prisma.emailAccount.create({
        data: {
          id: mailboxIds[email],
          organizationId: user.organizationId,
          workspaceId: workspace.id,
          email,
          emailNormalized: email,
          firstName: 'Sam',
          lastName: 'Sales',
          smtpHost: '127.0.0.1',
          smtpPort: smtp!.port,
          smtpUsername: email,
          smtpPasswordEnc: s.deps.service.secrets.encrypt(password),
          imapHost: '127.0.0.1',
          imapPort: imap!.port,
          imapUsername: email,
          imapPasswordEnc: s.deps.service.secrets.encrypt(password),
          dailyLimit: 50,
          sendingGap: 0,
        },
      });
    }

    // A campaign: its name is required (said next to the field), then the editor opens.
    await page.getByRole('button', { name: 'New campaign' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => page.getByRole('dialog').innerText()).toMatch(/name/i);
    await page.getByLabel('Campaign name').fill('Launch week');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('tab', { name: 'Sequence', exact: true }).waitFor();
    const campaignId = page.url().split('/campaigns/')[1]!.split(/[?#/]/)[0]!;

    // Two steps, the first with a merge field inserted from the menu and an A/B variation.
    await page.getByLabel('Subject (step 1, variation A)').fill('Hello ');
    await page.getByRole('button', { name: /Insert field into the subject of step 1, variation A/ }).click();
    await page.getByRole('menuitem', { name: '{{first_name}}' }).click();
    await page.getByLabel('Body (step 1, variation A)').fill('Quick question about your outreach.');
    await page.getByRole('button', { name: 'Add a step' }).click();
    await page.getByLabel('Subject (step 2, variation A)').fill('Following up');
    await page.getByLabel('Body (step 2, variation A)').fill('Any thoughts?');
    await page.getByRole('button', { name: 'Save the sequence' }).click();
    await page.getByText('The sequence is saved.').waitFor();
    await check(page, 'campaign-sequence');

    // Every day, all day, so the send below does not depend on the hour the test runs.
    await page.getByRole('tab', { name: 'Schedule' }).click();
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      const box = page.getByRole('checkbox', { name: day, exact: true });
      if (!(await box.isChecked())) await box.check();
    }
    await page.getByLabel('Send from').fill('00:00');
    await page.getByLabel('Send until').fill('23:59');
    await page.getByRole('button', { name: 'Save the schedule' }).click();
    await page.getByText('The schedule is saved.').waitFor();
    await check(page, 'campaign-schedule');

    await page.getByRole('tab', { name: 'Mailboxes' }).click();
    for (const email of Object.keys(MAILBOXES)) await page.getByRole('checkbox', { name: email }).check();
    await page.getByRole('button', { name: 'Save the mailboxes' }).click();
    await page.getByText(/mailboxes are saved/i).waitFor();
    await check(page, 'campaign-mailboxes');

    // 1,000 leads from a CSV file, uploaded in chunks: the progress bar moves with the server's answers.
    await page.getByRole('tab', { name: 'Sequence', exact: true }).click();
    await page.getByRole('link', { name: 'Import leads' }).click();
    await page.getByRole('heading', { name: 'Import leads from a CSV file' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csvFile()) });
    await page.getByText('leads.csv: 1,000 rows, 3 columns.').waitFor();
    const progress = await watchProgress(page, 'Upload progress');
    await page.getByRole('button', { name: 'Upload 1,000 rows' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    const seen = await progress();
    expect(new Set(seen.filter((v) => v > 0 && v < 100)).size, `progress values seen: ${seen.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(await s.db.prisma.lead.count({ where: { campaignId } })).toBe(1000);

    // Launched from the campaign's page.
    await page.goto(`${s.url}/campaigns/${campaignId}`);
    await page.getByRole('button', { name: 'Launch' }).click();
    await expect.poll(() => s.db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } }).then((c) => c.status)).toBe('ACTIVE');

    // The engine sends the first step, personalised: one e-mail through each chosen mailbox (a mailbox waits its gap before the next).
    for (let i = 0; i < 5 && smtp!.messages.length < 2; i++) await runSchedulerTick({ deps: s.deps.service, workspaceIds: [workspace.id] });
    expect(smtp!.messages.length).toBe(2);
    for (const m of smtp!.messages) {
      const first = /^lead(\d+)@example\.com$/.exec(m.to[0]!)![1];
      expect(/^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim()).toBe(`Hello First${first}`);
    }
    expect(new Set(smtp!.messages.map((m) => m.from))).toEqual(new Set(Object.keys(MAILBOXES)));

    // The list counts them.
    await page.getByRole('link', { name: /Campaigns/ }).first().click();
    const row = page.getByRole('row', { name: /Launch week/ });
    await expect.poll(() => row.innerText()).toMatch(/Active/i);
    expect((await row.getByRole('cell').allInnerTexts()).slice(2, 5)).toEqual(['1,000', '2', '2']);
    await check(page, 'campaigns');

    // A lead answers: the reply lands in the mailbox's INBOX on Dovecot and the reply reader reads it.
    const first = smtp!.messages[0]!;
    const lead = first.to[0]!;
    const replyId = `reply-${newId()}@example.com`;
    const client = new ImapFlow({ host: '127.0.0.1', port: imap!.port, secure: false, auth: { user: first.from!, pass: MAILBOXES[first.from as keyof typeof MAILBOXES] }, logger: false });
    await client.connect();
    await client.append('INBOX', replyTo(first, replyId));
    await client.logout();
    expect(await syncMailbox({ deps: s.deps.service, mailboxId: mailboxIds[first.from!]! })).toMatchObject({ status: 'ok', stored: 1 });

    // The unibox shows it; the owner answers from the app, in the same thread.
    await page.getByRole('link', { name: 'Unibox' }).click();
    const thread = page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(lead) });
    await thread.click();
    const conversation = page.getByRole('region', { name: 'Conversation', exact: true });
    await expect.poll(() => conversation.getByRole('article').count()).toBe(2);
    await conversation.getByRole('button', { name: 'Reply', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Gladly: how about a call on Thursday?');
    await page.getByRole('button', { name: 'Send the reply' }).click();
    await page.getByText('Your reply is sent.').waitFor();
    await expect.poll(() => smtp!.messages.length).toBe(3);
    const answer = smtp!.messages[2]!;
    expect([answer.from, answer.to]).toEqual([first.from, [lead]]);
    expect(answer.raw).toMatch(new RegExp(`^In-Reply-To: <${replyId.replace(/\./g, '\\.')}>`, 'm'));
    await check(page, 'unibox-answered');

    // The analytics count the sends and the reply.
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    const figures = page.getByRole('table', { name: 'Campaign figures' }).getByRole('row', { name: /Launch week/ });
    await expect.poll(async () => (await figures.getByRole('cell').allInnerTexts()).slice(2, 4).concat((await figures.getByRole('cell').allInnerTexts())[5]!)).toEqual(['2', '2', '1']);
    await check(page, 'analytics-flow');

    // A phone-sized screen: the navigation sits behind the menu button.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await check(page, 'campaigns-phone-menu');

    // Signing out ends the session: the app asks to sign in again.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/sign-in/);
    const again = await s.graphql('{ viewer { person { email } } }');
    expect(again.body.data.viewer).toBeNull();
    expect(errors).toEqual([]);
  });
});
