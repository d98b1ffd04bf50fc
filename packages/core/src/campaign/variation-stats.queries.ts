import type { PrismaClient, Tx } from '@outreach/db';

export interface VariationCounts {
  variation_id: string;
  sent: number;
  open: number;
  reply: number;
  pos_reply: number;
}

/**
 * Per-variation counts over the sends of one campaign whose send time falls in
 * [from, to). Both scans are index-only on sent_emails (campaign_id, sent_at,
 * variation_id, opened_at, replied_at, lead_id); only replied sends are joined to
 * their lead and its label for the positive count.
 */
export async function variationCounts(options: {
  db: PrismaClient | Tx;
  campaignId: string;
  from: Date | null;
  to: Date | null;
}): Promise<VariationCounts[]> {
  const from = options.from ?? new Date(0);
  const to = options.to ?? new Date('9999-12-31T00:00:00.000Z');
  return options.db.$queryRawUnsafe<VariationCounts[]>(
    `WITH base AS (
       SELECT variation_id, count(*)::int AS sent, count(opened_at)::int AS open, count(replied_at)::int AS reply
         FROM sent_emails
        WHERE campaign_id = $1 AND sent_at >= $2 AND sent_at < $3
        GROUP BY variation_id
     ), positive AS (
       SELECT s.variation_id, count(*)::int AS pos_reply
         FROM sent_emails s
         JOIN leads l ON l.id = s.lead_id
         JOIN lead_labels ll ON ll.workspace_id = l.workspace_id AND ll.key = l.label AND ll.sentiment = 'POSITIVE'
        WHERE s.campaign_id = $1 AND s.sent_at >= $2 AND s.sent_at < $3 AND s.replied_at IS NOT NULL
        GROUP BY s.variation_id
     )
     SELECT base.variation_id, base.sent, base.open, base.reply, coalesce(positive.pos_reply, 0)::int AS pos_reply
       FROM base LEFT JOIN positive ON positive.variation_id IS NOT DISTINCT FROM base.variation_id`,
    options.campaignId,
    from,
    to,
  );
}
