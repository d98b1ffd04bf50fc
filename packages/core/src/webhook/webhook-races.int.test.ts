// A webhook deleted or disabled while the worker delivers its events, or while an event for it is
// queued: nothing more is POSTed to it once the request that removed it has answered, the
// worker's record waits for a delete under way instead of deadlocking with it, and an event's
// transaction leaves the deleted webhook out instead of failing on its foreign key.
import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestOrganization, testServiceDeps, untilWaitingOnLock, usingPostgres, useTestDatabase, useWebhookReceiver } from '../testing/index';
import { emitWebhookEvent } from './webhook-outbox.service';
import { deliverDueWebhooks } from './webhook-delivery.service';

/** Holds the receiver's answers to `path` until `release`; `arrived` resolves when the first POST to it does. */
function hold(path: string) {
  const release = Promise.withResolvers<void>();
  const arrived = receiver.arrival(path);
  receiver.answer(path, () => ({ status: 200, body: 'ok', after: release.promise }));
  return { arrived, release: () => release.resolve() };
}

const db = useTestDatabase();
const receiver = useWebhookReceiver();

/** A workspace with one webhook on EMAIL_SENT and `events` of them queued for it. */
async function setup(events: number) {
  const org = await createTestOrganization({ db });
  const deps = testServiceDeps({ db });
  const path = `/${newId()}`;
  const hook = await db.prisma.webhook.create({
    data: { id: newId(), organizationId: org.organizationId, workspaceId: org.workspaceId, url: receiver.url(path), name: 'crm', campIds: ['ALL'], eventTypes: ['EMAIL_SENT'] },
  });
  for (let n = 0; n < events; n++) {
    await db.prisma.$transaction((tx) => emitWebhookEvent({ tx, workspaceId: org.workspaceId, event: 'EMAIL_SENT', campaignId: null, fields: { n }, now: new Date() }));
  }
  const round = () => deliverDueWebhooks({ deps, workspaceIds: [org.workspaceId] });
  return { org, deps, path, hook, round };
}

describe('a webhook removed while its events are delivered', () => {
  it('gets nothing more once it is deleted during its turn (was the rest of its turn POSTed)', async () => {
    const t = await setup(3);
    const held = hold(t.path);
    const round = t.round();
    await held.arrived;
    await db.prisma.webhook.delete({ where: { id: t.hook.id } });
    held.release();
    await expect(round).resolves.toMatchObject({ claimed: 3, delivered: 0 });
    expect(receiver.at(t.path)).toHaveLength(1);
  });

  it('gets nothing more once it is disabled during its turn (its workspace deleted): the rest are given up', async () => {
    const t = await setup(3);
    const held = hold(t.path);
    const round = t.round();
    await held.arrived;
    await db.prisma.webhook.update({ where: { id: t.hook.id }, data: { status: 'DISABLED' } });
    held.release();
    await expect(round).resolves.toMatchObject({ claimed: 3, delivered: 1, failed: 2 });
    expect(receiver.at(t.path)).toHaveLength(1);
    const rows = await db.prisma.webhookDelivery.findMany({ where: { webhookId: t.hook.id }, select: { status: true, lastError: true } });
    expect(rows.filter((r) => r.status === 'FAILED').map((r) => r.lastError)).toEqual(['the webhook is disabled', 'the webhook is disabled']);
  });

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())('waits for a delete under way before recording its answer, where the two deadlocked', async () => {
    const t = await setup(1);
    const held = hold(t.path);
    const round = t.round();
    round.catch(() => {});
    await held.arrived;
    // As webhook.delete does: the webhook's row, then (its cascade) its deliveries'.
    await db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM webhooks WHERE id = $1 FOR UPDATE', t.hook.id);
        held.release();
        await untilWaitingOnLock(db.prisma);
        await tx.$queryRawUnsafe('SELECT id FROM webhook_deliveries WHERE webhook_id = $1 FOR UPDATE', t.hook.id);
        await tx.webhook.delete({ where: { id: t.hook.id } });
      },
      { timeout: 30_000 },
    );
    await expect(round).resolves.toMatchObject({ claimed: 1, delivered: 0 });
    expect(await db.prisma.webhook.count({ where: { id: t.hook.id } })).toBe(0);
  }, 60_000);

  it.runIf(usingPostgres())("leaves out of an event's deliveries a webhook deleted as it is queued (was the event's transaction failing)", async () => {
    const t = await setup(0);
    let queued: Promise<number> | undefined;
    await db.prisma.$transaction(
      async (tx) => {
        await tx.webhook.delete({ where: { id: t.hook.id } });
        queued = db.prisma.$transaction((other) => emitWebhookEvent({ tx: other, workspaceId: t.org.workspaceId, event: 'EMAIL_SENT', campaignId: null, fields: { n: 1 }, now: new Date() }));
        queued.catch(() => {});
        await untilWaitingOnLock(db.prisma);
      },
      { timeout: 30_000 },
    );
    await expect(queued).resolves.toBe(0);
    expect(await db.prisma.webhookDelivery.count({ where: { workspaceId: t.org.workspaceId } })).toBe(0);
  }, 60_000);
});
