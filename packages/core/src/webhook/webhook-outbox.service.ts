// Writing webhook events: in the caller's transaction, one outbox row per subscribed
// webhook, so an event exists exactly when the change that caused it committed. The
// webhook worker (webhook-delivery.service.ts) POSTs them afterwards.
import { newId, prepared, type Tx } from '@outreach/db';
import { systemAlertFields, type SystemAlert } from './webhook-payload.rules';
import { ALL_CAMPAIGNS } from './webhook.rules';

/**
 * SQL: whether webhook `hook` (a row of webhooks in the caller's statement) takes `event` for a
 * campaign: it is ACTIVE, subscribes to the event, and covers the campaign (`camp_ids` holds
 * "ALL" or the campaign; an event without a campaign, such as SYSTEM_ALERT, reaches every
 * subscriber). Each argument is an SQL expression of the caller's statement.
 */
function subscribesSql(at: { hook: string; event: string; campaignId: string }): string {
  return `${at.hook}.status = 'ACTIVE' AND ${at.event} = ANY(${at.hook}.event_types)
          AND (${at.campaignId} IS NULL OR '${ALL_CAMPAIGNS}' = ANY(${at.hook}.camp_ids) OR ${at.campaignId} = ANY(${at.hook}.camp_ids))`;
}

/**
 * SQL: whether a webhook of the workspace takes `event` for the campaign (subscribesSql, the rule
 * emitWebhookEvents applies), for a statement that must know beforehand whether an event would be
 * queued (the sending engine records a batch of sends in one statement when no webhook listens:
 * send-record.service.ts). Each argument is an SQL expression of the caller's statement.
 */
export function webhookListensSql(at: { workspaceId: string; campaignId: string; event: string }): string {
  return `EXISTS (SELECT 1 FROM webhooks h WHERE h.workspace_id = ${at.workspaceId} AND ${subscribesSql({ hook: 'h', event: at.event, campaignId: at.campaignId })})`;
}

/** What kind of reply caused a reply event (webhooks may ignore out-of-office and automatic replies). */
export type ReplyKind = 'reply' | 'out_of_office' | 'automatic_reply';

/**
 * Queues `event` for every ACTIVE webhook of the workspace that subscribes to it and
 * covers the campaign (`camp_ids` holds "ALL" or the campaign; an event without a
 * campaign, such as SYSTEM_ALERT, reaches every subscriber). A webhook with `ignore_ooo`
 * skips out-of-office replies, one with `ignore_automatic` automatic ones. A webhook whose
 * last attempt failed gets the event at that failure's retry time, with its other deliveries.
 *
 * The payload is flat, as the vendor's: `webhook_id`, `webhook_name`, `webhook_event`,
 * `workspace_id`, `workspace_name`, then `fields` (which may override none of those).
 * Returns how many deliveries were queued.
 */
export async function emitWebhookEvent(options: {
  tx: Tx;
  workspaceId: string;
  event: string;
  campaignId: string | null;
  /** The event's own fields, or a function computing them (called only when some webhook subscribes). */
  fields: Record<string, unknown> | (() => Promise<Record<string, unknown>>);
  now: Date;
  replyKind?: ReplyKind;
}): Promise<number> {
  const { fields } = options;
  return emitWebhookEvents({
    tx: options.tx,
    event: options.event,
    replyKind: options.replyKind,
    items: [{ workspaceId: options.workspaceId, campaignId: options.campaignId, now: options.now }],
    fields: async () => [typeof fields === 'function' ? await fields() : fields],
  });
}

/** A SYSTEM_ALERT as its emitter gives it: the alert and its message (its date is the event's `now`). */
export type SystemAlertEvent = SystemAlert & { message: string };

/**
 * Queues a SYSTEM_ALERT (something needs a person) for the workspace's subscribers, every one of
 * them (an alert has no campaign): `alert`, or a function computing it, called only when some
 * webhook subscribes.
 */
export function emitSystemAlert(options: { tx: Tx; workspaceId: string; now: Date; alert: SystemAlertEvent | (() => Promise<SystemAlertEvent>) }): Promise<number> {
  const { alert, now } = options;
  return emitWebhookEvent({
    tx: options.tx,
    workspaceId: options.workspaceId,
    event: 'SYSTEM_ALERT',
    campaignId: null,
    now,
    fields: async () => systemAlertFields({ ...(typeof alert === 'function' ? await alert() : alert), at: now }),
  });
}

/**
 * emitWebhookEvent for several occurrences of one event at once (the engine records a batch of
 * sends): one read of the subscribers for all of them, one insert of all their deliveries, and
 * `fields` called once, with the items some webhook subscribes to (it answers their fields in
 * that order). Each item's deliveries are as emitWebhookEvent would queue them, at its own `now`.
 */
export async function emitWebhookEvents<T extends { workspaceId: string; campaignId: string | null; now: Date }>(options: {
  tx: Tx;
  event: string;
  items: T[];
  fields: (subscribed: T[]) => Promise<Record<string, unknown>[]>;
  replyKind?: ReplyKind;
}): Promise<number> {
  const { tx, event, items } = options;
  if (!items.length) return 0;
  // $4 is NULL for events that are not replies, and `NULL = 'out_of_office'` is NULL, whose
  // NOT is NULL too: IS NOT DISTINCT FROM keeps such events for the webhooks that ignore
  // out-of-office or automatic replies.
  // A failing webhook's pending deliveries wait for the retry time of its last failure (the
  // worker's circuit breaker), which its newest pending one carries: a new event waits for it
  // too, or it would be POSTed at once and count another failure before the backoff has passed.
  // The subscribers are held until the caller commits (FOR KEY SHARE, as their deliveries'
  // foreign key would): a webhook being deleted is waited for and left out, where its deliveries'
  // insert failed on the foreign key and took the caller's whole transaction with it.
  const hooks = await tx.$queryRawUnsafe<{ n: number; id: string; name: string; workspace_name: string; held_until: Date | null }[]>(
    prepared(`SELECT i.n::int AS n, h.id, h.name, w.name AS workspace_name,
            CASE WHEN h.consecutive_failures > 0 THEN (
              SELECT d.next_attempt_at FROM webhook_deliveries d
               WHERE d.webhook_id = h.id AND d.status = 'PENDING'
               ORDER BY d.created_at DESC LIMIT 1) END AS held_until
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS i(workspace_id, campaign_id, n)
       JOIN webhooks h ON h.workspace_id = i.workspace_id
       JOIN workspaces w ON w.id = h.workspace_id
      WHERE ${subscribesSql({ hook: 'h', event: '$3', campaignId: 'i.campaign_id' })}
        AND NOT ($4::text IS NOT DISTINCT FROM 'out_of_office' AND h.ignore_ooo)
        AND NOT ($4::text IS NOT DISTINCT FROM 'automatic_reply' AND h.ignore_automatic)
      ORDER BY i.n, h.id
        FOR KEY SHARE OF h`),
    items.map((i) => i.workspaceId),
    items.map((i) => i.campaignId),
    event,
    options.replyKind ?? null,
  );
  if (!hooks.length) return 0;
  const subscribed = [...new Set(hooks.map((h) => h.n - 1))];
  const computed = await options.fields(subscribed.map((k) => items[k]!));
  const fieldsOf = new Map(subscribed.map((k, j) => [k, computed[j]!]));
  await tx.webhookDelivery.createMany({
    data: hooks.map((hook) => {
      const item = items[hook.n - 1]!;
      return {
        id: newId(item.now.getTime()),
        webhookId: hook.id,
        workspaceId: item.workspaceId,
        event,
        payload: JSON.parse(
          JSON.stringify({
            ...fieldsOf.get(hook.n - 1),
            webhook_id: hook.id,
            webhook_name: hook.name,
            webhook_event: event,
            workspace_id: item.workspaceId,
            workspace_name: hook.workspace_name,
          }),
        ),
        nextAttemptAt: hook.held_until && new Date(hook.held_until) > item.now ? new Date(hook.held_until) : item.now,
        createdAt: item.now,
      };
    }),
  });
  return hooks.length;
}
