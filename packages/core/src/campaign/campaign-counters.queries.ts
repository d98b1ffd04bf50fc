// The campaign counters (docs/database.md, "Campaign counters"): kept by database triggers on
// leads and sent_emails (migration 20261125015921_campaign_counters), which append each write
// statement's change per campaign to campaign_counter_deltas in the writer's own transaction;
// foldCampaignCounters moves those deltas into campaign_counters. A read sums both, so it
// answers in a few index probes whatever the number of leads and sends.
import type { Prisma, PrismaClient } from '@outreach/db';

type Db = PrismaClient | Prisma.TransactionClient;

/** The counted columns, in the tables' order. */
const COLUMNS = [
  'lead_count',
  'completed_lead_count',
  'finished_lead_count',
  'sent_count',
  'opened_count',
  'bounced_count',
  'contacted_count',
  'unique_opened_count',
  'replied_count',
  'bounced_lead_count',
  'unsubscribed_count',
] as const;

export type CounterColumn = (typeof COLUMNS)[number];

/** One campaign's whole-life counters; `*_reply_count` are replied leads by the sentiment of their current label. */
export type CampaignCounterRow = Record<CounterColumn | 'positive_reply_count' | 'negative_reply_count' | 'neutral_reply_count', number> & {
  campaign_id: string;
};

const cols = COLUMNS.join(', ');
const own = (c: string) => `coalesce(sum(t.${c}) FILTER (WHERE t.label = ''), 0)::int AS ${c}`;
const bySentiment = (s: string) => `coalesce(sum(t.replied_count) FILTER (WHERE ll.sentiment = '${s}'), 0)::int AS ${s.toLowerCase()}_reply_count`;

/**
 * The counters of several campaigns: their folded rows plus their pending deltas, the label
 * rows read through the workspace's labels for the sentiments. `pending`: deltas read.
 * Parameters: $1 workspace, $2 campaign ids.
 */
export const CAMPAIGN_COUNTERS_SQL = `
  SELECT t.campaign_id,
         ${COLUMNS.map(own).join(',\n         ')},
         ${['POSITIVE', 'NEGATIVE', 'NEUTRAL'].map(bySentiment).join(',\n         ')},
         count(*) FILTER (WHERE t.pending)::int AS pending
    FROM (SELECT campaign_id, label, ${cols}, false AS pending
            FROM campaign_counters WHERE workspace_id = $1 AND campaign_id = ANY($2::text[])
          UNION ALL
          SELECT campaign_id, label, ${cols}, true
            FROM campaign_counter_deltas WHERE workspace_id = $1 AND campaign_id = ANY($2::text[])) t
    LEFT JOIN lead_labels ll ON t.label <> '' AND ll.workspace_id = $1 AND ll.key = t.label
   GROUP BY t.campaign_id`;

/**
 * Moves every pending delta into campaign_counters, in one statement. One fold at a time
 * (a transaction-scoped advisory lock; a fold finding it taken does nothing): two folds
 * deleting the same deltas in different orders could deadlock. Deltas of a campaign deleted
 * meanwhile are dropped.
 */
export const FOLD_CAMPAIGN_COUNTERS_SQL = `
  WITH lock AS (SELECT pg_try_advisory_xact_lock(8031966452) AS held),
       moved AS (DELETE FROM campaign_counter_deltas WHERE (SELECT held FROM lock) RETURNING campaign_id, label, workspace_id, ${cols}),
       summed AS (
         SELECT campaign_id, label, workspace_id, ${COLUMNS.map((c) => `sum(${c})::int AS ${c}`).join(', ')}
           FROM moved GROUP BY campaign_id, label, workspace_id)
  INSERT INTO campaign_counters (campaign_id, label, workspace_id, ${cols})
  SELECT campaign_id, label, workspace_id, ${cols}
    FROM summed s
   WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = s.campaign_id)
   ORDER BY campaign_id, workspace_id, label
  ON CONFLICT (campaign_id, workspace_id, label) DO UPDATE SET
    ${COLUMNS.map((c) => `${c} = campaign_counters.${c} + excluded.${c}`).join(',\n    ')}`;

/** A read that met more pending deltas than this folds them (the next reads sum fewer rows). */
export const FOLD_AFTER_PENDING = 1000;

/** Folds the pending deltas into campaign_counters; the number of counter rows written. */
export function foldCampaignCounters(options: { db: Db }): Promise<number> {
  return options.db.$executeRawUnsafe(FOLD_CAMPAIGN_COUNTERS_SQL);
}

/** Whole-life counters of the campaigns (zeros for one without leads or sends), by id; folds once many deltas wait. */
export async function readCampaignCounters(options: { db: Db; workspaceId: string; campaignIds: string[] }): Promise<Map<string, CampaignCounterRow>> {
  const result = new Map<string, CampaignCounterRow>();
  if (!options.campaignIds.length) return result;
  const rows = await options.db.$queryRawUnsafe<(CampaignCounterRow & { pending: number })[]>(CAMPAIGN_COUNTERS_SQL, options.workspaceId, options.campaignIds);
  let pending = 0;
  for (const { pending: p, ...row } of rows) {
    pending += p;
    result.set(row.campaign_id, row);
  }
  for (const id of options.campaignIds) if (!result.has(id)) result.set(id, zeroCounters(id));
  if (pending > FOLD_AFTER_PENDING) await foldCampaignCounters({ db: options.db });
  return result;
}

/**
 * The leads of some campaigns, from their counters (pending deltas included, none folded): a
 * delete takes them off the organization's lead counter without reading a lead. In the caller's
 * transaction, which holds the organization's lock (no upload adds leads meanwhile).
 */
export async function countCampaignLeads(options: { db: Db; workspaceId: string; campaignIds: string[] }): Promise<number> {
  if (!options.campaignIds.length) return 0;
  const rows = await options.db.$queryRawUnsafe<{ lead_count: number }[]>(CAMPAIGN_COUNTERS_SQL, options.workspaceId, options.campaignIds);
  return rows.reduce((sum, row) => sum + Number(row.lead_count), 0);
}

function zeroCounters(campaignId: string): CampaignCounterRow {
  const zeros = Object.fromEntries(COLUMNS.map((c) => [c, 0])) as Record<CounterColumn, number>;
  return { campaign_id: campaignId, ...zeros, positive_reply_count: 0, negative_reply_count: 0, neutral_reply_count: 0 };
}
