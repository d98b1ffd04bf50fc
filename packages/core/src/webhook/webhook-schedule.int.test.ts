// Which deliveries a round takes, and when: each webhook's in the order of its events, webhooks in
// turn, a round's budget and lease, and each webhook one worker's at a time.
import { describe, expect, it } from 'vitest';
import { useTestDatabase, useWebhookReceiver } from '../testing/index';
import { systemClock, type Clock } from '../shared/ports';
import { deliverDueWebhooks, startWebhookWorker, type WebhookRoundResult } from './webhook-delivery.service';
import { WEBHOOK_TURN_MAX } from './webhook-delivery.rules';
import { START, webhookTestbed } from './webhook-delivery.test-helpers';

const db = useTestDatabase();
const receiver = useWebhookReceiver();
const setup = (options: { allowPrivateTargets?: boolean; clock?: Clock } = {}) => webhookTestbed({ db, receiver, ...options });

/** Each of the webhook's `events` reached the receiver once (one POST, one event id) and is DELIVERED at its first attempt. */
async function expectEachDeliveredOnce(t: Awaited<ReturnType<typeof setup>>, o: { webhookId: string; path: string; events: number }) {
  const ids = receiver.at(t.path(o.path)).map((r) => r.headers['x-outreach-event-id']);
  expect(ids).toHaveLength(o.events);
  expect(new Set(ids).size).toBe(o.events);
  expect((await t.deliveries(o.webhookId)).every((d) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(true);
}

describe('webhook delivery schedule', () => {
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
    await expectEachDeliveredOnce(t, { webhookId: hook.id, path: '/lengthy', events: 3 });
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
    await expectEachDeliveredOnce(t, { webhookId: hook.id, path: '/busy', events: 30 });
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

  it('runs as a worker loop on the system clock: a receiver slow to answer does not hold another webhook\'s event for its turn', async () => {
    const t = await setup({ clock: systemClock });
    await t.hook({ path: '/slow-turn', events: ['EMAIL_SENT'] });
    const quiet = await t.hook({ path: '/beside-slow', events: ['BOUNCED_EMAIL'] });
    // Each answer takes 3 s, well within the timeout: the turn lasts two of them (the round's 5 s budget).
    receiver.answer(t.path('/slow-turn'), () => ({ status: 200, delayMs: 3_000 }));
    for (let i = 0; i < 3; i++) await t.emit('EMAIL_SENT', { campaignId: 'c1', fields: { i } });
    const worker = startWebhookWorker({ deps: t.deps, intervalMs: 100, workspaceIds: [t.ws] });
    try {
      await receiver.arrival(t.path('/slow-turn'));
      // Emitted once the slow turn has begun: the round under way did not claim it.
      await t.emit('BOUNCED_EMAIL', { campaignId: 'c1', fields: { i: 'quiet' } });
      await Promise.race([receiver.arrival(t.path('/beside-slow')), new Promise((r) => setTimeout(r, 15_000))]);
      const [first] = receiver.at(t.path('/slow-turn'));
      const [beside] = receiver.at(t.path('/beside-slow'));
      // Out before the slow receiver's first answer; it used to wait for the whole turn (about 6 s).
      expect(beside, 'the quiet webhook\'s event was delivered').toBeDefined();
      expect(first!.answeredAt === undefined || beside!.receivedAt < first!.answeredAt).toBe(true);
    } finally {
      await worker.stop();
    }
    expect((await t.deliveries(quiet.id))[0]).toMatchObject({ status: 'DELIVERED', attempts: 1 });
  }, 30_000);

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
});
