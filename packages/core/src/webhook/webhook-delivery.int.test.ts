import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestOrganization, useTestDatabase, useWebhookReceiver } from '../testing/index';
import { systemClock, type Clock } from '../shared/ports';
import { emitWebhookEvents } from './webhook-outbox.service';
import { emailSentFields } from './webhook-payload.rules';
import { verifyWebhookSignature } from './webhook-signature.rules';
import { startWebhookWorker } from './webhook-delivery.service';
import { WEBHOOK_RETRY_WINDOW_MS, webhookRetryDelayMs } from './webhook-delivery.rules';
import { START, webhookTestbed } from './webhook-delivery.test-helpers';

const db = useTestDatabase();
const receiver = useWebhookReceiver();
const setup = (options: { allowPrivateTargets?: boolean; clock?: Clock } = {}) => webhookTestbed({ db, receiver, ...options });

describe('webhook delivery', () => {
  it('POSTs the flat JSON payload, signed, with the event headers, and records the delivery', async () => {
    const t = await setup();
    const signed = await t.hook({ path: '/signed', events: ['EMAIL_SENT'], secret: 'whsec_abc', name: 'CRM' });
    const unsigned = await t.hook({ path: '/unsigned', events: ['EMAIL_SENT'] });
    const fields = emailSentFields({
      lead: { id: 'lead1', email: 'ann@acme.example', first_name: 'Ann', custom_variables: { plan: 'pro' } },
      campaign: { id: 'camp1', name: 'Q3' },
      send: { sender_email: 'me@sender.example', subject: 'Hello Ann', body: '<p>Hi</p>', step: 1, variation: 'A', message_id: '<m1@sender.example>', sent_at: START },
    });
    expect(await t.emit('EMAIL_SENT', { campaignId: 'camp1', fields })).toBe(2);

    expect(await t.round()).toEqual({ claimed: 2, delivered: 2, failed: 0, retried: 0, released: 0, disabled: 0, backlog: false });
    const [request] = receiver.at(t.path('/signed'));
    expect(receiver.at(t.path('/signed'))).toHaveLength(1);
    const [delivery] = await t.deliveries(signed.id);
    expect(request!.method).toBe('POST');
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Outreach-Webhooks/1',
      'x-outreach-event-id': delivery!.id,
      'x-outreach-event': 'EMAIL_SENT',
      'x-outreach-timestamp': String(START.getTime() / 1000),
    });
    expect(JSON.parse(request!.body)).toEqual({
      ...fields,
      webhook_id: signed.id,
      webhook_name: 'CRM',
      webhook_event: 'EMAIL_SENT',
      workspace_id: t.ws,
      workspace_name: t.workspaceName,
    });
    expect(JSON.parse(request!.body)).toMatchObject({ plan: 'pro', lead_email: 'ann@acme.example', camp_id: 'camp1', campaign_name: 'Q3' });
    const header = request!.headers['x-outreach-signature'] as string;
    expect(header).toMatch(new RegExp(`^t=${START.getTime() / 1000},v1=[0-9a-f]{64}$`));
    expect(verifyWebhookSignature({ secret: 'whsec_abc', header, body: request!.body, now: START })).toBe(true);
    expect(verifyWebhookSignature({ secret: 'other', header, body: request!.body, now: START })).toBe(false);
    expect(receiver.at(t.path('/unsigned'))[0]!.headers['x-outreach-signature']).toBeUndefined();

    expect(delivery).toMatchObject({ status: 'DELIVERED', deliveredAt: START, attempts: 1, lastStatusCode: 200, lastError: null, leaseUntil: null });
    expect(await t.webhook(signed.id)).toMatchObject({ consecutiveFailures: 0, lastRun: START, lastResp: '200 ok', status: 'ACTIVE' });
    // Nothing more to do.
    expect(await t.round()).toMatchObject({ claimed: 0 });
    expect(receiver.at(t.path('/signed'))).toHaveLength(1);
  });

  it('retries a 500 after its backoff with the same event id, then records the 200', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/flaky', events: ['ALL_EMAIL_REPLIES'], secret: 's3cret' });
    receiver.answer(t.path('/flaky'), (n) => (n === 0 ? { status: 500, body: 'boom' } : { status: 200, body: 'thanks' }));
    await t.emit('ALL_EMAIL_REPLIES', { campaignId: 'c1' });

    expect(await t.round()).toEqual({ claimed: 1, delivered: 0, failed: 0, retried: 1, released: 0, disabled: 0, backlog: false });
    const [failed] = await t.deliveries(hook.id);
    const wait = webhookRetryDelayMs({ deliveryId: failed!.id, attempt: 1 });
    expect(wait).toBeLessThanOrEqual(30_000);
    expect(failed).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: 500, lastError: '500 boom', leaseUntil: null, nextAttemptAt: new Date(START.getTime() + wait) });
    expect(await t.webhook(hook.id)).toMatchObject({ consecutiveFailures: 1, lastRun: START, lastResp: '500 boom' });

    // Not due before its time.
    t.clock.advance(wait - 1);
    expect(await t.round()).toMatchObject({ claimed: 0 });
    t.clock.advance(1);
    expect(await t.round()).toMatchObject({ claimed: 1, delivered: 1 });

    const requests = receiver.at(t.path('/flaky'));
    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers['x-outreach-event-id']).toBe(failed!.id);
    expect(requests[1]!.headers['x-outreach-event-id']).toBe(failed!.id);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    // Each attempt is signed at its own time.
    const retriedAt = new Date(START.getTime() + wait);
    expect(requests[1]!.headers['x-outreach-timestamp']).toBe(String(Math.floor(retriedAt.getTime() / 1000)));
    expect(verifyWebhookSignature({ secret: 's3cret', header: requests[1]!.headers['x-outreach-signature'] as string, body: requests[1]!.body, now: retriedAt })).toBe(true);

    const [delivered] = await t.deliveries(hook.id);
    expect(delivered).toMatchObject({ status: 'DELIVERED', attempts: 2, lastStatusCode: 200, lastError: null, deliveredAt: retriedAt });
    expect(await t.webhook(hook.id)).toMatchObject({ consecutiveFailures: 0, lastRun: retriedAt, lastResp: '200 thanks' });
  });

  it('times out a receiver that hangs and retries it', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/slow', events: ['EMAIL_SENT'] });
    receiver.answer(t.path('/slow'), (n) => (n === 0 ? 'hang' : { status: 204 }));
    await t.emit('EMAIL_SENT', { campaignId: 'c1' });

    // The receiver never answers: the round ends by the timeout, which the recorded error names.
    expect(await t.round({ timeoutMs: 300 })).toMatchObject({ claimed: 1, retried: 1 });
    const [d] = await t.deliveries(hook.id);
    expect(d).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null, lastError: 'timed out after 300 ms' });
    expect(await t.webhook(hook.id)).toMatchObject({ consecutiveFailures: 1, lastResp: 'timed out after 300 ms' });

    t.clock.advance(30_000);
    expect(await t.round({ timeoutMs: 300 })).toMatchObject({ delivered: 1 });
    expect(await t.webhook(hook.id)).toMatchObject({ consecutiveFailures: 0, lastResp: '204' });
    expect(receiver.at(t.path('/slow'))).toHaveLength(2);
  });

  it('disables a webhook at 20 consecutive failures, fails its pending deliveries and alerts the other webhooks', async () => {
    const t = await setup();
    const broken = await t.hook({ path: '/broken', events: ['EMAIL_SENT', 'SYSTEM_ALERT'] });
    const watcher = await t.hook({ path: '/watcher', events: ['SYSTEM_ALERT'] });
    receiver.answer(t.path('/broken'), () => ({ status: 503, body: 'down' }));
    for (let i = 0; i < 20; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });

    // All 20 are due each round, yet a round costs the webhook one failure: the first fails,
    // and the others (the 9 more of its share claimed, and the 10 left) wait for its retry time with it.
    for (let failures = 1; failures < 20; failures++) {
      expect(await t.round()).toEqual({ claimed: 10, delivered: 0, failed: 0, retried: 1, released: 9, disabled: 0, backlog: true });
      expect(await t.webhook(broken.id)).toMatchObject({ status: 'ACTIVE', consecutiveFailures: failures });
      expect(await t.round()).toMatchObject({ claimed: 0 });
      const retryAt = Math.min(...(await t.deliveries(broken.id)).map((d) => d.nextAttemptAt.getTime()));
      t.clock.at = new Date(retryAt);
    }

    // The 20th failure in a row: the round counts the 10 it claimed as given up; the other 10 are too.
    const disabledAt = t.clock.now();
    expect(await t.round()).toEqual({ claimed: 10, delivered: 0, failed: 10, retried: 0, released: 0, disabled: 1, backlog: true });
    expect(await t.webhook(broken.id)).toMatchObject({ status: 'DISABLED', consecutiveFailures: 20, lastResp: '503 down' });
    const brokenDeliveries = await t.deliveries(broken.id);
    expect(brokenDeliveries).toHaveLength(20);
    expect(brokenDeliveries.every((d) => d.status === 'FAILED')).toBe(true);

    // The alert is queued for the watcher only, never for the disabled webhook.
    const alerts = await db.prisma.webhookDelivery.findMany({ where: { workspaceId: t.ws, event: 'SYSTEM_ALERT' } });
    expect(alerts.map((a) => a.webhookId)).toEqual([watcher.id]);
    expect(await t.round()).toMatchObject({ claimed: 1, delivered: 1 });
    const [alert] = receiver.at(t.path('/watcher'));
    expect(JSON.parse(alert!.body)).toMatchObject({
      webhook_event: 'SYSTEM_ALERT',
      webhook_id: watcher.id,
      alert_type: 'WEBHOOK_DISABLED',
      disabled_webhook_id: broken.id,
      disabled_webhook_url: broken.url,
      date: disabledAt.toISOString(),
      message: expect.stringContaining(broken.url),
    });

    // A disabled webhook gets no new events, and nothing is POSTed to it again.
    expect(await t.emit('EMAIL_SENT', { campaignId: 'c1' })).toBe(0);
    t.clock.advance(2 * 60 * 60_000);
    expect(await t.round()).toMatchObject({ claimed: 0 });
    expect(receiver.at(t.path('/broken'))).toHaveLength(20);
  });

  it('gives up once the next attempt would be more than 24 h after the event', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/gone', events: ['BOUNCED_EMAIL'] });
    receiver.answer(t.path('/gone'), () => ({ status: 410, body: 'gone' }));
    await t.emit('BOUNCED_EMAIL', { campaignId: 'c1' });
    await t.emit('BOUNCED_EMAIL', { campaignId: 'c1' });
    const [first, second] = await t.deliveries(hook.id);
    // The second is retried once, close to the end of its window…
    await db.prisma.webhookDelivery.update({ where: { id: second!.id }, data: { nextAttemptAt: new Date(START.getTime() + 25 * 60 * 60_000) } });

    // …the first one's worker was down for 25 hours: it is tried once more, then given up.
    t.clock.advance(WEBHOOK_RETRY_WINDOW_MS - 60 * 60_000);
    expect(await t.round()).toMatchObject({ claimed: 1, retried: 1 });
    const retried = (await t.deliveries(hook.id)).find((d) => d.id === first!.id)!;
    expect(retried.status).toBe('PENDING');
    t.clock.advance(2 * 60 * 60_000);
    expect(await t.round()).toEqual({ claimed: 2, delivered: 0, failed: 2, retried: 0, released: 0, disabled: 0, backlog: false });
    const after = await t.deliveries(hook.id);
    expect(after.map((d) => d.status)).toEqual(['FAILED', 'FAILED']);
    expect(after.find((d) => d.id === first!.id)).toMatchObject({ attempts: 2, lastStatusCode: 410, lastError: '410 gone' });
    t.clock.advance(24 * 60 * 60_000);
    expect(await t.round()).toMatchObject({ claimed: 0 });
  });

  it('sends each event to the webhooks whose camp_ids cover it, skipping out-of-office and automatic replies where asked', async () => {
    const t = await setup();
    const [campA, campB] = [newId(), newId()];
    const all = await t.hook({ path: '/all', events: ['ALL_EMAIL_REPLIES'] });
    const onlyA = await t.hook({ path: '/a', events: ['ALL_EMAIL_REPLIES'], campIds: [campA] });
    const onlyB = await t.hook({ path: '/b', events: ['ALL_EMAIL_REPLIES'], campIds: [campB] });
    const noOoo = await t.hook({ path: '/no-ooo', events: ['ALL_EMAIL_REPLIES'], ignoreOoo: true });
    const noAuto = await t.hook({ path: '/no-auto', events: ['ALL_EMAIL_REPLIES'], ignoreAutomatic: true });
    await t.hook({ path: '/sent-only', events: ['EMAIL_SENT'] });

    expect(await t.emit('ALL_EMAIL_REPLIES', { campaignId: campA, replyKind: 'reply', fields: { kind: 'reply' } })).toBe(4);
    expect(await t.emit('ALL_EMAIL_REPLIES', { campaignId: campA, replyKind: 'out_of_office', fields: { kind: 'ooo' } })).toBe(3);
    expect(await t.emit('ALL_EMAIL_REPLIES', { campaignId: campA, replyKind: 'automatic_reply', fields: { kind: 'auto' } })).toBe(3);
    expect(await t.emit('ALL_EMAIL_REPLIES', { campaignId: campB, replyKind: 'reply', fields: { kind: 'b' } })).toBe(4);
    expect(await t.round()).toMatchObject({ claimed: 14, delivered: 14 });

    const kinds = (p: string) => receiver.at(t.path(p)).map((r) => JSON.parse(r.body).kind as string).sort();
    expect(kinds('/all')).toEqual(['auto', 'b', 'ooo', 'reply']);
    expect(kinds('/a')).toEqual(['auto', 'ooo', 'reply']);
    expect(kinds('/b')).toEqual(['b']);
    expect(kinds('/no-ooo')).toEqual(['auto', 'b', 'reply']);
    expect(kinds('/no-auto')).toEqual(['b', 'ooo', 'reply']);
    expect(kinds('/sent-only')).toEqual([]);
    for (const h of [all, onlyA, onlyB, noOoo, noAuto]) expect((await t.webhook(h.id)).lastResp).toBe('200 ok');
  });

  it('queues a batch of one event for each occurrence\'s own subscribers, computing fields only for those some webhook takes', async () => {
    const t = await setup();
    const [campA, campB, campC] = [newId(), newId(), newId()];
    const all = await t.hook({ path: '/all', events: ['EMAIL_SENT'] });
    const onlyA = await t.hook({ path: '/a', events: ['EMAIL_SENT'], campIds: [campA] });
    await t.hook({ path: '/replies', events: ['ALL_EMAIL_REPLIES'] });
    const other = await createTestOrganization({ db });
    const now = t.deps.ports.clock.now();
    const items = [
      { workspaceId: t.ws, campaignId: campA, now, n: 1 },
      { workspaceId: t.ws, campaignId: campB, now, n: 2 },
      { workspaceId: other.workspaceId, campaignId: campC, now, n: 3 },
    ];
    const asked: number[][] = [];
    const queued = await db.prisma.$transaction((tx) =>
      emitWebhookEvents({ tx, event: 'EMAIL_SENT', items, fields: async (subscribed) => (asked.push(subscribed.map((i) => i.n)), subscribed.map((i) => ({ n: i.n }))) }),
    );
    expect(queued).toBe(3);
    expect(asked).toEqual([[1, 2]]);
    const payloads = async (id: string) => (await t.deliveries(id)).map((d) => d.payload as Record<string, unknown>).sort((a, b) => Number(a['n']) - Number(b['n']));
    expect(await payloads(all.id)).toEqual([1, 2].map((n) => ({ n, webhook_id: all.id, webhook_name: '', webhook_event: 'EMAIL_SENT', workspace_id: t.ws, workspace_name: t.workspaceName })));
    expect((await payloads(onlyA.id)).map((p) => p['n'])).toEqual([1]);
  });

  it('sends events that are not replies to webhooks ignoring out-of-office and automatic replies', async () => {
    const t = await setup();
    await t.hook({ path: '/ignoring', events: ['ALL_EMAIL_REPLIES', 'BOUNCED_EMAIL', 'SYSTEM_ALERT'], ignoreOoo: true, ignoreAutomatic: true });

    expect(await t.emit('SYSTEM_ALERT', { fields: { kind: 'alert' } })).toBe(1);
    expect(await t.emit('BOUNCED_EMAIL', { campaignId: 'c1', fields: { kind: 'bounce' } })).toBe(1);
    expect(await t.emit('ALL_EMAIL_REPLIES', { campaignId: 'c1', replyKind: 'reply', fields: { kind: 'reply' } })).toBe(1);
    expect(await t.emit('ALL_EMAIL_REPLIES', { campaignId: 'c1', replyKind: 'out_of_office', fields: { kind: 'ooo' } })).toBe(0);
    expect(await t.emit('ALL_EMAIL_REPLIES', { campaignId: 'c1', replyKind: 'automatic_reply', fields: { kind: 'auto' } })).toBe(0);

    expect(await t.round()).toMatchObject({ claimed: 3, delivered: 3 });
    expect(receiver.at(t.path('/ignoring')).map((r) => JSON.parse(r.body).kind)).toEqual(['alert', 'bounce', 'reply']);
  });

  it('costs a webhook one failure for a receiver down a moment with events queued, and holds them all until its retry', async () => {
    const t = await setup();
    const deploying = await t.hook({ path: '/deploying', events: ['EMAIL_SENT'] });
    const healthy = await t.hook({ path: '/healthy', events: ['EMAIL_SENT'] });
    receiver.answer(t.path('/deploying'), (n) => (n === 0 ? { status: 502, body: 'deploying' } : { status: 200, body: 'ok' }));
    for (let i = 0; i < 20; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });

    // The failing webhook's turn ends at its first failure; the other webhook's goes on, its
    // share (10) a round.
    expect(await t.round()).toEqual({ claimed: 20, delivered: 10, failed: 0, retried: 1, released: 9, disabled: 0, backlog: true });
    expect(await t.round()).toEqual({ claimed: 10, delivered: 10, failed: 0, retried: 0, released: 0, disabled: 0, backlog: true });
    const order = (p: string) => receiver.at(t.path(p)).map((r) => JSON.parse(r.body).i as number);
    expect(order('/healthy')).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(order('/deploying')).toEqual([0]);
    expect(await t.webhook(deploying.id)).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 1, lastResp: '502 deploying' });
    const [first, ...others] = await t.deliveries(deploying.id);
    const retryAt = new Date(START.getTime() + webhookRetryDelayMs({ deliveryId: first!.id, attempt: 1 }));
    expect(first).toMatchObject({ status: 'PENDING', attempts: 1, nextAttemptAt: retryAt, leaseUntil: null });
    for (const d of others) expect(d).toMatchObject({ status: 'PENDING', attempts: 0, nextAttemptAt: retryAt, leaseUntil: null, lastError: null });

    // An event meanwhile waits with them; the healthy webhook gets its own at once.
    expect(await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i: 20 } })).toBe(2);
    expect((await t.deliveries(deploying.id))[20]).toMatchObject({ status: 'PENDING', nextAttemptAt: retryAt });
    expect(await t.round()).toEqual({ claimed: 1, delivered: 1, failed: 0, retried: 0, released: 0, disabled: 0, backlog: false });
    expect((await t.deliveries(healthy.id)).every((d) => d.status === 'DELIVERED')).toBe(true);

    t.clock.at = new Date(retryAt.getTime() - 1);
    expect(await t.round()).toMatchObject({ claimed: 0 });
    t.clock.advance(1);
    expect(await t.round()).toEqual({ claimed: 10, delivered: 10, failed: 0, retried: 0, released: 0, disabled: 0, backlog: true });
    expect(await t.round()).toEqual({ claimed: 10, delivered: 10, failed: 0, retried: 0, released: 0, disabled: 0, backlog: true });
    expect(await t.round()).toEqual({ claimed: 1, delivered: 1, failed: 0, retried: 0, released: 0, disabled: 0, backlog: false });
    // Oldest first, the first event again with the same id.
    expect(order('/deploying')).toEqual([0, ...Array.from({ length: 21 }, (_, i) => i)]);
    const ids = receiver.at(t.path('/deploying')).map((r) => r.headers['x-outreach-event-id']);
    expect(ids[1]).toBe(ids[0]);
    expect(await t.webhook(deploying.id)).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 0, lastResp: '200 ok' });
    expect((await t.deliveries(deploying.id)).every((d) => d.status === 'DELIVERED')).toBe(true);
  });

  it('refuses private targets unless they are allowed: a failure, and no request reaches the receiver', async () => {
    const t = await setup({ allowPrivateTargets: false });
    const byIp = await t.hook({ path: '/ip', events: ['EMAIL_SENT'] });
    const byName = await t.hook({ url: `http://localhost:${receiver.port}${t.path('/name')}`, events: ['EMAIL_SENT'] });
    await t.emit('EMAIL_SENT', { campaignId: 'c1' });

    expect(await t.round()).toEqual({ claimed: 2, delivered: 0, failed: 0, retried: 2, released: 0, disabled: 0, backlog: false });
    expect(receiver.at(t.path('/ip'))).toHaveLength(0);
    expect(receiver.at(t.path('/name'))).toHaveLength(0);
    const [ipDelivery] = await t.deliveries(byIp.id);
    expect(ipDelivery).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null });
    expect(ipDelivery!.lastError).toMatch(/^refused 127\.0\.0\.1: .*ALLOW_PRIVATE_TARGETS/);
    const [nameDelivery] = await t.deliveries(byName.id);
    expect(nameDelivery!.lastError).toMatch(/^refused localhost \((127\.0\.0\.1|::1)\)/);
    expect(await t.webhook(byName.id)).toMatchObject({ consecutiveFailures: 1, lastResp: nameDelivery!.lastError });
  });

  it('runs as a worker loop until stopped', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/worker', events: ['UNIBOX_EMAIL_SENT'] });
    await t.emit('UNIBOX_EMAIL_SENT', { campaignId: null });
    // The worker serves every workspace: give it a workspace of its own through the deps'
    // database only (other files' deliveries are due at other clock times or elsewhere).
    const worker = startWebhookWorker({ deps: t.deps, intervalMs: 20 });
    try {
      for (let i = 0; i < 50 && receiver.at(t.path('/worker')).length === 0; i++) await worker.nextRound();
    } finally {
      await worker.stop();
    }
    expect(receiver.at(t.path('/worker'))).toHaveLength(1);
    expect((await t.deliveries(hook.id))[0]).toMatchObject({ status: 'DELIVERED' });
  });

  // The clock moves in production: a claim, then the first POST a few milliseconds later.
  it('POSTs a lone delivery at once with a clock that moves', async () => {
    // Real time, yet never the same twice: at least a millisecond between two readings.
    let last = 0;
    const moving: Clock = { now: () => new Date((last = Math.max(Date.now(), last + 1))) };
    const t = await setup({ clock: moving });
    const hook = await t.hook({ path: '/lone', events: ['EMAIL_SENT'] });
    expect(await t.emit('EMAIL_SENT', { campaignId: 'c1' })).toBe(1);

    expect(await t.round()).toEqual({ claimed: 1, delivered: 1, failed: 0, retried: 0, released: 0, disabled: 0, backlog: false });
    expect(receiver.at(t.path('/lone'))).toHaveLength(1);
    expect((await t.deliveries(hook.id))[0]).toMatchObject({ status: 'DELIVERED', attempts: 1, leaseUntil: null });
  });

  it('runs as a worker loop on the system clock and delivers a single event', async () => {
    const t = await setup({ clock: systemClock });
    const hook = await t.hook({ path: '/lone-worker', events: ['EMAIL_SENT'] });
    // Only this workspace: on the system clock, other tests' deliveries are due too.
    const worker = startWebhookWorker({ deps: t.deps, intervalMs: 100, workspaceIds: [t.ws] });
    try {
      expect(await t.emit('EMAIL_SENT', { campaignId: 'c1' })).toBe(1);
      const deadline = Date.now() + 15_000;
      while (receiver.at(t.path('/lone-worker')).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
    }
    expect(receiver.at(t.path('/lone-worker'))).toHaveLength(1);
    expect((await t.deliveries(hook.id))[0]).toMatchObject({ status: 'DELIVERED', attempts: 1 });
  });
});
