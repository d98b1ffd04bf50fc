// The purge's SQL: which deleted campaign, workspace or organization comes next, which tables
// hold its rows (read from the catalogue, so a table added later is purged without a change
// here), and one bounded batch of a table's rows.
import type { PrismaClient, Tx } from '@outreach/db';

export type PurgeColumn = 'campaign_id' | 'workspace_id' | 'organization_id';

/** What a round works on: a deleted campaign, workspace or organization, by its id. */
export interface PurgeTarget {
  kind: 'campaign' | 'workspace' | 'organization';
  id: string;
}

const COLUMN_OF: Record<PurgeTarget['kind'], PurgeColumn> = { campaign: 'campaign_id', workspace: 'workspace_id', organization: 'organization_id' };
const TABLE_OF: Record<PurgeTarget['kind'], string> = { campaign: 'campaigns', workspace: 'workspaces', organization: 'organizations' };
export const columnOf = (kind: PurgeTarget['kind']) => COLUMN_OF[kind];
export const tableOf = (kind: PurgeTarget['kind']) => TABLE_OF[kind];

/**
 * The next target, oldest deletion first. A campaign goes before its parent (a subsequence's
 * rows would otherwise go in the parent's cascade, unbounded), campaigns before their workspace,
 * workspaces before their organization: so each target's own row, when it finally goes, takes
 * nothing large with it.
 */
export async function nextPurgeTarget(db: PrismaClient): Promise<PurgeTarget | null> {
  const campaign = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT c.id FROM campaigns c
      WHERE c.deleted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM campaigns s WHERE s.parent_id = c.id)
      ORDER BY c.deleted_at, c.id LIMIT 1`,
  );
  if (campaign[0]) return { kind: 'campaign', id: campaign[0].id };
  const workspace = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT w.id FROM workspaces w
      WHERE w.deleted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.workspace_id = w.id)
      ORDER BY w.deleted_at, w.id LIMIT 1`,
  );
  if (workspace[0]) return { kind: 'workspace', id: workspace[0].id };
  const organization = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT o.id FROM organizations o
      WHERE o.deleted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM workspaces w WHERE w.organization_id = o.id)
      ORDER BY o.deleted_at, o.id LIMIT 1`,
  );
  return organization[0] ? { kind: 'organization', id: organization[0].id } : null;
}

// The catalogue changes only with a migration, which runs before the workers start: read once per client.
const catalogue = new WeakMap<PrismaClient, Map<PurgeColumn, Promise<{ table: string; required: boolean }[]>>>();

function columnTables(db: PrismaClient, column: PurgeColumn): Promise<{ table: string; required: boolean }[]> {
  let known = catalogue.get(db);
  if (!known) catalogue.set(db, (known = new Map()));
  let tables = known.get(column);
  if (!tables) {
    tables = readTablesWithColumn(db, column);
    // A failed read is not remembered.
    tables.catch(() => known!.delete(column));
    known.set(column, tables);
  }
  return tables;
}

/** The tables with a column of this name, from the catalogue (read once per database client). */
export async function tablesWithColumn(db: PrismaClient, column: PurgeColumn): Promise<string[]> {
  return (await columnTables(db, column)).map((t) => t.table);
}

/** Of those, the tables where the column is NOT NULL: each of their rows names one. */
export async function tablesRequiringColumn(db: PrismaClient, column: PurgeColumn): Promise<string[]> {
  return (await columnTables(db, column)).filter((t) => t.required).map((t) => t.table);
}

async function readTablesWithColumn(db: PrismaClient, column: PurgeColumn): Promise<{ table: string; required: boolean }[]> {
  const rows = await db.$queryRawUnsafe<{ table_name: string; is_nullable: string }[]>(
    `SELECT c.table_name, c.is_nullable FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema() AND c.column_name = $1
      ORDER BY c.table_name`,
    column,
  );
  return rows.map((r) => ({ table: r.table_name, required: r.is_nullable === 'NO' }));
}

/**
 * Deletes at most `limit` rows of `table` whose `column` is `id`, in one statement (its own
 * transaction), and answers how many went. By physical row address, so tables without an `id`
 * (campaign_counters, join tables) are batched alike; a row changed meanwhile is skipped and
 * taken by the next batch.
 */
export async function deleteBatch(options: { db: PrismaClient; table: string; column: PurgeColumn; id: string; limit: number }): Promise<number> {
  const { table, column } = options;
  return options.db.$executeRawUnsafe(
    `DELETE FROM "${table}" WHERE ctid = ANY(ARRAY(SELECT ctid FROM "${table}" WHERE "${column}" = $1 LIMIT $2))`,
    options.id,
    options.limit,
  );
}

/**
 * The unified inbox keeps deleted leads' conversations (they are their mailboxes' mail), no longer
 * pointing at the leads, their campaigns or their sends: those columns have no foreign key, and
 * left as they were they named rows that no longer exist. Every delete of leads calls it, in its
 * transaction: a campaign's, at once or purged, and leads deleted by address. The leads are given
 * by id, or as every lead of some campaigns (read in the statements, not fetched first).
 */
export async function detachInboxFromLeads(options: { tx: Tx } & ({ leadIds: readonly string[] } | { campaignIds: readonly string[] })): Promise<void> {
  const byCampaign = 'campaignIds' in options;
  const ids = [...(byCampaign ? options.campaignIds : options.leadIds)];
  if (!ids.length) return;
  const leads = byCampaign ? 'IN (SELECT id FROM leads WHERE campaign_id = ANY($1::text[]))' : '= ANY($1::text[])';
  await options.tx.$executeRawUnsafe(`UPDATE unibox_messages SET lead_id = NULL, campaign_id = NULL, sent_email_id = NULL WHERE lead_id ${leads}`, ids);
  await options.tx.$executeRawUnsafe(`UPDATE unibox_threads SET lead_id = NULL, campaign_id = NULL WHERE lead_id ${leads}`, ids);
}

/**
 * One batch of a deleted campaign's leads, in one transaction: the unified inbox's threads and
 * messages with them keep the conversation (they are the mailboxes' mail) but no longer point at
 * the lead, its campaign or its sends; then the leads go, with their events (cascade).
 */
export async function deleteLeadBatch(options: { db: PrismaClient; campaignId: string; limit: number }): Promise<number> {
  return options.db.$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM leads WHERE campaign_id = $1 LIMIT $2', options.campaignId, options.limit);
    if (!rows.length) return 0;
    const ids = rows.map((r) => r.id);
    await detachInboxFromLeads({ tx, leadIds: ids });
    return tx.$executeRawUnsafe('DELETE FROM leads WHERE id = ANY($1::text[])', ids);
  });
}

/**
 * A small deleted campaign (at most `leads` leads and `sends` sends) goes whole in one transaction:
 * its inbox rows detached, then its row, whose cascades take its leads, sends and the rest. One
 * round instead of one per table, for organizations of thousands of small campaigns. Answers the
 * rows the cascade took, or null when the campaign is not small (the batches then take it).
 */
export async function deleteSmallCampaign(options: { db: PrismaClient; campaignId: string; leads: number; sends: number }): Promise<number | null> {
  return options.db.$transaction(async (tx) => {
    const [size] = await tx.$queryRawUnsafe<{ leads: number; sends: number }[]>(
      `SELECT (SELECT count(*) FROM (SELECT 1 FROM leads WHERE campaign_id = $1 LIMIT $2) l)::int AS leads,
              (SELECT count(*) FROM (SELECT 1 FROM sent_emails WHERE campaign_id = $1 LIMIT $3) s)::int AS sends`,
      options.campaignId, options.leads + 1, options.sends + 1,
    );
    if (!size || size.leads > options.leads || size.sends > options.sends) return null;
    await detachInboxFromLeads({ tx, campaignIds: [options.campaignId] });
    const deleted = await tx.$executeRawUnsafe('DELETE FROM campaigns WHERE id = $1 AND deleted_at IS NOT NULL', options.campaignId);
    return deleted ? size.leads + size.sends + 1 : 0;
  });
}

/** Rows of `table` whose `column` is `id` (progress lines, once per table and target). */
export async function countRows(options: { db: PrismaClient; table: string; column: PurgeColumn; id: string }): Promise<number> {
  const [row] = await options.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${options.table}" WHERE "${options.column}" = $1`, options.id);
  return row?.n ?? 0;
}

/** The target's own row, once nothing large is left under it (the rest goes in its cascades). */
export async function deleteTargetRow(options: { db: PrismaClient; target: PurgeTarget }): Promise<number> {
  return options.db.$executeRawUnsafe(`DELETE FROM "${tableOf(options.target.kind)}" WHERE id = $1 AND deleted_at IS NOT NULL`, options.target.id);
}
