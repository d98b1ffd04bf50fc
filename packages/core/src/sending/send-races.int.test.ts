// An e-mail whose rows are deleted while it goes out (send-record.service.ts, referencedRowsCtes):
// its lead or campaign deleted, it is not recorded and the worker says so at info, where the
// recording failed on a foreign key (a batch given up, each send an error); its mailbox or
// variation deleted, it is recorded without them; and a recording waits for a delete under way
// instead of forming a deadlock with it.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createSendingFixture, untilWaitingOnLock, useSmtpServer, useTestDatabase, usingPostgres } from '../testing/index';
import type { ServiceDeps } from '../shared/context';
import { claimDueSends } from './scheduler.service';
import { deliverClaim } from './send-delivery.service';
import { createSendRecorder, recordSend } from './send-record.service';
import { startSendingWorker } from './worker.service';

const MAILBOXES = ['one@races.test', 'two@races.test', 'three@races.test', 'four@races.test'];
const PASSWORDS = Object.fromEntries(MAILBOXES.map((m, i) => [m, `pw-${i + 1}`]));

const db = useTestDatabase();
const smtp = useSmtpServer(PASSWORDS);

type LogLine = { level: number; msg: string; [key: string]: unknown };

/** A workspace with four mailboxes, a two-step campaign on them and one lead each; its log lines kept. */
async function setup(options: { claim?: boolean } = {}) {
  const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
  const boxes: string[] = [];
  for (const email of MAILBOXES) boxes.push(await t.mailbox(email));
  const c = await t.campaign({
    mailboxes: boxes,
    steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>Hi</p>' }] }, { waitTime: 2, variations: [{ label: 'A', subject: '', body: '<p>Again</p>' }] }],
  });
  const leads: string[] = [];
  for (let i = 0; i < MAILBOXES.length; i++) leads.push(await t.lead(c.id, `lead${i}@races.test`, { firstName: `Lead${i}` }));
  const lines: LogLine[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const deps: ServiceDeps = { ...t.deps, log };
  const claims = options.claim === false ? [] : (await claimDueSends({ deps, now: t.clock.now(), maxSends: 100, workspaceIds: [t.ws] })).claims;
  /** Log lines at warn or above (a deadlock, a batch given up, a send that failed). */
  const problems = () => lines.filter((l) => l.level >= 40).map((l) => l.msg);
  const notRecorded = () => lines.filter((l) => l.msg.startsWith('sent, not recorded')).flatMap((l) => (l['sends'] as { leadId: string }[]).map((s) => s.leadId));
  return { t, c, boxes, leads, deps, claims, lines, problems, notRecorded };
}

describe('an e-mail whose rows are deleted while it goes out', () => {
  it('is not recorded when its lead is deleted, said at info; the others of its batch are recorded (was a batch given up and a failed send)', async () => {
    const s = await setup();
    const gone = s.claims[1]!;
    await db.prisma.lead.delete({ where: { id: gone.leadId } });
    const recorder = createSendRecorder({ deps: s.deps });
    const now = s.t.clock.now();
    const held = await Promise.all(s.claims.map((claim) => recorder.record({ claim, now, outcomeUnknown: false })));
    expect(held).toEqual([true, false, true, true]);
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id }, select: { leadId: true } });
    expect(sends.map((x) => x.leadId).sort()).toEqual(s.claims.filter((c) => c !== gone).map((c) => c.leadId).sort());
    expect(s.notRecorded()).toEqual([gone.leadId]);
    expect(s.problems()).toEqual([]);
  });

  it('is not recorded, nor its bounce, when its campaign is deleted', async () => {
    const s = await setup();
    await db.prisma.campaign.delete({ where: { id: s.c.id } });
    const recorder = createSendRecorder({ deps: s.deps });
    const now = s.t.clock.now();
    const [first, ...others] = s.claims;
    expect(await recordSend({ deps: s.deps, claim: first!, now, bounce: { kind: 'hard', code: 550, message: 'no such user' } })).toBe(false);
    expect(await Promise.all(others.map((claim) => recorder.record({ claim, now, outcomeUnknown: false })))).toEqual([false, false, false]);
    expect(await db.prisma.sentEmail.count({ where: { workspaceId: s.t.ws } })).toBe(0);
    expect(await db.prisma.emailEvent.count({ where: { workspaceId: s.t.ws } })).toBe(0);
    expect(s.notRecorded().sort()).toEqual([...s.leads].sort());
    expect(s.problems()).toEqual([]);
  });

  it('is recorded without its mailbox or its variation when those are deleted, the lead moved on', async () => {
    const s = await setup();
    const [fromGoneBox, other] = s.claims as [(typeof s.claims)[0], (typeof s.claims)[0]];
    await db.prisma.emailAccount.delete({ where: { id: fromGoneBox.mailbox.id } });
    // The first step's variation, which every claim sends, rewritten meanwhile (campaign.update deletes the old one).
    await db.prisma.variation.delete({ where: { id: fromGoneBox.variationId } });
    const now = s.t.clock.now();
    // One on its own (as a batch that failed records it), the other in a batch.
    expect(await recordSend({ deps: s.deps, claim: fromGoneBox, now, bounce: null })).toBe(true);
    expect(await createSendRecorder({ deps: s.deps }).record({ claim: other, now, outcomeUnknown: false })).toBe(true);
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: s.c.id }, select: { leadId: true, emailAccountId: true, variationId: true, variationLabel: true } });
    expect(sends.find((x) => x.leadId === fromGoneBox.leadId)).toMatchObject({ emailAccountId: null, variationId: null, variationLabel: 'A' });
    expect(sends.find((x) => x.leadId === other.leadId)).toMatchObject({ emailAccountId: other.mailbox.id, variationId: null, variationLabel: 'A' });
    const leads = await db.prisma.lead.findMany({ where: { id: { in: [fromGoneBox.leadId, other.leadId] } }, select: { status: true, pendingSendId: true } });
    expect(leads).toEqual([
      { status: 'CONTACTED', pendingSendId: null },
      { status: 'CONTACTED', pendingSendId: null },
    ]);
    expect(s.problems()).toEqual([]);
  });

  it('hands its lead back, with no alert, when its mailbox is deleted and its login refused (was a failed delivery)', async () => {
    const s = await setup();
    const claim = s.claims[0]!;
    await db.prisma.emailAccount.delete({ where: { id: claim.mailbox.id } });
    smtp.users.set(claim.mailbox.email, 'changed meanwhile');
    try {
      expect(await deliverClaim({ deps: s.deps, claim })).toBe('mailbox_disconnected');
    } finally {
      smtp.users.set(claim.mailbox.email, PASSWORDS[claim.mailbox.email]!);
    }
    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: claim.leadId }, select: { claimedAt: true, pendingSendId: true } });
    expect(lead).toEqual({ claimedAt: null, pendingSendId: claim.sendId });
    expect(await db.prisma.webhookDelivery.count({ where: { workspaceId: s.t.ws } })).toBe(0);
    expect(s.problems()).toEqual([]);
  });

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())('waits for a campaign delete under way and finds it gone, where the two deadlocked', async () => {
    const s = await setup();
    const claim = s.claims[0]!;
    let recorded: Promise<boolean> | undefined;
    // As a delete of the campaign does: the campaign row first, then (its cascade) the lead's.
    await db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM campaigns WHERE id = $1 FOR UPDATE', s.c.id);
        recorded = createSendRecorder({ deps: s.deps }).record({ claim, now: s.t.clock.now(), outcomeUnknown: false });
        recorded.catch(() => {});
        // (The recording's statement, as pg_stat_activity shows its first kilobyte.)
        await untilWaitingOnLock(db.prisma, { sql: 'json_to_recordset' });
        await tx.$queryRawUnsafe('SELECT id FROM leads WHERE id = $1 FOR UPDATE', claim.leadId);
        await tx.campaign.delete({ where: { id: s.c.id } });
      },
      { timeout: 30_000 },
    );
    await expect(recorded).resolves.toBe(false);
    expect(s.notRecorded()).toEqual([claim.leadId]);
    // Neither a deadlock (40P01, run again) nor anything at warn.
    expect(s.lines.filter((l) => l.msg.includes('run again')).map((l) => l['change'])).toEqual([]);
    expect(s.problems()).toEqual([]);
  }, 60_000);

  // The worker's real loop, its clock moving 120 times faster than real time.
  it("keeps the worker sending, without an error, when a campaign is deleted while the server holds one of its e-mails", async () => {
    const s = await setup({ claim: false });
    const other = await s.t.campaign({ mailboxes: s.boxes, steps: [{ variations: [{ label: 'A', subject: 'Other', body: '<p>Other</p>' }] }] });
    const otherLeads = [await s.t.lead(other.id, 'other1@races.test'), await s.t.lead(other.id, 'other2@races.test')];
    const started = Date.now();
    const moving = { now: () => new Date(s.t.clock.at.getTime() + (Date.now() - started) * 120), realMs: (ms: number) => ms / 120 };
    let deleted = false;
    smtp.beforeAnswer = async ({ phase, to }) => {
      if (phase !== 'body' || deleted || !to[0]!.startsWith('lead')) return;
      deleted = true;
      await db.prisma.campaign.delete({ where: { id: s.c.id } });
    };
    const worker = startSendingWorker({ deps: { ...s.deps, ports: { ...s.deps.ports, clock: moving } }, intervalMs: 20, workspaceIds: [s.t.ws] });
    try {
      for (let i = 0; i < 300 && !(deleted && (await db.prisma.sentEmail.count({ where: { campaignId: other.id } })) === otherLeads.length); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
      smtp.beforeAnswer = null;
    }
    expect(deleted).toBe(true);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: other.id } })).toBe(otherLeads.length);
    expect(s.notRecorded().length).toBeGreaterThanOrEqual(1);
    expect(s.problems()).toEqual([]);
  }, 30_000);
});
