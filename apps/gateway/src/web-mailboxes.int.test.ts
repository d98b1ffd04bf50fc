// The mailbox screens in a real browser against the real server, with real local servers: SMTP,
// IMAP (Dovecot) and DNS. The owner adds a mailbox with a wrong IMAP password (the refusal is
// said next to that field and the form keeps its input), fixes it and sees the mailbox listed
// ACTIVE, turns its warmup on, checks its domain (no DMARC: the screen says what to publish),
// edits its daily limit and pauses it on its own page. Every state passes axe-core; screenshots
// for docs/screenshots/ at 1280 px and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { imapServerUnavailable, startDnsServer, startImapServer, startSmtpServer, type DnsTestServer, type ImapTestServer, type SmtpTestServer } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { signUpOwner } from './testing/web-owner';
import { browserUnavailable, launchBrowser, openPage, screenshot, seriousViolations } from './testing/browser';

const unavailable = browserUnavailable() ?? imapServerUnavailable();
const DKIM_RECORD = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(9)}`;
const ADDRESS = 'sales@acme-mail.test';

let browser: Browser | undefined;
let smtp: SmtpTestServer | undefined;
let imap: ImapTestServer | undefined;
let dns: DnsTestServer | undefined;

beforeAll(async () => {
  // acme-mail.test has SPF, DKIM and MX, but no DMARC record.
  dns = await startDnsServer({
    records: {
      'acme-mail.test': { txt: ['v=spf1 ip4:127.0.0.1 -all'], mx: [{ exchange: 'mx.acme-mail.test', priority: 10 }] },
      'default._domainkey.acme-mail.test': { txt: [DKIM_RECORD] },
    },
  });
  if (unavailable) return;
  smtp = await startSmtpServer({ users: { [ADDRESS]: 'smtp-secret' } });
  imap = await startImapServer({ users: { [ADDRESS]: 'imap-secret' } });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await imap?.close();
  await smtp?.close();
  await dns?.close();
});
// Registered after the DNS server's hooks: it starts with the DNS server's address and closes first.
const { server } = useTestServer(() => ({ env: { DNS_SERVERS: dns!.address, DNS_TIMEOUT_MS: '500' } }));

async function check(page: Page, name: string | null) {
  expect(await seriousViolations(page), `accessibility of ${name ?? page.url()}`).toEqual([]);
  if (name) await screenshot(page, name);
}

describe.skipIf(unavailable)('the mailbox screens in a browser', () => {
  it('adds a mailbox (a refused IMAP login said next to its field), lists it, warms it up, checks its domain and edits it', async () => {
    const s = server;
    const { page, errors } = await openPage(browser!);

    await signUpOwner(page, s, { organization: 'Acme Mail', name: 'Max Mailer' });

    await page.getByRole('link', { name: 'Mailboxes', exact: true }).click();
    await page.getByText('No mailboxes yet.').waitFor();
    // No OAuth client is configured here: no Google or Microsoft button.
    expect(await page.getByRole('button', { name: /Connect (Google|Microsoft)/ }).count()).toBe(0);
    await check(page, null);

    // The form with a wrong IMAP password: the server refuses that login, and the form says so beside it.
    await page.getByRole('button', { name: 'Add a mailbox' }).click();
    const form = page.getByRole('form', { name: 'Add a mailbox' });
    await form.getByLabel('E-mail address').fill(ADDRESS);
    await form.getByLabel('From name (first)').fill('Sam');
    await form.getByLabel('SMTP host').fill('127.0.0.1');
    await form.getByLabel('SMTP port').fill(String(smtp!.port));
    await form.getByLabel('SMTP password').fill('smtp-secret');
    await form.getByLabel('IMAP host').fill('127.0.0.1');
    await form.getByLabel('IMAP port').fill(String(imap!.port));
    await form.getByLabel('IMAP password').fill('not-the-password');
    await form.getByRole('button', { name: 'Check and add' }).click();
    const imapPassword = form.getByLabel('IMAP password');
    // Dovecot answers a refused login after its failure delay: wait for the words, then read where they are.
    await form.getByText(/IMAP login refused/).waitFor();
    expect(await imapPassword.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await imapPassword.getAttribute('aria-describedby')) ?? '';
    const said = await page.locator(describedBy.split(' ').map((id) => `[id="${id}"]`).join(',')).allInnerTexts();
    expect(said.join(' ')).toMatch(/IMAP login refused/);
    // Nothing else is blamed, nothing was added, and what was typed is still there.
    expect(await form.getByLabel('SMTP password').getAttribute('aria-invalid')).not.toBe('true');
    expect(await form.getByLabel('SMTP host').inputValue()).toBe('127.0.0.1');
    expect(await form.getByLabel('From name (first)').inputValue()).toBe('Sam');
    expect(await s.db.prisma.emailAccount.count({ where: { email: ADDRESS } })).toBe(0);
    await check(page, 'mailbox-add');

    // Fixed, the mailbox is added and listed ACTIVE.
    await imapPassword.fill('imap-secret');
    await form.getByRole('button', { name: 'Check and add' }).click();
    await page.getByRole('form', { name: 'Add a mailbox' }).waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: new RegExp(ADDRESS) });
    await expect.poll(() => row.innerText()).toMatch(/Active/i);
    const stored = await s.db.prisma.emailAccount.findFirstOrThrow({ where: { email: ADDRESS } });
    expect(stored).toMatchObject({ status: 'ACTIVE', warmupStatus: 'INACTIVE', firstName: 'Sam', imapUsername: ADDRESS, dailyLimit: 30, sendingGap: 10 });
    expect(await row.innerText()).toMatch(/0 \/ 30/);

    // Warmup on, from its switch in the row.
    const warmup = page.getByRole('switch', { name: `Warmup of ${ADDRESS}` });
    await warmup.click();
    await expect.poll(() => s.db.prisma.emailAccount.findUniqueOrThrow({ where: { id: stored.id } }).then((a) => a.warmupStatus)).toBe('ACTIVE');
    await expect.poll(() => warmup.isChecked()).toBe(true);

    // The domain's vitals: DMARC is missing, and the screen says what to publish where.
    await page.getByRole('button', { name: 'Check the domains' }).click();
    const vitals = page.getByRole('row', { name: /acme-mail\.test/ }).filter({ hasText: 'Pass' });
    await expect.poll(() => vitals.getByRole('cell').allTextContents()).toEqual(['acme-mail.test', 'Pass', 'Pass', 'Missing', 'Pass']);
    const fixes = page.getByRole('list', { name: 'To fix for acme-mail.test' });
    expect(await fixes.innerText()).toMatch(/DMARC: publish a TXT record at _dmarc\.acme-mail\.test/);
    await check(page, 'mailboxes');

    // Its page: the daily limit is changed, then sending is paused.
    await page.getByRole('link', { name: ADDRESS }).click();
    await page.getByRole('heading', { name: ADDRESS }).waitFor();
    await page.getByLabel('Daily limit (e-mails a day)').fill('45');
    await page.getByRole('button', { name: 'Save sending' }).click();
    await page.getByText('The sending settings are saved.').waitFor();
    expect((await s.db.prisma.emailAccount.findUniqueOrThrow({ where: { id: stored.id } })).dailyLimit).toBe(45);
    expect(await page.getByRole('switch', { name: 'Warmup on' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Pause sending' }).click();
    await page.getByRole('button', { name: 'Resume sending' }).waitFor();
    expect((await s.db.prisma.emailAccount.findUniqueOrThrow({ where: { id: stored.id } })).status).toBe('PAUSED');
    await check(page, 'mailbox');

    // A phone-sized screen: the list, filtered to paused mailboxes, still usable.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${s.url}/mailboxes`);
    await page.getByRole('row', { name: new RegExp(ADDRESS) }).waitFor();
    await page.getByLabel('Search by address').fill('nobody-here');
    await page.getByText('No mailbox matches these filters.').waitFor();
    await page.getByLabel('Search by address').fill('sales');
    await expect.poll(() => page.getByRole('row', { name: new RegExp(ADDRESS) }).innerText()).toMatch(/Paused/i);
    await check(page, 'mailboxes-phone');
    expect(errors).toEqual([]);
  });
});
