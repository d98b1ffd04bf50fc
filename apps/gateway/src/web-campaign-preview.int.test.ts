// The sequence editor's preview and test send in a real browser against the real server: a
// campaign whose step uses {{first_name}} and spintax, two leads; the preview chosen for Grace
// is what the engine's composer makes for her ("Hello Grace", the body in a sandboxed iframe),
// and a test send reaches a local SMTP server with that subject. axe-core on the preview; a
// screenshot for docs at 1280 px and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { simpleParser } from 'mailparser';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, startSmtpServer, type SmtpTestServer } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { signUpOwner } from './testing/web-owner';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations } from './testing/browser';

const unavailable = browserUnavailable();
const OWNER = `owner-${newId()}@acme.test`;
const MAILBOX = `preview-${newId()}@acme.test`;

let browser: Browser | undefined;
let smtp: SmtpTestServer | undefined;
beforeAll(async () => {
  if (unavailable) return;
  smtp = await startSmtpServer({ users: { [MAILBOX]: 'mailbox-pw' } });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await smtp?.close();
});
const { server } = useTestServer();

async function check(page: Page, name: string) {
  expect(await seriousViolations(page), `accessibility of ${name}`).toEqual([]);
  await screenshot(page, name);
}

describe.skipIf(unavailable)('the campaign preview in a browser', () => {
  it("previews a step for Grace as the engine composes it and sends a test that arrives with that subject", async () => {
    const s = server;
    const { page, errors } = await openPage(browser!);
    const owner = await signUpOwner(page, s, { email: OWNER, organization: 'Acme', name: 'Ada Owner' });

    const base = { db: s.db.prisma, organizationId: owner.organizationId, workspaceId: owner.workspaceId };
    const campaign = await createTestCampaign({
      ...base,
      steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>{Hi|Hey} {{first_name}}, a question about {{company_name|your team}}.</p>' }] }],
    });
    const first = await createTestLead({ ...base, campaignId: campaign.id, email: 'bo@lead.test' });
    await s.db.prisma.lead.update({ where: { id: first.id }, data: { firstName: 'Bo' } });
    const grace = await createTestLead({ ...base, campaignId: campaign.id, email: 'grace@lead.test' });
    await s.db.prisma.lead.update({ where: { id: grace.id }, data: { firstName: 'Grace', lastName: 'Hopper' } });
    const mailboxId = newId();
    await s.db.prisma.emailAccount.create({
      data: {
        id: mailboxId,
        organizationId: owner.organizationId,
        workspaceId: owner.workspaceId,
        email: MAILBOX,
        emailNormalized: MAILBOX,
        firstName: 'Sam',
        smtpHost: '127.0.0.1',
        smtpPort: smtp!.port,
        smtpUsername: MAILBOX,
        smtpPasswordEnc: s.deps.service.secrets.encrypt('mailbox-pw'),
        imapHost: '127.0.0.1',
        imapPort: 1,
        imapUsername: MAILBOX,
        imapPasswordEnc: s.deps.service.secrets.encrypt('mailbox-pw'),
      },
    });

    await s.db.prisma.campaignEmailAccount.create({ data: { campaignId: campaign.id, emailAccountId: mailboxId } });

    await page.goto(`${s.url}/campaigns/${campaign.id}`);
    await page.getByRole('button', { name: 'Preview step 1, variation A' }).click();
    const panel = page.getByRole('region', { name: 'Preview of step 1, variation A' });
    // The campaign's first lead until another is chosen.
    await panel.getByText('Hello Bo').waitFor();
    await panel.getByRole('textbox', { name: 'Preview step 1, variation A for' }).click();
    await panel.getByRole('textbox', { name: 'Preview step 1, variation A for' }).fill('Grace');
    await page.getByRole('option', { name: /Grace Hopper/ }).click();
    await panel.getByText('Hello Grace').waitFor();
    // The body, in its sandboxed frame, with the spintax chosen and the fallback filled.
    const frame = panel.frameLocator('iframe[title^="E-mail body of step 1, variation A"]');
    await frame.getByText(/^(Hi|Hey) Grace, a question about your team\.$/).waitFor();
    expect(await panel.locator('iframe').getAttribute('sandbox')).toBe('');
    await panel.getByText(`From: ${MAILBOX}`).waitFor();
    // A taller window, so the photograph (taken from the top) shows the preview under the editor.
    await page.setViewportSize({ width: 1280, height: 1400 });
    await check(page, 'campaign-preview');
    await page.setViewportSize({ width: 1280, height: 800 });

    await panel.getByLabel('Send a test to').fill('me@review.test');
    await panel.getByRole('button', { name: 'Send the test' }).click();
    await panel.getByText(`Sent to me@review.test from ${MAILBOX} with the subject “[Test] Hello Grace”.`).waitFor();
    const arrived = smtp!.messages.filter((m) => m.to.includes('me@review.test'));
    expect(arrived).toHaveLength(1);
    expect((await simpleParser(arrived[0]!.raw)).subject).toBe('[Test] Hello Grace');
    // Nothing recorded as a campaign send.
    expect(await s.db.prisma.sentEmail.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await seriousViolations(page), 'accessibility after the test send').toEqual([]);

    // At 390 px the preview is usable too.
    const phone = await openPage(browser!, 'phone');
    await phone.page.context().addCookies(await page.context().cookies());
    await phone.page.goto(`${s.url}/campaigns/${campaign.id}`);
    await phone.page.getByRole('button', { name: 'Preview step 1, variation A' }).click();
    await phone.page.getByText('Hello Bo').waitFor();
    await check(phone.page, 'campaign-preview-phone');
    expect(errors).toEqual([]);
  });
});
