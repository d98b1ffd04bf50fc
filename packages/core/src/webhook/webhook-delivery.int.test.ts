import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestOrganization, testServiceDeps, useTestDatabase, useWebhookReceiver } from '../testing/index';
import { systemClock, type Clock } from '../shared/ports';
import type { ReplyKind } from './webhook-outbox.service';
import { emitWebhookEvent, emitWebhookEvents } from './webhook-outbox.service';
import { emailSentFields } from './webhook-payload.rules';
import { verifyWebhookSignature } from './webhook-signature.rules';
import { deliverDueWebhooks, startWebhookWorker, type WebhookRoundResult } from './webhook-delivery.service';
import { WEBHOOK_RETRY_WINDOW_MS, WEBHOOK_TURN_MAX, webhookRetryDelayMs } from './webhook-delivery.rules';

class ManualClock implements Clock {
  constructor(public at: Date) {}
  now() {
    return new Date(this.at);
  }
  advance(ms: number) {
    this.at = new Date(this.at.getTime() + ms);
  }
}

const db = useTestDatabase();
const receiver = useWebhookReceiver();

const START = new Date('2025-06-02T09:00:00.000Z');

/** `clock`: the deps' clock instead of the manual one (which then stays unused). */
async function setup(options: { allowPrivateTargets?: boolean; clock?: Clock } = {}) {
  const org = await createTestOrganization({ db });
  const clock = new ManualClock(START);
  const deps = testServiceDeps({ db, clock: options.clock ?? clock, allowPrivateTargets: options.allowPrivateTargets ?? true });
  const ws = org.workspaceId;
  const tag = `/${randomUUID().slice(0, 8)}`;
  const hook = async (opts: { path?: string; url?: string; events: string[]; campIds?: string[]; secret?: string; name?: string; ignoreOoo?: boolean; ignoreAutomatic?: boolean }) => {
    const path = `${tag}${opts.path ?? '/hook'}`;
    return db.prisma.webhook.create({
      data: {
        id: newId(),
        organizationId: org.organizationId,
        workspaceId: ws,
        url: opts.url ?? receiver.url(path),
        name: opts.name ?? '',
        secretEnc: opts.secret ? deps.secrets.encrypt(opts.secret) : null,
        campIds: opts.campIds ?? ['ALL'],
        eventTypes: opts.events,
        ignoreOoo: opts.ignoreOoo ?? false,
        ignoreAutomatic: opts.ignoreAutomatic ?? false,
      },
    });
  };
  const emit = (event: string, opts: { campaignId?: string | null; fields?: Record<string, unknown>; replyKind?: ReplyKind } = {}) =>
    db.prisma.$transaction((tx) =>
      emitWebhookEvent({ tx, workspaceId: ws, event, campaignId: opts.campaignId ?? null, fields: opts.fields ?? { n: 1 }, now: deps.ports.clock.now(), replyKind: opts.replyKind }),
    );
  const round = (extra: { max?: number; timeoutMs?: number } = {}) => deliverDueWebhooks({ deps, workspaceIds: [ws], ...extra });
  const deliveries = (webhookId: string) => db.prisma.webhookDelivery.findMany({ where: { webhookId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const webhook = (id: string) => db.prisma.webhook.findUniqueOrThrow({ where: { id } });
  const path = (p: string) => `${tag}${p}`;
  const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { id: ws } });
  return { org, ws, workspaceName: workspace.name, clock, deps, hook, emit, round, deliveries, webhook, path };
}

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

  it('keeps a webhook\'s events in order: one queued while a failure was being recorded waits behind the held ones', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/queue', events: ['EMAIL_SENT'] });
    for (let i = 0; i < 3; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });
    const [first, second] = await t.deliveries(hook.id);
    // The first two failed and are held for a minute; the third was queued as that failure was
    // recorded, so the hold did not see it: due now.
    const retryAt = new Date(START.getTime() + 60_000);
    await db.prisma.webhookDelivery.updateMany({ where: { id: { in: [first!.id, second!.id] } }, data: { nextAttemptAt: retryAt, attempts: 1 } });

    expect(await t.round()).toMatchObject({ claimed: 0 });
    expect(receiver.at(t.path('/queue'))).toHaveLength(0);
    t.clock.at = retryAt;
    expect(await t.round()).toMatchObject({ claimed: 3, delivered: 3 });
    expect(receiver.at(t.path('/queue')).map((r) => JSON.parse(r.body).i)).toEqual([0, 1, 2]);
  });

  it('leases a claim for the slowest attempt the round may start, so no other round takes a delivery it has yet to POST', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/lengthy', events: ['EMAIL_SENT'] });
    // The first POST starts as the round's budget (5 s) runs out and takes 14.999 s of the
    // clock, just under the timeout and the margin: the lease (20 s) has not passed when it ends,
    // and a round started then takes none of the three.
    const during: Promise<WebhookRoundResult>[] = [];
    receiver.answer(t.path('/lengthy'), (n) => {
      if (n === 0) {
        t.clock.advance(14_999);
        during.push(t.round());
      }
      return { status: 200 };
    });
    for (let i = 0; i < 3; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });
    const slowClaim = t.deps.ports.clock;
    let readings = 0;
    // The claim itself took 4.999 s: the round's first reading is its start, the next its first attempt.
    const deps = { ...t.deps, ports: { ...t.deps.ports, clock: { now: () => (readings++ === 1 ? (t.clock.advance(4_999), slowClaim.now()) : slowClaim.now()) } } };

    expect(await deliverDueWebhooks({ deps, workspaceIds: [t.ws] })).toEqual({ claimed: 3, delivered: 1, failed: 0, retried: 0, released: 2, disabled: 0, backlog: true });
    expect((await Promise.all(during)).map((r) => r.claimed)).toEqual([0]);
    // The two the budget left are due as they were, for the next round.
    expect((await t.deliveries(hook.id)).map((d) => [d.status, d.leaseUntil])).toEqual([['DELIVERED', null], ['PENDING', null], ['PENDING', null]]);
    expect(await t.round()).toMatchObject({ claimed: 2, delivered: 2, released: 0, backlog: false });
    const ids = receiver.at(t.path('/lengthy')).map((r) => r.headers['x-outreach-event-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect((await t.deliveries(hook.id)).every((d) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(true);
  });

  it('starts no attempt once the round has run 5 s: the rest go to the next round, due as they were', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/slower', events: ['EMAIL_SENT'] });
    // 2 s of the clock each: attempts start at 0, 2 and 4 s; the fourth would start at 6 s.
    receiver.answer(t.path('/slower'), () => {
      t.clock.advance(2_000);
      return { status: 200 };
    });
    for (let i = 0; i < 5; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });

    expect(await t.round()).toEqual({ claimed: 5, delivered: 3, failed: 0, retried: 0, released: 2, disabled: 0, backlog: true });
    const [, , , fourth, fifth] = await t.deliveries(hook.id);
    for (const d of [fourth, fifth]) expect(d).toMatchObject({ status: 'PENDING', attempts: 0, nextAttemptAt: START, leaseUntil: null });
    expect(receiver.at(t.path('/slower')).map((r) => JSON.parse(r.body).i)).toEqual([0, 1, 2]);
    expect(await t.webhook(hook.id)).toMatchObject({ consecutiveFailures: 0 });

    expect(await t.round()).toEqual({ claimed: 2, delivered: 2, failed: 0, retried: 0, released: 0, disabled: 0, backlog: false });
    expect(receiver.at(t.path('/slower')).map((r) => JSON.parse(r.body).i)).toEqual([0, 1, 2, 3, 4]);
  });

  it('takes webhooks in turn: another webhook\'s backlog fills neither a claim nor a round', async () => {
    const t = await setup();
    const busy = await t.hook({ path: '/busy', events: ['EMAIL_SENT'] });
    const quiet = await t.hook({ path: '/quiet', events: ['BOUNCED_EMAIL'] });
    const queued = WEBHOOK_TURN_MAX + 5;
    for (let i = 0; i < queued; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });
    t.clock.advance(1_000);
    await t.emit('BOUNCED_EMAIL', { campaignId: 'c1', fields: { i: 'quiet' } });

    // Five a claim: the quiet webhook's one event, newer than all the others, is among them.
    expect(await t.round({ max: 5 })).toMatchObject({ claimed: 5, delivered: 5, backlog: true });
    expect(receiver.at(t.path('/quiet'))).toHaveLength(1);
    expect(receiver.at(t.path('/busy')).map((r) => JSON.parse(r.body).i)).toEqual([0, 1, 2, 3]);
    expect((await t.deliveries(quiet.id))[0]).toMatchObject({ status: 'DELIVERED' });
    // A webhook's share of a round is WEBHOOK_TURN_MAX, however many are due: the next round comes at once.
    expect(await t.round()).toEqual({ claimed: WEBHOOK_TURN_MAX, delivered: WEBHOOK_TURN_MAX, failed: 0, retried: 0, released: 0, disabled: 0, backlog: true });
    expect(await t.round()).toEqual({ claimed: 1, delivered: 1, failed: 0, retried: 0, released: 0, disabled: 0, backlog: false });
    expect(receiver.at(t.path('/busy')).map((r) => JSON.parse(r.body).i)).toEqual(Array.from({ length: queued }, (_, i) => i));
    expect((await t.deliveries(busy.id)).every((d) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(true);
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

  it('delivers each event exactly once under two concurrent rounds', async () => {
    const t = await setup();
    const hook = await t.hook({ path: '/busy', events: ['EMAIL_SENT'] });
    receiver.answer(t.path('/busy'), () => ({ status: 200, body: 'ok', delayMs: 20 }));
    for (let i = 0; i < 30; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });

    // Two rounds at once (two workers), again and again until nothing is left: the webhook is one
    // round's at a time, so they never claim the same delivery, and its events arrive in order.
    const pairs: WebhookRoundResult[][] = [];
    do pairs.push(await Promise.all([t.round({ max: 20 }), t.round({ max: 20 })]));
    while (pairs.at(-1)!.some((r) => r.claimed > 0));
    expect(pairs[0]!.map((r) => r.claimed).sort((a, b) => a - b)).toEqual([0, WEBHOOK_TURN_MAX]);
    expect(pairs.flat().reduce((sum, r) => sum + r.claimed, 0)).toBe(30);
    expect(pairs.flat().reduce((sum, r) => sum + r.delivered, 0)).toBe(30);
    expect(receiver.at(t.path('/busy')).map((r) => JSON.parse(r.body).i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const ids = receiver.at(t.path('/busy')).map((r) => r.headers['x-outreach-event-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect((await t.deliveries(hook.id)).every((d) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(true);
  });

  it('gives a webhook to one round at a time: two workers cost a receiver down a moment one failure, and take other webhooks meanwhile', async () => {
    const t = await setup();
    const down = await t.hook({ path: '/down', events: ['EMAIL_SENT'] });
    const other = await t.hook({ path: '/other', events: ['BOUNCED_EMAIL'] });
    const answered = Promise.withResolvers<void>();
    // The first POST waits until the test lets it answer 502, so the second round claims meanwhile.
    receiver.answer(t.path('/down'), (n) => (n === 0 ? { status: 502, body: 'deploying', after: answered.promise } : { status: 200 }));
    for (let i = 0; i < 20; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });
    await t.emit('BOUNCED_EMAIL', { campaignId: 'c1', fields: { i: 'other' } });

    const first = t.round({ max: 1 });
    await receiver.arrival(t.path('/down'));
    // While the first round's POST is under way, the webhook is its turn: another round takes
    // the other webhook, and none of the failing one's.
    expect(await t.round()).toEqual({ claimed: 1, delivered: 1, failed: 0, retried: 0, released: 0, disabled: 0, backlog: false });
    expect(receiver.at(t.path('/other'))).toHaveLength(1);
    answered.resolve();
    expect(await first).toMatchObject({ claimed: 1, retried: 1 });
    expect(await t.webhook(down.id)).toMatchObject({ consecutiveFailures: 1, busyUntil: null });
    expect(receiver.at(t.path('/down'))).toHaveLength(1);
    // Its turn over, the webhook waits for its retry, all 20 with it.
    expect(await t.round()).toMatchObject({ claimed: 0 });
    expect((await t.deliveries(other.id))[0]).toMatchObject({ status: 'DELIVERED' });
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

  it('runs as a worker loop on the system clock: a quiet webhook\'s event goes out while a slow one works through its backlog', async () => {
    const t = await setup({ clock: systemClock });
    await t.hook({ path: '/backlog', events: ['EMAIL_SENT'] });
    const quiet = await t.hook({ path: '/quiet-worker', events: ['BOUNCED_EMAIL'] });
    receiver.answer(t.path('/backlog'), () => ({ status: 200, delayMs: 30 }));
    for (let i = 0; i < 100; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });
    const worker = startWebhookWorker({ deps: t.deps, intervalMs: 100, workspaceIds: [t.ws] });
    let backlogBefore = -1;
    try {
      await receiver.arrival(t.path('/backlog'));
      const arrived = receiver.arrival(t.path('/quiet-worker')).then(() => (backlogBefore = receiver.at(t.path('/backlog')).length));
      // Newer than all 100, emitted once the backlog's first POST has arrived.
      await t.emit('BOUNCED_EMAIL', { campaignId: 'c1', fields: { i: 'quiet' } });
      await Promise.race([arrived, new Promise((r) => setTimeout(r, 15_000))]);
    } finally {
      await worker.stop();
    }
    expect((await t.deliveries(quiet.id))[0]).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    // Taken strictly oldest first, it waited for all 100 (3 s of answers); in turn, it goes out
    // in the round after the one under way: at most two rounds' shares of the backlog before it.
    expect(backlogBefore).toBeGreaterThan(0);
    expect(backlogBefore).toBeLessThanOrEqual(2 * WEBHOOK_TURN_MAX);
  });

  it('runs as two worker loops on the system clock: each webhook\'s events one at a time, in order, once each', async () => {
    const t = await setup({ clock: systemClock });
    const paths = ['/two-a', '/two-b', '/two-c'];
    const events = ['EMAIL_SENT', 'BOUNCED_EMAIL', 'UNIBOX_EMAIL_SENT'];
    for (const [k, path] of paths.entries()) {
      await t.hook({ path, events: [events[k]!] });
      receiver.answer(t.path(path), () => ({ status: 200, delayMs: 5 + Math.random() * 20 }));
    }
    const emit = (k: number, i: number) => t.emit(events[k]!, { campaignId: 'c1', fields: { i } });
    for (let i = 0; i < 15; i++) for (let k = 0; k < 3; k++) await emit(k, i);
    const workers = [0, 1].map(() => startWebhookWorker({ deps: t.deps, intervalMs: 20, workspaceIds: [t.ws] }));
    try {
      // More while they run, so that both workers claim again and again.
      for (let i = 15; i < 30; i++) for (let k = 0; k < 3; k++) await emit(k, i);
      const deadline = Date.now() + 20_000;
      while (paths.some((p) => receiver.at(t.path(p)).length < 30) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    for (const path of paths) {
      const requests = receiver.at(t.path(path));
      // Taken by either worker, never by both at once: each POST arrives after the one before was answered.
      for (let i = 1; i < requests.length; i++) expect(requests[i]!.receivedAt).toBeGreaterThanOrEqual(requests[i - 1]!.answeredAt!);
      expect(requests.map((r) => JSON.parse(r.body).i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    }
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
