// A campaign's subsequences in a real browser against the real server. The owner creates a
// parent campaign (schedule and mailbox, which its subsequences inherit), adds a subsequence
// triggered by the label Interested (a missing label is said next to its field), sees it listed
// with its trigger in words, opens it (its page names the parent, with a link back), writes
// one step and launches it. A lead of the parent marked Interested through the API is enrolled:
// the subsequence's lead count says so. Every state passes axe-core; a screenshot for docs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newId } from '@outreach/db';
import { issueApiKey } from '@outreach/core';
import { useTestServer } from './testing/suite';
import { signUpOwner } from './testing/web-owner';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations } from './testing/browser';

const unavailable = browserUnavailable();
const OWNER = `owner-${newId()}@acme.test`;
const MAILBOX = 'sam@acme.test';

let browser: Browser | undefined;
beforeAll(async () => {
  if (!unavailable) browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
const { server } = useTestServer();

async function check(page: Page, name: string | null) {
  expect(await seriousViolations(page), `accessibility of ${name ?? page.url()}`).toEqual([]);
  if (name) await screenshot(page, name);
}

describe.skipIf(unavailable)('subsequences in a browser', () => {
  it('adds a subsequence triggered by a label, launches it, and a lead marked with that label is enrolled', async () => {
    const s = server;
    const { page, errors } = await openPage(browser!);

    const owner = await signUpOwner(page, s, { email: OWNER, organization: 'Acme', name: 'Ada Owner' });

    await s.db.prisma.emailAccount.create({
      data: {
        id: newId(),
        organizationId: owner.organizationId,
        workspaceId: owner.workspaceId,
        email: MAILBOX,
        emailNormalized: MAILBOX,
        firstName: 'Sam',
        smtpHost: '127.0.0.1',
        smtpPort: 1,
        smtpUsername: MAILBOX,
        smtpPasswordEnc: s.deps.service.secrets.encrypt('secret'),
        imapHost: '127.0.0.1',
        imapPort: 1,
        imapUsername: MAILBOX,
        imapPasswordEnc: s.deps.service.secrets.encrypt('secret'),
      },
    });

    // The parent campaign, with a schedule and a mailbox its subsequences start from.
    await page.getByRole('button', { name: 'New campaign' }).click();
    await page.getByLabel('Campaign name').fill('Launch week');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('tab', { name: 'Sequence', exact: true }).waitFor();
    const parentId = page.url().split('/campaigns/')[1]!.split(/[?#/]/)[0]!;
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await page.getByRole('button', { name: 'Save the schedule' }).click();
    await page.getByText('The schedule is saved.').waitFor();
    await page.getByRole('tab', { name: 'Mailboxes' }).click();
    await page.getByRole('checkbox', { name: MAILBOX }).check();
    await page.getByRole('button', { name: 'Save the mailboxes' }).click();
    await page.getByText(/mailboxes are saved/i).waitFor();

    await page.getByRole('tab', { name: 'Subsequences' }).click();
    await page.getByText('No subsequences yet.').waitFor();
    await check(page, null);

    // No label chosen: the server's refusal is said next to the labels, and the name is kept.
    await page.getByRole('button', { name: 'New subsequence' }).click();
    const form = page.getByRole('form', { name: 'New subsequence' });
    await form.getByLabel('Name').fill('Interested follow-up');
    await form.getByRole('button', { name: 'Create the subsequence' }).click();
    const labelsInput = form.getByRole('textbox', { name: 'Lead labels' });
    await expect.poll(async () => labelsInput.getAttribute('aria-invalid')).toBe('true');
    await form.getByText(/at least one label/).waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('Interested follow-up');
    await check(page, null);

    await labelsInput.click();
    await page.getByRole('option', { name: 'Interested', exact: true }).click();
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Create the subsequence' }).click();

    // The subsequence opens in the editor, saying which campaign it belongs to.
    await page.waitForURL((url) => !url.pathname.endsWith(parentId));
    const subId = page.url().split('/campaigns/')[1]!.split(/[?#/]/)[0]!;
    await page.getByRole('heading', { name: 'Interested follow-up' }).waitFor();
    await page.getByText(/Leads of that campaign enter it when a lead is marked Interested/).waitFor();
    expect(await page.getByRole('link', { name: 'Launch week' }).getAttribute('href')).toBe(`/campaigns/${parentId}`);
    await page.getByRole('tab', { name: 'Sequence', exact: true }).click();
    await page.getByLabel('Subject (step 1, variation A)').fill('Glad you are interested');
    await page.getByLabel('Body (step 1, variation A)').fill('Here is what happens next.');
    await page.getByRole('button', { name: 'Save the sequence' }).click();
    await page.getByText('The sequence is saved.').waitFor();
    await page.getByRole('button', { name: 'Launch' }).click();
    await expect.poll(() => s.db.prisma.campaign.findUniqueOrThrow({ where: { id: subId } }).then((c) => c.status)).toBe('ACTIVE');
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await check(page, null);

    // A lead of the parent, marked Interested through the API, is enrolled into the subsequence.
    const key = await issueApiKey({ db: s.db.prisma, organizationId: owner.organizationId, name: 'test' });
    const added = await s.rest('POST', '/lead/add', { key: key.apiKey, body: { workspace_id: owner.workspaceId, campaign_id: parentId, leads: [{ email: 'grace@example.com' }] } });
    expect(added.status).toBe(200);
    const marked = await s.rest('POST', '/lead/data/update', { key: key.apiKey, body: { workspace_id: owner.workspaceId, campaign_id: parentId, email: 'grace@example.com', label: 'INTERESTED' } });
    expect(marked.status).toBe(200);
    expect(await s.db.prisma.lead.count({ where: { campaignId: subId } })).toBe(1);

    // Back on the parent: the subsequence is listed with its trigger in words, status and one lead.
    await page.getByRole('link', { name: 'Launch week' }).click();
    // The editor opens each campaign on its Sequence tab: wait for the parent's before choosing one
    // (the subsequence's page has a Subsequences tab too).
    await page.waitForURL((url) => url.pathname.endsWith(parentId));
    await page.getByRole('heading', { name: 'Launch week' }).waitFor();
    await page.getByRole('tab', { name: 'Subsequences' }).click();
    const row = page.getByRole('row', { name: /Interested follow-up/ });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    // The status badge is shown in capitals: compared without case.
    expect(cells.slice(0, 5).map((c) => c.toLowerCase())).toEqual(['interested follow-up', 'when a lead is marked interested', 'active', '1', '0']);
    await check(page, 'campaign-subsequences');

    // The campaigns list shows parent campaigns only.
    await page.getByRole('link', { name: /Campaigns/ }).first().click();
    await page.getByRole('row', { name: /Launch week/ }).waitFor();
    expect(await page.getByRole('row', { name: /Interested follow-up/ }).count()).toBe(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${s.url}/campaigns/${parentId}`);
    await page.getByRole('tab', { name: 'Subsequences' }).click();
    await page.getByRole('row', { name: /Interested follow-up/ }).waitFor();
    await check(page, 'campaign-subsequences-phone');
    expect(errors).toEqual([]);
  });
});
