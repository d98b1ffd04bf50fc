// The leads screens in a real browser against the real server: the owner imports a 1,000-row
// CSV file (repeated addresses and one invalid address among them) into a campaign from the
// campaign's page, watches the progress bar advance chunk by chunk, reads the server's counts
// (checked against the database), scrolls the virtualised table, finds a lead by its address
// and labels it on its page. Every state passes axe-core; screenshots for docs/screenshots/.
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
afterAll(async () => {
  await browser?.close();
});

async function check(page: Page, name: string | null) {
  expect(await seriousViolations(page), `accessibility of ${name ?? page.url()}`).toEqual([]);
  if (name) await screenshot(page, name);
}

/** A campaign made on the campaigns screen; its id. */
async function createCampaign(page: Page, name: string): Promise<string> {
  await page.goto(`${server.url}/campaigns`);
  await page.getByRole('button', { name: 'New campaign' }).click();
  await page.getByLabel('Campaign name').fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('tab', { name: 'Sequence', exact: true }).waitFor();
  return page.url().split('/campaigns/')[1]!.split(/[?#/]/)[0]!;
}

const pad = (i: number) => String(i).padStart(4, '0');
const UNIQUE = 990;
/** 990 distinct leads, 9 repeats of earlier addresses (other case, spread over the file), one invalid address: 1,000 rows. */
function csvFile(): string {
  const rows = ['Email,First Name,Last Name,Company,Industry Segment'];
  for (let i = 0; i < UNIQUE; i++) {
    rows.push(`lead${pad(i)}@example.com,First${i},Last${i},Company ${i % 37},segment-${i % 5}`);
    if (i % 110 === 109) rows.push(`LEAD${pad(i - 100)}@Example.com,Again,Repeated,Dup Inc,dup`);
    if (i === 500) rows.push('not-an-address,Nobody,Invalid,None,none');
  }
  return `${rows.join('\r\n')}\r\n`;
}

describe.skipIf(unavailable)('the leads screens in a browser', () => {
  it('imports a 1,000-row CSV file in chunks with a moving progress bar, lists, finds and labels the leads', async () => {
    const s = server;
    const { page, errors } = await openPage(browser!);

    // The owner signs up; no leads yet: the screen says so and offers the import.
    await signUpOwner(page, server, { organization: 'Leads Ltd', name: 'Lena Leads' });
    await page.getByRole('link', { name: 'Leads', exact: true }).click();
    await page.getByText('No leads yet.').waitFor();
    await check(page, null);
    const campaignId = await createCampaign(page, 'Spring outreach');

    // From the campaign's page to the import, with the campaign chosen.
    await page.getByRole('link', { name: 'Import leads' }).click();
    await page.getByRole('heading', { name: 'Import leads from a CSV file' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csvFile()) });
    await page.getByText('leads.csv: 1,000 rows, 5 columns.').waitFor();
    // The columns are guessed from their headers; the one no field names becomes a custom variable.
    expect(await page.getByRole('textbox', { name: 'Column “Email”', exact: true }).inputValue()).toBe('E-mail');
    expect(await page.getByRole('textbox', { name: 'Column “First Name”', exact: true }).inputValue()).toBe('First name');
    expect(await page.getByRole('textbox', { name: 'Column “Industry Segment”', exact: true }).inputValue()).toBe('Custom variable {{industry_segment}}');
    expect(await page.getByRole('textbox', { name: 'Campaign', exact: true }).inputValue()).toBe('Spring outreach');
    await page.getByRole('radio', { name: 'Skip a lead already in any other campaign of the workspace' }).check();
    await check(page, null);

    // Every value the progress bar takes, recorded in the page as it changes.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as any).progressSeen = seen;
      const record = () => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
        const value = bar ? Number(bar.getAttribute('aria-valuenow')) : NaN;
        if (!Number.isNaN(value) && seen.at(-1) !== value) seen.push(value);
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    await page.getByRole('button', { name: 'Upload 1,000 rows' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    const seen: number[] = await page.evaluate(() => (window as any).progressSeen);
    const between = new Set(seen.filter((v) => v > 0 && v < 100));
    expect(between.size, `progress values seen: ${seen.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)).toBe(100);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen); // it only moves forward

    // The counts shown are the server's, and the database holds what they say.
    const result = page.getByRole('table', { name: 'Import result' });
    const shown = async (label: string) => Number((await result.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell').innerText()).replace(/\D/g, ''));
    expect(await shown('Added')).toBe(UNIQUE);
    expect(await shown('Repeated in the file')).toBe(9);
    expect(await shown('Invalid addresses')).toBe(1);
    expect(await shown('Already in the campaign')).toBe(0);
    expect(await s.db.prisma.lead.count({ where: { campaignId } })).toBe(UNIQUE);
    const uploads = await s.db.prisma.leadUpload.findMany({ where: { campaignId } });
    expect(uploads.length).toBeGreaterThanOrEqual(4); // sent in chunks
    const stored = (key: 'leadsUploaded' | 'duplicateEmailCount' | 'invalidEmailCount' | 'totalSent') => uploads.reduce((sum, u) => sum + u[key], 0);
    expect([stored('totalSent'), stored('leadsUploaded'), stored('duplicateEmailCount'), stored('invalidEmailCount')]).toEqual([1000, UNIQUE, 9, 1]);
    const variable = await s.db.prisma.lead.findFirstOrThrow({ where: { campaignId, emailNormalized: 'lead0042@example.com' } });
    expect(variable.customVariables).toEqual({ industry_segment: 'segment-2' });
    await check(page, 'leads-import');

    // The table: the campaign's 990 leads, counted, in a virtualised table read page by page.
    await page.getByRole('link', { name: 'See the leads' }).click();
    await page.getByText('990 leads match').waitFor();
    const table = page.getByRole('table', { name: 'Leads' });
    await table.getByRole('link', { name: 'lead0989@example.com' }).waitFor();
    const rowsInPage = () => table.locator('tbody tr[aria-rowindex]').count();
    expect(await rowsInPage()).toBeLessThan(60);
    await check(page, 'leads');

    // The table is as tall as the 990 leads: a jump to the middle or the end reads only the pages
    // there, and the page still holds only the rows in view.
    const region = page.getByRole('region', { name: 'Leads table (scrolls)' });
    const pageReads: number[] = [];
    page.on('request', (request) => {
      const offset = /"offset":(\d+)/.exec(request.postData() ?? '')?.[1];
      if (request.url().endsWith('/graphql') && offset) pageReads.push(Number(offset));
    });
    for (const [at, lead] of [
      [0.5, /^lead0(4|5)\d\d@example\.com$/],
      [1, 'lead0000@example.com'],
    ] as const) {
      await region.evaluate((el, f) => el.scrollTo(0, (el.scrollHeight - el.clientHeight) * f), at);
      await table.getByRole('link', { name: lead }).first().waitFor();
      expect(await rowsInPage()).toBeLessThan(60);
    }
    expect(pageReads).not.toContain(100); // the pages between the top and the middle were never read
    expect(pageReads).toContain(900);
    expect(await table.getAttribute('aria-rowcount')).toBe('991');

    // A page that cannot be read is said above the table, its rows wait, and "Try again" reads it.
    let failing = true;
    await page.route('**/graphql', (route) => (failing && /"offset":[1-9]/.test(route.request().postData() ?? '') ? route.abort('connectionreset') : route.fallback()));
    await region.evaluate((el) => el.scrollTo(0, (el.scrollHeight - el.clientHeight) * 0.25));
    const alert = page.getByRole('alert').filter({ hasText: 'Some leads could not be read' });
    await alert.waitFor();
    expect(await table.locator('tbody tr[aria-busy="true"]').count()).toBeGreaterThan(0);
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await table.getByRole('link', { name: /^lead07\d\d@example\.com$/ }).first().waitFor();
    await alert.waitFor({ state: 'detached' });
    await page.unroute('**/graphql');

    // Search by the start of an address finds the one lead.
    await page.getByLabel('Search by e-mail').fill('lead0500@');
    await page.getByText('1 lead matches').waitFor();
    await expect.poll(rowsInPage, { timeout: 10_000 }).toBe(1);
    await check(page, null);

    // Its page: fields, custom variables, no e-mails yet; its label changes.
    await table.getByRole('link', { name: 'lead0500@example.com' }).click();
    await page.getByRole('heading', { name: 'First500 Last500' }).waitFor();
    await page.getByRole('table', { name: 'Custom variables' }).getByRole('row', { name: /industry_segment/ }).waitFor();
    await page.getByText('Nothing was sent to this lead yet.').waitFor();
    await page.getByRole('textbox', { name: 'Label', exact: true }).click();
    await page.getByRole('option', { name: 'Interested', exact: true }).click();
    await page.getByText('Label set to Interested').waitFor();
    await expect.poll(() => s.db.prisma.lead.findFirstOrThrow({ where: { campaignId, emailNormalized: 'lead0500@example.com' } }).then((l) => l.label)).toBe('INTERESTED');
    await check(page, 'lead');

    // A phone-sized screen: the table keeps the address and the status.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${s.url}/leads`);
    await page.getByText('990 leads').waitFor();
    await table.getByRole('columnheader', { name: 'Lead' }).waitFor();
    await check(page, 'leads-phone');
    expect(errors).toEqual([]);
  });
  it('stops at a failed chunk, names the rows not uploaded, and uploads the rest on retry', async () => {
    const s = server;
    const { page, errors } = await openPage(browser!);
    await signUpOwner(page, server, { organization: 'Leads Ltd', name: 'Lena Leads' });
    const campaignId = await createCampaign(page, 'Retry run');
    const rows = ['email,first_name'];
    for (let i = 0; i < 600; i++) rows.push(`retry${pad(i)}@example.com,R${i}`);

    // The second request of the upload (rows 252–501 of the file) never reaches the server.
    let sent = 0;
    await page.route('**/graphql', (route) => {
      if ((route.request().postData() ?? '').includes('mutation AddLeads') && ++sent === 2) return route.abort('connectionfailed');
      return route.continue();
    });
    await page.getByRole('link', { name: 'Import leads' }).click();
    await page.locator('input[type="file"]').setInputFiles({ name: 'retry.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
    await page.getByRole('textbox', { name: 'Column “first_name”', exact: true }).click();
    await page.getByRole('option', { name: 'Leave out' }).click();
    await page.getByRole('button', { name: 'Upload 600 rows' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The upload stopped' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/could not be reached/);
    expect(await alert.innerText()).toContain('Not uploaded: rows 252–601 of the file (350 rows');
    expect(await page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('42');
    expect(await s.db.prisma.lead.count({ where: { campaignId } })).toBe(250);
    await check(page, null);

    // The mapping is kept (first_name still left out); the rest goes up, the first rows are not sent again.
    await page.unroute('**/graphql');
    expect(await page.getByRole('textbox', { name: 'Column “first_name”', exact: true }).inputValue()).toBe('Leave out');
    await page.getByRole('button', { name: 'Upload the rest' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    expect(await page.getByRole('table', { name: 'Import result' }).getByRole('row', { name: /^Added/ }).getByRole('cell').innerText()).toBe('600');
    expect(await s.db.prisma.lead.count({ where: { campaignId } })).toBe(600);
    expect(await s.db.prisma.lead.count({ where: { campaignId, firstName: { not: null } } })).toBe(0);
    expect(await s.db.prisma.leadUpload.aggregate({ where: { campaignId }, _sum: { totalSent: true } })).toEqual({ _sum: { totalSent: 600 } });
    expect(errors).toEqual([]);
  });
});
