// The daily send counts kept by triggers (docs/database.md, "Daily send counts"): the engine's
// limits read them, so what they count is what a mailbox or campaign may still send today.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { newId, type Database } from '@outreach/db';
import { createSendingFixture, startSmtpServer, testDatabase, usingPostgres, type SmtpTestServer, type TestStep } from '../testing/index';
import { dayBounds } from './schedule.rules';

const PASSWORDS: Record<string, string> = { 'erin@sender.test': 'erin-pw', 'frank@sender.test': 'frank-pw' };
const ALL_DAYS = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true };
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

describe('daily send counts', () => {
  it("count a mailbox's warmup e-mails against its limit, give back a deleted one, and start again the next day", async () => {
    const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T08:00:00Z' });
    const erin = await t.mailbox('erin@sender.test', { dailyLimit: 3, sendingGap: 0 });
    const frank = await t.mailbox('frank@sender.test');
    const steps: TestStep[] = [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hello</p>' }] }];
    const campaign = await t.campaign({ mailboxes: [erin], steps, schedule: { from: '00:00', to: '23:59', days: ALL_DAYS, timezone: 'America/New_York' } });
    for (const n of [1, 2, 3, 4]) await t.lead(campaign.id, `lead${n}@dest.test`);

    // Three warmup e-mails from erin this morning; the last did not leave and its row is deleted.
    const warmup = async (sentAt: string) => {
      const id = newId();
      await db.prisma.warmupMessage.create({
        data: {
          id,
          organizationId: t.org.organizationId,
          workspaceId: t.ws,
          senderAccountId: erin,
          recipientAccountId: frank,
          code: `code-${id}`,
          messageId: `${id}@sender.test`,
          threadId: `${id}@sender.test`,
          subject: 'warmup',
          sentAt: new Date(sentAt),
        },
      });
      return id;
    };
    await warmup('2026-11-23T06:00:00Z');
    await warmup('2026-11-23T07:00:00Z');
    await db.prisma.warmupMessage.delete({ where: { id: await warmup('2026-11-23T07:30:00Z') } });

    // A limit of 3 less 2 warmup e-mails: one campaign send today.
    await t.runUntil('2026-11-23T10:00:00Z', MINUTE);
    expect(await db.prisma.sentEmail.count({ where: { emailAccountId: erin } })).toBe(1);
    const { timezone } = await db.prisma.workspace.findUniqueOrThrow({ where: { id: t.ws }, select: { timezone: true } });
    const mailboxDay = dayBounds({ timezone, at: new Date('2026-11-23T10:00:00Z') }).start;
    expect(await db.prisma.mailboxDayCount.findUnique({ where: { emailAccountId: erin } })).toMatchObject({ dayStart: mailboxDay, sent: 1, warmupSent: 2 });
    // The campaign's day is its schedule's (New York): 08:00 UTC is still the 23rd there. Its
    // counts are kept per mailbox it sends from.
    const campaignRows = () => db.prisma.campaignDayCount.findMany({ where: { campaignId: campaign.id }, orderBy: { emailAccountId: 'asc' } });
    expect(await campaignRows()).toEqual([
      { campaignId: campaign.id, emailAccountId: erin, dayStart: dayBounds({ timezone: 'America/New_York', at: new Date('2026-11-23T10:00:00Z') }).start, sent: 1, newSent: 1 },
    ]);

    // The next day the counts start again: three more sends, the warmup e-mails of yesterday not counted.
    t.clock.at = new Date('2026-11-24T08:00:00Z');
    await t.runUntil('2026-11-24T10:00:00Z', MINUTE);
    expect(await db.prisma.sentEmail.count({ where: { emailAccountId: erin } })).toBe(4);
    expect(await db.prisma.mailboxDayCount.findUnique({ where: { emailAccountId: erin } })).toMatchObject({
      dayStart: dayBounds({ timezone, at: new Date('2026-11-24T10:00:00Z') }).start,
      sent: 3,
      warmupSent: 0,
    });
    // The campaign's row started again too (its first send of the 24th, New York time).
    expect(await campaignRows()).toEqual([
      { campaignId: campaign.id, emailAccountId: erin, dayStart: dayBounds({ timezone: 'America/New_York', at: new Date('2026-11-24T10:00:00Z') }).start, sent: 3, newSent: 3 },
    ]);
  }, 60_000);

  it("count a campaign's daily limits over all its mailboxes' rows of today, a row without a mailbox included, none of another day", async () => {
    const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T08:00:00Z' });
    const erin = await t.mailbox('erin@sender.test');
    const frank = await t.mailbox('frank@sender.test');
    const steps: TestStep[] = [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hello</p>' }] }];
    const campaign = async (settings: Record<string, unknown>) => {
      const c = await t.campaign({ mailboxes: [erin, frank], steps, schedule: { from: '00:00', to: '23:59', days: ALL_DAYS, timezone: 'UTC' }, settings });
      for (let n = 1; n <= 10; n++) await t.lead(c.id, `lead${n}@${c.id}.test`);
      // Sends counted before the rows were kept per mailbox (or without a mailbox): 2 today,
      // 1 of them new; and a row of yesterday, of a mailbox since deleted, that counts nothing.
      await db.prisma.campaignDayCount.createMany({
        data: [
          { campaignId: c.id, emailAccountId: '', dayStart: new Date('2026-11-23T00:00:00Z'), sent: 2, newSent: 1 },
          { campaignId: c.id, emailAccountId: 'gone-mailbox', dayStart: new Date('2026-11-22T00:00:00Z'), sent: 50, newSent: 50 },
        ],
      });
      return c.id;
    };
    const byTotal = await campaign({ dailyLimit: 6, dailyLimitNewLead: 100 });
    const byNew = await campaign({ dailyLimit: 100, dailyLimitNewLead: 6 });
    await t.runUntil('2026-11-23T10:00:00Z', MINUTE);
    const sent = async (campaignId: string) => {
      const rows = await db.prisma.sentEmail.groupBy({ by: ['emailAccountId'], where: { campaignId }, _count: true });
      return { sends: rows.reduce((n, r) => n + r._count, 0), mailboxes: rows.length };
    };
    // 6 a day less 2: four sends, from both mailboxes; 6 new a day less 1: five.
    expect(await sent(byTotal)).toEqual({ sends: 4, mailboxes: 2 });
    expect(await sent(byNew)).toEqual({ sends: 5, mailboxes: 2 });
    const today = async (campaignId: string) => {
      const rows = await db.prisma.campaignDayCount.findMany({ where: { campaignId, dayStart: new Date('2026-11-23T00:00:00Z') } });
      return { sent: rows.reduce((n, r) => n + r.sent, 0), newSent: rows.reduce((n, r) => n + r.newSent, 0) };
    };
    expect(await today(byTotal)).toEqual({ sent: 6, newSent: 5 });
    expect(await today(byNew)).toEqual({ sent: 7, newSent: 6 });
  }, 60_000);

  it('count a statement of many sends (a batch, an import) as the sends one by one would: the newest day of each row, an older send kept out', async () => {
    const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T08:00:00Z' });
    const erin = await t.mailbox('erin@sender.test');
    const frank = await t.mailbox('frank@sender.test');
    const steps: TestStep[] = [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hello</p>' }] }, { waitTime: 1, variations: [{ label: 'A', subject: '', body: '<p>Again</p>' }] }];
    const campaign = await t.campaign({ mailboxes: [erin, frank], steps, schedule: { from: '00:00', to: '23:59', days: ALL_DAYS, timezone: 'UTC' } });
    const lead = await t.lead(campaign.id, 'many@dest.test');
    const rows = (sends: { mailbox: string | null; at: string; step: number }[]) =>
      sends.map(({ mailbox, at, step }) => {
        const id = newId();
        return { id, organizationId: t.org.organizationId, workspaceId: t.ws, campaignId: campaign.id, leadId: lead, emailAccountId: mailbox, step, variationLabel: 'A', messageId: `${id}@sender.test`, subject: 'Hello', body: '<p>Hello</p>', sentAt: new Date(at) };
      });
    // erin: two sends yesterday and three today (one a first step) in one statement; frank: one today; and one without a mailbox.
    await db.prisma.sentEmail.createMany({
      data: rows([
        { mailbox: erin, at: '2026-11-22T09:00:00Z', step: 1 },
        { mailbox: erin, at: '2026-11-23T09:00:00Z', step: 1 },
        { mailbox: erin, at: '2026-11-22T10:00:00Z', step: 2 },
        { mailbox: erin, at: '2026-11-23T10:00:00Z', step: 2 },
        { mailbox: frank, at: '2026-11-23T09:30:00Z', step: 2 },
        { mailbox: erin, at: '2026-11-23T11:00:00Z', step: 2 },
        { mailbox: null, at: '2026-11-23T11:30:00Z', step: 2 },
      ]),
    });
    const campaignRows = async () =>
      Object.fromEntries((await db.prisma.campaignDayCount.findMany({ where: { campaignId: campaign.id } })).map((r) => [r.emailAccountId, [r.dayStart.toISOString(), r.sent, r.newSent]]));
    const today = '2026-11-23T00:00:00.000Z';
    expect(await campaignRows()).toEqual({ [erin]: [today, 3, 1], [frank]: [today, 1, 0], '': [today, 1, 0] });
    const { timezone } = await db.prisma.workspace.findUniqueOrThrow({ where: { id: t.ws }, select: { timezone: true } });
    const mailboxToday = dayBounds({ timezone, at: new Date('2026-11-23T12:00:00Z') }).start;
    const erinCount = await db.prisma.mailboxDayCount.findUniqueOrThrow({ where: { emailAccountId: erin } });
    expect(erinCount.dayStart).toEqual(mailboxToday);
    const erinToday = ['09', '10', '11'].filter((h) => new Date(`2026-11-23T${h}:00:00Z`) >= mailboxToday).length;
    expect(erinCount.sent).toBe(erinToday);

    // A second statement: a send of today adds, one recorded late for yesterday is kept out.
    await db.prisma.sentEmail.createMany({ data: rows([{ mailbox: erin, at: '2026-11-23T12:00:00Z', step: 2 }, { mailbox: erin, at: '2026-11-22T23:00:00Z', step: 2 }]) });
    expect((await campaignRows())[erin]).toEqual([today, 4, 1]);
    expect((await db.prisma.mailboxDayCount.findUniqueOrThrow({ where: { emailAccountId: erin } })).sent).toBe(erinToday + 1);
  }, 60_000);

  // A campaign's count is one row per mailbox: recording sends of one campaign through two
  // mailboxes in parallel updates two rows, so neither transaction waits for the other (one
  // row per campaign made the second wait for the first's commit). PostgreSQL only: PGlite runs
  // one transaction at a time.
  it.runIf(usingPostgres())("let parallel recordings of one campaign through two mailboxes go without waiting for each other", async () => {
    const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T08:00:00Z' });
    const erin = await t.mailbox('erin@sender.test');
    const frank = await t.mailbox('frank@sender.test');
    const steps: TestStep[] = [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hello</p>' }] }];
    const campaign = await t.campaign({ mailboxes: [erin, frank], steps, schedule: { from: '00:00', to: '23:59', days: ALL_DAYS, timezone: 'UTC' } });
    const leads = [await t.lead(campaign.id, 'one@dest.test'), await t.lead(campaign.id, 'two@dest.test'), await t.lead(campaign.id, 'three@dest.test')];
    const record = (tx: Pick<Database['prisma'], 'sentEmail'>, leadId: string, emailAccountId: string) => {
      const id = newId();
      return tx.sentEmail.create({
        data: {
          id, organizationId: t.org.organizationId, workspaceId: t.ws, campaignId: campaign.id, leadId, emailAccountId,
          step: 1, variationLabel: 'A', messageId: `${id}@sender.test`, subject: 'Hello', body: '<p>Hello</p>', sentAt: new Date('2026-11-23T08:00:00Z'),
        },
      });
    };
    // Both mailboxes' rows exist already (the common case: not the day's first sends).
    await record(db.prisma, leads[0]!, erin);
    await record(db.prisma, leads[0]!, frank);

    let firstRecorded!: () => void;
    const first = new Promise<void>((resolve) => (firstRecorded = resolve));
    let secondRecorded!: () => void;
    const second = new Promise<void>((resolve) => (secondRecorded = resolve));
    // Each holds its transaction open until the other has recorded: a wait would time out.
    const one = db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '3s'`);
      await record(tx, leads[1]!, erin);
      firstRecorded();
      await second;
    });
    const two = db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '3s'`);
      await first;
      await record(tx, leads[2]!, frank);
      secondRecorded();
    });
    await Promise.all([one, two]);
    const rows = await db.prisma.campaignDayCount.findMany({ where: { campaignId: campaign.id }, orderBy: { emailAccountId: 'asc' } });
    expect(Object.fromEntries(rows.map((r) => [r.emailAccountId, r.sent]))).toEqual({ [erin]: 2, [frank]: 2 });
  }, 60_000);
});
