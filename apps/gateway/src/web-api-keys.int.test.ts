// Settings → API keys in a real browser (Debian's Chromium through playwright-core) against the
// real server: the owner creates a key, which is shown once and answers 200 on the REST API at
// once; revoking it in the app turns that into 401 at once. Every state passes axe-core;
// screenshots go to docs/screenshots/ at 1280 px and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { useTestServer } from './testing/suite';
import { signUpOwner } from './testing/web-owner';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations } from './testing/browser';

const unavailable = browserUnavailable();
const { server } = useTestServer();
let browser: Browser | undefined;

beforeAll(async () => {
  if (!unavailable) browser = await launchBrowser();
}, 60_000);
afterAll(() => browser?.close());

/** Axe-core on the screen as it is: no serious or critical violation; then, when named, its screenshot. */
async function check(page: Page, what: string, shot?: string) {
  expect(await seriousViolations(page), `accessibility of ${what}`).toEqual([]);
  if (shot) await screenshot(page, shot);
}

const workspacesWith = async (key: string) => (await fetch(`${server.url}/api/v1/workspaces`, { headers: { 'x-api-key': key } })).status;

describe.skipIf(unavailable)('API keys in a browser', () => {
  it('creates a key shown once that works on the API, and revoking it refuses it at once', async () => {
    const s = server;
    const ownerEmail = `owner-${Date.now().toString(36)}@keys.test`;
    const { page, errors } = await openPage(browser!);
    await signUpOwner(page, s, { email: ownerEmail, organization: 'Keys Inc', name: 'Kim Owner' });

    await page.goto(`${s.url}/settings/api-keys`);
    await page.getByText('No API keys yet.').waitFor();
    await check(page, 'API keys, empty');

    // A name left empty is refused next to its field, and the form keeps the rest.
    await page.getByRole('button', { name: 'Create a key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Only Default workspace').check();
    await dialog.getByRole('button', { name: 'Create the key' }).click();
    await dialog.getByText('must not be empty').waitFor();
    expect(await dialog.getByLabel('Only Default workspace').isChecked()).toBe(true);
    await check(page, 'create a key, refused');
    await dialog.getByLabel('All workspaces').check();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Zapier');
    await dialog.getByRole('button', { name: 'Create the key' }).click();

    // The key, once, with its warning; it works on the REST API at once.
    const shown = page.getByLabel('New API key');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/);
    await page.getByText('it will not be shown again').waitFor();
    expect(await workspacesWith(key)).toBe(200);
    const table = page.getByRole('table', { name: 'API keys' });
    const row = table.getByRole('row').filter({ hasText: 'Zapier' });
    await row.getByText('All workspaces').waitFor();
    await row.getByText('Full access').waitFor();
    await row.getByText('Active').waitFor();
    expect(await table.textContent()).not.toContain(key);
    await check(page, 'API keys, key shown', 'settings-api-keys');

    // Dismissed, the key is gone from the page for good.
    await page.getByRole('button', { name: 'Dismiss the key' }).click();
    await page.getByLabel('New API key').waitFor({ state: 'detached' });
    await page.reload();
    await table.getByText('Zapier').waitFor();
    expect(await page.content()).not.toContain(key);
    // Used once on the API: its last use is today, as its creation (the table's 4th and 5th columns).
    const cells = row.getByRole('cell');
    expect(await cells.nth(4).textContent()).toBe(await cells.nth(3).textContent());
    expect(await row.getByText('Never').count()).toBe(0);

    // Revoking asks first; then the key answers 401 at once.
    await page.getByRole('button', { name: 'Revoke the key Zapier' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke the key?' });
    await check(page, 'revoke confirmation');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText(/^Revoked/).waitFor();
    expect(await workspacesWith(key)).toBe(401);
    expect(await page.getByRole('button', { name: 'Revoke the key Zapier' }).count()).toBe(0);
    await check(page, 'API keys, revoked');

    await page.setViewportSize({ width: 390, height: 844 });
    await table.waitFor();
    await check(page, 'API keys on a phone', 'settings-api-keys-phone');
    expect(errors).toEqual([]);
  });
});
