// The web app in a real browser (Debian's Chromium through playwright-core) against the real
// server on the suite's database, with a local SMTP server as the mailbox's provider: the owner
// signs up from the setup link, writes a two-step campaign, picks its mailbox and schedule,
// launches it, and sees the sends counted; every screen passes axe-core and is photographed for
// docs/screenshots/ at 1280 px and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newId } from '@outreach/db';
import { createSetupLink, issueApiKey, runSchedulerTick } from '@outreach/core';
import { startSmtpServer, type SmtpTestServer } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations } from './testing/browser';

/** The owner who signs up: an address of its own, as the suite's files share one database and addresses are unique. */
const OWNER = `ada-${newId()}@acme.test`;
const unavailable = browserUnavailable();
const { server } = useTestServer();
/** Two mailboxes on the local SMTP server: the campaign rotates its sends across them (one each per tick). */
const MAILBOXES = { 'sales@acme.test': 'mailbox-pw-1', 'hello@acme.test': 'mailbox-pw-2' };

let browser: Browser | undefined;
let smtp: SmtpTestServer | undefined;

beforeAll(async () => {
  if (unavailable) return;
  smtp = await startSmtpServer({ users: MAILBOXES });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
});

/** Axe-core on the screen as it is: no serious or critical violation; then its screenshot. */
async function check(page: Page, name: string) {
  expect(await seriousViolations(page), `accessibility of ${name}`).toEqual([]);
  await screenshot(page, name);
}

describe.skipIf(unavailable)('the web app in a browser', () => {
  it('signs up the owner, writes and launches a two-step campaign, and shows what it sent', async () => {
    const s = server;
    const { page, errors } = await openPage(browser!);

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
    for (const [email, password] of Object.entries(MAILBOXES)) {
      await s.db.prisma.emailAccount.create({
        data: {
          id: newId(),
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
          imapPort: 1,
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
    await page.getByRole('tab', { name: 'Sequence' }).waitFor();
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

    // Two leads through the API (the CSV import screen is a later slice), then launch from the app.
    const key = await issueApiKey({ db: s.db.prisma, organizationId: user.organizationId, name: 'test' });
    const added = await s.rest('POST', '/lead/add', {
      key: key.apiKey,
      body: { workspace_id: workspace.id, campaign_id: campaignId, leads: [{ email: 'grace@example.com', first_name: 'Grace' }, { email: 'alan@example.com', first_name: 'Alan' }] },
    });
    expect(added.status).toBe(200);
    await page.getByRole('button', { name: 'Launch' }).click();
    await expect.poll(() => s.db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } }).then((c) => c.status)).toBe('ACTIVE');

    // The engine sends the first step to both leads, personalised, one through each chosen mailbox.
    for (let i = 0; i < 5 && smtp!.messages.length < 2; i++) await runSchedulerTick({ deps: s.deps.service, workspaceIds: [workspace.id] });
    const subjects = smtp!.messages.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim()).sort();
    expect(subjects).toEqual(['Hello Alan', 'Hello Grace']);
    expect(smtp!.messages.map((m) => m.from).sort()).toEqual(Object.keys(MAILBOXES).sort());

    // The list counts them.
    await page.getByRole('link', { name: /Campaigns/ }).first().click();
    const row = page.getByRole('row', { name: /Launch week/ });
    await expect.poll(() => row.innerText()).toMatch(/Active/i);
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(2, 5)).toEqual(['2', '2', '2']);
    await check(page, 'campaigns');

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
