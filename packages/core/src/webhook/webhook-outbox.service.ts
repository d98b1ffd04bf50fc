// Writing webhook events: in the caller's transaction, one outbox row per subscribed
// webhook, so an event exists exactly when the change that caused it committed. The
// webhook worker (webhook-delivery.service.ts) POSTs them afterwards.
import { newId, type Tx } from '@outreach/db';
import { ALL_CAMPAIGNS } from './webhook.rules';

/** What kind of reply caused a reply event (webhooks may ignore out-of-office and automatic replies). */
export type ReplyKind = 'reply' | 'out_of_office' | 'automatic_reply';

/**
 * Queues `event` for every ACTIVE webhook of the workspace that subscribes to it and
 * covers the campaign (`camp_ids` holds "ALL" or the campaign; an event without a
 * campaign, such as SYSTEM_ALERT, reaches every subscriber). A webhook with `ignore_ooo`
 * skips out-of-office replies, one with `ignore_automatic` automatic ones.
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
  const { tx, workspaceId, event, campaignId, now } = options;
  const hooks = await tx.$queryRawUnsafe<{ id: string; name: string; workspace_name: string }[]>(
    `SELECT h.id, h.name, w.name AS workspace_name
       FROM webhooks h JOIN workspaces w ON w.id = h.workspace_id
      WHERE h.workspace_id = $1 AND h.status = 'ACTIVE' AND $2 = ANY(h.event_types)
        AND ($3::text IS NULL OR $4 = ANY(h.camp_ids) OR $3 = ANY(h.camp_ids))
        AND NOT ($5::text = 'out_of_office' AND h.ignore_ooo)
        AND NOT ($5::text = 'automatic_reply' AND h.ignore_automatic)`,
    workspaceId,
    event,
    campaignId,
    ALL_CAMPAIGNS,
    options.replyKind ?? null,
  );
  if (!hooks.length) return 0;
  const fields = typeof options.fields === 'function' ? await options.fields() : options.fields;
  await tx.webhookDelivery.createMany({
    data: hooks.map((hook) => ({
      id: newId(now.getTime()),
      webhookId: hook.id,
      workspaceId,
      event,
      payload: JSON.parse(
        JSON.stringify({
          ...fields,
          webhook_id: hook.id,
          webhook_name: hook.name,
          webhook_event: event,
          workspace_id: workspaceId,
          workspace_name: hook.workspace_name,
        }),
      ),
      nextAttemptAt: now,
      createdAt: now,
    })),
  });
  return hooks.length;
}
