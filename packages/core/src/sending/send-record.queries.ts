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
  go AS (SELECT * FROM x WHERE NOT (SELECT yes FROM listened)),
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
  SELECT x.id, (ins.id IS NOT NULL) AS inserted, ul.status AS lead_status, (SELECT yes FROM listened) AS listened
    FROM x LEFT JOIN ins ON ins.id = x.id LEFT JOIN ul ON ul.id = x.lead_id`,
  { jsonArgs: true },
);
