// What waits for the workers, read when the metrics are scraped (the gateway's `/metrics`).
import type { PrismaClient } from '@outreach/db';

/**
 * Leads whose next send time has come in ACTIVE campaigns (the scheduler's due leads,
 * `leads_due_idx`; those outside their campaign's sending window wait there too, and a claim
 * moves its lead's time to the end of its lease), webhook deliveries still PENDING (due
 * now or waiting for a retry), and deletes the purge worker has still to finish (campaigns,
 * workspaces and organizations marked deleted, their rows not all gone). $1 now.
 */
export const QUEUE_DEPTHS_SQL = `
  SELECT (SELECT count(*) FROM leads l JOIN campaigns c ON c.id = l.campaign_id
           WHERE c.status = 'ACTIVE' AND l.next_send_at IS NOT NULL AND l.next_send_at <= $1::timestamptz)::int AS sends_due,
         (SELECT count(*) FROM webhook_deliveries WHERE status = 'PENDING')::int AS webhook_deliveries_pending,
         ((SELECT count(*) FROM campaigns WHERE deleted_at IS NOT NULL)
          + (SELECT count(*) FROM workspaces WHERE deleted_at IS NOT NULL)
          + (SELECT count(*) FROM organizations WHERE deleted_at IS NOT NULL))::int AS deletes_pending`;

export interface QueueDepths {
  sendsDue: number;
  webhookDeliveriesPending: number;
  deletesPending: number;
}

/** The queues' depths now, in one statement. */
export async function queueDepths(options: { db: PrismaClient; now: Date }): Promise<QueueDepths> {
  const [row] = await options.db.$queryRawUnsafe<{ sends_due: number; webhook_deliveries_pending: number; deletes_pending: number }[]>(
    QUEUE_DEPTHS_SQL,
    options.now.toISOString(),
  );
  return { sendsDue: row?.sends_due ?? 0, webhookDeliveriesPending: row?.webhook_deliveries_pending ?? 0, deletesPending: row?.deletes_pending ?? 0 };
}
