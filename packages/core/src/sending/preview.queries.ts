// SQL of the composer's preview and test sends: one campaign (any status), one lead.
import { ACTIVE_CAMPAIGNS_SQL } from './scheduler.queries';

/** A campaign of the workspace in the shape the engine decides with (CampaignRow), whatever its status. $1 campaign id, $2 workspace id. */
export const PREVIEW_CAMPAIGN_SQL = ACTIVE_CAMPAIGNS_SQL.replace(
  "WHERE c.status = 'ACTIVE' AND ($1::text[] IS NULL OR c.workspace_id = ANY($1::text[]))",
  'WHERE c.id = $1 AND c.workspace_id = $2',
);
if (PREVIEW_CAMPAIGN_SQL === ACTIVE_CAMPAIGNS_SQL) throw new Error('PREVIEW_CAMPAIGN_SQL: the campaign query changed shape');

const LEAD_COLUMNS = `l.id, l.campaign_id, l.workspace_id, l.current_step, l.status::text AS status, l.is_completed,
         l.email_account_id, l.email, l.email_normalized, l.first_name, l.last_name, l.company_name,
         l.company_website, l.job_title, l.phone_number, l.address_line, l.city, l.state, l.country,
         l.country_code, l.network_person_url, l.network_company_url, l.custom_variables,
         l.pending_send_id, l.pending_variation_id, l.send_attempts, l.claimed_at, l.pending_data_at, l.source_lead_id, l.next_send_at,
         false AS blocked`;

/** A lead of the campaign (LeadRow). $1 campaign id, $2 lead id. */
export const PREVIEW_LEAD_SQL = `SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.campaign_id = $1 AND l.id = $2`;

/** The campaign's first lead (ids grow with creation time). $1 campaign id. */
export const FIRST_LEAD_SQL = `SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.campaign_id = $1 ORDER BY l.id LIMIT 1`;

/** One mailbox of the workspace (MailboxRow). $1 id, $2 workspace id. */
export const PREVIEW_MAILBOX_SQL = `
  SELECT id, workspace_id, email, first_name, last_name, status::text AS status, daily_limit, sending_gap,
         next_send_allowed_at, smtp_host, smtp_port, smtp_username, smtp_password_enc, signature, reply_to,
         updated_at, auth_type
    FROM email_accounts WHERE id = $1 AND workspace_id = $2`;
