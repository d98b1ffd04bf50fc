// The analytics and settings screens in a real browser (Debian's Chromium through playwright-core)
// against the real server: sends recorded for a campaign show in the workspace's and the
// campaign's figures; the owner adds a webhook (its test event reaches a receiver on 127.0.0.1
// through the real delivery round), a blocklist entry and a tag, and invites a read-only person
// whose copied link lets them in, where settings show them no write control. Every state passes
// axe-core; screenshots go to docs/screenshots/.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { deliverDueWebhooks } from '@outreach/core';
import { createTestCampaign, createTestLead, createTestMailbox, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { signUpOwner } from './testing/web-owner';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations } from './testing/browser';

const unavailable = browserUnavailable();
const { server } = useTestServer();

let browser: Browser | undefined;
let receiver: Server | undefined;
let receiverPort = 0;
const received: { path: string; body: string }[] = [];

beforeAll(async () => {
  if (unavailable) return;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

/** Axe-core on the screen as it is: no serious or critical violation; then, when named, its screenshot. */
async function check(page: Page, what: string, shot?: string) {
  expect(await seriousViolations(page), `accessibility of ${what}`).toEqual([]);
  if (shot) await screenshot(page, shot);
}

/** Picks an option of a segmented control (its radio input is visually hidden under its label). */
const pick = (page: Page, name: string) => page.getByRole('radio', { name, exact: true }).first().evaluate((el: HTMLElement) => el.click());

/** The accessible name of a chart (its totals in words). */
const chartFigures = (page: Page, title: string) => page.getByRole('img', { name: new RegExp(`^${title}`) }).getAttribute('aria-label');

describe.skipIf(unavailable)('analytics and settings in a browser', () => {
  it('shows recorded sends in the charts, and lets the owner set up the workspace and invite a read-only person', async () => {
    const s = server;
    const run = Date.now().toString(36);
    const ownerEmail = `owner-${run}@analytics.test`;
    const { page, errors } = await openPage(browser!);

    // The owner signs up from the one-time setup link.
    const owner = await signUpOwner(page, s, { email: ownerEmail, organization: 'Figures Inc', name: 'Olive Owner' });
    const at = { db: s.db.prisma, organizationId: owner.organizationId, workspaceId: owner.workspaceId };

    // A campaign with an A/B first step sent three times today from one mailbox: two sends of A
    // (one replied to), one of B.
    const mailbox = await createTestMailbox({ ...at, email: `sales-${run}@figures.test` });
    const campaign = await createTestCampaign({ ...at, name: 'Spring launch', status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }, { label: 'B', name: 'Short' }] }] });
    const now = new Date();
    for (const [i, label] of ['A', 'A', 'B'].entries()) {
      const lead = await createTestLead({ ...at, campaignId: campaign.id, email: `lead${i}-${run}@example.com` });
      await recordTestSend({
        ...at,
        campaignId: campaign.id,
        leadId: lead.id,
        emailAccountId: mailbox.id,
        step: 1,
        variationId: campaign.variations[1]![label]!,
        variationLabel: label,
        sentAt: now,
        repliedAt: i === 0 ? now : null,
      });
    }

    // The workspace's figures: the chart names its totals, the table toggle lists them by day.
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await expect.poll(() => chartFigures(page, 'Workspace sends by day')).toMatch(/: 3 sent, \d+ opens, 1 replies, 0 positive replies, 0 bounces$/);
    const campaignRow = page.getByRole('table', { name: 'Campaign figures' }).getByRole('row', { name: /Spring launch/ });
    expect((await campaignRow.getByRole('cell').allInnerTexts()).slice(2, 6)).toEqual(['3', '3', expect.any(String), '1']);
    const mailboxRow = page.getByRole('table', { name: 'Mailbox figures' }).getByRole('row', { name: new RegExp(`sales-${run}`) });
    expect((await mailboxRow.getByRole('cell').allInnerTexts())[1]).toBe('3');
    await check(page, 'analytics (chart)', 'analytics');
    await pick(page, 'Table');
    const today = now.toISOString().slice(0, 10);
    const todayRow = page.getByRole('table', { name: 'Workspace sends by day, table' }).getByRole('row', { name: new RegExp(today) });
    expect((await todayRow.getByRole('cell').allInnerTexts()).slice(0, 2)).toEqual([today, '3']);
    await check(page, 'analytics (table)');

    // The presets and a custom range: a range that is too long is refused next to its field.
    await pick(page, '7 days');
    await page.waitForURL(/days=7/);
    await pick(page, 'Custom');
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByText('Choose at most 91 days').waitFor();
    await check(page, 'analytics (custom range)');
    await pick(page, '30 days');

    // The campaign's own figures and its variations.
    await page.getByRole('link', { name: 'Spring launch' }).click();
    await page.getByRole('heading', { name: 'Spring launch: analytics' }).waitFor();
    await expect.poll(() => chartFigures(page, 'Campaign sends by day')).toMatch(/: 3 sent, \d+ opens, 1 replies, 0 bounces, 0 unsubscribes$/);
    const variations = page.getByRole('table', { name: 'Variation figures by step' });
    expect((await variations.getByRole('row', { name: /Step 1 A/ }).getByRole('cell').allInnerTexts()).slice(2, 5)).toEqual(['2', expect.any(String), '1']);
    expect((await variations.getByRole('row', { name: /Step 1 B · Short/ }).getByRole('cell').allInnerTexts()).slice(2, 5)).toEqual(['1', expect.any(String), '0']);
    await check(page, 'campaign analytics');

    // A phone-sized screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: '← Workspace analytics' }).click();
    await expect.poll(() => chartFigures(page, 'Workspace sends by day')).toMatch(/3 sent/);
    await check(page, 'analytics on a phone', 'analytics-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Settings, webhooks: added for replies, then a test event reaches the receiver and its answer shows.
    await page.goto(`${s.url}/settings`);
    await page.getByRole('tab', { name: 'Webhooks', selected: true }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();
    await check(page, 'settings: webhooks (empty)');
    await page.getByRole('button', { name: 'Add a webhook' }).click();
    await page.getByRole('button', { name: 'Add the webhook' }).click();
    await expect.poll(() => page.getByRole('dialog').innerText()).toMatch(/url/i);
    await page.getByLabel('Name').fill('CRM');
    await page.getByLabel('URL').fill(`http://127.0.0.1:${receiverPort}/hook-${run}`);
    await page.getByRole('checkbox', { name: 'Every reply' }).check();
    await check(page, 'settings: add a webhook');
    await page.getByRole('button', { name: 'Add the webhook' }).click();
    const hookRow = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /CRM/ });
    await hookRow.getByText('Nothing delivered yet').waitFor();
    await hookRow.getByRole('button', { name: /Send test event to CRM/ }).click();
    await page.getByText(/Test event queued/).waitFor();
    const round = await deliverDueWebhooks({ deps: s.deps.service, workspaceIds: [owner.workspaceId] });
    expect(round.delivered).toBe(1);
    expect(JSON.parse(received.find((r) => r.path === `/hook-${run}`)!.body)).toMatchObject({ webhook_event: 'WEBHOOK_TEST', webhook_name: 'CRM' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => hookRow.getByRole('cell').nth(3).innerText()).toMatch(/200/);
    await check(page, 'settings: webhooks', 'settings-webhooks');

    // Blocklist: one typed, two loaded from a file; search finds them; one removed.
    await page.getByRole('tab', { name: 'Blocklist' }).click();
    await page.getByText('The blocklist is empty.').waitFor();
    await page.getByLabel('Add addresses or domains').fill('rival.com');
    await page.getByRole('button', { name: 'Add to the blocklist' }).click();
    await page.getByRole('table', { name: 'Blocklist' }).getByRole('cell', { name: 'rival.com', exact: true }).waitFor();
    await page.locator('input[type=file]').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from('ceo@competitor.io\n"cfo@competitor.io"\n') });
    await expect.poll(() => page.getByLabel('Add addresses or domains').inputValue()).toBe('ceo@competitor.io\ncfo@competitor.io');
    await page.getByRole('button', { name: 'Add to the blocklist' }).click();
    await page.getByRole('table', { name: 'Blocklist' }).getByRole('cell', { name: 'cfo@competitor.io', exact: true }).waitFor();
    await page.getByLabel('Search the blocklist').fill('COMPETITOR');
    await expect.poll(() => page.getByRole('table', { name: 'Blocklist' }).getByRole('row').count()).toBe(3);
    await page.getByRole('button', { name: 'Remove ceo@competitor.io from the blocklist' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Blocklist' }).getByRole('row').count()).toBe(2);
    await check(page, 'settings: blocklist');

    // Tags, lead labels, additional fields, clients, API keys.
    await page.getByRole('tab', { name: 'Tags' }).click();
    await page.getByLabel('Tag name').fill('Priority');
    await page.getByRole('button', { name: 'Create the tag' }).click();
    await page.getByRole('table', { name: 'Tags' }).getByText('Priority').waitFor();
    await check(page, 'settings: tags');
    await page.getByRole('tab', { name: 'Lead labels' }).click();
    await page.getByRole('table', { name: 'Lead labels' }).getByText('LEAD_MARKED_AS_INTERESTED').waitFor();
    await check(page, 'settings: lead labels');
    await page.getByRole('tab', { name: 'Additional fields' }).click();
    await page.getByLabel('Field name').fill('industry');
    await page.getByRole('button', { name: 'Add the field' }).click();
    await page.getByRole('table', { name: 'Additional fields' }).getByText('{{industry}}').waitFor();
    await check(page, 'settings: additional fields');
    await page.getByRole('tab', { name: 'Clients' }).click();
    await page.getByText('No clients yet.').waitFor();
    await check(page, 'settings: clients');
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create a key' }).waitFor();
    await check(page, 'settings: API keys');

    // People: a read-only invitation whose link is shown to copy.
    await page.getByRole('tab', { name: 'People' }).click();
    await page.getByRole('table', { name: 'People' }).getByText('Olive Owner (you)').waitFor();
    const inviteeEmail = `rita-${run}@analytics.test`;
    await page.getByLabel(/^Invite to/).fill(inviteeEmail);
    await page.getByRole('textbox', { name: 'Their role' }).click();
    await page.getByRole('option', { name: 'Read-only' }).click();
    await page.getByRole('button', { name: 'Create an invitation' }).click();
    const link = await page.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${s.url}/invite#token=`));
    await check(page, 'settings: people', 'settings-people');

    // The invited person, in a browser of their own, sets a password through the link and signs in.
    const invitee = await openPage(browser!);
    await invitee.page.goto(link);
    await invitee.page.getByLabel('Your name').fill('Rita Reader');
    await invitee.page.getByLabel('Password').fill('another-long-password');
    await invitee.page.getByRole('button', { name: 'Accept the invitation' }).click();
    await invitee.page.getByRole('heading', { name: 'Campaigns' }).waitFor();

    // Settings show them everything, with no control that writes.
    const reader = invitee.page;
    await reader.goto(`${s.url}/settings/webhooks`);
    await reader.getByRole('table', { name: 'Webhooks' }).getByText('CRM').waitFor();
    expect(await reader.getByRole('button', { name: /Add a webhook|Send test event|Delete the webhook/ }).count()).toBe(0);
    await check(reader, 'settings: webhooks, read-only');
    await reader.getByRole('tab', { name: 'Blocklist' }).click();
    await reader.getByRole('table', { name: 'Blocklist' }).getByText('rival.com').waitFor();
    expect(await reader.getByRole('button', { name: /Add to the blocklist|Load from a file|Remove/ }).count()).toBe(0);
    await reader.getByRole('tab', { name: 'Tags' }).click();
    await reader.getByRole('table', { name: 'Tags' }).getByText('Priority').waitFor();
    expect(await reader.getByRole('button', { name: /Create the tag|Delete the tag/ }).count()).toBe(0);
    await reader.getByRole('tab', { name: 'People' }).click();
    await reader.getByRole('table', { name: 'People' }).getByText('Rita Reader (you)').waitFor();
    expect(await reader.getByRole('button', { name: /Create an invitation|Remove/ }).count()).toBe(0);
    expect(await reader.getByRole('textbox', { name: /Role of/ }).count()).toBe(0);
    await check(reader, 'settings: people, read-only');
    const person = await s.db.prisma.user.findUniqueOrThrow({ where: { email: inviteeEmail } });
    expect(person.role).toBe('READ_ONLY');

    expect(errors).toEqual([]);
    expect(invitee.errors).toEqual([]);
    await invitee.context.close();
  }, 180_000);
});
