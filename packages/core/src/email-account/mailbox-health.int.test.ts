// `payload.analytics` of the mailbox list: the day's sends, replies and bounces and the last days'
// rates, from what the engine recorded, in the workspace's day, read in one query per page.
import { describe, expect, it } from 'vitest';
import { newId, type PrismaClient } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestTenant, expectDomainError, recordTestSend, TestClock, useTestDatabase } from '../testing/index';
import type { DnsResolver } from '../shared/dns';
import { executeOperation } from '../shared/operation';
import type { Ctx } from '../shared/context';
import { emailAccountOperations as ops, refreshHealthSnapshots } from './index';

const db = useTestDatabase();
// 16:00 in Oslo (UTC+1 in March): the workspace's day started at 2026-03-09T23:00Z.
const NOW = '2026-03-10T15:00:00Z';

/** An e-mail received by a mailbox, as reply ingestion stores it. */
async function received(prisma: PrismaClient, options: { workspaceId: string; mailboxId: string; sentEmailId?: string; classification: string; at: string }) {
  const threadId = newId();
  await prisma.uniboxThread.create({ data: { id: threadId, workspaceId: options.workspaceId, emailAccountId: options.mailboxId, lastMessageAt: new Date(options.at) } });
  await prisma.uniboxMessage.create({
    data: {
      id: newId(),
      workspaceId: options.workspaceId,
      threadId,
      emailAccountId: options.mailboxId,
      sentEmailId: options.sentEmailId ?? null,
      direction: 'IN',
      messageId: `${newId()}@lead.test`,
      fromAddress: 'lead@x.test',
      classification: options.classification,
      receivedAt: new Date(options.at),
    },
  });
}

/** The ctx with its database calls counted (model methods and raw queries, by name). */
function counting(ctx: Ctx): { ctx: Ctx; calls: string[] } {
  const calls: string[] = [];
  const wrap = <T extends object>(target: T, path: string): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver);
        if (typeof key !== 'string') return value;
        if (typeof value === 'function') return (...args: unknown[]) => (calls.push(`${path}${key}`), value.apply(t, args));
        if (value && typeof value === 'object' && !key.startsWith('_')) return wrap(value, `${path}${key}.`);
        return value;
      },
    });
  return { ctx: { ...ctx, db: wrap(ctx.db, '') }, calls };
}

describe('mailbox analytics in the list', () => {
  it('counts today in the workspace\'s zone and the rates over the last 3 and 7 days', async () => {
    const clock = new TestClock(new Date(NOW));
    const { ctx, ws, base } = await createTestTenant({ db, clock });
    await db.prisma.workspace.update({ where: { id: ws }, data: { timezone: 'Europe/Oslo' } });
    const box = await createTestMailbox({ ...base, email: 'a@out.test' });
    const down = await createTestMailbox({ ...base, email: 'down@out.test' });
    const unread = await createTestMailbox({ ...base, email: 'unread@out.test' });
    await db.prisma.emailAccount.update({ where: { id: down.id }, data: { status: 'DISCONNECTED', disconnectReason: 'smtp_auth' } });
    await db.prisma.emailAccount.update({ where: { id: unread.id }, data: { imapFailures: 2 } });
    // Two unibox sends today; yesterday's count of another mailbox is not today's.
    await db.prisma.emailAccount.update({ where: { id: box.id }, data: { uniboxDayStart: new Date('2026-03-09T23:00:00Z'), uniboxSentToday: 2 } });
    await db.prisma.emailAccount.update({ where: { id: unread.id }, data: { uniboxDayStart: new Date('2026-03-08T23:00:00Z'), uniboxSentToday: 5 } });

    const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'l@x.test' });
    const send = async (sentAt: string, extra: { repliedAt?: string; bouncedAt?: string } = {}) => {
      const sent = await recordTestSend({
        ...base,
        campaignId: campaign.id,
        leadId: lead.id,
        emailAccountId: box.id,
        step: 1,
        variationId: campaign.variations[1]!['A']!,
        variationLabel: 'A',
        sentAt: new Date(sentAt),
        repliedAt: extra.repliedAt ? new Date(extra.repliedAt) : null,
      });
      if (extra.bouncedAt) await db.prisma.sentEmail.update({ where: { id: sent.id }, data: { bouncedAt: new Date(extra.bouncedAt) } });
      return sent;
    };
    await send('2026-03-10T10:00:00Z', { repliedAt: '2026-03-10T12:00:00Z' }); // today
    await send('2026-03-09T23:30:00Z', { bouncedAt: '2026-03-10T00:10:00Z' }); // today in Oslo (yesterday in UTC), bounced today
    await send('2026-03-09T22:30:00Z'); // yesterday in Oslo, within 3 days
    await send('2026-03-05T10:00:00Z', { bouncedAt: '2026-03-05T10:00:00Z' }); // within 7 days, not 3
    const away = await send('2026-03-04T10:00:00Z'); // within 7 days, answered out of office
    await send('2026-03-02T10:00:00Z', { repliedAt: '2026-03-03T10:00:00Z' }); // more than 7 days ago
    await received(db.prisma, { workspaceId: ws, mailboxId: box.id, sentEmailId: away.id, classification: 'OUT_OF_OFFICE', at: '2026-03-04T12:00:00Z' });
    await received(db.prisma, { workspaceId: ws, mailboxId: box.id, classification: 'REPLY', at: '2026-03-10T09:00:00Z' }); // today
    await received(db.prisma, { workspaceId: ws, mailboxId: box.id, classification: 'REPLY', at: '2026-03-09T22:00:00Z' }); // yesterday in Oslo

    const listed = await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws } });
    const analytics = Object.fromEntries(listed.accounts.map((a) => [a.email, a.payload.analytics]));
    expect(analytics['a@out.test']).toEqual({
      // 2 of the 5 sends of the last 7 days bounced (40 %): 70 points off.
      health_scores: {
        health_score: 30,
        '7d_overall_warmup_health': 30,
        '7d_google_warmup_health': -1,
        '7d_microsoft_warmup_health': -1,
        '7d_other_warmup_health': -1,
        '1d_miss_warmup_rate': -1,
        '3d_bounce_rate': 33.33,
        '7d_bounce_rate': 40,
        health_inputs: expect.objectContaining({ sent_7d: 5, bounced_7d: 2, replied_7d: 1, warmup_spam_7d: 0, spf: null }),
      },
      reply_rates: { '7d_replyrate': 20, '7d_ooo_replyrate': 20 },
      daily_counters: { email_sent_today: 4, email_replied_today: 1, email_bounced_today: 1, warmup_email_sent_today: 0 },
    });
    expect(analytics['down@out.test']!.health_scores.health_score).toBe(0);
    expect(analytics['unread@out.test']!.health_scores.health_score).toBe(80);
    expect(analytics['unread@out.test']!.daily_counters.email_sent_today).toBe(0);
    expect(listed.accounts.map((a) => a.id)).toEqual(listed.accounts.map((a) => a._id));

    // A day later, today's counters start again and the 7 days roll on: the send of 03-04 (and its
    // out-of-office answer) has left them, 1 reply of 4 sends.
    clock.advance(86_400_000);
    const tomorrow = await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, email: 'a@' } });
    expect(tomorrow.accounts[0]!.payload.analytics.daily_counters).toEqual({ email_sent_today: 0, email_replied_today: 0, email_bounced_today: 0, warmup_email_sent_today: 0 });
    expect(tomorrow.accounts[0]!.payload.analytics.reply_rates).toEqual({ '7d_replyrate': 25, '7d_ooo_replyrate': 0 });
  });

  it('reads a page of many mailboxes with as many queries as a page of one', async () => {
    const { ctx, ws, base } = await createTestTenant({ db });
    for (let i = 0; i < 6; i++) await createTestMailbox({ ...base, email: `m${i}@out.test` });
    // The first call fills the workspace-owner cache; the calls after it are alike.
    await executeOperation({ op: ops.list, ctx, input: { workspace_id: ws, limit: '1' } });
    const one = counting(ctx);
    expect((await executeOperation({ op: ops.list, ctx: one.ctx, input: { workspace_id: ws, limit: '1' } })).accounts).toHaveLength(1);
    const six = counting(ctx);
    expect((await executeOperation({ op: ops.list, ctx: six.ctx, input: { workspace_id: ws, limit: '6' } })).accounts).toHaveLength(6);
    expect(six.calls).toEqual(one.calls);
    expect(one.calls.filter((c) => c.startsWith('$queryRaw'))).toHaveLength(1);
  });
});

describe("the day's health snapshot", () => {
  it('answers every status request made at once for a mailbox, and keeps one snapshot of the day', async () => {
    // The warmup worker's daily refresh and a user's GET /account/status may compute the same
    // mailbox's health at the same moment: each answers, the day keeps one snapshot.
    const { ctx, ws, base } = await createTestTenant({ db, clock: new TestClock(new Date(NOW)) });
    const box = await createTestMailbox({ ...base, email: 'same@out.test' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => executeOperation({ op: ops.status, ctx, input: { workspace_id: ws, email: 'same@out.test' } })));
    expect(answers.map((a) => a.health_score)).toEqual(Array(6).fill(answers[0]!.health_score));
    const snapshots = await db.prisma.mailboxHealthSnapshot.findMany({ where: { emailAccountId: box.id } });
    expect(snapshots.map((s) => [s.day.toISOString(), s.score])).toEqual([['2026-03-10T00:00:00.000Z', answers[0]!.health_score]]);
  });

  /** A DNS server that knows no domain, and runs `meanwhile` with each name it is asked (once it answers). */
  const deletingDns = (meanwhile: (name: string) => Promise<void>): DnsResolver => {
    const answer = async (name: string): Promise<never> => {
      await meanwhile(name);
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    return { timeoutMs: 200, resolveTxt: answer, resolveMx: answer };
  };

  it('answers 404, not 500, for a mailbox deleted while its health is computed', async () => {
    // Another request deletes the mailbox while the status request checks its domain's DNS.
    const { ctx, ws, base } = await createTestTenant({ db, clock: new TestClock(new Date(NOW)), dns: deletingDns(() => db.prisma.emailAccount.deleteMany({ where: { email: 'gone@out.test' } }).then(() => undefined)) });
    await createTestMailbox({ ...base, email: 'gone@out.test' });
    const error = await expectDomainError(executeOperation({ op: ops.status, ctx, input: { workspace_id: ws, email: 'gone@out.test' } }), 'not_found', 'email_account.not_found');
    expect(error.message).toBe('email account gone@out.test not found in this workspace');
  });

  it("stores the other mailboxes' snapshots when one is deleted during the daily refresh", async () => {
    const { org, deps, base } = await createTestTenant({
      db,
      clock: new TestClock(new Date(NOW)),
      dns: deletingDns(async (name) => {
        if (name.endsWith('gone.test')) await db.prisma.emailAccount.deleteMany({ where: { email: 'box@gone.test' } });
      }),
    });
    const kept = await createTestMailbox({ ...base, email: 'box@kept.test' });
    const gone = await createTestMailbox({ ...base, email: 'box@gone.test' });
    await db.prisma.emailAccount.updateMany({ where: { id: { in: [kept.id, gone.id] } }, data: { warmupStatus: 'ACTIVE' } });
    expect(await refreshHealthSnapshots({ deps, organizationIds: [org.organizationId], max: 10 })).toBe(1);
    expect((await db.prisma.mailboxHealthSnapshot.findMany({ where: { workspaceId: base.workspaceId } })).map((s) => s.emailAccountId)).toEqual([kept.id]);
    // The next round finds nothing left to do.
    expect(await refreshHealthSnapshots({ deps, organizationIds: [org.organizationId], max: 10 })).toBe(0);
  });
});
