// The warmup engine against a real pool: mailboxes on a local Dovecot (INBOX and a \Junk folder),
// a local SMTP server delivering into it (and a "provider filter" putting one recipient's mail in
// Junk), DNS from a local server, time on an injected clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import {
  createSendingFixture,
  imapServerUnavailable,
  startDnsServer,
  startImapServer,
  startSmtpServer,
  testCtx,
  useTestDatabase,
  type DnsTestServer,
  type ImapTestServer,
  type SmtpTestServer,
} from '../testing/index';
import { executeOperation } from '../shared/operation';
import { createDnsResolver } from '../shared/dns';
import { warmupCodeCandidates } from '../shared/warmup-code';
import { emailAccountOperations as ops, scoreOf } from '../email-account/index';
// The reply reader, through core's index (tests may reach it).
import { ingestMessage, syncMailbox } from '../index';
import { runWarmupScanTick, runWarmupSendTick, startWarmupWorker } from './index';

const db = useTestDatabase();
const missingImap = imapServerUnavailable();
const PASSWORDS: Record<string, string> = {
  'ann@alpha.test': 'pw-ann',
  'al@alpha.test': 'pw-al',
  'bob@beta.test': 'pw-bob',
  'cy@gamma.test': 'pw-cy',
  'dan@delta.test': 'pw-dan',
};
/** The provider's filter: everything to cy lands in Junk; mail to dan is accepted and lost. */
const JUNKED = 'cy@gamma.test';
const LOST = 'dan@delta.test';

let imap: ImapTestServer | undefined;
let smtp: SmtpTestServer | undefined;
let dns: DnsTestServer | undefined;

const imapClient = async (user: string) => {
  const c = new ImapFlow({ host: '127.0.0.1', port: imap!.port, secure: false, auth: { user, pass: PASSWORDS[user]! }, logger: false });
  await c.connect();
  return c;
};

beforeAll(async () => {
  if (missingImap) return;
  imap = await startImapServer({ users: PASSWORDS, specialUse: true });
  smtp = await startSmtpServer({
    users: PASSWORDS,
    // Delivery into the recipients' mailboxes, as their provider would.
    deliver: async (message) => {
      for (const to of message.to) {
        if (to === LOST || !(to in PASSWORDS)) continue;
        const c = await imapClient(to);
        try {
          await c.append(to === JUNKED ? 'Junk' : 'INBOX', message.raw);
        } finally {
          await c.logout();
        }
      }
    },
  });
  dns = await startDnsServer({
    records: {
      'alpha.test': { txt: ['v=spf1 ip4:127.0.0.1 -all'], mx: [{ exchange: 'mx.alpha.test', priority: 10 }] },
      '_dmarc.alpha.test': { txt: ['v=DMARC1; p=none'] },
      'beta.test': { mx: [{ exchange: 'aspmx.l.google.com', priority: 1 }] },
      'gamma.test': { mx: [{ exchange: 'gamma-test.mail.protection.outlook.com', priority: 0 }] },
    },
  });
}, 30_000);

afterAll(async () => {
  await smtp?.close();
  await imap?.close();
  await dns?.close();
});

/** A workspace with pool mailboxes on the local servers, warmup settings set through the API. */
async function pool(start: string, settings: Record<string, unknown>, emails = Object.keys(PASSWORDS)) {
  const f = await createSendingFixture({ db, smtp: smtp!, passwords: PASSWORDS, start, services: { dns: createDnsResolver({ servers: [dns!.address], timeoutMs: 1_000 }) } });
  const ids: Record<string, string> = {};
  for (const email of emails) ids[email] = await f.mailbox(email, { imapPort: imap!.port, sendingGap: 0, dailyLimit: 50 });
  const ctx = testCtx({ deps: f.deps, actor: f.org.actor });
  await executeOperation({ op: ops.bulkUpdate, ctx, input: { workspace_id: f.ws, ids: Object.values(ids), ...settings } });
  await executeOperation({ op: ops.bulkUpdateWarmup, ctx, input: { workspace_id: f.ws, ids: Object.values(ids), warmup_status: 'ACTIVE' } });
  const orgs = [f.org.organizationId];
  const warmupTick = async () => {
    const sent = await runWarmupSendTick({ deps: f.deps, organizationIds: orgs });
    const scanned = await runWarmupScanTick({ deps: f.deps, organizationIds: orgs });
    return { sent, scanned };
  };
  /** `n` ticks, two minutes apart. */
  const ticks = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await warmupTick();
      f.clock.advance(2 * 60_000);
    }
  };
  const messages = () => db.prisma.warmupMessage.findMany({ where: { organizationId: f.org.organizationId }, orderBy: [{ sentAt: 'asc' }, { id: 'asc' }] });
  return { ...f, ids, ctx, orgs, warmupTick, ticks, messages };
}


const emailOf = (ids: Record<string, string>, id: string) => Object.entries(ids).find(([, v]) => v === id)![0];
const domain = (email: string) => email.split('@')[1];

describe.skipIf(missingImap)('the warmup pool on real mail servers', () => {
  it('ramps up, sends across domains, rescues spam, answers at the rate, and shows it in stats and health', async () => {
    const p = await pool('2026-03-02T08:00:00Z', {
      warmup_limit: 5,
      warmup_increment: 2,
      warmup_reply_rate: 50,
      warmup_custom_words: 'Project Falcon',
      warmup_signature: 'Sent from the office',
    });

    // Shown on account reads.
    const listed = await executeOperation({ op: ops.list, ctx: p.ctx, input: { workspace_id: p.ws } });
    expect(listed.accounts[0]!.payload.warmup).toMatchObject({ limit: 5, increment: 2, reply_rate: 50, warmup_custom_words: 'Project Falcon', warmup_signature: 'Sent from the office', advanced: {} });
    expect(listed.accounts[0]!.payload.warmup.start_date).toBe('2026-03-02T08:00:00.000Z');

    // Day 1: two each (the ramp-up), never to a mailbox of the same domain.
    await p.ticks(15);
    let all = await p.messages();
    const perSender = (rows: typeof all, from: Date, to: Date) => {
      const counts: Record<string, number> = {};
      for (const m of rows.filter((r) => r.sentAt >= from && r.sentAt < to)) counts[emailOf(p.ids, m.senderAccountId)] = (counts[emailOf(p.ids, m.senderAccountId)] ?? 0) + 1;
      return counts;
    };
    const day1 = [new Date('2026-03-02T08:00:00Z'), new Date('2026-03-03T08:00:00Z')] as const;
    expect(perSender(all, ...day1)).toEqual(Object.fromEntries(Object.keys(PASSWORDS).map((e) => [e, 2])));
    for (const m of all) expect(domain(emailOf(p.ids, m.senderAccountId))).not.toBe(domain(emailOf(p.ids, m.recipientAccountId)));

    // What went out: natural content with the custom words, signature and code; no tool header.
    const opening = all.find((m) => m.depth === 0)!;
    const raw = smtp!.messages.find((m) => m.raw.includes(opening.messageId))!;
    const parsed = await simpleParser(raw.raw);
    expect(parsed.subject).toBe(opening.subject);
    expect(parsed.text).toContain('Sent from the office');
    expect(warmupCodeCandidates(parsed.text ?? '')).toEqual([opening.code]);
    expect([...parsed.headers.keys()].filter((h) => h.startsWith('x-'))).toEqual([]);

    // Received: everything delivered was found; cy's (junked by its provider) counted as spam and rescued.
    all = await p.messages();
    const toCy = all.filter((m) => m.recipientAccountId === p.ids[JUNKED] && m.depth === 0);
    expect(toCy.length).toBeGreaterThan(0);
    for (const m of toCy) expect([m.placement, m.folder, m.rescuedAt !== null]).toEqual(['SPAM', 'Junk', true]);
    for (const m of all.filter((r) => r.recipientAccountId !== p.ids[JUNKED] && r.recipientAccountId !== p.ids[LOST] && r.sentAt < new Date(p.clock.at.getTime() - 5 * 60_000))) {
      expect(m.placement).toBe('INBOX');
    }
    const cy = await imapClient(JUNKED);
    try {
      const lock = await cy.getMailboxLock('Junk');
      const inJunk = (await cy.search({ all: true }, { uid: true })) || [];
      lock.release();
      expect(inJunk).toEqual([]);
      const inbox = await cy.getMailboxLock('INBOX');
      const flags = [];
      for await (const m of cy.fetch('1:*', { flags: true })) flags.push([...(m.flags ?? [])].sort());
      inbox.release();
      expect(flags.length).toBe(toCy.length);
      for (const f of flags) expect(f).toEqual(expect.arrayContaining(['\\Flagged', '\\Seen']));
    } finally {
      await cy.logout();
    }

    // Day 2 and 3: up to four, then five a day (answers included); the lost mail goes MISSING after a day.
    p.clock.at = new Date('2026-03-03T08:00:00Z');
    await p.ticks(15);
    p.clock.at = new Date('2026-03-04T08:00:00Z');
    await p.ticks(15);
    all = await p.messages();
    const counts2 = perSender(all, new Date('2026-03-03T08:00:00Z'), new Date('2026-03-04T08:00:00Z'));
    const counts3 = perSender(all, new Date('2026-03-04T08:00:00Z'), new Date('2026-03-05T08:00:00Z'));
    for (const e of Object.keys(PASSWORDS)) {
      expect(counts2[e]).toBe(4);
      expect(counts3[e]).toBe(5);
    }
    expect(all.filter((m) => m.recipientAccountId === p.ids[LOST] && m.sentAt < new Date('2026-03-03T08:00:00Z')).every((m) => m.placement === 'MISSING')).toBe(true);

    // Answers: half of what each mailbox found (spread evenly), threaded on the message answered.
    const found = all.filter((m) => ['INBOX', 'SPAM', 'PROMOTIONS'].includes(m.placement) && m.depth < 3);
    const replies = all.filter((m) => m.depth > 0);
    expect(replies.length).toBeGreaterThan(0);
    for (const recipient of Object.values(p.ids)) {
      const got = all.filter((m) => m.recipientAccountId === recipient && ['INBOX', 'SPAM', 'PROMOTIONS'].includes(m.placement));
      const decided = got.filter((m) => m.replyDecidedAt !== null).length;
      // Every other one found (those deep in a conversation are not answered: at most 3 answers a thread).
      expect(decided).toBeLessThanOrEqual(Math.floor(got.length / 2));
      expect(decided).toBeGreaterThanOrEqual(Math.floor(got.length / 2) - got.filter((m) => m.depth >= 3).length);
    }
    expect(found.length).toBeGreaterThan(0);
    for (const r of replies) {
      const original = all.find((m) => m.messageId === r.inReplyTo)!;
      expect([r.senderAccountId, r.recipientAccountId, r.threadId, r.subject]).toEqual([original.recipientAccountId, original.senderAccountId, original.threadId, `Re: ${original.subject.replace(/^Re: /, '')}`]);
      const sent = await simpleParser(smtp!.messages.find((m) => m.raw.includes(`Message-ID: <${r.messageId}>`))!.raw);
      expect(sent.inReplyTo).toBe(`<${original.messageId}>`);
      expect(sent.references).toContain(`<${original.messageId}>`);
    }

    // Warmup mail never reaches the unified inbox: the reply reader skips it.
    const synced = await syncMailbox({ deps: p.deps, mailboxId: p.ids['bob@beta.test']! });
    expect(synced.status).toBe('ok');
    expect(synced.read).toBeGreaterThan(0);
    expect(synced.stored).toBe(0);
    const bob = await ingestMessage({
      deps: p.deps,
      mailbox: { id: p.ids['bob@beta.test']!, workspaceId: p.ws, organizationId: p.org.organizationId, email: 'bob@beta.test' },
      raw: Buffer.from(smtp!.messages.find((m) => m.to.includes('bob@beta.test'))!.raw),
    });
    expect(bob.status).toBe('warmup');
    expect(await db.prisma.uniboxMessage.count({ where: { workspaceId: p.ws } })).toBe(0);

    // Stats: the vendor's shape, real figures.
    const stats = (await executeOperation({ op: ops.warmupStats, ctx: p.ctx, input: { workspace_id: p.ws, start_date: '2026-03-02', end_date: '2026-03-05' } })).emailAcc;
    const placed = all.filter((m) => m.placement !== 'PENDING');
    const pct = (n: number, d: number) => Math.round((n / d) * 10_000) / 100;
    expect(stats.total_warmup_sent).toBe(all.length);
    expect(stats.spam_percent).toBe(pct(placed.filter((m) => m.placement === 'SPAM').length, placed.length));
    expect(stats.inbox_percent).toBe(pct(placed.filter((m) => m.placement === 'INBOX').length, placed.length));
    expect(stats.spam_percent).toBeGreaterThan(0);
    expect(stats.google_percent).toBe(pct(all.filter((m) => m.recipientAccountId === p.ids['bob@beta.test']).length, all.length));
    expect(stats.microsoft_percent).toBe(pct(all.filter((m) => m.recipientAccountId === p.ids[JUNKED]).length, all.length));
    expect(stats.total_inboxes).toBe(5);
    expect(stats.chart_data.map((d) => [d.date, d.sent])).toEqual([
      ['2026-03-02', 10],
      ['2026-03-03', 20],
      ['2026-03-04', 25],
      ['2026-03-05', 0],
    ]);
    const annStats = (await executeOperation({ op: ops.warmupStats, ctx: p.ctx, input: { workspace_id: p.ws, start_date: '2026-03-02', end_date: '2026-03-05', email_acc_id: p.ids['ann@alpha.test'] } })).emailAcc;
    expect(annStats.total_warmup_sent).toBe(all.filter((m) => m.senderAccountId === p.ids['ann@alpha.test']).length);

    // Health: the spam placement of ann's mail and its domain's missing DKIM count against it, with the inputs shown.
    const status = await executeOperation({ op: ops.status, ctx: p.ctx, input: { workspace_id: p.ws, email: 'ann@alpha.test' } });
    const annSent = all.filter((m) => m.senderAccountId === p.ids['ann@alpha.test'] && m.sentAt >= new Date(p.clock.at.getTime() - 7 * 86_400_000));
    expect(status.health_inputs).toMatchObject({
      warmup_spam_7d: annSent.filter((m) => m.placement === 'SPAM').length,
      warmup_inbox_7d: annSent.filter((m) => m.placement === 'INBOX').length,
      warmup_missing_7d: annSent.filter((m) => m.placement === 'MISSING').length,
      spf: true,
      dkim: false,
      dmarc: true,
    });
    expect(status.health_score).toBe(scoreOf(status.health_inputs));
    expect(status.health_score).toBeLessThan(90);
    expect(status.daily_counters.warmup_email_sent_today).toBe(5);
    const again = await executeOperation({ op: ops.list, ctx: p.ctx, input: { workspace_id: p.ws, email: 'ann@' } });
    expect(again.accounts[0]!.payload.analytics.health_scores.health_score).toBe(status.health_score);
    expect(again.accounts[0]!.payload.analytics.health_scores['7d_microsoft_warmup_health']).toBe(0);
    expect(again.accounts[0]!.payload.analytics.daily_counters.warmup_email_sent_today).toBe(5);

    // Three days after it was found, warmup mail is deleted from the recipient's mailbox.
    p.clock.at = new Date('2026-03-05T09:00:00Z');
    await runWarmupScanTick({ deps: p.deps, organizationIds: p.orgs });
    const firstDay = (await p.messages()).filter((m) => m.sentAt < new Date('2026-03-03T00:00:00Z') && m.recipientAccountId === p.ids['bob@beta.test']);
    expect(firstDay.length).toBeGreaterThan(0);
    for (const m of firstDay) expect(m.archivedAt).not.toBeNull();
    const bobBox = await imapClient('bob@beta.test');
    try {
      const lock = await bobBox.getMailboxLock('INBOX');
      // Compared by Message-ID: a later answer in the same conversation quotes an archived e-mail's code.
      const left: string[] = [];
      for await (const m of bobBox.fetch('1:*', { envelope: true })) left.push((m.envelope?.messageId ?? '').replace(/^<|>$/g, ''));
      lock.release();
      for (const m of firstDay) expect(left).not.toContain(m.messageId.replace(/^<|>$/g, ''));
      expect(left.length).toBeGreaterThan(0);
    } finally {
      await bobBox.logout();
    }
  }, 120_000);

  it('leaves a mailbox to its campaign while a lead is due, and counts warmup sends in its daily limit', async () => {
    const p = await pool('2026-03-09T09:00:00Z', { warmup_limit: 10, warmup_increment: 0 }, ['ann@alpha.test', 'bob@beta.test']);
    const campaign = await p.campaign({ steps: [{ variations: [{ label: 'A', subject: 'Hi', body: 'Hello' }] }], mailboxes: [p.ids['ann@alpha.test']!], schedule: { timezone: 'UTC' } });
    await p.lead(campaign.id, 'lead@customer.test');
    const first = await runWarmupSendTick({ deps: p.deps, organizationIds: p.orgs });
    expect(first).toMatchObject({ sent: 1, campaignFirst: 1 });
    expect((await p.messages()).map((m) => emailOf(p.ids, m.senderAccountId))).toEqual(['bob@beta.test']);
    // Once the campaign has sent, ann warms up within what is left of its daily limit (3: one campaign send, two warmup).
    await p.tick();
    await db.prisma.emailAccount.update({ where: { id: p.ids['ann@alpha.test']! }, data: { dailyLimit: 3, nextSendAllowedAt: null } });
    for (let i = 0; i < 6; i++) {
      p.clock.advance(2 * 60_000);
      await runWarmupSendTick({ deps: p.deps, organizationIds: p.orgs });
    }
    const ann = (await p.messages()).filter((m) => m.senderAccountId === p.ids['ann@alpha.test']);
    expect(await db.prisma.sentEmail.count({ where: { emailAccountId: p.ids['ann@alpha.test']! } })).toBe(1);
    expect(ann.length).toBe(2);
  }, 60_000);

  it("sends the pool's other e-mails while one mailbox's server holds its answer", async () => {
    const p = await pool('2026-03-23T08:00:00Z', { warmup_limit: 3, warmup_increment: 1 });
    const mailboxes = Object.keys(p.ids).length;
    // The first warmup body the server takes is answered only when the test lets it go.
    const release = Promise.withResolvers<void>();
    let held: string | null = null;
    smtp!.beforeAnswer = async (event) => {
      if (event.phase !== 'body' || held !== null) return;
      held = event.to[0]!;
      await release.promise;
    };
    const before = smtp!.messages.length;
    const received = () => smtp!.messages.length - before;
    const tick = runWarmupSendTick({ deps: p.deps, organizationIds: p.orgs });
    const settled = tick.then(
      () => undefined,
      () => undefined,
    );
    let whileHeld: number;
    try {
      // Sent one after another, every mailbox after the held one would wait for its answer.
      // The server records a body before delivering it into IMAP and only then holds its answer,
      // so wait for both: every body received and one answer held (a loaded machine delivers late).
      for (let i = 0; i < 300 && (received() < mailboxes || held === null); i++) await new Promise((r) => setTimeout(r, 50));
      whileHeld = received();
      expect(held).not.toBeNull();
    } finally {
      release.resolve();
      await settled;
      smtp!.beforeAnswer = null;
    }
    expect(whileHeld).toBe(mailboxes);
    expect(await tick).toMatchObject({ pool: mailboxes, sent: mailboxes, failed: 0 });
    const sent = await p.messages();
    expect(new Set(sent.map((m) => m.senderAccountId)).size).toBe(mailboxes);
  }, 60_000);

  it('runs in the real worker loop with a moving clock', async () => {
    const p = await pool('2026-03-16T08:00:00Z', { warmup_limit: 3, warmup_increment: 1, warmup_reply_rate: 100 }, ['ann@alpha.test', 'bob@beta.test']);
    const worker = startWarmupWorker({ deps: p.deps, intervalMs: 3_600_000, organizationIds: p.orgs });
    try {
      const rounds = [];
      for (let i = 0; i < 8; i++) {
        p.clock.advance(3 * 60_000);
        rounds.push(await worker.nextRound());
      }
      const all = await p.messages();
      // Day one of the ramp-up: one each; ann's and bob's mail found in the inbox and both answered… tomorrow.
      expect(all.map((m) => [emailOf(p.ids, m.senderAccountId), m.placement, m.replyDecidedAt !== null])).toEqual(
        expect.arrayContaining([
          ['ann@alpha.test', 'INBOX', true],
          ['bob@beta.test', 'INBOX', true],
        ]),
      );
      expect(all).toHaveLength(2);
      expect(rounds.some((r) => r.health > 0)).toBe(true);
      p.clock.advance(86_400_000);
      for (let i = 0; i < 4; i++) {
        p.clock.advance(3 * 60_000);
        await worker.nextRound();
      }
      const next = await p.messages();
      expect(next.filter((m) => m.depth === 1)).toHaveLength(2);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
