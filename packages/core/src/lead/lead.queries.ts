import type { PrismaClient, Tx } from '@outreach/db';
import type { LeadRow } from './lead.mapper';
import type { LeadSort, LeadStatusName } from './lead.schemas';

type Db = PrismaClient | Tx;

/**
 * Full rows of some leads of a workspace with the figures of the lead object: campaign
 * name, mailbox address, steps of the campaign, and the sends replied / opened and the
 * highest step sent, each from one grouped subquery over just these leads.
 */
export const LEAD_ROWS_SQL = `
  SELECT l.id, l.organization_id, l.workspace_id, l.campaign_id, l.email,
         l.first_name, l.last_name, l.notes, l.address_line, l.city, l.state, l.country, l.country_code,
         l.phone_number, l.company_name, l.company_website, l.job_title, l.network_person_url, l.network_company_url,
         l.custom_variables, l.status::text AS status, l.label, l.current_step, l.is_completed,
         l.email_account_id, ea.email AS email_acc_name, c.name AS camp_name, l.last_sent_at, l.bounce_msg,
         l.created_at, l.updated_at,
         coalesce(se.sent_step, 0)::int AS sent_step,
         coalesce(st.total_steps, 0)::int AS total_steps,
         coalesce(se.replied, 0)::int AS replied_count,
         coalesce(se.opened, 0)::int AS opened_count
    FROM leads l
    JOIN campaigns c ON c.id = l.campaign_id
    LEFT JOIN email_accounts ea ON ea.id = l.email_account_id
    LEFT JOIN (
      SELECT lead_id, max(step) AS sent_step,
             count(*) FILTER (WHERE replied_at IS NOT NULL) AS replied,
             count(*) FILTER (WHERE opened_at IS NOT NULL) AS opened
        FROM sent_emails
       WHERE lead_id = ANY($2::text[])
       GROUP BY lead_id
    ) se ON se.lead_id = l.id
    LEFT JOIN (
      SELECT campaign_id, count(*) AS total_steps
        FROM sequence_steps
       WHERE campaign_id IN (SELECT campaign_id FROM leads WHERE id = ANY($2::text[]))
       GROUP BY campaign_id
    ) st ON st.campaign_id = l.campaign_id
   WHERE l.workspace_id = $1 AND l.id = ANY($2::text[]) AND c.deleted_at IS NULL`;

/** The rows of these leads (of this workspace only), in the order of `ids`. */
export async function leadRows(options: { db: Db; workspaceId: string; ids: string[] }): Promise<LeadRow[]> {
  if (!options.ids.length) return [];
  const rows = await options.db.$queryRawUnsafe<LeadRow[]>(LEAD_ROWS_SQL, options.workspaceId, options.ids);
  const order = new Map(options.ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * The workspace's deleted campaigns whose leads the purge worker has not removed yet (purge/):
 * workspace-wide lead reads leave their leads out. Usually none, found through the deleted_at index.
 */
export async function purgingCampaignIds(options: { db: Db; workspaceId: string }): Promise<string[]> {
  const rows = await options.db.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM campaigns WHERE deleted_at IS NOT NULL AND workspace_id = $1', options.workspaceId);
  return rows.map((r) => r.id);
}

/** LIKE pattern for a prefix: the wildcards and the escape character are taken literally. */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface LeadFilters {
  campaignId?: string;
  status?: LeadStatusName;
  label?: string;
  emailPrefix?: string;
  id?: string;
}

/**
 * One page of lead ids of a workspace. Only the key columns are read, so that without
 * filters the page is an index-only walk of (workspace_id, created_at, id), or of
 * (workspace_id, id) with `sort=_id`: with `after` the walk starts at the cursor (keyset);
 * otherwise it skips `offset` index entries, which costs no heap reads. The caller loads
 * the page's full rows by id.
 */
export async function leadPageIds(options: {
  db: Db;
  workspaceId: string;
  filters: LeadFilters;
  sort: LeadSort;
  direction: 'asc' | 'desc';
  after: { at: Date | null; id: string } | null;
  offset: number;
  limit: number;
}): Promise<{ id: string }[]> {
  const params: unknown[] = [options.workspaceId];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = ['workspace_id = $1'];
  const { campaignId, status, label, emailPrefix, id } = options.filters;
  if (id) where.push(`id = ${param(id)}`);
  if (campaignId) where.push(`campaign_id = ${param(campaignId)}`);
  if (status) where.push(`status::text = ${param(status)}`);
  if (label) where.push(`label = ${param(label)}`);
  if (emailPrefix) where.push(`email_normalized LIKE ${param(prefixPattern(emailPrefix.toLowerCase()))} ESCAPE '\\'`);
  // Leads of a campaign being purged (deleted, purge/) are no longer the workspace's. Asked first,
  // so the common case (none) keeps the page an index-only walk.
  const purging = await purgingCampaignIds({ db: options.db, workspaceId: options.workspaceId });
  if (purging.length) where.push(`campaign_id <> ALL(${param(purging)}::text[])`);
  // The columns are fixed identifiers, never input.
  const column = options.sort === 'created_at' ? 'created_at' : options.sort === 'modified_at' ? 'updated_at' : null;
  const dir = options.direction === 'asc' ? 'ASC' : 'DESC';
  if (options.after) {
    const op = options.direction === 'asc' ? '>' : '<';
    if (column && options.after.at) {
      where.push(`(${column}, id) ${op} (${param(options.after.at.toISOString())}::timestamptz, ${param(options.after.id)})`);
    } else {
      where.push(`id ${op} ${param(options.after.id)}`);
    }
  }
  const order = column ? `${column} ${dir}, id ${dir}` : `id ${dir}`;
  const sql = `SELECT id FROM leads WHERE ${where.join(' AND ')}
                ORDER BY ${order} OFFSET ${param(options.offset)}::int LIMIT ${param(options.limit)}::int`;
  return options.db.$queryRawUnsafe<{ id: string }[]>(sql, ...params);
}
