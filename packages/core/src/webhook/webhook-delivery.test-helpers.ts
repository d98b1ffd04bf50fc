// The webhook worker's integration tests share this bed: a tenant with webhooks pointed at the
// suite's loopback receiver (each test's paths under a tag of its own), a manual clock, and the
// rounds, events and rows the tests drive and read.
import { randomUUID } from 'node:crypto';
import { newId, type Database } from '@outreach/db';
import { createTestOrganization, TestClock, testServiceDeps, type startWebhookReceiver } from '../testing/index';
import type { Clock } from '../shared/ports';
import { deliverDueWebhooks } from './webhook-delivery.service';
import { emitWebhookEvent, type ReplyKind } from './webhook-outbox.service';

/** Where the manual clock starts. */
export const START = new Date('2025-06-02T09:00:00.000Z');

type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** `clock`: the deps' clock instead of the manual one (which then stays unused). */
export async function webhookTestbed(options: { db: Database; receiver: WebhookReceiver; allowPrivateTargets?: boolean; clock?: Clock }) {
  const { db, receiver } = options;
  const org = await createTestOrganization({ db });
  const clock = new TestClock(START);
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
