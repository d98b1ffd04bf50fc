// End to end with the real sending engine: a local SMTP server refuses one recipient (5xx),
// the bounce pushes the sending mailbox's bounce rate above 5 %, and a rule pausing sending
// takes that mailbox out of the running campaign's rotation in the tick that recorded the
// bounce; its NOTIFY reaches a local webhook receiver as a SYSTEM_ALERT.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@outreach/db';
import { createSendingFixture, startSmtpServer, testCtx, testDatabase, type SmtpTestServer } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { deliverDueWebhooks } from '../index';
import { runAutomationRound } from './index';

const PASSWORDS: Record<string, string> = { 'alice@sender.test': 'alice-pw', 'bob@sender.test': 'bob-pw' };
const MINUTE = 60_000;

let db: Database;
let smtp: SmtpTestServer;
let receiver: Server;
const received: { path: string; body: Record<string, unknown> }[] = [];
beforeAll(async () => {
  db = await testDatabase();
  smtp = await startSmtpServer({ users: PASSWORDS });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
}, 30_000);
afterAll(async () => {
  await smtp?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('a rule pausing sending on the bounce rate', () => {
  it('takes the bouncing mailbox out of the running campaign in the tick of the bounce, and alerts a webhook', async () => {
    // Monday 23 November 2026, 10:00 in Oslo: inside the campaign's window.
    const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
    const ctx = testCtx({ deps: t.deps, actor: t.org.actor });
    const alice = await t.mailbox('alice@sender.test');
    const bob = await t.mailbox('bob@sender.test');
    const campaign = await t.campaign({ mailboxes: [alice, bob], steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>Hi {{first_name}}</p>' }] }] });
    // Two sends a tick (one per mailbox): ten good leads, then one the server refuses, then ten more.
    for (let i = 0; i < 10; i++) await t.lead(campaign.id, `before${i}@lead.test`);
    await t.lead(campaign.id, 'gone@lead.test');
    for (let i = 0; i < 10; i++) await t.lead(campaign.id, `after${i}@lead.test`);
    smtp.rejections.set('gone@lead.test', { code: 550, message: '5.1.1 <gone@lead.test>: Recipient address rejected: User unknown' });

    const port = (receiver.address() as AddressInfo).port;
    await executeOperation({ op: operations.webhook.add, ctx, input: { workspace_id: t.ws, url: `http://127.0.0.1:${port}/alerts`, camp_ids: ['ALL'], event_types: ['SYSTEM_ALERT'] } });
    const { rule } = await executeOperation({
      op: operations.accountAutomation.create,
      ctx,
      input: { workspace_id: t.ws, name: 'Pause bouncing mailboxes', metric: 'bounce_rate', operator: 'GT', threshold: 5, window_days: 7, actions: [{ type: 'PAUSE_SENDING' }, { type: 'NOTIFY' }] },
    });
    const getRule = () => executeOperation({ op: operations.accountAutomation.get, ctx, input: { workspace_id: t.ws, rule_id: rule._id } });

    // Five ticks: every good lead before the refused one goes out, nothing bounces.
    for (let i = 0; i < 5; i++) {
      expect(await t.tick()).toMatchObject({ sent: 2, bounced: 0 });
      t.clock.advance(5 * MINUTE);
    }
    // The worker sees both mailboxes under the threshold.
    expect(await runAutomationRound({ deps: t.deps, periodMs: 5 * MINUTE, batch: 10, workspaceIds: [t.ws] })).toMatchObject({ rules: 1, mailboxes: 2, fired: 0 });
    expect((await getRule()).last_evaluation.map((e) => [e.value, e.outcome])).toEqual([
      [0, 'NOT_MET'],
      [0, 'NOT_MET'],
    ]);

    // The tick of the refused recipient: the bounce is recorded and the rule fires in that tick.
    const bounceAt = t.clock.now();
    expect(await t.tick()).toMatchObject({ claimed: 2, sent: 1, bounced: 1 });
    const bounced = await db.prisma.sentEmail.findFirstOrThrow({ where: { workspaceId: t.ws, bouncedAt: { not: null } } });
    const paused = bounced.emailAccountId!;
    const other = paused === alice ? bob : alice;
    const sentByPaused = await db.prisma.sentEmail.count({ where: { emailAccountId: paused } });
    expect(sentByPaused).toBe(6);
    const accounts = await db.prisma.emailAccount.findMany({ where: { id: { in: [alice, bob] } }, select: { id: true, status: true } });
    expect(Object.fromEntries(accounts.map((a) => [a.id, a.status]))).toEqual({ [paused]: 'PAUSED', [other]: 'ACTIVE' });

    const got = await getRule();
    expect(got.firings).toHaveLength(1);
    expect(got.firings[0]).toMatchObject({ email_account_id: paused, metric: 'bounce_rate', value: 16.67, threshold: 5, fired_at: bounceAt.toISOString() });
    expect(got.firings[0]!.actions.map((a) => `${a.type}:${a.result}`)).toEqual(['PAUSE_SENDING:APPLIED', 'NOTIFY:APPLIED']);

    // The alert reaches the webhook.
    expect(await deliverDueWebhooks({ deps: t.deps, workspaceIds: [t.ws] })).toMatchObject({ delivered: 1 });
    expect(received.filter((r) => r.path === '/alerts').map((r) => r.body)).toEqual([
      expect.objectContaining({
        webhook_event: 'SYSTEM_ALERT',
        workspace_id: t.ws,
        alert_type: 'AUTOMATION_RULE_FIRED',
        rule_id: rule._id,
        rule_name: 'Pause bouncing mailboxes',
        email_account_id: paused,
        email: paused === alice ? 'alice@sender.test' : 'bob@sender.test',
        metric: 'bounce_rate',
        value: 16.67,
        operator: 'GT',
        threshold: 5,
        window_days: 7,
        actions: ['PAUSE_SENDING', 'NOTIFY'],
        date: bounceAt.toISOString(),
      }),
    ]);

    // The next claim no longer picks the paused mailbox, though it is free again by its gap:
    // the campaign goes on from the other one, one send a tick, until every lead is done.
    t.clock.advance(5 * MINUTE);
    expect(await t.tick()).toMatchObject({ claimed: 1, sent: 1 });
    for (let i = 0; i < 20 && (await db.prisma.lead.count({ where: { campaignId: campaign.id, isCompleted: false } })) > 0; i++) {
      t.clock.advance(5 * MINUTE);
      await t.tick();
    }
    expect(await db.prisma.lead.count({ where: { campaignId: campaign.id, isCompleted: false } })).toBe(0);
    expect(await db.prisma.sentEmail.count({ where: { emailAccountId: paused, sentAt: { gt: bounceAt } } })).toBe(0);
    expect(await db.prisma.sentEmail.count({ where: { emailAccountId: other } })).toBe(21 - sentByPaused);
  });
});
