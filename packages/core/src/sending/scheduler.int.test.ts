// The sending engine against a real SMTP server (smtp-server on loopback) and the test
// database, with an injected clock that runs campaigns over simulated days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser, type ParsedMail } from 'mailparser';
import { newId, type Database, type Tx } from '@outreach/db';
import { createSendingFixture, startSmtpServer, testDatabase, usingPostgres, type SmtpTestServer, type TestStep } from '../testing/index';
import type { ServiceDeps } from '../shared/context';
import { createMailSender } from '../shared/mail-sender';
import { dayBounds, localDay } from './schedule.rules';
import { LOCK_CAMPAIGNS_SQL, LOCK_MAILBOXES_SQL } from './scheduler.queries';
import type { ClaimedSend } from './send-decision.rules';
import { RECORD_SENTS_SQL, type SentRow } from './send-record.queries';
import { CLAIM_LEASE_MS, claimDueSends } from './scheduler.service';
import { completeFinishedCampaigns, runSchedulerTick } from './send-tick.service';
import { startSendingWorker } from './worker.service';
import { recordOpen, unsubscribeByToken } from '../tracking/index';

const PASSWORDS: Record<string, string> = {
  'alice@sender.test': 'alice-pw',
  'bob@sender.test': 'bob-pw',
  'carol@sender.test': 'carol-pw',
  'dave@sender.test': 'dave-pw',
};
const WEEKDAYS = { '1': true, '2': true, '3': true, '4': true, '5': true };
const OSLO = 'Europe/Oslo';
const MINUTE = 60_000;

let db: Database;
let smtp: SmtpTestServer;
beforeAll(async () => {
  db = await testDatabase();
  smtp = await startSmtpServer({ users: PASSWORDS });
}, 30_000);
afterAll(async () => {
  await smtp?.close();
});

const setup = (options: { start: string }) => createSendingFixture({ db, smtp, passwords: PASSWORDS, start: options.start });

async function messagesTo(addresses: string[]): Promise<(ParsedMail & { envelopeTo: string[]; raw: string })[]> {
  const wanted = new Set(addresses.map((a) => a.toLowerCase()));
  const raw = smtp.messages.filter((m) => m.to.some((t) => wanted.has(t.toLowerCase())));
  return Promise.all(raw.map(async (m) => Object.assign(await simpleParser(m.raw), { envelopeTo: m.to, raw: m.raw })));
}

/** A promise and its resolve function. */
const gate = () => Promise.withResolvers<void>();

/**
 * Runs `hold` in a transaction kept open (its locks held) while `meanwhile` runs in another,
 * which waits at most 2 s for any lock: a wait for the first one's commit fails it. Both values.
 * PostgreSQL only: PGlite runs one transaction at a time.
 */
async function whileHeld<A, B>(hold: (tx: Tx) => Promise<A>, meanwhile: (tx: Tx) => Promise<B>): Promise<[A, B]> {
  const held = gate();
  const done = gate();
  const first = db.prisma.$transaction(async (tx) => {
    try {
      return await hold(tx);
    } finally {
      held.resolve();
      await done.promise;
    }
  });
  await held.promise;
  let second: B;
  try {
    second = await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '2s'`);
      return meanwhile(tx);
    });
  } catch (error) {
    done.resolve();
    await first.catch(() => undefined);
    throw error;
  }
  done.resolve();
  return [await first, second];
}

/** A header as it was written on the wire (unfolded), not as mailparser restructures it. */
const header = (mail: { raw: string }, name: string) => {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
};

describe('a small campaign over simulated days', () => {
  it('sends exactly what the schedule, delays, limits, stickiness, variations and templates allow', async () => {
    // Monday 23 November 2026, 06:00 in Oslo (05:00 UTC).
    const t = await setup({ start: '2026-11-23T05:00:00Z' });
    const alice = await t.mailbox('alice@sender.test', { dailyLimit: 3, sendingGap: 10 });
    const bob = await t.mailbox('bob@sender.test', { dailyLimit: 3, sendingGap: 10 });
    const c = await t.campaign({
      mailboxes: [alice, bob],
      settings: { dailyLimit: 5, dailyLimitNewLead: 4 },
      steps: [
        {
          variations: [
            { label: 'A', subject: '{Hi|Hello} {{first_name|there}}', body: '<p>{{first_name|there}}, a question about {{company_name}}.</p><p>{{tier|Standard}} plan</p>' },
            { label: 'B', subject: 'Quick question for {{company_name}}', body: '<p>Hey {{first_name|there}}, how does {{company_name}} handle outreach?</p>' },
          ],
        },
        { waitTime: 2, variations: [{ label: 'A', subject: '', body: '<p>Following up, {{first_name|there}}.</p>' }] },
      ],
    });
    const emails = ['l1@lead.test', 'l2@lead.test', 'l3@lead.test', 'l4@lead.test', 'l5@lead.test', 'l6@lead.test', 'l7@lead.test'];
    const ids: string[] = [];
    for (const [i, email] of emails.entries()) {
      ids.push(await t.lead(c.id, email, { firstName: i === 2 ? null : `Lead${i + 1}`, custom: i === 0 ? { tier: 'Gold' } : {} }));
    }
    const skippedId = await t.lead(c.id, 'nocompany@lead.test', { companyName: null });

    // Monday 06:00 to Saturday 06:00 Oslo time, a tick every 5 minutes.
    await t.runUntil('2026-11-28T05:00:00Z');

    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: c.id }, orderBy: { sentAt: 'asc' } });
    expect(sends).toHaveLength(emails.length * 2);
    const mails = await messagesTo([...emails, 'nocompany@lead.test']);
    expect(mails).toHaveLength(emails.length * 2);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(mails.length);

    for (const s of sends) {
      // Inside the window: a weekday, 09:00 to 17:00 in Oslo.
      const local = new Intl.DateTimeFormat('en-GB', { timeZone: OSLO, weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).format(s.sentAt);
      const [weekday, time] = local.split(' ');
      expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(weekday);
      expect(time! >= '09:00' && time! < '17:00').toBe(true);
    }
    // Daily limits: campaign 5, first steps 4, each mailbox 3.
    const byDay = new Map<string, typeof sends>();
    for (const s of sends) {
      const day = localDay({ timezone: OSLO, at: s.sentAt });
      byDay.set(day, [...(byDay.get(day) ?? []), s]);
    }
    for (const daySends of byDay.values()) {
      expect(daySends.length).toBeLessThanOrEqual(5);
      expect(daySends.filter((s) => s.step === 1).length).toBeLessThanOrEqual(4);
      for (const m of [alice, bob]) expect(daySends.filter((s) => s.emailAccountId === m).length).toBeLessThanOrEqual(3);
    }
    expect(byDay.get('2026-11-23')!.filter((s) => s.step === 1)).toHaveLength(4);

    // Sending gap: at least 85% of 10 minutes between two sends of a mailbox, never machine-regular.
    for (const m of [alice, bob]) {
      const times = sends.filter((s) => s.emailAccountId === m).map((s) => s.sentAt.getTime());
      const gaps = times.slice(1).map((x, i) => x - times[i]!);
      for (const g of gaps) expect(g).toBeGreaterThanOrEqual(8.5 * MINUTE);
    }

    // Variations split evenly on step 1 and are recorded on the send.
    const step1 = sends.filter((s) => s.step === 1);
    const a = step1.filter((s) => s.variationLabel === 'A').length;
    expect(Math.abs(a - (step1.length - a))).toBeLessThanOrEqual(1);

    for (const id of ids) {
      const [first, second] = sends.filter((s) => s.leadId === id);
      expect(first!.step).toBe(1);
      expect(second!.step).toBe(2);
      // Step 2 waits two days and comes from the same mailbox, in the same thread.
      expect(second!.sentAt.getTime() - first!.sentAt.getTime()).toBeGreaterThanOrEqual(2 * 86_400_000);
      expect(second!.emailAccountId).toBe(first!.emailAccountId);
      expect(second!.subject).toBe(`Re: ${first!.subject}`);
      const mail = mails.find((m) => m.messageId === `<${second!.messageId}>`)!;
      expect(header(mail, 'in-reply-to')).toBe(`<${first!.messageId}>`);
      expect(mail.from?.value[0]?.address).toBe(first!.emailAccountId === alice ? 'alice@sender.test' : 'bob@sender.test');
    }

    // Personalisation, fallbacks and spintax in what was really sent.
    const lead1First = mails.find((m) => m.envelopeTo.includes('l1@lead.test') && !m.subject?.startsWith('Re:'))!;
    expect(lead1First.html).toContain('Lead1');
    expect(lead1First.subject).toMatch(/^(Hi|Hello) Lead1$|^Quick question for Acme$/);
    if (lead1First.subject!.startsWith('H')) expect(lead1First.html).toContain('Gold plan');
    const noName = mails.find((m) => m.envelopeTo.includes('l3@lead.test') && !m.subject?.startsWith('Re:'))!;
    expect(`${noName.subject} ${noName.html}`).toContain('there');
    expect(noName.html).not.toContain('{{');
    // Tracking pixel and RFC 8058 unsubscribe headers.
    expect(lead1First.html).toMatch(/https:\/\/outreach\.test\/t\/o\/[0-9a-f]{24}\.[A-Za-z0-9_-]{22}\.gif/);
    expect(header(lead1First, 'list-unsubscribe')).toMatch(/<https:\/\/outreach\.test\/t\/u\/[0-9a-f]{24}\./);
    expect(header(lead1First, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(lead1First.text).toContain('Unsubscribe');

    // A lead with a variable that has no value and no fallback is skipped, with the reason.
    const skipped = await db.prisma.lead.findUniqueOrThrow({ where: { id: skippedId } });
    expect(skipped.status).toBe('SKIPPED');
    expect(skipped.statusReason).toContain('{{company_name}}');

    // Everyone is finished: leads COMPLETED, the campaign COMPLETED.
    const leads = await db.prisma.lead.findMany({ where: { id: { in: ids } } });
    expect(leads.map((l) => [l.status, l.currentStep, l.nextSendAt])).toEqual(ids.map(() => ['COMPLETED', 2, null]));
    const done = await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect(done.status).toBe('COMPLETED');
    // The campaign list's last_lead_sent is the last send.
    expect(done.lastLeadSentAt).toEqual(sends[sends.length - 1]!.sentAt);
  }, 120_000);
});

describe('the end of a tick', () => {
  it('sets the last send of the campaigns it sent from, never back, and completes finished ACTIVE campaigns only', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const box = await t.mailbox('alice@sender.test');
    const steps: TestStep[] = [{ variations: [{ label: 'A', subject: 'Hi', body: '<p>Hi</p>' }] }];
    const make = async (lead: 'due' | 'finished') => {
      const c = await t.campaign({ mailboxes: [box], steps });
      const id = await t.lead(c.id, `${lead}-${c.id}@lead.test`);
      if (lead === 'finished') await db.prisma.lead.update({ where: { id }, data: { status: 'COMPLETED', isCompleted: true, nextSendAt: null } });
      return c.id;
    };
    const [sending, later, finished, finishedSent, paused] = [await make('due'), await make('due'), await make('finished'), await make('finished'), await make('finished')];
    await db.prisma.campaign.update({ where: { id: paused }, data: { status: 'PAUSED' } });
    const now = new Date('2026-11-23T09:30:00Z');
    await db.prisma.campaign.update({ where: { id: later }, data: { lastLeadSentAt: new Date('2026-11-23T09:45:00Z') } });

    const completed = await completeFinishedCampaigns({ deps: t.deps, now, workspaceIds: [t.ws], sentFrom: [sending, later, finishedSent] });
    expect(completed.sort()).toEqual([finished, finishedSent].sort());
    const rows = new Map((await db.prisma.campaign.findMany({ where: { workspaceId: t.ws } })).map((c) => [c.id, c]));
    expect([sending, later, finished, finishedSent, paused].map((id) => [rows.get(id)!.status, rows.get(id)!.lastLeadSentAt?.toISOString() ?? null])).toEqual([
      ['ACTIVE', now.toISOString()],
      // A later tick's send time stays.
      ['ACTIVE', '2026-11-23T09:45:00.000Z'],
      ['COMPLETED', null],
      // Both in one statement.
      ['COMPLETED', now.toISOString()],
      ['PAUSED', null],
    ]);
    expect(rows.get(finished)!.updatedAt).toEqual(now);
    // Nothing left to do: a second call changes nothing.
    expect(await completeFinishedCampaigns({ deps: t.deps, now, workspaceIds: [t.ws], sentFrom: [sending] })).toEqual([]);
  });
});

describe('limits across campaigns and stops at send time', () => {
  it("shares a mailbox's daily limit across campaigns and re-checks blocklist, status and replies before sending", async () => {
    const t = await setup({ start: '2026-11-23T08:00:00Z' });
    const carol = await t.mailbox('carol@sender.test', { dailyLimit: 4, sendingGap: 0 });
    const steps: TestStep[] = [{ variations: [{ label: 'A', subject: 'One', body: '<p>One</p>' }] }, { waitTime: 0, variations: [{ label: 'A', subject: '', body: '<p>Two</p>' }] }];
    const c1 = await t.campaign({ mailboxes: [carol], steps, schedule: { from: '00:00', to: '23:59', days: { ...WEEKDAYS, '6': true, '7': true } } });
    const c2 = await t.campaign({ mailboxes: [carol], steps, schedule: { from: '00:00', to: '23:59', days: { ...WEEKDAYS, '6': true, '7': true } } });
    const leads1 = [await t.lead(c1.id, 'x1@one.test'), await t.lead(c1.id, 'x2@one.test'), await t.lead(c1.id, 'x3@one.test')];
    const leads2 = [await t.lead(c2.id, 'y1@two.test'), await t.lead(c2.id, 'y2@two.test'), await t.lead(c2.id, 'y3@blocked.test')];
    await db.prisma.blocklistEntry.create({ data: { id: newId(), workspaceId: t.ws, value: 'blocked.test', isDomain: true } });
    await db.prisma.blocklistEntry.create({ data: { id: newId(), workspaceId: t.ws, value: 'x2@one.test', isDomain: false } });
    // An address entry that reads like a domain blocks no one at that domain.
    await db.prisma.blocklistEntry.create({ data: { id: newId(), workspaceId: t.ws, value: 'two.test', isDomain: false } });
    await db.prisma.lead.update({ where: { id: leads1[2]! }, data: { status: 'UNSUBSCRIBED' } });

    // Two hours of ticks: carol may send 4 e-mails today across both campaigns.
    await t.runUntil('2026-11-23T10:00:00Z', MINUTE);
    const today = await db.prisma.sentEmail.count({ where: { emailAccountId: carol } });
    expect(today).toBe(4);
    const blocked = await db.prisma.lead.findUniqueOrThrow({ where: { id: leads2[2]! } });
    expect([blocked.status, blocked.nextSendAt]).toEqual(['SKIPPED', null]);
    expect(blocked.statusReason).toContain('blocklist');
    const blockedAddress = await db.prisma.lead.findUniqueOrThrow({ where: { id: leads1[1]! } });
    expect([blockedAddress.status, blockedAddress.nextSendAt]).toEqual(['SKIPPED', null]);
    expect((await messagesTo(['y1@two.test', 'y2@two.test'])).length).toBeGreaterThan(0);
    const unsubscribed = await db.prisma.lead.findUniqueOrThrow({ where: { id: leads1[2]! } });
    expect([unsubscribed.status, unsubscribed.nextSendAt, unsubscribed.currentStep]).toEqual(['UNSUBSCRIBED', null, 0]);
    expect((await messagesTo(['y3@blocked.test', 'x3@one.test', 'x2@one.test'])).length).toBe(0);

    // A lead that replies is not sent its follow-up (stop_on_lead_replied is on by default).
    const replied = { leadId: (await db.prisma.lead.findFirstOrThrow({ where: { campaignId: { in: [c1.id, c2.id] }, currentStep: 1, nextSendAt: { not: null } } })).id };
    await db.prisma.lead.update({ where: { id: replied.leadId }, data: { status: 'REPLIED' } });
    // The next day carol's limit is fresh.
    t.clock.at = new Date('2026-11-24T08:00:00Z');
    await t.runUntil('2026-11-24T10:00:00Z', MINUTE);
    const repliedLead = await db.prisma.lead.findUniqueOrThrow({ where: { id: replied.leadId } });
    expect([repliedLead.status, repliedLead.currentStep, repliedLead.nextSendAt]).toEqual(['REPLIED', 1, null]);
    const secondDay = await db.prisma.sentEmail.findMany({ where: { emailAccountId: carol, sentAt: { gte: new Date('2026-11-24T00:00:00Z') } } });
    expect(secondDay.length).toBeLessThanOrEqual(4);
    expect(secondDay.some((s) => s.leadId === replied.leadId)).toBe(false);
  }, 60_000);
});

describe('what the recipient does with the links', () => {
  it('one-click unsubscribe from the List-Unsubscribe URL stops the follow-up and blocklists the address; the pixel records opens', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({
      mailboxes: [alice],
      steps: [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }, { waitTime: 1, variations: [{ label: 'A', subject: '', body: '<p>Again</p>' }] }],
    });
    const leadId = await t.lead(c.id, 'leaver@links.test');
    await t.tick();
    const [mail] = await messagesTo(['leaver@links.test']);
    const unsubscribeUrl = /^<(.+)>$/.exec(header(mail!, 'list-unsubscribe')!)![1]!;
    const pixelUrl = /src="(https:\/\/outreach\.test\/t\/o\/[^"]+)"/.exec(mail!.html as string)![1]!;

    // A scanner fetching the pixel on delivery is a machine open; the reader a minute later is not.
    const openToken = pixelUrl.split('/').pop()!.replace(/\.gif$/, '');
    await recordOpen({ deps: t.deps, token: openToken, userAgent: 'Mozilla/5.0 (Macintosh)' });
    t.clock.advance(MINUTE);
    await recordOpen({ deps: t.deps, token: openToken, userAgent: 'Mozilla/5.0 (Macintosh)' });
    const send = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId }, include: { events: { orderBy: { occurredAt: 'asc' } } } });
    expect(send.events.map((e) => [e.type, e.isMachine])).toEqual([['OPEN', true], ['OPEN', false]]);
    expect(send.openedAt).toEqual(t.clock.now());

    const result = await unsubscribeByToken({ deps: t.deps, token: unsubscribeUrl.split('/').pop()! });
    expect(result.status).toBe('unsubscribed');
    t.clock.advance(2 * 86_400_000);
    for (let i = 0; i < 5; i++) {
      await t.tick();
      t.clock.advance(10 * MINUTE);
    }
    expect(await messagesTo(['leaver@links.test'])).toHaveLength(1);
    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect([lead.status, lead.nextSendAt, lead.currentStep]).toEqual(['UNSUBSCRIBED', null, 1]);
    expect(await db.prisma.blocklistEntry.count({ where: { workspaceId: t.ws, value: 'leaver@links.test' } })).toBe(1);
  }, 60_000);
});

describe('workers racing and crashing', () => {
  it('two workers ticking at once never send the same step twice', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const boxes = [await t.mailbox('alice@sender.test'), await t.mailbox('bob@sender.test'), await t.mailbox('carol@sender.test'), await t.mailbox('dave@sender.test')];
    const c = await t.campaign({ mailboxes: boxes, steps: [{ variations: [{ label: 'A', subject: 'Race {{first_name}}', body: '<p>Hi</p>' }, { label: 'B', subject: 'Race B', body: '<p>Hi</p>' }] }] });
    const emails = Array.from({ length: 24 }, (_, i) => `race${i}@race.test`);
    for (const e of emails) await t.lead(c.id, e);
    // A second worker: same database and keys, its own SMTP connection pool.
    const other: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, smtp: createMailSender({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    for (let round = 0; round < 30; round++) {
      await Promise.all([t.tick(), t.tick(other)]);
      t.clock.advance(2 * MINUTE);
    }
    await other.ports.smtp.close();
    const mails = await messagesTo(emails);
    expect(mails).toHaveLength(24);
    expect(new Set(mails.map((m) => m.envelopeTo[0])).size).toBe(24);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: c.id } })).toBe(24);
    const split = await db.prisma.sentEmail.groupBy({ by: ['variationLabel'], where: { campaignId: c.id }, _count: true });
    expect(split.map((s) => s._count).sort()).toEqual([12, 12]);
  }, 60_000);

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())("a claim holding a campaign keeps other claims out, not the recording of its sends nor new leads", async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Hi', body: '<p>Hi</p>' }] }] });
    const leadId = await t.lead(c.id, 'held@campaign.test');
    const day = dayBounds({ timezone: OSLO, at: t.clock.now() }).start.toISOString();
    const lockCampaign = (tx: Tx) => tx.$queryRawUnsafe<{ id: string }[]>(LOCK_CAMPAIGNS_SQL, [c.id], [day], 1);
    // A claim's lock of the campaign, held while a send is recorded and a lead added; another
    // worker's claim skips the held campaign.
    const [claimed, others] = await whileHeld(lockCampaign, async (tx) => {
      const id = newId();
      await tx.sentEmail.create({
        data: {
          id, organizationId: t.org.organizationId, workspaceId: t.ws, campaignId: c.id, leadId, emailAccountId: alice,
          step: 1, variationLabel: 'A', messageId: `${id}@sender.test`, subject: 'Hi', body: '<p>Hi</p>', sentAt: t.clock.now(),
        },
      });
      await tx.lead.create({
        data: { id: newId(), organizationId: t.org.organizationId, workspaceId: t.ws, campaignId: c.id, email: 'added@campaign.test', emailNormalized: 'added@campaign.test' },
      });
      return lockCampaign(tx);
    });
    expect(claimed).toHaveLength(1);
    expect(others).toEqual([]);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: c.id } })).toBe(1);
  }, 60_000);

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())('a claim holding a mailbox keeps other claims out, not the recording of its sends; a send being recorded does not hide its mailbox from a claim', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Hi', body: '<p>Hi</p>' }] }] });
    const claimOne = async (email: string) => {
      await t.lead(c.id, email);
      const { claims } = await claimDueSends({ deps: t.deps, now: t.clock.now(), maxSends: 10, workspaceIds: [t.ws] });
      expect(claims).toHaveLength(1);
      return claims[0]!;
    };
    /** The batch statement recording a claim's send, as the sending worker writes it. */
    const record = async (tx: Tx, claim: ClaimedSend) => {
      const row: SentRow = {
        id: claim.sendId, organization_id: claim.organizationId, workspace_id: claim.workspaceId, campaign_id: claim.campaignId, parent_campaign_id: null,
        lead_id: claim.leadId, email_account_id: claim.mailbox.id, step: claim.step, variation_id: claim.variationId, variation_label: claim.variationLabel,
        message_id: claim.message.messageId, subject: claim.message.subject, body: claim.message.html ?? claim.message.text, is_text: false,
        sent_at: t.clock.now().toISOString(), next_due_at: null, outcome_unknown: false,
      };
      const rows = await tx.$queryRawUnsafe<{ inserted: boolean; lead_status: string | null }[]>(RECORD_SENTS_SQL, JSON.stringify([row]), false);
      return rows.map((r) => [r.inserted, r.lead_status]);
    };
    // Another worker's claim of the mailbox (its gap long over by then; none of its held claims its own).
    const lockMailbox = (tx: Tx) =>
      tx.$queryRawUnsafe<{ id: string }[]>(LOCK_MAILBOXES_SQL, [alice], [t.clock.now().toISOString()], new Date(t.clock.now().getTime() + 86_400_000).toISOString(), []);

    // A send being recorded (its transaction still open): a claim still gets its mailbox, without waiting.
    const first = await claimOne('first@mailbox.test');
    const [recordedFirst, locked] = await whileHeld((tx) => record(tx, first), lockMailbox);
    expect(recordedFirst).toEqual([[true, 'COMPLETED']]);
    expect(locked.map((m) => m.id)).toEqual([alice]);

    // A claim holding the mailbox: the send claimed before it is recorded without waiting for
    // its commit, and another claim skips the mailbox.
    t.clock.advance(10 * MINUTE);
    const second = await claimOne('second@mailbox.test');
    const [claimed, others] = await whileHeld(lockMailbox, async (tx) => ({ recorded: await record(tx, second), locked: await lockMailbox(tx) }));
    expect(others).toEqual({ recorded: [[true, 'COMPLETED']], locked: [] });
    expect(claimed.map((m) => m.id)).toEqual([alice]);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: c.id } })).toBe(2);
  }, 60_000);

  it('a send interrupted by a crash before it reached the server is retried after the lease with the same Message-ID', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Crash', body: '<p>Hi</p>' }] }] });
    await t.lead(c.id, 'crash1@crash.test');

    // Crash between claim and send: the claim is committed, nothing is sent.
    const lost = await claimDueSends({ deps: t.deps, now: t.clock.now(), maxSends: 10, workspaceIds: [t.ws] });
    expect(lost.claims).toHaveLength(1);
    const claimed = lost.claims[0]!;
    t.clock.advance(MINUTE);
    expect((await t.tick()).claimed).toBe(0); // still leased
    t.clock.advance(CLAIM_LEASE_MS);
    expect((await t.tick()).sent).toBe(1);
    const [mail] = await messagesTo(['crash1@crash.test']);
    expect(mail!.messageId).toBe(`<${claimed.message.messageId}>`);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: c.id } })).toBe(1);
  }, 60_000);

  it('a worker stopped after handing the body to the server: the next one records the e-mail as sent, outcome unknown, without sending it again', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const c = await t.campaign({
      mailboxes: [await t.mailbox('alice@sender.test'), await t.mailbox('bob@sender.test')],
      steps: [{ variations: [{ label: 'A', subject: 'Body', body: '<p>Hi</p>' }] }, { waitTime: 1, variations: [{ label: 'A', subject: '', body: '<p>Again</p>' }] }],
    });
    const leadId = await t.lead(c.id, 'body@crash.test');
    // The server keeps the message, then holds its answer: the first worker is stuck between
    // the body and the record, as if it had died there (its outcome never recorded).
    const bodyKept = gate();
    const answer = gate();
    smtp.beforeAnswer = async ({ phase, to }) => {
      if (phase !== 'body' || !to.includes('body@crash.test')) return;
      bodyKept.resolve();
      await answer.promise;
    };
    const stuck = t.tick();
    await bodyKept.promise;
    const marked = await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect(marked.pendingDataAt).toEqual(t.clock.now());

    // Its lease runs out and another worker (its own SMTP pool) takes the claim over, while
    // the mailbox is in a sending gap: the claim does not hold it, and still reads its row to
    // record the e-mail from it.
    t.clock.advance(CLAIM_LEASE_MS + MINUTE);
    await db.prisma.emailAccount.update({ where: { id: marked.emailAccountId! }, data: { nextSendAllowedAt: new Date(t.clock.now().getTime() + 60 * MINUTE) } });
    const other: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, smtp: createMailSender({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    expect(await t.tick(other)).toMatchObject({ claimed: 1, sent: 0, unconfirmed: 1 });
    const first = await messagesTo(['body@crash.test']);
    expect(first).toHaveLength(1);
    const sends = await db.prisma.sentEmail.findMany({ where: { leadId } });
    expect(sends.map((s) => [`<${s.messageId}>`, s.step, s.outcomeUnknown, s.sentAt])).toEqual([[first[0]!.messageId, 1, true, t.clock.now()]]);
    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect([lead.status, lead.currentStep, lead.claimedAt, lead.pendingSendId, lead.pendingDataAt]).toEqual(['CONTACTED', 1, null, null, null]);
    expect(lead.nextSendAt).toEqual(new Date(t.clock.now().getTime() + 86_400_000));

    // The first worker hears back at last: its claim is gone, nothing more is recorded.
    answer.resolve();
    smtp.beforeAnswer = null;
    expect(await stuck).toMatchObject({ claimed: 1, sent: 0 });
    expect(await db.prisma.sentEmail.count({ where: { leadId } })).toBe(1);

    // The sequence goes on: the follow-up a day later, in the same thread, confirmed.
    t.clock.advance(86_400_000);
    expect(await t.tick(other)).toMatchObject({ sent: 1, unconfirmed: 0 });
    const mails = await messagesTo(['body@crash.test']);
    expect(mails).toHaveLength(2);
    expect(header(mails[1]!, 'in-reply-to')).toBe(first[0]!.messageId);
    expect((await db.prisma.sentEmail.findMany({ where: { leadId }, orderBy: { step: 'asc' } })).map((s) => s.outcomeUnknown)).toEqual([true, false]);
    await other.ports.smtp.close();
  }, 60_000);

  it('a worker stopped before DATA: the next one sends the e-mail once, and the stopped one, were it to go on, sends nothing', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Envelope', body: '<p>Hi</p>' }] }] });
    const leadId = await t.lead(c.id, 'envelope@crash.test');
    // The first worker's RCPT TO goes unanswered: it is stuck before DATA, the body unsent.
    const atRcpt = gate();
    const answer = gate();
    let held = false;
    smtp.beforeAnswer = async ({ phase, to }) => {
      if (phase !== 'rcpt' || !to.includes('envelope@crash.test') || held) return;
      held = true;
      atRcpt.resolve();
      await answer.promise;
    };
    const stuck = t.tick();
    await atRcpt.promise;
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).pendingDataAt).toBeNull();

    t.clock.advance(CLAIM_LEASE_MS + MINUTE);
    const other: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, smtp: createMailSender({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    expect(await t.tick(other)).toMatchObject({ claimed: 1, sent: 1, unconfirmed: 0 });
    expect(await messagesTo(['envelope@crash.test'])).toHaveLength(1);

    // The first worker's envelope is accepted after all: its claim is gone, so its body never goes out.
    answer.resolve();
    expect(await stuck).toMatchObject({ claimed: 1, sent: 0 });
    smtp.beforeAnswer = null;
    expect(await messagesTo(['envelope@crash.test'])).toHaveLength(1);
    const sends = await db.prisma.sentEmail.findMany({ where: { leadId } });
    expect(sends.map((s) => s.outcomeUnknown)).toEqual([false]);
    await other.ports.smtp.close();
  }, 60_000);

  it('a body that goes out late in its lease (after a wait at RCPT TO) has a whole lease from its DATA mark to be recorded: no takeover, no unknown outcome', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Late', body: '<p>Hi</p>' }] }] });
    const leadId = await t.lead(c.id, 'late@crash.test');
    const atRcpt = gate();
    const rcptAnswer = gate();
    const bodyKept = gate();
    const bodyAnswer = gate();
    smtp.beforeAnswer = async ({ phase, to }) => {
      if (!to.includes('late@crash.test')) return;
      if (phase === 'rcpt') {
        atRcpt.resolve();
        await rcptAnswer.promise;
      }
      if (phase === 'body') {
        bodyKept.resolve();
        await bodyAnswer.promise;
      }
    };
    const slow = t.tick();
    await atRcpt.promise;
    // The envelope is answered a minute before the lease ends; the body goes out, its answer waits past the lease's first end.
    t.clock.advance(CLAIM_LEASE_MS - MINUTE);
    rcptAnswer.resolve();
    await bodyKept.promise;
    t.clock.advance(2 * MINUTE);
    const other: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, smtp: createMailSender({ timeoutMs: 5_000, allowPrivateTargets: true }) } };
    expect(await t.tick(other)).toMatchObject({ claimed: 0 });

    bodyAnswer.resolve();
    smtp.beforeAnswer = null;
    expect(await slow).toMatchObject({ claimed: 1, sent: 1, unconfirmed: 0 });
    expect(await messagesTo(['late@crash.test'])).toHaveLength(1);
    expect((await db.prisma.sentEmail.findMany({ where: { leadId } })).map((s) => s.outcomeUnknown)).toEqual([false]);
    await other.ports.smtp.close();
  }, 60_000);

  it('a body the server refuses with a 4xx is sent again on the retry (the DATA mark goes with the answer)', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Later', body: '<p>Hi</p>' }] }] });
    const leadId = await t.lead(c.id, 'later@crash.test');
    let refusals = 1;
    smtp.beforeAnswer = async ({ phase, to }) => {
      if (phase === 'body' && to.includes('later@crash.test') && refusals-- > 0) throw Object.assign(new Error('4.3.0 queue full, try later'), { responseCode: 451 });
    };
    expect(await t.tick()).toMatchObject({ claimed: 1, deferred: 1 });
    const deferred = await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect([deferred.sendAttempts, deferred.pendingDataAt, deferred.claimedAt]).toEqual([1, null, null]);
    t.clock.advance(10 * MINUTE);
    expect(await t.tick()).toMatchObject({ claimed: 1, sent: 1, unconfirmed: 0 });
    smtp.beforeAnswer = null;
    const sends = await db.prisma.sentEmail.findMany({ where: { leadId } });
    expect(sends.map((s) => s.outcomeUnknown)).toEqual([false]);
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).pendingDataAt).toBeNull();
  }, 60_000);
});

describe('delivery failures', () => {
  it('records a 5xx as a hard bounce, retries a 4xx with backoff, and bounces after three deferrals', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const alice = await t.mailbox('alice@sender.test');
    const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }] });
    const hard = await t.lead(c.id, 'gone@bounce.test');
    const soft = await t.lead(c.id, 'busy@bounce.test');
    const never = await t.lead(c.id, 'down@bounce.test');
    smtp.rejections.set('gone@bounce.test', { code: 550, message: '5.1.1 <gone@bounce.test>: user unknown' });
    smtp.rejections.set('busy@bounce.test', { code: 451, message: '4.7.1 try again later', times: 1 });
    smtp.rejections.set('down@bounce.test', { code: 421, message: '4.3.0 mailbox temporarily unavailable' });

    for (let i = 0; i < 3; i++) {
      await t.tick();
      t.clock.advance(MINUTE);
    }
    const bounced = await db.prisma.lead.findUniqueOrThrow({ where: { id: hard } });
    expect([bounced.status, bounced.nextSendAt]).toEqual(['BOUNCED', null]);
    expect(bounced.bounceMessage).toContain('user unknown');
    const bounceSend = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId: hard }, include: { events: true } });
    expect(bounceSend.bouncedAt).not.toBeNull();
    expect(bounceSend.events.map((e) => [e.type, (e.data as { code: number }).code])).toEqual([['BOUNCE', 550]]);

    const deferred = await db.prisma.lead.findUniqueOrThrow({ where: { id: soft } });
    expect([deferred.status, deferred.sendAttempts]).toEqual(['NOT_CONTACTED', 1]);
    const wait = deferred.nextSendAt!.getTime() - t.clock.now().getTime();
    expect(wait).toBeGreaterThan(2 * MINUTE);
    expect(wait).toBeLessThan(8 * MINUTE);

    // Two hours later: the 4xx lead went out on its retry; the always-4xx one bounced after 3 tries.
    for (let i = 0; i < 120; i++) {
      await t.tick();
      t.clock.advance(MINUTE);
    }
    const retried = await db.prisma.lead.findUniqueOrThrow({ where: { id: soft } });
    expect([retried.status, retried.currentStep]).toEqual(['COMPLETED', 1]);
    expect(await messagesTo(['busy@bounce.test'])).toHaveLength(1);
    const exhausted = await db.prisma.lead.findUniqueOrThrow({ where: { id: never } });
    expect(exhausted.status).toBe('BOUNCED');
    expect(exhausted.bounceMessage).toContain('3 attempts failed');
    smtp.rejections.clear();
  }, 60_000);

  it('pauses the campaign when its bounce rate passes the limit, recording why', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const boxes = [await t.mailbox('alice@sender.test'), await t.mailbox('bob@sender.test')];
    const c = await t.campaign({
      mailboxes: boxes,
      settings: { pauseOnBounceRate: true, bounceRateLimit: 10 },
      steps: [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }],
    });
    for (let i = 0; i < 10; i++) await t.lead(c.id, `ok${i}@fine.test`);
    for (let i = 0; i < 4; i++) {
      await t.lead(c.id, `bad${i}@nowhere.test`);
      smtp.rejections.set(`bad${i}@nowhere.test`, { code: 550, message: '5.1.1 no such user' });
    }
    for (let i = 0; i < 10 && (await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id } })).status === 'ACTIVE'; i++) {
      await t.tick();
      t.clock.advance(2 * MINUTE);
    }
    const paused = await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect(paused.status).toBe('PAUSED');
    expect(paused.pausedReason).toMatch(/^bounce rate \d+\.\d% over the last \d+ sends passed the 10% limit$/);
    expect(paused.pausedAt).not.toBeNull();
    // Nothing more goes out while paused.
    const before = await db.prisma.sentEmail.count({ where: { campaignId: c.id } });
    t.clock.advance(10 * MINUTE);
    expect((await t.tick()).claimed).toBe(0);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: c.id } })).toBe(before);
    smtp.rejections.clear();
  }, 60_000);

  it('marks a mailbox whose login is refused as disconnected and sends its new leads from another', async () => {
    const t = await setup({ start: '2026-11-23T09:00:00Z' });
    const broken = await t.mailbox('alice@sender.test', { password: 'wrong' });
    const good = await t.mailbox('bob@sender.test');
    const c = await t.campaign({ mailboxes: [broken, good], steps: [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }] });
    await t.lead(c.id, 'first@auth.test');
    await t.lead(c.id, 'second@auth.test');
    for (let i = 0; i < 6; i++) {
      await t.tick();
      t.clock.advance(2 * MINUTE);
    }
    const mailbox = await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: broken } });
    expect(mailbox.status).toBe('DISCONNECTED');
    expect(mailbox.lastError).toMatch(/auth|credentials|password|535/i);
    const sends = await db.prisma.sentEmail.findMany({ where: { campaignId: c.id } });
    expect(sends.map((s) => s.emailAccountId)).toEqual([good, good]);
    expect((await messagesTo(['first@auth.test', 'second@auth.test'])).every((m) => m.from?.value[0]?.address === 'bob@sender.test')).toBe(true);
  }, 60_000);
});

describe('the sending worker loop', () => {
  // The clock moves, as in production: a Wednesday 10:00 UTC inside the window, advancing 120
  // times faster than real time, so that the mailbox's pause between two sends (up to a minute
  // of jitter) passes in half a second.
  it('sends a due lead its first step and, on a later tick, its follow-up, with a clock that moves', async () => {
    const t = await setup({ start: '2026-11-25T10:00:00Z' });
    const started = Date.now();
    const moving = { now: () => new Date(Date.parse('2026-11-25T10:00:00Z') + (Date.now() - started) * 120) };
    const deps: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, clock: moving } };
    const alice = await t.mailbox('alice@sender.test', { sendingGap: 0 });
    const c = await t.campaign({
      mailboxes: [alice],
      steps: [{ variations: [{ label: 'A', subject: 'Loop {{first_name}}', body: 'Hi' }] }, { waitTime: 0, variations: [{ label: 'A', subject: '', body: 'Following up' }] }],
      schedule: { timezone: 'UTC', from: '08:00', to: '18:00' },
    });
    const leadId = await t.lead(c.id, 'loop@lead.test');
    const worker = startSendingWorker({ deps, intervalMs: 50, workspaceIds: [t.ws] });
    try {
      for (let i = 0; i < 300 && (await db.prisma.sentEmail.count({ where: { leadId } })) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
    }
    const received = await messagesTo(['loop@lead.test']);
    expect(received.map((m) => m.subject)).toEqual(['Loop Ada', 'Re: Loop Ada']);
    expect(header(received[1]!, 'In-Reply-To')).toBe(received[0]!.messageId);
    expect(await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id }, select: { status: true } })).toEqual({ status: 'COMPLETED' });
  }, 30_000);
});

describe('overlapping ticks of the sending worker', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /**
   * Eight leads on four mailboxes, ticks of two sends, a clock that moves (120 times real time):
   * the server holds its answer to the first lead's e-mail (with `hold` 2, also to the third's: the
   * first of each of the first two ticks) until the test lets it go. How many of the others are recorded
   * meanwhile (waiting up to `waitMs`), then that all eight went out once each.
   */
  const sendWhileHeld = async (ticksInFlight: number, waitMs: number, hold = 1) => {
    const start = '2026-11-25T10:00:00Z';
    const t = await setup({ start });
    const began = Date.now();
    const moving = { now: () => new Date(Date.parse(start) + (Date.now() - began) * 120) };
    // A server silent for longer than the usual test timeout (5 s) is slow, not gone.
    const sender = createMailSender({ timeoutMs: 60_000, rejectUnauthorized: false, allowPrivateTargets: true });
    const deps: ServiceDeps = { ...t.deps, ports: { ...t.deps.ports, clock: moving, smtp: sender } };
    const boxes: string[] = [];
    for (const email of Object.keys(PASSWORDS)) boxes.push(await t.mailbox(email, { sendingGap: 0 }));
    const c = await t.campaign({ mailboxes: boxes, steps: [{ variations: [{ label: 'A', subject: 'Overlap', body: 'Hi' }] }], schedule: { timezone: 'UTC', from: '08:00', to: '18:00' } });
    const leads = Array.from({ length: 8 }, (_, i) => `o${ticksInFlight}-${hold}-${i}@lead.test`);
    for (const email of leads) await t.lead(c.id, email);
    const recorded = () => db.prisma.sentEmail.count({ where: { campaignId: c.id } });
    const holding = gate();
    const release = gate();
    const held: string[] = [];
    // The leads are due in the order created, and a tick claims two: the first tick's first lead,
    // and with hold 2 the second tick's.
    const toHold = hold === 2 ? [leads[0]!, leads[2]!] : [leads[0]!];
    smtp.beforeAnswer = async (event) => {
      if (event.phase !== 'body' || !toHold.includes(event.to[0]!)) return;
      held.push(event.to[0]!);
      if (held.length === hold) holding.resolve();
      await release.promise;
    };
    // A lease far longer than the test, so that the held e-mail is not taken over meanwhile.
    const worker = startSendingWorker({ deps, intervalMs: 50, maxSendsPerTick: 2, ticksInFlight, claimLeaseMs: 24 * 60 * MINUTE, workspaceIds: [t.ws] });
    let whileHeld: number;
    try {
      await holding.promise;
      const until = Date.now() + waitMs;
      while (Date.now() < until && (await recorded()) < 8 - hold) await sleep(50);
      whileHeld = await recorded();
      release.resolve();
      for (let i = 0; i < 200 && (await recorded()) < 8; i++) await sleep(50);
    } finally {
      release.resolve();
      smtp.beforeAnswer = null;
      await worker.stop();
      await sender.close();
    }
    const received = await messagesTo(leads);
    expect(received.map((m) => m.envelopeTo[0]).sort()).toEqual([...leads].sort());
    expect(await recorded()).toBe(8);
    return { whileHeld, held };
  };

  it('goes on claiming and sending while a slow server holds an e-mail of the tick before, and sends everything once', async () => {
    const overlapping = await sendWhileHeld(2, 10_000);
    expect(overlapping.held).toHaveLength(1);
    expect(overlapping.whileHeld).toBe(7);
  }, 60_000);

  it('goes on claiming while slow servers hold an e-mail of each of the two ticks in flight: after the wait, they no longer count', async () => {
    const overlapping = await sendWhileHeld(2, 10_000, 2);
    expect(overlapping.held).toHaveLength(2);
    expect(overlapping.whileHeld).toBe(6);
  }, 60_000);

  it('with one tick in flight, waits for the held e-mail before claiming more', async () => {
    const one = await sendWhileHeld(1, 1_500);
    // Only the other send of the held one's tick went out meanwhile.
    expect(one.whileHeld).toBe(1);
  }, 60_000);
});
