import { newId, type Tx } from '@outreach/db';
import { inSlices, yieldToEventLoop } from '../shared/event-loop';
import { textArrayLiteral } from '../shared/text-array.rules';
import type { Settings } from '../shared/context';
import { LEAD_COLUMNS, type LeadColumn, type PlannedLead } from './lead-add.rules';

/**
 * Leads per statement of an upload. The embedded database (PGlite) runs a statement on the
 * event loop's thread: one statement over 5,000 leads held every other request for about
 * 300 ms. In statements of 120, with the event loop let through between them (and before the
 * first: addLeads), an upload stays one transaction (all or nothing) and another request waits
 * one statement at most. Statements of 250 took 15-35 ms on the 2-core development VM at its
 * fastest, but 50-55 ms at its slowest, where a request then waited up to 72-137 ms during a
 * 5,000-lead upload; in statements of 120 it waited 21-41 ms at most (the memory benchmark:
 * 40 ms median, 60 ms worst), and the uploads took no longer within the VM's drift.
 *
 * PostgreSQL runs a statement in its own process, and each statement costs a round trip and
 * the client's handling of it between two statements, while the database waits: a few ms,
 * which 20 statements of 250 made a fifth of a 5,000-lead upload, and up to 20-50 ms when the
 * machine's cores are busy (the server's log showed each statement of 1,000 taking 33-35 ms
 * while the client saw 54-85 ms for some). There an upload writes statements of 2,500 after a
 * first one of 250: the database starts at once, and the next 2,500 are planned while it
 * writes the first (10-20 ms, a turn of the event loop: the longest wait of another request
 * during the benchmark's uploads went from 14-28 ms to 22-35 ms).
 */
const EMBEDDED_STATEMENT_LEADS = 120;
export function uploadStatementLeads(settings: Pick<Settings, 'embeddedDatabase'>): { first: number; next: number } {
  return settings.embeddedDatabase === false ? { first: 250, next: 2500 } : { first: EMBEDDED_STATEMENT_LEADS, next: EMBEDDED_STATEMENT_LEADS };
}

type Counts = { inserted: number; eligible: number; skipped: number; alreadyInCampaign: number };

/** How leads already elsewhere in the workspace are treated. */
export type SkipRule = 'none' | 'any_campaign' | 'active_or_paused' | 'active';

/** The lead columns this batch gives a value for: the others are neither sent nor written. */
function presentColumns(leads: PlannedLead[]): LeadColumn[] {
  return LEAD_COLUMNS.filter((c) => leads.some((l) => l.columns[c] !== null));
}

/**
 * A statement's leads as one array-literal text parameter per column (textArrayLiteral),
 * expanded by unnest in request order: a few strings cross the driver adapter as they are
 * (an array parameter it converts element by element), and the database reads array
 * literals in about a third of the time it took to read the same rows as one JSON parameter.
 */
interface StatementInput {
  /** The lead columns given, in the order of their parameters after the four fixed ones. */
  columns: LeadColumn[];
  /** id, email, email_normalized and custom_variables (JSON text), then one per column. */
  arrays: string[];
}

function statementInput(leads: PlannedLead[]): StatementInput {
  const columns = presentColumns(leads);
  const column = (value: (lead: PlannedLead) => string | null) => textArrayLiteral(leads.map(value));
  return {
    columns,
    arrays: [
      column(() => newId()),
      column((l) => l.email),
      column((l) => l.emailNormalized),
      column((l) => JSON.stringify(l.customVariables)),
      ...columns.map((c) => column((l) => l.columns[c])),
    ],
  };
}

/** The rows of a StatementInput whose arrays are the parameters from `$first` on. */
function unnestInput(first: number, columns: LeadColumn[]): string {
  const arrays = Array.from({ length: 4 + columns.length }, (_, i) => `$${first + i}::text[]`).join(', ');
  const names = columns.map((c) => `, ${c}`).join('');
  return `SELECT id, email, email_normalized${names}, custom_variables::jsonb AS custom_variables, ord::int AS ord
            FROM unnest(${arrays}) WITH ORDINALITY AS u(id, email, email_normalized, custom_variables${names}, ord)`;
}

const BLOCKED = `EXISTS (SELECT 1 FROM blocklist_entries b
                  WHERE b.workspace_id = $1 AND b.value IN (t.email_normalized, split_part(t.email_normalized, '@', 2)))`;

/** An upload to insert (insertLeads), or one statement's share of it (insertStatement). */
interface InsertOptions {
  tx: Tx;
  organizationId: string;
  workspaceId: string;
  campaignId: string;
  uploadId: string;
  leads: PlannedLead[];
  skip: SkipRule;
  /** How many more leads the organization's allowance takes. */
  room: number;
}

const NO_COUNTS: Counts = { inserted: 0, eligible: 0, skipped: 0, alreadyInCampaign: 0 };
const plus = (a: Counts, b: Counts): Counts => ({
  inserted: a.inserted + b.inserted,
  eligible: a.eligible + b.eligible,
  skipped: a.skipped + b.skipped,
  alreadyInCampaign: a.alreadyInCampaign + b.alreadyInCampaign,
});

/**
 * Classifies and inserts an upload, a statement per slice (uploadStatementLeads leads at
 * most), in request order, in the caller's transaction: each row is probed by index against
 * the blocklist (address or domain), this campaign, and the workspace's other campaigns (per
 * the skip rule); the eligible rows are inserted in request order up to `room` (the allowance
 * left, carried from one statement to the next). Returns the counts. The leads must be
 * distinct (planLeadUpload): a later statement never meets a lead an earlier one inserted.
 *
 * `slices` may plan each slice as it is taken: the next one is taken while the database runs
 * the statement before, so on PostgreSQL planning costs the upload no time. One statement at a
 * time: a connection runs one query at once (node-postgres deprecates queueing a second), and
 * the embedded database would run a queued one right after the first without letting the event
 * loop through.
 */
export async function insertLeads(options: Omit<InsertOptions, 'leads'> & { slices: Iterable<PlannedLead[]> }): Promise<Counts> {
  let total = NO_COUNTS;
  let running: Promise<Counts> | null = null;
  for (const leads of options.slices) {
    if (!leads.length) continue;
    // The slice was planned, and its parameter is written, while the database runs the statement before.
    const input = statementInput(leads);
    if (running) total = plus(total, await running);
    running = insertStatement({ ...options, leads, input, room: options.room - total.inserted });
    // Awaited once the next slice is planned; until then its failure must not count as unhandled.
    running.catch(() => undefined);
    // The statement is sent on later turns (the client's own steps are asynchronous): the next
    // slice is planned after them, not before. Other requests run here too.
    await yieldToEventLoop();
  }
  return running ? plus(total, await running) : total;
}

/**
 * One statement of insertLeads. Without a skip rule and with room for the whole batch, a
 * lighter form lets the insert's conflict check tell which leads were already in the campaign.
 */
async function insertStatement(options: InsertOptions & { input: StatementInput }): Promise<Counts> {
  const { columns, arrays } = options.input;
  const columnList = columns.map((c) => `, ${c}`).join('');
  // The skip rule is a parameter so that the statement text (and its plan) is one. A deleted
  // campaign's leads, still being purged, are in no campaign.
  const elsewhere = `CASE $6::text WHEN 'none' THEN false ELSE EXISTS (
           SELECT 1 FROM leads o JOIN campaigns k ON k.id = o.campaign_id
            WHERE o.workspace_id = $1 AND o.email_normalized = t.email_normalized AND o.campaign_id <> $2
              AND k.deleted_at IS NULL
              AND ($6::text = 'any_campaign' OR k.status::text = 'ACTIVE'
                   OR ($6::text = 'active_or_paused' AND k.status::text = 'PAUSED'))) END`;
  // When nothing is skipped for being elsewhere and the allowance cannot run out,
  // the insert's own ON CONFLICT probe tells which leads were already in the campaign:
  // no second probe per row, no ordering for the LIMIT.
  const unbounded = options.skip === 'none' && options.room >= options.leads.length;
  const fastSql = `
    WITH t AS (${unnestInput(7, columns)}),
    c AS (SELECT t.*, ${BLOCKED} AS blocked FROM t),
    ins AS (
      INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized${columnList},
                         custom_variables, upload_id, created_at, updated_at, next_send_at)
      SELECT id, $3, $1, $2, email, email_normalized${columnList}, custom_variables, $4, now(), now(), now()
        FROM c WHERE NOT blocked
      ON CONFLICT (campaign_id, email_normalized) DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM ins)::int AS inserted,
           (SELECT count(*) FROM ins)::int AS eligible,
           count(*) FILTER (WHERE blocked)::int AS skipped,
           (count(*) FILTER (WHERE NOT blocked) - (SELECT count(*) FROM ins))::int AS already_in_campaign
      FROM c
     -- $5 (room) and $6 (skip rule) do not constrain this form; referenced so both forms take the same parameters.
     WHERE $5::int >= 0 AND $6::text IS NOT NULL`;
  const sql = `
    WITH t AS (${unnestInput(7, columns)}),
    c AS (
      SELECT t.*,
             ${BLOCKED} AS blocked,
             EXISTS (SELECT 1 FROM leads l WHERE l.campaign_id = $2 AND l.email_normalized = t.email_normalized) AS in_campaign,
             ${elsewhere} AS elsewhere
        FROM t
    ),
    e AS (
      SELECT * FROM c WHERE NOT blocked AND NOT in_campaign AND NOT elsewhere ORDER BY ord LIMIT $5
    ),
    ins AS (
      INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized${columnList},
                         custom_variables, upload_id, created_at, updated_at, next_send_at)
      SELECT id, $3, $1, $2, email, email_normalized${columnList}, custom_variables, $4, now(), now(), now()
        FROM e
      ON CONFLICT (campaign_id, email_normalized) DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM ins)::int AS inserted,
           count(*) FILTER (WHERE NOT blocked AND NOT in_campaign AND NOT elsewhere)::int AS eligible,
           count(*) FILTER (WHERE blocked OR (NOT in_campaign AND elsewhere))::int AS skipped,
           count(*) FILTER (WHERE NOT blocked AND in_campaign)::int AS already_in_campaign
      FROM c`;
  const [row] = await options.tx.$queryRawUnsafe<{ inserted: number; eligible: number; skipped: number; already_in_campaign: number }[]>(
    unbounded ? fastSql : sql,
    options.workspaceId,
    options.campaignId,
    options.organizationId,
    options.uploadId,
    options.room,
    options.skip,
    ...arrays,
  );
  return {
    inserted: row?.inserted ?? 0,
    eligible: row?.eligible ?? 0,
    skipped: row?.skipped ?? 0,
    alreadyInCampaign: row?.already_in_campaign ?? 0,
  };
}

/**
 * is_overwrite: updates the leads of this campaign that the upload names (and the
 * blocklist does not): given fields replace stored ones, custom variables merge.
 * `statementLeads` leads a statement (uploadStatementLeads), in the caller's transaction.
 */
export async function overwriteLeads(options: { tx: Tx; workspaceId: string; campaignId: string; leads: PlannedLead[]; statementLeads: number }): Promise<number> {
  let updated = 0;
  await inSlices(options.leads, options.statementLeads, async (leads) => {
    const { columns, arrays } = statementInput(leads);
    const sets = columns.map((c) => `${c} = coalesce(t.${c}, l.${c}), `).join('');
    updated += await options.tx.$executeRawUnsafe(
      `WITH t AS (${unnestInput(3, columns)})
       UPDATE leads l
          SET ${sets}email = t.email, custom_variables = l.custom_variables || t.custom_variables, updated_at = now()
         FROM t
        WHERE l.campaign_id = $2 AND l.email_normalized = t.email_normalized AND NOT ${BLOCKED}`,
      options.workspaceId,
      options.campaignId,
      ...arrays,
    );
  });
  return updated;
}
