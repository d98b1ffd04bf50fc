// Sending ahead: a claim gives a mailbox the sends that may follow its first within a horizon,
// each once the pause after the one before ends. Against a real SMTP server (smtp-server on
// loopback) and the test database.
import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { createSendingFixture, useSmtpServer, useTestDatabase } from '../testing/index';
import type { ServiceDeps } from '../shared/context';
import type { Clock } from '../shared/ports';
import { createMailSender } from '../shared/mail-sender';
import { sendingGapWithJitter } from './pacing.rules';
import { CLAIM_LEASE_MS, claimDueSends } from './scheduler.service';
import { releaseClaims, startSchedulerTick } from './send-tick.service';
import { startSendingWorker } from './worker.service';

const PASSWORDS: Record<string, string> = { 'erin@sender.test': 'erin-pw', 'frank@sender.test': 'frank-pw' };
const START = '2026-11-25T10:00:00Z';
const SECOND = 1000;
const HORIZON = 10 * 60 * SECOND;

const db = useTestDatabase();
const smtp = useSmtpServer(PASSWORDS);

/** A clock that moves `speed` times faster than real time from START. */
function movingClock(speed: number): Clock {
  const began = Date.now();
  return { now: () => new Date(Date.parse(START) + (Date.now() - began) * speed), realMs: (ms) => ms / speed };
}

/** Two mailboxes (a 1-minute gap: 51–75 s pauses), one campaign open all day, `n` leads; the fixture and the leads' addresses. */
async function campaignOf(n: number, tag: string) {
  const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: START });
  const boxes = [await t.mailbox('erin@sender.test', { sendingGap: 1 }), await t.mailbox('frank@sender.test', { sendingGap: 1 })];
  const c = await t.campaign({ mailboxes: boxes, steps: [{ variations: [{ label: 'A', subject: 'Ahead {{first_name}}', body: 'Hi' }] }], schedule: { timezone: 'UTC', from: '00:00', to: '23:59' } });
  const leads = Array.from({ length: n }, (_, i) => `${tag}-${i}@lead.test`);
  for (const email of leads) await t.lead(c.id, email);
  return { t, boxes, campaignId: c.id, leads };
}

const receivedBy = (leads: string[]) => smtp.messages.filter((m) => m.to.some((to) => leads.includes(to)));

/**
 * Times each of these leads' SMTP transactions on `clock`, from RCPT TO to the answer to its
 * body (answered `delayMs` of real time late: a slow server); `bySender` lists them by the
 * e-mail's sender once they are received.
 */
function timeTransactions(options: { leads: string[]; clock: Clock; delayMs?: number }) {
  const spans = new Map<string, { from: number; to: number }>();
  smtp.beforeAnswer = async (event) => {
    const to = event.to[0]!;
    if (!options.leads.includes(to)) return;
    if (event.phase === 'rcpt') return void spans.set(to, { from: options.clock.now().getTime(), to: Infinity });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    spans.get(to)!.to = options.clock.now().getTime();
  };
  return {
    async bySender() {
      const bySender = new Map<string, { from: number; to: number }[]>();
      for (const m of receivedBy(options.leads)) {
        const sender = (await simpleParser(m.raw)).from!.value[0]!.address!;
        bySender.set(sender, [...(bySender.get(sender) ?? []), spans.get(m.to[0]!)!]);
      }
      for (const list of bySender.values()) list.sort((a, b) => a.from - b.from);
      return bySender;
    },
  };
}

/** Each sender's SMTP transactions (timeTransactions), two senders: none starts before the one before it has ended. */
function expectOneAtATime(bySender: Map<string, { from: number; to: number }[]>) {
  expect(bySender.size).toBe(2);
  for (const list of bySender.values()) {
    for (let i = 1; i < list.length; i++) expect(list[i]!.from).toBeGreaterThanOrEqual(list[i - 1]!.to);
  }
}

/** Runs the sending worker on `deps` until every one of `leads` is recorded as sent (or 15 s pass). */
async function runWorker(options: { deps: ServiceDeps; ws: string; leads: string[]; claimLeaseMs?: number }): Promise<number> {
  const worker = startSendingWorker({ deps: options.deps, intervalMs: 20, claimAheadMs: HORIZON, workspaceIds: [options.ws], claimLeaseMs: options.claimLeaseMs });
  try {
    const first = (await worker.nextTick()).claimed;
    for (let i = 0; i < 300 && (await db.prisma.sentEmail.count({ where: { workspaceId: options.ws } })) < options.leads.length; i++) await new Promise((r) => setTimeout(r, 50));
    return first;
  } finally {
    await worker.stop();
    smtp.beforeAnswer = null;
  }
}

describe('a claim sending ahead', () => {
  it("gives each mailbox its later sends, each when the pause after the one before ends, and holds the mailbox until its last send's pause ends", async () => {
    const { t, boxes, leads } = await campaignOf(12, 'claim');
    const now = t.clock.now();
    const { claims } = await claimDueSends({ deps: t.deps, now, maxSends: 100, workspaceIds: [t.ws], aheadMs: HORIZON });
    // 51–75 s pauses in ten minutes: at least 8 sends from each mailbox's first at once, all 12 leads claimed.
    expect(claims).toHaveLength(leads.length);
    for (const box of boxes) {
      const chain = claims.filter((c) => c.mailbox.id === box);
      expect(chain.length).toBeGreaterThan(1);
      expect(chain[0]!.sendAt).toEqual(now);
      for (let i = 1; i < chain.length; i++) {
        expect(chain[i]!.sendAt.getTime()).toBe(chain[i - 1]!.sendAt.getTime() + sendingGapWithJitter({ gapMinutes: 1, seed: chain[i - 1]!.sendId }));
      }
      const last = chain[chain.length - 1]!;
      expect(last.sendAt.getTime()).toBeLessThanOrEqual(now.getTime() + HORIZON);
      const row = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: box }, select: { nextSendAllowedAt: true } });
      expect(row.nextSendAllowedAt).toEqual(new Date(last.sendAt.getTime() + sendingGapWithJitter({ gapMinutes: 1, seed: last.sendId })));
    }
    // Each lead is held from its own send time for a whole lease.
    const rows = await db.prisma.lead.findMany({ where: { id: { in: claims.map((c) => c.leadId) } }, select: { id: true, nextSendAt: true, claimedAt: true } });
    for (const c of claims) {
      const row = rows.find((r) => r.id === c.leadId)!;
      expect(row.claimedAt).toEqual(now);
      expect(row.nextSendAt).toEqual(new Date(c.sendAt.getTime() + CLAIM_LEASE_MS));
    }
    // Nothing more from these mailboxes until their pauses end.
    expect((await claimDueSends({ deps: t.deps, now: new Date(now.getTime() + 60 * SECOND), maxSends: 100, workspaceIds: [t.ws], aheadMs: HORIZON })).claims).toEqual([]);
  });

  it('does not give sends past the end of the sending window', async () => {
    const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-25T17:57:00Z' });
    const box = await t.mailbox('erin@sender.test', { sendingGap: 1 });
    const c = await t.campaign({ mailboxes: [box], steps: [{ variations: [{ label: 'A', subject: 'Late', body: 'Hi' }] }], schedule: { timezone: 'UTC', from: '08:00', to: '18:00' } });
    for (let i = 0; i < 6; i++) await t.lead(c.id, `late-${i}@lead.test`);
    const { claims } = await claimDueSends({ deps: t.deps, now: t.clock.now(), maxSends: 100, workspaceIds: [t.ws], aheadMs: HORIZON });
    // 17:57 and pauses of 51–75 s: two or three sends before 18:00, none after.
    expect(claims.length).toBeGreaterThanOrEqual(2);
    expect(claims.length).toBeLessThanOrEqual(4);
    for (const claim of claims) expect(claim.sendAt.getTime()).toBeLessThan(Date.parse('2026-11-25T18:00:00Z'));
  });

  it('gives a mailbox nothing more while sends claimed from it earlier are not all made, even once their last pause has ended; a lease ending frees it', async () => {
    const { t, boxes } = await campaignOf(40, 'held');
    const [a, b] = boxes as [string, string];
    const now = t.clock.now();
    const leaseMs = 60 * 60 * SECOND;
    const claim = async (at: Date) => (await claimDueSends({ deps: t.deps, now: at, maxSends: 100, workspaceIds: [t.ws], aheadMs: HORIZON, leaseMs })).claims;
    const first = await claim(now);
    const firstOf = (box: string) => first.filter((c) => c.mailbox.id === box);
    expect(firstOf(a).length).toBeGreaterThan(1);
    expect(firstOf(b).length).toBeGreaterThan(1);
    // Two minutes after the horizon both mailboxes' last pauses have ended, and leads are still due...
    const later = new Date(now.getTime() + HORIZON + 2 * 60 * SECOND);
    for (const box of boxes) {
      const row = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: box }, select: { nextSendAllowedAt: true } });
      expect(row.nextSendAllowedAt!.getTime()).toBeLessThan(later.getTime());
    }
    expect(await db.prisma.lead.count({ where: { workspaceId: t.ws, claimedAt: null, nextSendAt: { lte: later } } })).toBeGreaterThan(0);
    // ...but none of their claimed sends has been made (a slow server): nothing more from either.
    expect(await claim(later)).toEqual([]);
    // A's claims handed back (its worker stopped, or its chain ended early): A sends again, B still not.
    await releaseClaims(t.deps, firstOf(a));
    const again = await claim(later);
    expect(again.length).toBeGreaterThan(0);
    expect(new Set(again.map((c) => c.mailbox.id))).toEqual(new Set([a]));
    // B's worker died. Once the leases of its claims have ended, B is free again (A still holds its new claims).
    const afterLease = new Date(Math.max(...firstOf(b).map((c) => c.sendAt.getTime())) + leaseMs + SECOND);
    const freed = await claim(afterLease);
    expect(freed.length).toBeGreaterThan(0);
    expect(new Set(freed.map((c) => c.mailbox.id))).toEqual(new Set([b]));
  });

  it('gives a mailbox with sends still to be made more only when they are the claiming worker\'s own (its lane), after its last pause', async () => {
    const { t, boxes } = await campaignOf(40, 'own');
    const [a, b] = boxes as [string, string];
    const now = t.clock.now();
    const leaseMs = 60 * 60 * SECOND;
    const claim = async (at: Date, ownMailboxes?: string[]) => (await claimDueSends({ deps: t.deps, now: at, maxSends: 100, workspaceIds: [t.ws], aheadMs: HORIZON, leaseMs, ownMailboxes })).claims;
    const first = await claim(now);
    const lastOf = (box: string) => Math.max(...first.filter((c) => c.mailbox.id === box).map((c) => c.sendAt.getTime()));
    // While A's last pause has not ended, not even its own worker gives it more.
    expect(await claim(new Date(lastOf(a) + SECOND), [a])).toEqual([]);
    // Once both mailboxes' pauses have ended: another worker gives neither more; A's own worker gives A more, from now on.
    const later = new Date(now.getTime() + HORIZON + 2 * 60 * SECOND);
    expect(await claim(later)).toEqual([]);
    const more = await claim(later, [a]);
    expect(more.length).toBeGreaterThan(1);
    expect(new Set(more.map((c) => c.mailbox.id))).toEqual(new Set([a]));
    expect(Math.min(...more.map((c) => c.sendAt.getTime()))).toBe(later.getTime());
    // Each lead once: none of A's new sends is one claimed before.
    const before = new Set(first.map((c) => c.leadId));
    expect(more.filter((c) => before.has(c.leadId))).toEqual([]);
    // B stays busy for everyone but its own worker (A is in its new pause).
    expect(await claim(later, [a])).toEqual([]);
    const forB = await claim(later, [b]);
    expect(forB.length).toBeGreaterThan(1);
    expect(new Set(forB.map((c) => c.mailbox.id))).toEqual(new Set([b]));
  });
});

describe('delivering sends claimed ahead', () => {
  it('the worker loop on a clock that moves: every lead once, a mailbox sending one e-mail at a time, more than one a tick', async () => {
    const { t, leads } = await campaignOf(10, 'loop');
    // 600 times real time: a pause of 51–75 s lasts about a tenth of a second.
    const clock = movingClock(600);
    const transactions = timeTransactions({ leads, clock });
    const first = await runWorker({ deps: { ...t.deps, ports: { ...t.deps.ports, clock } }, ws: t.ws, leads });
    // The first tick gave the two mailboxes more than one send each.
    expect(first).toBeGreaterThan(2);
    expect(receivedBy(leads).map((m) => m.to[0]).sort()).toEqual([...leads].sort());
    expect(await db.prisma.sentEmail.count({ where: { workspaceId: t.ws } })).toBe(leads.length);
    // By sender: its transactions never overlap.
    expectOneAtATime(await transactions.bySender());
  }, 60_000);

  it('a mailbox whose claimed sends run late (a slow server) gets more only queued behind them, by its own worker: its e-mails never overlap', async () => {
    // More leads than a first claim gives the two mailboxes (about ten each in the ten-minute horizon).
    const { t, leads } = await campaignOf(40, 'slow');
    // 600 times real time, and every body answered 150 ms (90 s here) late: longer than a
    // mailbox's pauses (51–75 s), so each claim's later sends fall behind their times and its last
    // pause ends while they are still going out.
    const clock = movingClock(600);
    const transactions = timeTransactions({ leads, clock, delayMs: 150 });
    // Late by minutes on this clock: a lease of an hour keeps the late sends the claim's own (past
    // its lease, a send is another worker's to take over; "hands back only its own claims").
    await runWorker({ deps: { ...t.deps, ports: { ...t.deps.ports, clock } }, ws: t.ws, leads, claimLeaseMs: 60 * 60 * SECOND });
    expect(receivedBy(leads).map((m) => m.to[0]).sort()).toEqual([...leads].sort());
    expect(await db.prisma.sentEmail.count({ where: { workspaceId: t.ws } })).toBe(leads.length);
    expectOneAtATime(await transactions.bySender());
  }, 60_000);

  it.each([
    { ahead: '3 minutes', aheadMs: 3 * 60 * SECOND },
    { ahead: 'nothing', aheadMs: 0 },
  ])("a mailbox whose server holds an answer does not hold up the other mailbox's next claims (sends claimed ahead: $ahead)", async ({ aheadMs }) => {
    const { t, leads } = await campaignOf(16, `held${aheadMs}`);
    // 600 times real time; a claim gives a mailbox the sends of the next 3 minutes (pauses of
    // 51–75 s: three or four), or one. The first body is held until the test lets it go.
    const clock = movingClock(600);
    const release = Promise.withResolvers<void>();
    let held: string | null = null;
    smtp.beforeAnswer = async (event) => {
      if (event.phase !== 'body' || held !== null || !leads.includes(event.to[0]!)) return;
      held = event.to[0]!;
      await release.promise;
    };
    const recorded = () => db.prisma.sentEmail.count({ where: { workspaceId: t.ws } });
    // A server silent for longer than the usual test timeout (5 s) is slow, not gone.
    const sender = createMailSender({ timeoutMs: 60_000, allowPrivateTargets: true });
    const worker = startSendingWorker({ deps: { ...t.deps, ports: { ...t.deps.ports, clock, smtp: sender } }, intervalMs: 20, claimAheadMs: aheadMs, workspaceIds: [t.ws], claimLeaseMs: 60 * 60 * SECOND });
    let whileHeld: number;
    try {
      // The held mailbox keeps its own claim (at most four sends); the other sends every other
      // lead meanwhile, claim after claim. Had the worker's loop waited for the held send before
      // claiming again, the other would have stopped after its first three or four.
      for (let i = 0; i < 200 && (await recorded()) < leads.length - 4; i++) await new Promise((r) => setTimeout(r, 50));
      whileHeld = await recorded();
      expect(held).not.toBeNull();
      release.resolve();
      for (let i = 0; i < 200 && (await recorded()) < leads.length; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      release.resolve();
      await worker.stop();
      await sender.close();
      smtp.beforeAnswer = null;
    }
    expect(whileHeld).toBeGreaterThanOrEqual(leads.length - 4);
    expect(receivedBy(leads).map((m) => m.to[0]).sort()).toEqual([...leads].sort());
    expect(await recorded()).toBe(leads.length);
  }, 60_000);

  it('a campaign paused after the claim sends nothing more: its next send is cut off before its body ends, the rest handed back', async () => {
    const { t, campaignId, leads } = await campaignOf(6, 'pause');
    // 10 times real time: a later send waits 5 s or more.
    const deps: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, clock: movingClock(10) } };
    const tick = await startSchedulerTick({ deps, maxSends: 100, workspaceIds: [t.ws], claimAheadMs: HORIZON });
    expect(tick.claimed).toBe(6);
    expect(tick.sendsLater).toBe(true);
    await tick.firstSends;
    await db.prisma.campaign.update({ where: { id: campaignId }, data: { status: 'PAUSED' } });
    // Each mailbox's second send comes due within 75 s of the claim (7.5 s here) and is cut off
    // before its body ends; it and the mailbox's third are handed back.
    const result = await tick.finished;
    expect(result).toMatchObject({ claimed: 6, sent: 2, released: 4 });
    expect(receivedBy(leads)).toHaveLength(2);
    expect(await db.prisma.sentEmail.count({ where: { campaignId } })).toBe(2);
    const waiting = await db.prisma.lead.findMany({ where: { campaignId, pendingSendId: { not: null } }, select: { claimedAt: true, pendingSendId: true, pendingDataAt: true } });
    expect(waiting).toHaveLength(4);
    expect(waiting.every((l) => l.claimedAt === null && l.pendingDataAt === null)).toBe(true);
    // Resumed an hour later: their own e-mails (same send ids), claimed afresh, not as a takeover.
    await db.prisma.campaign.update({ where: { id: campaignId }, data: { status: 'ACTIVE' } });
    const { claims } = await claimDueSends({ deps: t.deps, now: new Date(Date.parse(START) + 60 * 60 * SECOND), maxSends: 100, workspaceIds: [t.ws] });
    expect(claims).toHaveLength(2);
    for (const claim of claims) {
      expect(waiting.map((l) => l.pendingSendId)).toContain(claim.sendId);
      expect(claim.takenOver).toBe(false);
    }
  }, 60_000);

  it('stopping hands back the sends still waiting for their time: due again, then sent once with the same Message-ID', async () => {
    const { t, leads } = await campaignOf(6, 'stop');
    const clock = movingClock(10);
    const deps: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, clock } };
    const stopping = new AbortController();
    const tick = await startSchedulerTick({ deps, maxSends: 100, workspaceIds: [t.ws], claimAheadMs: HORIZON, signal: stopping.signal });
    await tick.firstSends;
    stopping.abort();
    const result = await tick.finished;
    expect(result).toMatchObject({ claimed: 6, sent: 2, released: 4 });
    const pending = await db.prisma.lead.findMany({ where: { workspaceId: t.ws, pendingSendId: { not: null } }, select: { claimedAt: true, pendingSendId: true, nextSendAt: true, emailAccountId: true } });
    expect(pending).toHaveLength(4);
    for (const lead of pending) {
      expect(lead.claimedAt).toBeNull();
      // Due at its send time, from whichever mailbox is free then (a first step).
      expect(lead.emailAccountId).toBeNull();
      expect(lead.nextSendAt!.getTime()).toBeLessThanOrEqual(clock.now().getTime() + HORIZON);
    }
    const handedBack = new Set(pending.map((l) => l.pendingSendId!));
    // Later, once the mailboxes' pauses are over, one tick at a time with no sending ahead: each sent once, under its send id.
    t.clock.at = new Date(Date.parse(START) + 60 * 60 * SECOND);
    for (let i = 0; i < 4; i++) {
      await startSchedulerTick({ deps: t.deps, maxSends: 100, workspaceIds: [t.ws] }).then((next) => next.finished);
      t.clock.advance(5 * 60 * SECOND);
    }
    const received = receivedBy(leads);
    expect(received.map((m) => m.to[0]).sort()).toEqual([...leads].sort());
    const ids = await Promise.all(received.map(async (m) => (await simpleParser(m.raw)).messageId!.replace(/^<|@.*$/g, '')));
    expect(ids.filter((id) => handedBack.has(id))).toHaveLength(4);
  }, 60_000);

  it('hands back only its own claims: not a lead another worker took over after the lease', async () => {
    const { t } = await campaignOf(2, 'takeover');
    const first = await claimDueSends({ deps: t.deps, now: t.clock.now(), maxSends: 100, workspaceIds: [t.ws] });
    expect(first.claims).toHaveLength(2);
    // The first worker stalls past its lease: another claims the same sends again (same send ids).
    const later = new Date(t.clock.now().getTime() + CLAIM_LEASE_MS + SECOND);
    const second = await claimDueSends({ deps: t.deps, now: later, maxSends: 100, workspaceIds: [t.ws] });
    expect(second.claims.map((c) => c.sendId).sort()).toEqual(first.claims.map((c) => c.sendId).sort());
    // The first worker, stopping, hands back what it holds: nothing any more.
    const stale = first.claims;
    expect(await releaseClaims(t.deps, stale)).toEqual(new Set());
    const leads = await db.prisma.lead.findMany({ where: { id: { in: stale.map((c) => c.leadId) } }, select: { claimedAt: true } });
    expect(leads.map((l) => l.claimedAt)).toEqual([later, later]);
  });
});
