// OAuth (XOAUTH2) mailboxes end to end, on local servers only: a local OAuth 2.0 / OpenID
// Connect provider (oauth2-mock-server) issues codes, ID tokens, access and refresh tokens;
// Dovecot's `oauth2` passdb and the SMTP server both validate each login's bearer token against
// that provider's userinfo endpoint. The mailbox is connected through the real start operation
// and callback, sends campaign e-mails and reads replies with XOAUTH2, survives its access
// token's expiry (a refresh before use, and one refresh after a refused login), and leaves
// rotation with an alert once its grant is revoked, until a new authorization reconnects it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type Database } from '@outreach/db';
import {
  createSendingFixture,
  expectDomainError,
  imapServerUnavailable,
  startImapServer,
  startOAuthProvider,
  startSmtpServer,
  testCtx,
  testDatabase,
  type ImapTestServer,
  type OAuthTestProvider,
  type SmtpTestServer,
} from '../testing/index';
import {
  completeOAuthCallback,
  createOAuthClient,
  deliverDueWebhooks,
  executeOperation,
  installationOAuthConfig,
  mailboxesToRead,
  operations,
  startReplyWorker,
  startSendingWorker,
  syncMailbox,
  type ServiceDeps,
} from '../index';
import { accessTokenFor, OAUTH_REVOKED_REASON } from './oauth-token.service';

const missingImap = imapServerUnavailable();
const START = '2026-11-25T10:00:00Z'; // a Wednesday, inside the campaigns' 08:00–18:00 UTC window
const MINUTE = 60_000;

let db: Database;
let provider: OAuthTestProvider;
let smtp: SmtpTestServer;
let imap: ImapTestServer | undefined;
let receiver: { url: string; bodies: Record<string, unknown>[]; close(): Promise<void> };

beforeAll(async () => {
  db = await testDatabase();
  provider = await startOAuthProvider();
  const userinfo = `${provider.url}/userinfo`;
  smtp = await startSmtpServer({ users: {}, oauth2: { userinfoUrl: userinfo } });
  // XOAUTH2 only (as Outlook offers it), so every token login below is an XOAUTH2 one. The
  // mailboxes' passwords serve the test alone, to put replies in their INBOX.
  if (!missingImap) {
    imap = await startImapServer({
      users: { 'box@oauth.test': 'append-pw', 'loop@oauth.test': 'append-pw' },
      oauth2: { url: userinfo, mode: 'auth', mechanisms: ['xoauth2'] },
    });
  }
  receiver = await startReceiver();
}, 30_000);
afterAll(async () => {
  await imap?.close();
  await smtp?.close();
  await provider?.stop();
  await receiver?.close();
});

/** A webhook receiver on 127.0.0.1 that records every JSON body. */
async function startReceiver() {
  const bodies: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`,
    bodies,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A workspace whose installation points Google at the local provider and at the local mail servers. */
async function setup() {
  const installation = {
    ...provider.settings('GOOGLE_WORKSPACE'),
    GOOGLE_SMTP_SERVER: `127.0.0.1:${smtp.port}`,
    GOOGLE_IMAP_SERVER: `127.0.0.1:${imap?.port ?? 1}`,
  };
  const t = await createSendingFixture({ db, smtp, passwords: {}, start: START, services: { installation } });
  const ctx = testCtx({ deps: t.deps, actor: t.org.actor });
  /** Connects `email` as its owner would: the start operation, the provider's consent, the callback. */
  const connect = async (email: string) => {
    provider.signInAs(email);
    const started = await executeOperation({ op: operations.emailAccount.oauthGoogleStart, ctx, input: { workspace_id: t.ws } });
    const callback = new URL(await provider.authorize(started.url));
    const result = await completeOAuthCallback(t.deps, { provider: 'GOOGLE_WORKSPACE', search: callback.search });
    if (result.outcome !== 'connected') throw result.error;
    return result;
  };
  const account = (id: string) => db.prisma.emailAccount.findUniqueOrThrow({ where: { id } });
  return { ...t, ctx, connect, account };
}

function reply(options: { from: string; to: string; inReplyTo: string; text: string }): Buffer {
  return Buffer.from(
    [
      `From: ${options.from}`,
      `To: ${options.to}`,
      'Subject: Re: Hello',
      `Message-ID: <reply-${newId()}@lead.test>`,
      'Date: Wed, 25 Nov 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      `In-Reply-To: <${options.inReplyTo}>`,
      '',
      options.text,
      '',
    ].join('\r\n'),
  );
}

/** What a lead writes back: appended to the mailbox's INBOX (with the test's own password login). */
async function deliverReply(mailbox: string, message: Buffer): Promise<void> {
  const client = new ImapFlow({ host: '127.0.0.1', port: imap!.port, secure: false, auth: { user: mailbox, pass: 'append-pw' }, logger: false });
  client.on('error', () => {});
  await client.connect();
  await client.append('INBOX', message);
  await client.logout();
}

const tokenLogins = (user: string) => smtp.logins.filter((l) => l.user === user && l.method === 'XOAUTH2');

describe.skipIf(missingImap)('an OAuth mailbox, end to end', () => {
  it('connects through the callback, sends and reads with XOAUTH2, refreshes its token, and leaves rotation when its grant is revoked', async () => {
    const BOX = 'box@oauth.test';
    const t = await setup();
    const connected = await t.connect(BOX);
    const id = connected.emailAccountId;
    const stored = await t.account(id);
    expect(stored).toMatchObject({ provider: 'GOOGLE_WORKSPACE', authType: 'XOAUTH2', status: 'ACTIVE', smtpPort: smtp.port, imapPort: imap!.port });
    expect(stored.oauthRefreshTokenEnc).toMatch(/^v1:/); // encrypted at rest
    await db.prisma.emailAccount.update({ where: { id }, data: { sendingGap: 0 } });
    const campaign = await t.campaign({ mailboxes: [id], steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: 'Hi there' }] }], schedule: { timezone: 'UTC', from: '08:00', to: '18:00' } });
    const sentTo = (lead: string) => smtp.messages.filter((m) => m.to.includes(lead) && m.from === BOX);
    // Four leads, due in this order; a tick sends from a mailbox once, so each tick sends the next one.
    const leads = new Map<string, string>();
    for (const lead of ['first@lead.test', 'second@lead.test', 'third@lead.test', 'fourth@lead.test']) leads.set(lead, await t.lead(campaign.id, lead));
    const sendTo = async (lead: string) => {
      t.clock.advance(2 * MINUTE); // past the mailbox's pause (up to a minute) after the previous send
      return { leadId: leads.get(lead)!, tick: await t.tick() };
    };
    /** Whether the SMTP logins since `from` were refused (nodemailer tries a refused token twice) and then accepted. */
    const refusedThenAccepted = (from: number) => {
      const since = tokenLogins(BOX).slice(from).map((l) => l.accepted);
      return since.length >= 2 && since.at(-1) === true && since.slice(0, -1).every((a) => !a);
    };

    // A campaign e-mail over XOAUTH2 SMTP, with the token the callback stored: no refresh.
    const first = await sendTo('first@lead.test');
    expect(first.tick.sent).toBe(1);
    expect(sentTo('first@lead.test')).toHaveLength(1);
    expect(tokenLogins(BOX)).toEqual([{ user: BOX, method: 'XOAUTH2', accepted: true }]);
    expect(provider.refreshCount(BOX)).toBe(0);

    // The lead replies; the reader logs in to Dovecot with XOAUTH2 and ingests it.
    const sent = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId: first.leadId } });
    await deliverReply(BOX, reply({ from: 'first@lead.test', to: BOX, inReplyTo: sent.messageId, text: 'Sounds good.' }));
    expect(await syncMailbox({ deps: t.deps, mailboxId: id })).toMatchObject({ status: 'ok', stored: 1 });
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: first.leadId } })).status).toBe('REPLIED');
    expect(await imap!.logins()).toContainEqual({ user: BOX, method: 'XOAUTH2' });
    expect(provider.refreshCount(BOX)).toBe(0);

    // The access token's hour passes: the provider no longer takes it, and the engine, seeing it
    // expire within minutes, refreshes it before the next send; the reader uses the new token.
    provider.expireAccessTokens();
    t.clock.advance(56 * MINUTE);
    const second = await sendTo('second@lead.test');
    expect(second.tick.sent).toBe(1);
    expect(provider.refreshCount(BOX)).toBe(1);
    expect(tokenLogins(BOX).map((l) => l.accepted)).toEqual([true, true]);
    expect(await syncMailbox({ deps: t.deps, mailboxId: id })).toMatchObject({ status: 'ok' });
    expect(provider.refreshCount(BOX)).toBe(1);

    // The provider drops the token early (as after a password change): the refused login is
    // refreshed once and retried, on SMTP and on IMAP, and the mailbox stays connected.
    provider.expireAccessTokens();
    const third = await sendTo('third@lead.test');
    expect(third.tick.sent).toBe(1);
    expect(sentTo('third@lead.test')).toHaveLength(1);
    expect(refusedThenAccepted(2)).toBe(true);
    expect(provider.refreshCount(BOX)).toBe(2);
    // The unified inbox sends with the same token handling (its connection closed first, as a
    // server closes idle ones: a connection already logged in would not log in again).
    await t.deps.ports.smtp.close();
    provider.expireAccessTokens();
    const unibox = await executeOperation({ op: operations.unibox.send, ctx: t.ctx, input: { workspace_id: t.ws, from: BOX, to: 'someone@else.test', subject: 'Intro', body: '<p>Hello</p>' } });
    expect(unibox.status).toBe('success');
    expect(sentTo('someone@else.test')).toHaveLength(1);
    expect(provider.refreshCount(BOX)).toBe(3);
    provider.expireAccessTokens();
    expect(await syncMailbox({ deps: t.deps, mailboxId: id })).toMatchObject({ status: 'ok' });
    expect(provider.refreshCount(BOX)).toBe(4);
    expect(await t.account(id)).toMatchObject({ status: 'ACTIVE', disconnectReason: null, imapFailures: 0 });


    // The grant is revoked: the next send's login is refused, the refresh answers invalid_grant,
    // and the mailbox is disconnected with an alert; the lead waits, nothing is sent.
    await executeOperation({ op: operations.webhook.add, ctx: t.ctx, input: { workspace_id: t.ws, url: receiver.url, camp_ids: ['ALL'], event_types: ['SYSTEM_ALERT'] } });
    // The mailbox's connection closed first, as above: a connection logged in before the revocation is
    // not asked to log in again. (Until 2026-12-08 every read wrote the mailbox's row, whose new
    // updated_at replaced the sender's pooled connection each time; reads that find nothing write nothing now.)
    await t.deps.ports.smtp.close();
    provider.revokeGrant(BOX);
    const fourth = await sendTo('fourth@lead.test');
    expect(fourth.tick).toMatchObject({ sent: 0, disconnected: 1 });
    expect(sentTo('fourth@lead.test')).toHaveLength(0);
    expect(await t.account(id)).toMatchObject({ status: 'DISCONNECTED', disconnectReason: OAUTH_REVOKED_REASON });

    // The API shows why: the list, the status, and GraphQL's health (the status operation).
    const listed = await executeOperation({ op: operations.emailAccount.list, ctx: t.ctx, input: { workspace_id: t.ws } });
    expect(listed.accounts.find((a) => a.id === id)).toMatchObject({ status: 'DISCONNECTED', disconnect_reason: 'oauth_revoked', last_error: expect.stringMatching(/OAuth grant revoked/) });
    const status = await executeOperation({ op: operations.emailAccount.status, ctx: t.ctx, input: { workspace_id: t.ws, email: BOX } });
    expect(status).toMatchObject({ status: 'DISCONNECTED', disconnect_reason: 'oauth_revoked' });

    // The SYSTEM_ALERT reaches the workspace's webhook.
    expect(await deliverDueWebhooks({ deps: t.deps, workspaceIds: [t.ws] })).toMatchObject({ delivered: 1 });
    expect(receiver.bodies).toEqual([
      expect.objectContaining({
        webhook_event: 'SYSTEM_ALERT',
        workspace_id: t.ws,
        alert_type: 'ACCOUNT_DISCONNECTED',
        email_account_id: id,
        email: BOX,
        provider: 'GOOGLE_WORKSPACE',
        disconnect_reason: 'oauth_revoked',
      }),
    ]);

    // Out of rotation: the scheduler picks it no more, the reader no longer reads it, no refresh
    // is tried again, and the alert is not repeated.
    const logins = smtp.logins.length;
    t.clock.advance(10 * MINUTE);
    expect(await t.tick()).toMatchObject({ claimed: 0, sent: 0 });
    expect(smtp.logins).toHaveLength(logins);
    expect(await mailboxesToRead({ deps: t.deps, workspaceIds: [t.ws] })).not.toContain(id);
    await expect(accessTokenFor({ deps: t.deps, accountId: id })).rejects.toThrow(/revoked/);
    await expectDomainError(
      executeOperation({ op: operations.unibox.send, ctx: t.ctx, input: { workspace_id: t.ws, from: BOX, to: 'someone@else.test', subject: 'Again', body: '<p>Hello</p>' } }),
      'precondition_failed',
      'unibox.mailbox_disconnected',
    );
    expect(provider.refreshCount(BOX)).toBe(4);
    expect(await db.prisma.webhookDelivery.count({ where: { workspaceId: t.ws, event: 'SYSTEM_ALERT' } })).toBe(1);

    // Authorized again (the callback of a new authorization): ACTIVE, and the waiting lead goes out.
    const again = await t.connect(BOX);
    expect(again).toMatchObject({ emailAccountId: id, reconnected: true });
    expect(await t.account(id)).toMatchObject({ status: 'ACTIVE', disconnectReason: null });
    t.clock.advance(2 * MINUTE);
    expect(await t.tick()).toMatchObject({ sent: 1 });
    expect(sentTo('fourth@lead.test')).toHaveLength(1);
    expect(await mailboxesToRead({ deps: t.deps, workspaceIds: [t.ws] })).toContain(id);
  }, 60_000);

  // The real worker loops, with a clock that moves as in production (120 times faster than real
  // time), on a mailbox whose token the provider no longer takes although it has not expired.
  it('keeps the sending and reply worker loops going over XOAUTH2 through a refused token', async () => {
    const LOOP = 'loop@oauth.test';
    const t = await setup();
    const { emailAccountId: id } = await t.connect(LOOP);
    await db.prisma.emailAccount.update({ where: { id }, data: { sendingGap: 0 } });
    const started = Date.now();
    const moving = { now: () => new Date(Date.parse(START) + (Date.now() - started) * 120) };
    const deps: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, clock: moving } };
    const campaign = await t.campaign({
      mailboxes: [id],
      steps: [{ variations: [{ label: 'A', subject: 'Loop {{first_name}}', body: 'Hi' }] }, { waitTime: 0, variations: [{ label: 'A', subject: '', body: 'Following up' }] }],
      schedule: { timezone: 'UTC', from: '08:00', to: '18:00' },
    });
    const leadId = await t.lead(campaign.id, 'loop@lead.test');
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
    };

    provider.expireAccessTokens();
    const sender = startSendingWorker({ deps, intervalMs: 50, workspaceIds: [t.ws] });
    try {
      await until(async () => (await db.prisma.sentEmail.count({ where: { leadId } })) >= 2);
    } finally {
      await sender.stop();
    }
    expect(smtp.messages.filter((m) => m.from === LOOP && m.to.includes('loop@lead.test'))).toHaveLength(2);
    // The first login was refused (nodemailer tries a token twice), refreshed once and retried;
    // the follow-up went with the new token (on the pooled connection, or a new login).
    const accepted = tokenLogins(LOOP).map((l) => l.accepted);
    expect(accepted.slice(0, accepted.indexOf(true))).toEqual([false, false]);
    expect(accepted.slice(accepted.indexOf(true)).every(Boolean)).toBe(true);
    expect(provider.refreshCount(LOOP)).toBeGreaterThanOrEqual(1);

    provider.expireAccessTokens();
    const xoauth2Logins = async () => (await imap!.logins()).filter((l) => l.user === LOOP && l.method === 'XOAUTH2').length;
    const loginsBefore = await xoauth2Logins();
    const reader = startReplyWorker({ deps, pollMs: 3_600_000, refreshMs: 3_600_000, workspaceIds: [t.ws] });
    try {
      // The first read refreshes the refused token; then the loop waits in IDLE, logged in with the new one.
      await until(async () => (await t.account(id)).imapSyncedAt !== null);
      await new Promise((r) => setTimeout(r, 500));
      const sent = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId }, orderBy: { sentAt: 'asc' } });
      await deliverReply(LOOP, reply({ from: 'loop@lead.test', to: LOOP, inReplyTo: sent.messageId, text: 'Got it.' }));
      await until(async () => (await db.prisma.sentEmail.count({ where: { leadId, repliedAt: { not: null } } })) === 1);
    } finally {
      await reader.stop();
    }
    // The reply is recorded against the send it answers (the lead had finished the sequence).
    expect(await db.prisma.sentEmail.count({ where: { leadId, repliedAt: { not: null } } })).toBe(1);
    // One login with the new token served the first read, the wait in IDLE and the reply's read (one session kept).
    expect((await xoauth2Logins()) - loginsBefore).toBe(1);
    expect(await t.account(id)).toMatchObject({ status: 'ACTIVE', disconnectReason: null });
  }, 60_000);
});

describe('refreshing an access token', () => {
  it('makes one refresh call when two workers want a new token for the same mailbox at once', async () => {
    const TWIN = 'twin@oauth.test';
    const t = await setup();
    const { emailAccountId: id } = await t.connect(TWIN);
    const before = await t.account(id);
    // Two workers (separate OAuth clients, as two processes have) over the same database and key.
    const other: ServiceDeps = {
      ...t.deps,
      ports: {
        ...t.deps.ports,
        oauth: createOAuthClient({ config: installationOAuthConfig({ db: t.deps.db, secrets: t.deps.secrets, env: t.deps.settings.installation }), allowInsecureHttp: true, clock: t.clock }),
      },
    };
    t.clock.advance(60 * MINUTE); // the token has expired
    const tokens = await Promise.all([accessTokenFor({ deps: t.deps, accountId: id }), accessTokenFor({ deps: other, accountId: id }), accessTokenFor({ deps: other, accountId: id })]);
    expect(provider.refreshCount(TWIN)).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(provider.verifyAccessToken(tokens[0]!)).toEqual({ email: TWIN });
    const after = await t.account(id);
    expect(after.oauthAccessTokenEnc).not.toBe(before.oauthAccessTokenEnc);
    expect(after.oauthAccessTokenEnc).not.toContain(tokens[0]!);
    expect(after.oauthRefreshLeaseUntil).toBeNull();
    // The new token is used as it is until it nears its expiry.
    expect(await accessTokenFor({ deps: other, accountId: id })).toBe(tokens[0]);
    expect(provider.refreshCount(TWIN)).toBe(1);
  });
});
