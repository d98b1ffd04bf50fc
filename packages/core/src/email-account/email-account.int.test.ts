import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestOrganization, expectDomainError, testCtx, testDatabase, testServiceDeps } from '../testing/index';
import { startSmtpServer, type SmtpTestServer } from '../testing/smtp-server';
import { imapServerUnavailable, startImapServer, type ImapTestServer } from '../testing/imap-server';
import { executeOperation } from '../shared/operation';
import { createOrganization } from '../workspace/index';
import { emailAccountOperations as ops } from './index';

const missing = imapServerUnavailable();
if (missing) console.warn(missing);

let db: Database;
let smtp: SmtpTestServer;
let imap: ImapTestServer;
const USERS = { 'good@out.test': 'smtp-secret', 'other@out.test': 'other-secret', 'third@out.test': 'third-secret', 'fourth@out.test': 'fourth-secret' };
// In both servers' greetings: no answer may ever carry it (the servers' own words stay theirs).
const BANNER = 'Xq7banner-marker';

beforeAll(async () => {
  db = await testDatabase();
  if (missing) return;
  smtp = await startSmtpServer({ users: USERS, banner: BANNER });
  imap = await startImapServer({ users: USERS, greeting: BANNER });
}, 30_000);
afterAll(async () => {
  await smtp?.close();
  await imap?.close();
});

async function setup() {
  const org = await createTestOrganization({ db });
  const deps = testServiceDeps({ db });
  const ctx = testCtx({ deps, actor: org.actor });
  return { org, ctx, deps, ws: org.workspaceId };
}

function account(email: string, overrides: Record<string, unknown> = {}) {
  const password = (USERS as Record<string, string>)[email] ?? 'nope';
  return {
    email,
    first_name: 'Ada',
    last_name: 'Lovelace',
    smtp_host: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_username: email,
    smtp_password: password,
    imap_host: '127.0.0.1',
    imap_port: imap.port,
    imap_username: email,
    imap_password: password,
    ...overrides,
  };
}

describe('bulk-add login checks', () => {
  it('checks at most 5 accounts at once and still adds every verified one', async () => {
    const org = await createTestOrganization({ db });
    let inFlight = 0;
    let peak = 0;
    const slow = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
    };
    const ctx = testCtx({ deps: testServiceDeps({ db, mail: { verifySmtp: slow, verifyImap: slow } }), actor: org.actor });
    const accounts = Array.from({ length: 12 }, (_, i) => ({
      email: `box${i}@out.test`,
      smtp_host: 'h',
      smtp_port: 25,
      smtp_username: 'u',
      smtp_password: 'p',
      imap_host: 'h',
      imap_port: 143,
      imap_username: 'u',
      imap_password: 'p',
    }));
    const added = await executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: org.workspaceId, accounts } });
    expect(added.added.map((a) => a.email)).toEqual(accounts.map((a) => a.email));
    expect(peak).toBe(5);
    expect(await db.prisma.emailAccount.count({ where: { workspaceId: org.workspaceId } })).toBe(12);
  });
});

describe.skipIf(missing !== null)('email accounts', () => {
  it('adds a verified account, reports refused and unreachable logins, and stores passwords encrypted', async () => {
    const { ctx, ws } = await setup();
    const added = await executeOperation({
      op: ops.bulkAdd,
      ctx,
      input: {
        workspace_id: ws,
        enable_warmup: 'yes',
        accounts: [
          account('good@out.test', { daily_limit: 50 }),
          account('other@out.test', { smtp_password: 'wrong' }),
          account('third@out.test', { smtp_port: 1 }),
          account('GOOD@out.test'),
        ],
      },
    });
    expect(added.added).toEqual([{ email: 'good@out.test', _id: expect.stringMatching(/^[0-9a-f]{24}$/), id: added.added[0]!._id }]);
    expect(added.failed).toHaveLength(3);
    const byEmail = Object.fromEntries(added.failed.map((f) => [f.email, f.error]));
    expect(byEmail['GOOD@out.test']).toBe('already connected');
    expect(byEmail['other@out.test']).toMatch(/^SMTP login refused/);
    expect(byEmail['third@out.test']).toMatch(/^SMTP server unreachable/);
    expect(JSON.stringify(added)).not.toContain('smtp-secret');

    const row = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: added.added[0]!._id } });
    expect([row.status, row.warmupStatus, row.dailyLimit, row.sendingGap, row.firstName]).toEqual(['ACTIVE', 'ACTIVE', 50, 10, 'Ada']);
    expect(row.smtpPasswordEnc).not.toBe('smtp-secret');
    expect(row.imapPasswordEnc).not.toContain('smtp-secret');
    expect(ctx.secrets.decrypt(row.smtpPasswordEnc)).toBe('smtp-secret');
    expect(ctx.secrets.decrypt(row.imapPasswordEnc)).toBe('smtp-secret');

    // Adding it again in a later request: already connected, nothing verified.
    const again = await executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [account('Good@Out.test')] } });
    expect(again).toEqual({ status: 'success', added: [], failed: [{ email: 'Good@Out.test', error: 'already connected' }] });
  }, 60_000);

  it('reports a refused IMAP login when SMTP passes', async () => {
    const { ctx, ws } = await setup();
    const added = await executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [account('other@out.test', { imap_password: 'wrong' })] } });
    expect(added.added).toEqual([]);
    expect(added.failed[0]!.error).toMatch(/^IMAP login refused/);
  }, 30_000);

  it('validates the accounts and names the field', async () => {
    const { ctx, ws } = await setup();
    const error = await expectDomainError(
      executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [account('good@out.test', { smtp_port: 70000, email: 'nope' })] } }),
      'invalid',
    );
    expect(error.fieldErrors.map((f) => f.field).sort()).toEqual(['accounts.0.email', 'accounts.0.smtp_port']);
    await expectDomainError(executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [] } }), 'invalid');
  });

  it('lists accounts with the vendor shape, filters, pages and refuses `page`', async () => {
    const { org, ctx, ws } = await setup();
    const added = await executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [account('good@out.test'), account('other@out.test', { sending_gap: 3 })] } });
    expect(added.failed).toEqual([]);
    const [a, b] = added.added.map((x) => x._id) as [string, string];
    const campaign = await createTestCampaign({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws });
    await db.prisma.campaignEmailAccount.create({ data: { campaignId: campaign.id, emailAccountId: b } });
    const tag = await db.prisma.tag.create({ data: { id: 'abcabcabcabcabcabcabcabc'.slice(0, 12) + ws.slice(12), workspaceId: ws, name: 'T', nameNormalized: 't', color: '#000000' } });
    await executeOperation({ op: ops.bulkAssignTags, ctx, input: { workspace_id: ws, ids: [b], tag_id: tag.id, action: 'ASSIGN' } });

    const listed = await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws } });
    expect(listed.accounts.map((x) => x._id)).toEqual([a, b]);
    expect(listed.accounts[1]).toEqual({
      _id: b,
      id: b,
      email: 'other@out.test',
      status: 'ACTIVE',
      warmup_status: 'INACTIVE',
      provider: 'REGULAR_ACCOUNT',
      last_error: null,
      disconnect_reason: null,
      timestamp_created: expect.any(String),
      timestamp_updated: expect.any(String),
      payload: {
        name: { first_name: 'Ada', last_name: 'Lovelace' },
        daily_limit: 30,
        sending_gap: 3,
        imap_host: '127.0.0.1',
        imap_port: imap.port,
        smtp_host: '127.0.0.1',
        smtp_port: smtp.port,
        signature: '',
        warmup: expect.objectContaining({ limit: 20, increment: 2, reply_rate: 30, warmup_custom_words: '', warmup_signature: '', advanced: {} }),
        tags: [tag.id],
        cmps: [campaign.id],
        // Nothing sent yet: nothing against it, no rate.
        analytics: {
          health_scores: {
            health_score: 100,
            '7d_overall_warmup_health': 100,
            '7d_google_warmup_health': -1,
            '7d_microsoft_warmup_health': -1,
            '7d_other_warmup_health': -1,
            '1d_miss_warmup_rate': -1,
            '3d_bounce_rate': -1,
            '7d_bounce_rate': -1,
            health_inputs: expect.objectContaining({ status: 'ACTIVE', sent_7d: 0, warmup_inbox_7d: 0, spf: null }),
          },
          reply_rates: { '7d_replyrate': -1, '7d_ooo_replyrate': -1 },
          daily_counters: { email_sent_today: 0, email_replied_today: 0, email_bounced_today: 0, warmup_email_sent_today: 0 },
        },
      },
    });
    expect(JSON.stringify(listed)).not.toMatch(/secret|password/i);

    const page2 = await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, skip: '1', limit: '1' } });
    expect(page2.accounts.map((x) => x._id)).toEqual([b]);
    const byTag = await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, tags: tag.id } });
    expect(byTag.accounts.map((x) => x._id)).toEqual([b]);
    const byEmail = await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, email: 'GOOD' } });
    expect(byEmail.accounts.map((x) => x._id)).toEqual([a]);
    const page = await expectDomainError(executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, page: '1' } }), 'invalid');
    expect(page.message).toBe('page is not allowed');
    expect(page.fieldErrors).toEqual([{ field: 'page', message: 'is not allowed' }]);
  }, 60_000);

  it('answers status, toggles warmup, deletes and 404s on unknown addresses', async () => {
    const { org, ctx, ws } = await setup();
    const { id } = await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws, email: 'Box@Out.test' });
    const campaign = await createTestCampaign({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws });
    await db.prisma.campaignEmailAccount.create({ data: { campaignId: campaign.id, emailAccountId: id } });
    const lead = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws, campaignId: campaign.id, email: 'lead@x.test' });
    await db.prisma.lead.update({ where: { id: lead.id }, data: { emailAccountId: id } });

    expect(await executeOperation({ op: ops.status, ctx, input: { workspace_id: ws, email: 'box@out.test' } })).toEqual({
      account: 'Box@Out.test',
      email: 'Box@Out.test',
      status: 'ACTIVE',
      warmup_status: 'INACTIVE',
      last_error: null,
      disconnect_reason: null,
      last_synced_at: null,
      health_score: 100,
      health_inputs: expect.objectContaining({ status: 'ACTIVE', imap_failures: 0, sent_7d: 0 }),
      daily_counters: { email_sent_today: 0, warmup_email_sent_today: 0 },
    });
    expect(await executeOperation({ op: ops.enableWarmup, ctx, input: { workspace_id: ws, email: 'box@out.test' } })).toEqual({ status: 'success', warmup_status: 'ACTIVE' });
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id } })).warmupStatus).toBe('ACTIVE');
    expect(await executeOperation({ op: ops.pauseWarmup, ctx, input: { workspace_id: ws, email: 'box@out.test' } })).toEqual({ status: 'success', warmup_status: 'INACTIVE' });
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id } })).warmupStatus).toBe('INACTIVE');

    expect(await executeOperation({ op: ops.delete, ctx, input: { workspace_id: ws, email: 'BOX@out.test' } })).toEqual({ status: 'success' });
    expect(await db.prisma.emailAccount.count({ where: { id } })).toBe(0);
    expect(await db.prisma.campaignEmailAccount.count({ where: { emailAccountId: id } })).toBe(0);
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: lead.id } })).emailAccountId).toBeNull();
    await expectDomainError(executeOperation({ op: ops.status, ctx, input: { workspace_id: ws, email: 'box@out.test' } }), 'not_found', 'email_account.not_found');
    await expectDomainError(executeOperation({ op: ops.delete, ctx, input: { workspace_id: ws, email: 'box@out.test' } }), 'not_found');
    await expectDomainError(executeOperation({ op: ops.enableWarmup, ctx, input: { workspace_id: ws, email: 'box@out.test' } }), 'not_found');
  });

  it('bulk-updates settings and warmup, ignoring other workspaces\' ids', async () => {
    const { org, ctx, ws } = await setup();
    const other = await setup();
    const mine = await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws, email: 'a@out.test' });
    const theirs = await createTestMailbox({ db: db.prisma, organizationId: other.org.organizationId, workspaceId: other.ws, email: 'b@out.test' });
    const updated = await executeOperation({ op: ops.bulkUpdate, ctx, input: { workspace_id: ws, ids: [mine.id, theirs.id], daily_limit: 0, sending_gap: 1440, signature: '-- Ada' } });
    expect(updated).toEqual({ status: 'success', updated_count: 1, updated_ids: [mine.id] });
    const row = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: mine.id } });
    expect([row.dailyLimit, row.sendingGap, row.signature]).toEqual([0, 1440, '-- Ada']);
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: theirs.id } })).dailyLimit).toBe(30);
    const tooMany = await expectDomainError(executeOperation({ op: ops.bulkUpdate, ctx, input: { workspace_id: ws, ids: [mine.id], daily_limit: 10_001 } }), 'invalid');
    expect(tooMany.fieldErrors[0]!.field).toBe('daily_limit');
    await expectDomainError(executeOperation({ op: ops.bulkUpdate, ctx, input: { workspace_id: ws, ids: [mine.id] } }), 'invalid');

    const warm = await executeOperation({ op: ops.bulkUpdateWarmup, ctx, input: { workspace_id: ws, ids: [mine.id, theirs.id], warmup_status: 'ACTIVE' } });
    expect(warm).toEqual({ updated_count: 1, updated_ids: [mine.id] });
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: mine.id } })).warmupStatus).toBe('ACTIVE');
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: theirs.id } })).warmupStatus).toBe('INACTIVE');
  });

  it('assigns and unassigns a tag; another workspace\'s tag is 404', async () => {
    const { org, ctx, ws } = await setup();
    const other = await setup();
    const box = await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws, email: 'a@out.test' });
    const tagId = `${ws.slice(0, 12)}0000000000aa`;
    await db.prisma.tag.create({ data: { id: tagId, workspaceId: ws, name: 'X', nameNormalized: 'x', color: '#000000' } });
    const foreignTag = `${other.ws.slice(0, 12)}0000000000bb`;
    await db.prisma.tag.create({ data: { id: foreignTag, workspaceId: other.ws, name: 'Y', nameNormalized: 'y', color: '#000000' } });
    expect(await executeOperation({ op: ops.bulkAssignTags, ctx, input: { workspace_id: ws, ids: [box.id], tag_id: tagId, action: 'ASSIGN' } })).toEqual({ status: 'success', updated_count: 1 });
    // Idempotent.
    await executeOperation({ op: ops.bulkAssignTags, ctx, input: { workspace_id: ws, ids: [box.id], tag_id: tagId, action: 'ASSIGN' } });
    expect(await db.prisma.emailAccountTag.count({ where: { emailAccountId: box.id } })).toBe(1);
    await executeOperation({ op: ops.bulkAssignTags, ctx, input: { workspace_id: ws, ids: [box.id], tag_id: tagId, action: 'UNASSIGN' } });
    expect(await db.prisma.emailAccountTag.count({ where: { emailAccountId: box.id } })).toBe(0);
    await expectDomainError(executeOperation({ op: ops.bulkAssignTags, ctx, input: { workspace_id: ws, ids: [box.id], tag_id: foreignTag, action: 'ASSIGN' } }), 'not_found', 'tag.not_found');
  });

  it('reconnect flips to DISCONNECTED when the server password changes, and back', async () => {
    const { ctx, ws } = await setup();
    const added = await executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [account('third@out.test')] } });
    const id = added.added[0]!._id;
    smtp.users.set('third@out.test', 'changed');
    try {
      const down = await executeOperation({ op: ops.bulkReconnect, ctx, input: { workspace_id: ws, ids: [id] } });
      expect(down.results).toEqual([{ _id: id, id, email: 'third@out.test', status: 'DISCONNECTED', error: expect.stringMatching(/^SMTP login refused/) }]);
      const status = await executeOperation({ op: ops.status, ctx, input: { workspace_id: ws, email: 'third@out.test' } });
      expect([status.status, status.last_error]).toEqual(['DISCONNECTED', expect.stringMatching(/^SMTP login refused/)]);
    } finally {
      smtp.users.set('third@out.test', USERS['third@out.test']);
    }
    // As the reply reader leaves a mailbox whose IMAP login was refused: disconnected, backing off.
    await db.prisma.emailAccount.update({ where: { id }, data: { disconnectReason: 'imap_auth', imapFailures: 3, imapRetryAt: new Date(Date.now() + 3_600_000) } });
    expect((await executeOperation({ op: ops.status, ctx, input: { workspace_id: ws, email: 'third@out.test' } })).disconnect_reason).toBe('imap_auth');
    const up = await executeOperation({ op: ops.bulkReconnect, ctx, input: { workspace_id: ws, ids: [id] } });
    expect(up).toEqual({ status: 'success', results: [{ _id: id, id, email: 'third@out.test', status: 'ACTIVE' }] });
    const row = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id } });
    expect([row.status, row.lastError, row.disconnectReason, row.imapFailures, row.imapRetryAt]).toEqual(['ACTIVE', null, null, 0, null]);
  }, 60_000);

  it('reconnect reports a refused IMAP login after the Dovecot password changes', async () => {
    const { ctx, ws } = await setup();
    const added = await executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [account('other@out.test')] } });
    const id = added.added[0]!._id;
    await imap.setPassword('other@out.test', 'rotated');
    try {
      const down = await executeOperation({ op: ops.bulkReconnect, ctx, input: { workspace_id: ws, ids: [id] } });
      expect(down.results[0]).toMatchObject({ status: 'DISCONNECTED', error: expect.stringMatching(/^IMAP login refused/) });
    } finally {
      await imap.setPassword('other@out.test', USERS['other@out.test']);
    }
    const up = await executeOperation({ op: ops.bulkReconnect, ctx, input: { workspace_id: ws, ids: [id] } });
    expect(up.results[0]!.status).toBe('ACTIVE');
  }, 60_000);

  it('moves accounts to another workspace of the organization, skipping addresses already there', async () => {
    const { org, ctx, ws } = await setup();
    const target = await db.prisma.workspace.create({ data: { id: `${ws.slice(0, 12)}00000000ffff`, organizationId: org.organizationId, name: 'Second' } });
    const a = await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws, email: 'a@out.test' });
    const b = await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws, email: 'b@out.test' });
    await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: target.id, email: 'B@out.test' });
    const campaign = await createTestCampaign({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws });
    await db.prisma.campaignEmailAccount.create({ data: { campaignId: campaign.id, emailAccountId: a.id } });

    const moved = await executeOperation({ op: ops.moveWorkspace, ctx, input: { workspace_id: ws, to_workspace_id: target.id, ids: [a.id, b.id] } });
    expect(moved).toEqual({ status: 'success', moved: 1 });
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: a.id } })).workspaceId).toBe(target.id);
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: b.id } })).workspaceId).toBe(ws);
    expect(await db.prisma.campaignEmailAccount.count({ where: { emailAccountId: a.id } })).toBe(0);

    const foreign = await createOrganization({ db: db.prisma, name: 'foreign' });
    await expectDomainError(
      executeOperation({ op: ops.moveWorkspace, ctx, input: { workspace_id: ws, to_workspace_id: foreign.workspaceId, ids: [b.id] } }),
      'forbidden',
    );
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: b.id } })).workspaceId).toBe(ws);
  });
});

describe.skipIf(missing !== null)('connecting only to allowed mail servers', () => {
  it('refuses private SMTP and IMAP hosts with 400 naming each field, connecting nowhere and storing nothing', async () => {
    const org = await createTestOrganization({ db });
    const ctx = testCtx({ deps: testServiceDeps({ db, allowPrivateTargets: false }), actor: org.actor });
    const error = await expectDomainError(
      executeOperation({
        op: ops.bulkAdd,
        ctx,
        input: {
          workspace_id: org.workspaceId,
          accounts: [
            account('good@out.test'),
            // A public address is fine; `localhost` resolves to loopback.
            account('other@out.test', { smtp_host: '8.8.8.8', imap_host: 'localhost' }),
          ],
        },
      }),
      'invalid',
      'email_account.private_host',
    );
    expect(error.fieldErrors.map((f) => f.field)).toEqual(['accounts.0.smtp_host', 'accounts.0.imap_host', 'accounts.1.imap_host']);
    expect(error.fieldErrors[0]!.message).toMatch(/private.*ALLOW_PRIVATE_TARGETS/);
    expect(JSON.stringify({ message: error.message, fields: error.fieldErrors })).not.toContain(BANNER);
    expect(await db.prisma.emailAccount.count({ where: { workspaceId: org.workspaceId } })).toBe(0);
  }, 30_000);

  it('reconnect marks a mailbox whose stored host is private DISCONNECTED, naming the field, without connecting', async () => {
    const { org, ctx, deps, ws } = await setup();
    const added = await executeOperation({ op: ops.bulkAdd, ctx, input: { workspace_id: ws, accounts: [account('fourth@out.test')] } });
    const id = added.added[0]!._id;
    const strict = testCtx({ deps: { ...testServiceDeps({ db, allowPrivateTargets: false }), secrets: deps.secrets }, actor: org.actor });
    const down = await executeOperation({ op: ops.bulkReconnect, ctx: strict, input: { workspace_id: ws, ids: [id] } });
    expect(down.results).toEqual([{ _id: id, id, email: 'fourth@out.test', status: 'DISCONNECTED', error: expect.stringMatching(/^smtp_host must not be .*private.*ALLOW_PRIVATE_TARGETS/) }]);
    expect(JSON.stringify(down)).not.toContain(BANNER);
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id } })).status).toBe('DISCONNECTED');
  }, 30_000);

  it('answers a failed check with a fixed message, never with text from the server', async () => {
    const { ctx, ws } = await setup();
    const added = await executeOperation({
      op: ops.bulkAdd,
      ctx,
      input: {
        workspace_id: ws,
        accounts: [
          account('good@out.test', { smtp_password: 'wrong' }),
          // SMTP pointed at Dovecot, and IMAP at the SMTP server: each greets with the other's banner.
          account('other@out.test', { smtp_port: imap.port }),
          account('third@out.test', { imap_port: smtp.port }),
          account('fourth@out.test', { imap_password: 'wrong' }),
        ],
      },
    });
    expect(added.added).toEqual([]);
    expect(Object.fromEntries(added.failed.map((f) => [f.email, f.error]))).toEqual({
      'good@out.test': 'SMTP login refused: the server did not accept the username or password',
      'other@out.test': 'SMTP server unreachable: it did not answer as an SMTP server',
      // An SMTP greeting is no IMAP greeting: the client waits for one until it gives up.
      'third@out.test': 'IMAP server unreachable: timed out',
      'fourth@out.test': 'IMAP login refused: the server did not accept the username or password',
    });
    const text = JSON.stringify(added);
    expect(text).not.toContain(BANNER);
    expect(text).not.toMatch(/invalid username|authenticationfailed|authentication failed|ESMTP/i);
  }, 60_000);
});

describe('email account list ordering', () => {
  it('sorts by address or status in either direction and keeps one status', async () => {
    const { org, ctx, ws } = await setup();
    const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: ws };
    const [, , m3] = [await createTestMailbox({ ...base, email: 'carol@out.test' }), await createTestMailbox({ ...base, email: 'Alice@out.test' }), await createTestMailbox({ ...base, email: 'bob@out.test' })];
    await db.prisma.emailAccount.update({ where: { id: m3!.id }, data: { status: 'DISCONNECTED' } });
    const other = await setup();
    await createTestMailbox({ db: db.prisma, organizationId: other.org.organizationId, workspaceId: other.ws, email: 'aaron@out.test' });
    const emails = async (input: Record<string, unknown>) => (await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, ...input } })).accounts.map((a) => a.email);
    expect(await emails({})).toEqual(['carol@out.test', 'Alice@out.test', 'bob@out.test']);
    expect(await emails({ sort: 'email' })).toEqual(['Alice@out.test', 'bob@out.test', 'carol@out.test']);
    expect(await emails({ sort: 'email', direction: 'desc' })).toEqual(['carol@out.test', 'bob@out.test', 'Alice@out.test']);
    expect(await emails({ sort: 'status', direction: 'desc' })).toEqual(['bob@out.test', 'Alice@out.test', 'carol@out.test']);
    expect(await emails({ status: 'DISCONNECTED' })).toEqual(['bob@out.test']);
    expect(await emails({ email_acc_id: m3!.id })).toEqual(['bob@out.test']);
    expect(await emails({ email_acc_id: (await other.ctx.db.emailAccount.findFirstOrThrow({ where: { workspaceId: other.ws } })).id })).toEqual([]);
    const bad = await expectDomainError(executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, status: 'BROKEN' } }), 'invalid');
    expect(bad.fieldErrors).toEqual([{ field: 'status', message: 'must be ACTIVE, DISCONNECTED, PAUSED' }]);
  });
});
