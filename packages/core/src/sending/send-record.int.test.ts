// Batched recording of accepted sends (send-record.service.ts): what a batch writes is what
// recording each send on its own writes; a lone send is not held back; a send whose claim is
// lost in a batch is reported; a batch that fails is recorded send by send. The DATA marks of a
// tick go in batches too: each claim that still holds its lead is marked, a lost one is not.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type Database } from '@outreach/db';
import { createSendingFixture, createTestThread, startSmtpServer, testDatabase, type SmtpTestServer } from '../testing/index';
import type { ServiceDeps } from '../shared/context';
import type { Observer } from '../shared/observer';
import { CLAIM_LEASE_MS, claimDueSends } from './scheduler.service';
import { createDataMarker, deliverClaim } from './send-delivery.service';
import { createSendRecorder, recordSend } from './send-record.service';
import { RECORD_SENTS_SQL } from './send-record.queries';
import { MARK_DATA_SQL, RECORD_SENT_SQL } from './scheduler.queries';

const MAILBOXES = Array.from({ length: 12 }, (_, i) => `box${i + 1}@batch.test`);
const PASSWORDS = Object.fromEntries(MAILBOXES.map((m, i) => [m, `pw-${i + 1}`]));

let db: Database;
let smtp: SmtpTestServer;
beforeAll(async () => {
  db = await testDatabase();
  smtp = await startSmtpServer({ users: PASSWORDS });
}, 30_000);
afterAll(async () => {
  await smtp?.close();
});

type Statement = { sql: string; params: unknown[]; inTransaction: boolean };

/** The raw statements run through `client` and its transactions, by their text. */
function counting<T extends object>(client: T, statements: Statement[], inTransaction = false): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === '$queryRawUnsafe' || prop === '$executeRawUnsafe') {
        const fn = value as (sql: string, ...params: unknown[]) => Promise<unknown>;
        return (sql: string, ...params: unknown[]) => {
          statements.push({ sql, params, inTransaction });
          return fn.call(target, sql, ...params);
        };
      }
      if (prop === '$transaction') {
        const fn = value as (cb: (tx: unknown) => Promise<unknown>, o?: unknown) => Promise<unknown>;
        return (cb: (tx: unknown) => Promise<unknown>, o?: unknown) => fn.call(target, (tx: unknown) => cb(counting(tx as object, statements, true)), o);
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A webhook on the workspace's EMAIL_SENT events. */
const listenToSends = (t: { org: { organizationId: string }; ws: string }) =>
  db.prisma.webhook.create({
    data: { id: newId(), organizationId: t.org.organizationId, workspaceId: t.ws, url: 'https://hooks.example.com/in', name: 'sends', campIds: ['ALL'], eventTypes: ['EMAIL_SENT'] },
  });

/** A workspace with `n` mailboxes, a two-step campaign on them, one lead per mailbox, a webhook on EMAIL_SENT (unless `webhook` is false). */
async function setup(n: number, options: { webhook?: boolean } = {}) {
  const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
  const boxes: string[] = [];
  for (const email of MAILBOXES.slice(0, n)) boxes.push(await t.mailbox(email));
  const c = await t.campaign({
    mailboxes: boxes,
    steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>Hi {{first_name}}</p>' }] }, { waitTime: 2, variations: [{ label: 'A', subject: '', body: '<p>Again</p>' }] }],
  });
  const leads: string[] = [];
  for (let i = 0; i < n; i++) leads.push(await t.lead(c.id, `lead${i}@batch.test`, { firstName: `Lead${i}` }));
  if (options.webhook !== false) await listenToSends(t);
  const counts = { accepted: 0, unconfirmed: 0 };
  const observer: Observer = {
    onSent: (e) => void (e.outcome === 'bounced' || (counts[e.outcome] += 1)),
    onBounce: () => undefined,
    onReply: () => undefined,
    onTick: () => undefined,
  };
  const statements: Statement[] = [];
  const deps: ServiceDeps = { ...t.deps, db: counting(t.deps.db, statements), observer };
  const claim = async (d: ServiceDeps = deps) => (await claimDueSends({ deps: d, now: t.clock.now(), maxSends: 100, workspaceIds: [t.ws] })).claims;
  const batches = () => statements.filter((s) => s.sql === RECORD_SENTS_SQL).map((s) => (JSON.parse(s.params[0] as string) as unknown[]).length);
  /** Each run of RECORD_SENTS_SQL: its sends, whether it was the whole recording on its own ($2), whether in a transaction. */
  const recordings = () =>
    statements
      .filter((s) => s.sql === RECORD_SENTS_SQL)
      .map((s) => ({ sends: (JSON.parse(s.params[0] as string) as unknown[]).length, alone: s.params[1] as boolean, inTransaction: s.inTransaction }));
  const singles = () => statements.filter((s) => s.sql === RECORD_SENT_SQL).length;
  const marks = () => statements.filter((s) => s.sql === MARK_DATA_SQL).map((s) => (s.params[0] as string[]).length);
  const payloads = async () =>
    (await db.prisma.webhookDelivery.findMany({ where: { workspaceId: t.ws, event: 'EMAIL_SENT' } })).map((d) => d.payload as Record<string, unknown>);
  return { t, c, leads, deps, counts, claim, batches, recordings, singles, marks, payloads };
}

describe('recording accepted sends in batches', () => {
  it('records a tick of many sends in batches: the rows, the leads moved on, one webhook delivery each, the unibox copy', async () => {
    const s = await setup(12);
    // One lead already wrote back: its conversation shows the send.
    const thread = await createTestThread({ db: db.prisma, workspaceId: s.t.ws, leadId: s.leads[3]!, campaignId: s.c.id, messages: [{ direction: 'IN', at: new Date('2026-11-20T10:00:00Z') }] });

    const result = await (await import('./send-tick.service')).runSchedulerTick({ deps: s.deps, workspaceIds: [s.t.ws] });
    expect(result).toMatchObject({ claimed: 12, sent: 12, unconfirmed: 0 });
    // Set-based, fewer statements than sends; never one send at a time.
    expect(s.batches().reduce((a, b) => a + b, 0)).toBe(12);
    expect(s.batches().length).toBeLessThan(12);
    expect(s.singles()).toBe(0);
    // A webhook listened at the claim: each batch is recorded with its events, in a transaction.
    expect(s.recordings().every((r) => !r.alone && r.inTransaction)).toBe(true);
    expect(s.recordings().length).toBeGreaterThan(0);

    const now = s.t.clock.now();
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id }, orderBy: { leadId: 'asc' } });
    expect(sends).toHaveLength(12);
    expect(new Set(sends.map((x) => x.emailAccountId)).size).toBe(12);
    expect(sends.every((x) => x.step === 1 && !x.outcomeUnknown && x.sentAt.getTime() === now.getTime() && x.bouncedAt === null)).toBe(true);
    const leads = await db.prisma.lead.findMany({ where: { campaignId: s.c.id } });
    for (const lead of leads) {
      expect([lead.status, lead.currentStep, lead.claimedAt, lead.pendingSendId, lead.pendingDataAt, lead.sendAttempts]).toEqual(['CONTACTED', 1, null, null, null, 0]);
      expect(lead.nextSendAt).toEqual(new Date(now.getTime() + 2 * 86_400_000));
      expect(lead.lastSentAt).toEqual(now);
    }
    const mailboxes = await db.prisma.emailAccount.findMany({ where: { workspaceId: s.t.ws } });
    // Each mailbox's sends today (its daily limit counts them) went up by its one send.
    const mailboxCounts = await db.prisma.mailboxDayCount.findMany({ where: { emailAccountId: { in: mailboxes.map((m) => m.id) } } });
    expect(mailboxCounts.map((m) => m.sent)).toEqual(mailboxes.map(() => 1));
    // The daily counts (row triggers) saw every send: the campaign's rows, one per mailbox, add up.
    const dayCounts = await db.prisma.campaignDayCount.findMany({ where: { campaignId: s.c.id } });
    expect(dayCounts.reduce((sum, row) => sum + row.sent, 0)).toBe(12);

    const payloads = await s.payloads();
    expect(payloads).toHaveLength(12);
    for (const send of sends) {
      const lead = leads.find((l) => l.id === send.leadId)!;
      const mailbox = mailboxes.find((m) => m.id === send.emailAccountId)!;
      expect(payloads.find((p) => p['message_id'] === send.messageId)).toMatchObject({
        webhook_event: 'EMAIL_SENT',
        workspace_id: s.t.ws,
        lead_email: lead.email,
        sender_email: mailbox.email,
        subject: send.subject,
        step: 1,
        variation: 'A',
        sent_date: now.toISOString(),
        camp_id: s.c.id,
      });
    }
    const copies = await db.prisma.uniboxMessage.findMany({ where: { threadId: thread.id, direction: 'OUT' } });
    expect(copies.map((m) => m.sentEmailId)).toEqual([sends.find((x) => x.leadId === s.leads[3])!.id]);
    expect((await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: thread.id } })).lastMessageAt).toEqual(now);
    expect(s.counts).toEqual({ accepted: 12, unconfirmed: 0 });
  }, 60_000);

  it('records a batch in one statement, outside a transaction, when no webhook listens: the rows, the leads, the unibox copy', async () => {
    const s = await setup(4, { webhook: false });
    const thread = await createTestThread({ db: db.prisma, workspaceId: s.t.ws, leadId: s.leads[1]!, campaignId: s.c.id, messages: [{ direction: 'IN', at: new Date('2026-11-20T10:00:00Z') }] });

    const result = await (await import('./send-tick.service')).runSchedulerTick({ deps: s.deps, workspaceIds: [s.t.ws] });
    expect(result).toMatchObject({ claimed: 4, sent: 4, unconfirmed: 0 });
    // Each batch (the sends answered by the same turn of the event loop) is one statement on its own.
    expect(s.recordings().reduce((sum, r) => sum + r.sends, 0)).toBe(4);
    expect(s.recordings().every((r) => r.alone && !r.inTransaction)).toBe(true);
    expect(s.singles()).toBe(0);

    const now = s.t.clock.now();
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id } });
    expect(sends).toHaveLength(4);
    const leads = await db.prisma.lead.findMany({ where: { campaignId: s.c.id } });
    for (const lead of leads) {
      expect([lead.status, lead.currentStep, lead.claimedAt, lead.pendingSendId, lead.lastSentAt]).toEqual(['CONTACTED', 1, null, null, now]);
      expect(lead.nextSendAt).toEqual(new Date(now.getTime() + 2 * 86_400_000));
    }
    const mailboxIds = (await db.prisma.emailAccount.findMany({ where: { workspaceId: s.t.ws } })).map((m) => m.id);
    expect((await db.prisma.mailboxDayCount.findMany({ where: { emailAccountId: { in: mailboxIds } } })).map((m) => m.sent)).toEqual(mailboxIds.map(() => 1));
    expect((await db.prisma.campaignDayCount.findMany({ where: { campaignId: s.c.id } })).reduce((sum, row) => sum + row.sent, 0)).toBe(4);
    // The conversation of the lead that wrote back shows the send, at its time.
    const copies = await db.prisma.uniboxMessage.findMany({ where: { threadId: thread.id, direction: 'OUT' } });
    const copied = sends.find((x) => x.leadId === s.leads[1])!;
    expect(copies.map((m) => [m.sentEmailId, m.messageId, m.subject, m.htmlBody, m.receivedAt])).toEqual([[copied.id, copied.messageId, copied.subject, copied.body, now]]);
    expect((await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: thread.id } })).lastMessageAt).toEqual(now);
    expect(await s.payloads()).toEqual([]);
    expect(s.counts).toEqual({ accepted: 4, unconfirmed: 0 });
  }, 60_000);

  it('records, with its event, a send whose webhook started listening after the claim', async () => {
    const s = await setup(3, { webhook: false });
    const claims = await s.claim();
    expect(claims.map((c) => c.emailSentWebhook)).toEqual([false, false, false]);
    await listenToSends(s.t);
    const recorder = createSendRecorder({ deps: s.deps });
    const now = s.t.clock.now();
    expect(await Promise.all(claims.map((claim) => recorder.record({ claim, now, outcomeUnknown: false })))).toEqual([true, true, true]);
    // The statement on its own found the listener and wrote nothing; the transaction recorded the sends with their events.
    expect(s.recordings()).toEqual([
      { sends: 3, alone: true, inTransaction: false },
      { sends: 3, alone: false, inTransaction: true },
    ]);
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id } });
    expect(sends).toHaveLength(3);
    expect((await s.payloads()).map((p) => p['message_id']).sort()).toEqual(sends.map((x) => x.messageId).sort());
    expect((await db.prisma.campaignDayCount.findMany({ where: { campaignId: s.c.id } })).reduce((sum, row) => sum + row.sent, 0)).toBe(3);
    expect(s.counts).toEqual({ accepted: 3, unconfirmed: 0 });
  }, 60_000);

  it('writes what recording each send on its own writes', async () => {
    const s = await setup(6);
    const claims = await s.claim();
    expect(claims).toHaveLength(6);
    const now = s.t.clock.now();
    const recorder = createSendRecorder({ deps: s.deps });
    // Three together (one batch), three each on its own, as before batches.
    const held = await Promise.all([
      ...claims.slice(0, 3).map((claim) => recorder.record({ claim, now, outcomeUnknown: false })),
      ...claims.slice(3).map((claim) => recordSend({ deps: s.deps, claim, now, bounce: null })),
    ]);
    expect(held).toEqual([true, true, true, true, true, true]);
    expect(s.batches()).toEqual([3]);
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id } });
    const leads = await db.prisma.lead.findMany({ where: { campaignId: s.c.id } });
    const payloads = await s.payloads();
    // A batched send and a lone one differ only in what is theirs (lead, mailbox, message).
    const view = (claim: (typeof claims)[0]) => {
      const send = sends.find((x) => x.leadId === claim.leadId)!;
      const lead = leads.find((l) => l.id === claim.leadId)!;
      const payload = payloads.find((p) => p['message_id'] === send.messageId)!;
      const own = new Map<unknown, string>([
        [lead.id, 'LEAD'],
        [lead.email, 'EMAIL'],
        [lead.firstName, 'FIRST_NAME'],
        [claim.mailbox.email, 'SENDER'],
        [send.messageId, 'MESSAGE_ID'],
        [send.subject, 'SUBJECT'],
        [send.body, 'BODY'],
      ]);
      const norm = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, own.get(v) ?? v]));
      const { id: _id, messageId: _m, emailAccountId: _e, leadId: _l, variationId: _v, ...sendRest } = send;
      const { id: _li, email: _le, emailNormalized: _ln, firstName: _lf, emailAccountId: _la, pendingVariationId: _lp, createdAt: _lc, ...leadRest } = lead;
      return { payload: norm(payload), send: norm(sendRest), lead: leadRest };
    };
    expect(view(claims[0]!)).toEqual(view(claims[5]!));
    expect(view(claims[1]!)).toEqual(view(claims[4]!));
    expect(s.counts.accepted).toBe(6);
  }, 60_000);

  it('records a lone send at once, without waiting for a batch to fill', async () => {
    const s = await setup(1);
    const [claim] = await s.claim();
    const recorder = createSendRecorder({ deps: s.deps, batchSize: 50 });
    const started = performance.now();
    expect(await recorder.record({ claim: claim!, now: s.t.clock.now(), outcomeUnknown: false })).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(s.batches()).toEqual([1]);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: s.c.id } })).toBe(1);
  });

  it('splits sends into batches of at most batchSize', async () => {
    const s = await setup(5);
    const claims = await s.claim();
    const recorder = createSendRecorder({ deps: s.deps, batchSize: 2 });
    const now = s.t.clock.now();
    expect(await Promise.all(claims.map((claim) => recorder.record({ claim, now, outcomeUnknown: true })))).toEqual([true, true, true, true, true]);
    expect(s.batches().sort()).toEqual([1, 2, 2]);
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id } });
    expect(sends.map((x) => x.outcomeUnknown)).toEqual([true, true, true, true, true]);
    expect(s.counts).toEqual({ accepted: 0, unconfirmed: 5 });
  });

  it('reports a send whose claim another worker recorded meanwhile as lost, and records the others of its batch', async () => {
    const s = await setup(4);
    const claims = await s.claim();
    const [taken, ...others] = claims as [(typeof claims)[0], ...typeof claims];
    // Another worker took the claim over after its lease and recorded it (outcome unknown: the body had gone out).
    expect(await deliverClaim({ deps: s.deps, claim: { ...taken, dataStartedAt: s.t.clock.now() } })).toBe('unconfirmed');
    s.t.clock.advance(60_000);
    const now = s.t.clock.now();
    const recorder = createSendRecorder({ deps: s.deps });
    const held = await Promise.all(claims.map((claim) => recorder.record({ claim, now, outcomeUnknown: false })));
    expect(held).toEqual([false, true, true, true]);
    expect(s.batches()).toEqual([4]);
    // One row per send: the lost one is the other worker's, recorded once, its webhook event once.
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id } });
    expect(sends).toHaveLength(4);
    expect(sends.find((x) => x.leadId === taken.leadId)!.outcomeUnknown).toBe(true);
    expect(sends.filter((x) => others.some((o) => o.leadId === x.leadId)).every((x) => !x.outcomeUnknown && x.sentAt.getTime() === now.getTime())).toBe(true);
    expect(await s.payloads()).toHaveLength(4);
    const leads = await db.prisma.lead.findMany({ where: { campaignId: s.c.id } });
    expect(leads.every((l) => l.status === 'CONTACTED' && l.pendingSendId === null)).toBe(true);
    expect(s.counts).toEqual({ accepted: 3, unconfirmed: 1 });
  });

  it('records each send on its own when the batch fails, so one bad row loses no other', async () => {
    const s = await setup(4);
    const claims = await s.claim();
    const bad = claims[2]!;
    // A trigger that refuses this one send (and nothing of any other test).
    const name = `test_refuse_${randomUUID().replace(/-/g, '')}`;
    await db.prisma.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await db.prisma.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON sent_emails FOR EACH ROW WHEN (NEW.id = '${bad.sendId}') EXECUTE FUNCTION ${name}()`);
    try {
      const recorder = createSendRecorder({ deps: s.deps });
      const now = s.t.clock.now();
      const settled = await Promise.allSettled(claims.map((claim) => recorder.record({ claim, now, outcomeUnknown: false })));
      expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(String((settled[2] as PromiseRejectedResult).reason)).toContain('refused by the test');
      // The batch was tried once, then each send on its own.
      expect(s.batches()).toEqual([4]);
      expect(s.singles()).toBe(4);
    } finally {
      await db.prisma.$executeRawUnsafe(`DROP TRIGGER ${name} ON sent_emails`);
      await db.prisma.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    }
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id } });
    expect(sends.map((x) => x.leadId).sort()).toEqual(claims.filter((c) => c !== bad).map((c) => c.leadId).sort());
    expect(await s.payloads()).toHaveLength(3);
    // The refused one still holds its claim: its lease hands it to a later tick.
    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: bad.leadId } });
    expect([lead.pendingSendId, lead.status]).toEqual([bad.sendId, 'NOT_CONTACTED']);
    expect(s.counts.accepted).toBe(3);
  });
});

describe('DATA marks in batches', () => {
  it('marks the sends that reach DATA together in one statement, each only while its claim holds the lead', async () => {
    const s = await setup(4);
    const claims = await s.claim();
    const [stopped, taken, ...held] = claims as [(typeof claims)[0], (typeof claims)[0], ...typeof claims];
    // Meanwhile the first lead was stopped (pending send cleared) and the second claimed anew by another worker.
    await db.prisma.lead.update({ where: { id: stopped.leadId }, data: { pendingSendId: null, status: 'UNSUBSCRIBED', nextSendAt: null, claimedAt: null } });
    await db.prisma.lead.update({ where: { id: taken.leadId }, data: { claimedAt: new Date(taken.claimedAt.getTime() + 300_000) } });
    s.t.clock.advance(20_000);
    const marker = createDataMarker({ deps: s.deps });
    expect(await Promise.all(claims.map((c) => marker.mark(c)))).toEqual([false, false, true, true]);
    expect(s.marks()).toEqual([4]);
    const leads = new Map((await db.prisma.lead.findMany({ where: { campaignId: s.c.id } })).map((l) => [l.id, l]));
    for (const c of held) {
      const lead = leads.get(c.leadId)!;
      expect(lead.pendingDataAt?.toISOString()).toBe(s.t.clock.now().toISOString());
      // The mark renews the lease: a whole lease from now.
      expect(lead.nextSendAt!.getTime() - s.t.clock.now().getTime()).toBe(CLAIM_LEASE_MS);
    }
    expect(leads.get(stopped.leadId)!.pendingDataAt).toBeNull();
    expect(leads.get(taken.leadId)!.pendingDataAt).toBeNull();
  });
});
