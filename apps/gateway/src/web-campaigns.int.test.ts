// The campaigns list's row actions in a real browser against the real server: each row's menu
// (mounted when its button is first used) opens from the keyboard and gives the focus back on
// Escape; duplicate adds the copy, archive asks first and then says Archived, and a launch the
// server refuses is said in words. Every state passes axe-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newId } from '@outreach/db';
import { createTestCampaign } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { signUpOwner } from './testing/web-owner';
import { browserUnavailable, launchBrowser, openPage, seriousViolations } from './testing/browser';

const unavailable = browserUnavailable();
const OWNER = `owner-${newId()}@acme.test`;

let browser: Browser | undefined;
beforeAll(async () => {
  if (!unavailable) browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
const { server } = useTestServer();

async function check(page: Page) {
  expect(await seriousViolations(page), `accessibility of ${page.url()}`).toEqual([]);
}

describe.skipIf(unavailable)('the campaigns list in a browser', () => {
  it('opens a row menu from the keyboard, duplicates, archives after asking, and says why a launch was refused', async () => {
    const s = server;
    const { page, errors } = await openPage(browser!);
    const owner = await signUpOwner(page, s, { email: OWNER, organization: 'Acme', name: 'Ada Owner' });
    await page.getByText('No campaigns yet.').waitFor();

    const base = { db: s.db.prisma, organizationId: owner.organizationId, workspaceId: owner.workspaceId };
    await createTestCampaign({ ...base, name: 'Alpha', status: 'PAUSED', steps: [{ variations: [{ label: 'A', subject: 'Hi', body: 'Hello' }] }] });
    await createTestCampaign({ ...base, name: 'Beta' }); // a draft without a step
    await page.reload();
    const table = page.getByRole('table', { name: 'Campaigns' });
    await table.getByRole('link', { name: 'Beta' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
    expect(await table.getByRole('row', { name: /Alpha/ }).textContent()).toContain('Paused');
    await check(page);

    // The keyboard: Enter opens the menu, Escape closes it and the focus is back on the button.
    const alphaActions = page.getByRole('button', { name: 'Actions for Alpha', exact: true });
    await alphaActions.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Edit', 'Launch', 'Duplicate', 'Archive']);
    await check(page);
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Actions for Alpha');

    // Duplicate: the copy is listed.
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    await page.getByText('Done: duplicate Alpha').waitFor();
    await table.getByRole('link', { name: 'Alpha (copy)' }).waitFor();

    // Launching a draft without a step: refused, and said in words.
    await page.getByRole('button', { name: 'Actions for Beta' }).click();
    await page.getByRole('menuitem', { name: 'Launch' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Could not launch Beta' });
    await refused.waitFor();
    expect((await refused.textContent())!.length).toBeGreaterThan('Could not launch Beta'.length + 10);
    expect((await s.db.prisma.campaign.findFirstOrThrow({ where: { workspaceId: owner.workspaceId, name: 'Beta' } })).status).toBe('DRAFT');

    // Archive asks first; then the row says Archived and its menu no longer offers it.
    await alphaActions.click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive the campaign?' });
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => table.getByRole('row', { name: /^Alpha Archived/ }).count()).toBe(1);
    expect((await s.db.prisma.campaign.findFirstOrThrow({ where: { workspaceId: owner.workspaceId, name: 'Alpha' } })).status).toBe('ARCHIVED');
    await alphaActions.click();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Edit', 'Duplicate']);
    await check(page);
    expect(errors).toEqual([]);
  });
});
