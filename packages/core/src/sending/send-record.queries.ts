// SQL of the batched recording of accepted sends (send-record.service.ts). Timestamps travel
// as ISO strings cast in SQL, as in scheduler.queries.ts.
import { prepared } from '@outreach/db';
import { copySendsIntoThreadsCtes } from '../unibox/index';
import { webhookListensSql } from '../webhook/index';

/** One accepted send as RECORD_SENTS_SQL reads it (json_to_recordset). */
export interface SentRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  campaign_id: string;
  parent_campaign_id: string | null;
  lead_id: string;
  email_account_id: string;
  step: number;
  variation_id: string;
  variation_label: string | null;
  message_id: string;
  subject: string;
  body: string;
  is_text: boolean;
  sent_at: string;
  /** When the lead's next step is due; null: this was its last step. */
  next_due_at: string | null;
  outcome_unknown: boolean;
}

/**
 * CTEs holding the rows a recording of sends refers to until it commits (FOR KEY SHARE: a delete
 * waits for the record, the record for a delete under way), each a one-row list of the ids still
 * there: `boxes` (mailboxes), `camps` (campaigns), `vars` (variations of those campaigns) and
 * `held` (leads, FOR NO KEY UPDATE: the recording moves them on). Taken in the order a delete
 * takes them, a mailbox before the leads it is set on, a campaign before its variations and
 * leads (each CTE reads the one before, so it is run first), and each in key order: a recording
 * and a delete of a campaign, lead, mailbox or variation do not wait on each other in a cycle,
 * and a row deleted before is left out, where its foreign key made the whole statement fail.
 * Each argument is a SELECT of the ids sent from.
 */
export function referencedRowsCtes(ids: { mailboxes: string; campaigns: string; variations: string; leads: string }): string {
  return `
  boxes AS MATERIALIZED (
    SELECT array_agg(b.id) AS ids FROM (
      SELECT e.id FROM email_accounts e WHERE e.id IN (${ids.mailboxes}) ORDER BY e.id FOR KEY SHARE) b
  ),
  camps AS MATERIALIZED (
    SELECT array_agg(k.id) AS ids FROM (
      SELECT c.id FROM campaigns c, boxes WHERE c.id IN (${ids.campaigns}) ORDER BY c.id FOR KEY SHARE OF c) k
  ),
  vars AS MATERIALIZED (
    SELECT array_agg(w.id) AS ids FROM (
      SELECT v.id FROM variations v, camps WHERE v.id IN (${ids.variations}) AND v.campaign_id = ANY(camps.ids) ORDER BY v.id FOR KEY SHARE OF v) w
  ),
  held AS MATERIALIZED (
    SELECT l.id FROM leads l, vars WHERE l.id IN (${ids.leads}) ORDER BY l.id FOR NO KEY UPDATE OF l
  )`;
}

/**
 * RECORD_SENT_SQL (scheduler.queries.ts) without a bounce, for many sends in one statement:
 * each send recorded (idempotent on its Message-ID) and its lead moved on, only where the lead
 * still holds that send (pending_send_id; a lead stopped meanwhile keeps its stop), and each
 * new send copied into its lead's unified-inbox thread where there is one
 * (copySendsIntoThreadsCtes). One row back per send: whether its sent_emails row is new and the
 * lead's status if this send still held it (null: the claim was lost).
 *
 * With $2 true the statement is a whole recording on its own, run outside a transaction: it
 * writes nothing, and answers `listened` true on every row, when an ACTIVE webhook subscribes
 * to EMAIL_SENT for one of the sends (its event must be written in the same transaction as the
 * send, which the caller then opens: send-record.service.ts). With $2 false it records whatever
 * listens, inside the caller's transaction.
 *
 * A data-modifying WITH runs whether or not the final SELECT reads it (the thread copies). The
 * mailbox rows are not written (their foreign keys only take FOR KEY SHARE): a recording neither
 * waits for a claim holding its mailboxes nor makes one skip them (LOCK_MAILBOXES_SQL).
 * The rows go in by campaign and mailbox (the day counts' statement trigger takes its count rows
 * in key order too), so two batches recording at once cannot wait on each other in a cycle.
 *
 * The rows a send refers to may be deleted while its e-mail goes out (its lead, its campaign, its
 * mailbox, its variation; referencedRowsCtes): `gone` is true for a send whose lead or campaign
 * is gone, which is not recorded (its sends would go with them), and a send whose mailbox or
 * variation is gone is recorded without it, as their deletion leaves their other sends.
 * $1 a JSON array of SentRow, at most one per lead; $2 record nothing when a webhook listens.
 */
export const RECORD_SENTS_SQL = prepared(
  `
  WITH x AS (
    SELECT * FROM json_to_recordset($1::json) AS x(
      id text, organization_id text, workspace_id text, campaign_id text, parent_campaign_id text, lead_id text,
      email_account_id text, step int, variation_id text, variation_label text, message_id text, subject text, body text,
      is_text boolean, sent_at timestamptz, next_due_at timestamptz, outcome_unknown boolean)
  ),
  listened AS (
    SELECT $2::boolean AND EXISTS (
      SELECT 1 FROM (SELECT DISTINCT workspace_id, campaign_id FROM x) k
       WHERE ${webhookListensSql({ workspaceId: 'k.workspace_id', campaignId: 'k.campaign_id', event: "'EMAIL_SENT'" })}) AS yes
  ),
${referencedRowsCtes({ mailboxes: 'SELECT email_account_id FROM x', campaigns: 'SELECT campaign_id FROM x', variations: 'SELECT variation_id FROM x', leads: 'SELECT lead_id FROM x' })},
  go AS (
    SELECT x.id, x.organization_id, x.workspace_id, x.campaign_id, x.parent_campaign_id, x.lead_id,
           CASE WHEN x.email_account_id = ANY(boxes.ids) THEN x.email_account_id END AS email_account_id, x.step,
           CASE WHEN x.variation_id = ANY(vars.ids) THEN x.variation_id END AS variation_id, x.variation_label, x.message_id,
           x.subject, x.body, x.is_text, x.sent_at, x.next_due_at, x.outcome_unknown
      FROM x, boxes, camps, vars
     WHERE x.campaign_id = ANY(camps.ids) AND x.lead_id IN (SELECT id FROM held) AND NOT (SELECT yes FROM listened)
  ),
  ins AS (
    INSERT INTO sent_emails (id, organization_id, workspace_id, campaign_id, parent_campaign_id, lead_id,
                             email_account_id, step, variation_id, variation_label, message_id, subject, body,
                             is_text, sent_at, bounced_at, outcome_unknown)
    SELECT id, organization_id, workspace_id, campaign_id, parent_campaign_id, lead_id,
           email_account_id, step, variation_id, variation_label, message_id, subject, body,
           is_text, sent_at, NULL, outcome_unknown
      FROM go ORDER BY campaign_id, email_account_id, id
    ON CONFLICT (workspace_id, message_id) DO NOTHING
    RETURNING id
  ),
  ul AS (
    UPDATE leads l
       SET current_step = GREATEST(l.current_step, x.step), last_sent_at = x.sent_at, claimed_at = NULL,
           pending_send_id = NULL, pending_variation_id = NULL, pending_data_at = NULL, send_attempts = 0,
           status = CASE WHEN l.status IN ('NOT_CONTACTED', 'CONTACTED')
                           THEN (CASE WHEN x.next_due_at IS NULL THEN 'COMPLETED' ELSE 'CONTACTED' END)::"LeadStatus"
                         ELSE l.status END,
           is_completed = l.is_completed OR x.next_due_at IS NULL,
           next_send_at = CASE WHEN x.next_due_at IS NULL OR l.is_completed
                                 OR l.status NOT IN ('NOT_CONTACTED', 'CONTACTED', 'REPLIED') THEN NULL
                               ELSE x.next_due_at END,
           updated_at = x.sent_at
      FROM go x WHERE l.id = x.lead_id AND l.pending_send_id = x.id
    RETURNING l.id, l.status::text AS status
  ),
  fresh AS (SELECT go.* FROM go JOIN ins ON ins.id = go.id),${copySendsIntoThreadsCtes('fresh')}
  SELECT x.id, (ins.id IS NOT NULL) AS inserted, ul.status AS lead_status, (SELECT yes FROM listened) AS listened,
         (x.campaign_id = ANY(camps.ids) AND x.lead_id IN (SELECT id FROM held)) IS NOT TRUE AS gone
    FROM x CROSS JOIN camps LEFT JOIN ins ON ins.id = x.id LEFT JOIN ul ON ul.id = x.lead_id`,
  { jsonArgs: true },
);
