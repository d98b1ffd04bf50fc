// The daily send counts kept by triggers (docs/database.md, "Daily send counts"): the engine's
// limits read them, so what they count is what a mailbox or campaign may still send today.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { newId, type Database } from '@outreach/db';
import { createSendingFixture, startSmtpServer, testDatabase, type SmtpTestServer, type TestStep } from '../testing/index';
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
    // The campaign's day is its schedule's (New York): 08:00 UTC is still the 23rd there.
    expect(await db.prisma.campaignDayCount.findUnique({ where: { campaignId: campaign.id } })).toMatchObject({
      dayStart: dayBounds({ timezone: 'America/New_York', at: new Date('2026-11-23T10:00:00Z') }).start,
      sent: 1,
      newSent: 1,
    });

    // The next day the counts start again: three more sends, the warmup e-mails of yesterday not counted.
    t.clock.at = new Date('2026-11-24T08:00:00Z');
    await t.runUntil('2026-11-24T10:00:00Z', MINUTE);
    expect(await db.prisma.sentEmail.count({ where: { emailAccountId: erin } })).toBe(4);
    expect(await db.prisma.mailboxDayCount.findUnique({ where: { emailAccountId: erin } })).toMatchObject({
      dayStart: dayBounds({ timezone, at: new Date('2026-11-24T10:00:00Z') }).start,
      sent: 3,
      warmupSent: 0,
    });
  }, 60_000);
});
