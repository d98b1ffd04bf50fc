// Mailbox servers on the gateway's own network: refused unless ALLOW_PRIVATE_TARGETS, both
// when an account is added and when the sending and reading workers connect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  imapServerUnavailable,
  startImapServer,
  startSmtpServer,
  type ImapTestServer,
  type SmtpTestServer,
} from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { routes } from './rest/routes';
import { emailAccountRoutes } from './rest/routes/email-account.routes';

const missing = imapServerUnavailable();
if (missing) console.warn(missing);

const BANNER = 'Zk4banner-marker';
const USERS = { 'box@out.test': 'box-secret' };
let smtp: SmtpTestServer;
let imap: ImapTestServer;

beforeAll(async () => {
  if (missing) return;
  smtp = await startSmtpServer({ users: USERS, banner: BANNER });
  imap = await startImapServer({ users: USERS, greeting: BANNER });
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await imap?.close();
});
// Registered after the mail servers' hooks, so the app closes before them.
const { server } = useTestServer({
  routes: routes.includes(emailAccountRoutes[0]!) ? routes : [...routes, ...emailAccountRoutes],
  env: { ALLOW_PRIVATE_TARGETS: 'false' },
});

describe.skipIf(missing !== null)('private mail hosts with ALLOW_PRIVATE_TARGETS=false', () => {
  it('bulk-add answers 400 naming the host fields, stores nothing and shows no banner', async () => {
    const org = await createTestOrganization({ db: server.db });
    const account = {
      email: 'box@out.test',
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_username: 'box@out.test',
      smtp_password: USERS['box@out.test'],
      imap_host: '127.0.0.1',
      imap_port: imap.port,
      imap_username: 'box@out.test',
      imap_password: USERS['box@out.test'],
    };
    const added = await server.rest('POST', '/account/bulk-add-regular-accounts', { key: org.apiKey, body: { workspace_id: org.workspaceId, accounts: [account] } });
    expect(added.status).toBe(400);
    expect(added.body.errors.map((e: { field: string }) => e.field)).toEqual(['accounts.0.smtp_host', 'accounts.0.imap_host']);
    expect(JSON.stringify(added.body)).not.toContain(BANNER);
    const listed = await server.rest('GET', '/account/list', { key: org.apiKey, query: { workspace_id: org.workspaceId } });
    expect(listed.body.accounts).toEqual([]);
  });

  it('the sending and reading connections refuse a private host too', async () => {
    const { ports } = server.deps.service;
    const settings = { host: '127.0.0.1', username: 'box@out.test', password: USERS['box@out.test'] };
    const outcome = await ports.smtp.send({
      mailboxId: 'private-host-test',
      version: '1',
      smtp: { ...settings, port: smtp.port },
      message: { from: { name: 'Box', address: 'box@out.test' }, to: 'lead@x.test', subject: 's', html: null, text: 't', messageId: 'private-host-test@out.test' },
    });
    expect(outcome).toEqual({ status: 'auth', code: null, message: expect.stringMatching(/^SMTP server not allowed: .*ALLOW_PRIVATE_TARGETS/) });
    expect(smtp.messages).toEqual([]);
    const read = await ports.imap.fetchNew({ imap: { ...settings, port: imap.port }, uidValidity: null, lastUid: 0n, max: 10 }).then(
      () => null,
      (error: Error) => error,
    );
    expect(read?.message).toMatch(/^IMAP server not allowed: .*ALLOW_PRIVATE_TARGETS/);
    expect(read?.message).not.toContain(BANNER);
  });
});
