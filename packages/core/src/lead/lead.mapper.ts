import { customVariableKeys, setKey } from './custom-variables.rules';
import type { LeadRecord, LeadStatusName } from './lead.schemas';

/** A lead row as LEAD_ROWS_SQL reads it (snake_case columns plus the joined figures). */
export interface LeadRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  campaign_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  notes: string | null;
  address_line: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  country_code: string | null;
  phone_number: string | null;
  company_name: string | null;
  company_website: string | null;
  job_title: string | null;
  network_person_url: string | null;
  network_company_url: string | null;
  custom_variables: unknown;
  status: LeadStatusName;
  label: string | null;
  current_step: number;
  is_completed: boolean;
  email_account_id: string | null;
  email_acc_name: string | null;
  camp_name: string;
  last_sent_at: Date | null;
  bounce_msg: string | null;
  created_at: Date;
  updated_at: Date;
  sent_step: number;
  total_steps: number;
  replied_count: number;
  opened_count: number;
}

/**
 * The vendor's lead object. Custom variables become top-level keys, each under its own name and
 * as `custom_<name>` (custom-variables.rules.ts), but never replace a built-in one (a variable
 * named `status` would otherwise forge the lead's status).
 * `hiddenLabels` are the labels the calling client key may not see: they read null.
 */
export function toLeadObject(options: { row: LeadRow; hiddenLabels: readonly string[] }): LeadRecord {
  const { row } = options;
  const builtIn: LeadRecord = {
    _id: row.id,
    organization_id: row.organization_id,
    campaign_id: row.campaign_id,
    workspace_id: row.workspace_id,
    is_completed: row.is_completed,
    current_step: row.current_step,
    status: row.status,
    label: row.label !== null && options.hiddenLabels.includes(row.label) ? null : row.label,
    email_account_id: row.email_account_id,
    email_acc_name: row.email_acc_name ?? '',
    camp_name: row.camp_name,
    created_at: row.created_at.toISOString(),
    modified_at: row.updated_at.toISOString(),
    last_sent_at: row.last_sent_at ? row.last_sent_at.toISOString() : null,
    sent_step: row.sent_step,
    total_steps: row.total_steps,
    replied_count: row.replied_count,
    opened_count: row.opened_count,
    bounce_msg: row.bounce_msg,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    notes: row.notes,
    address_line: row.address_line,
    city: row.city,
    state: row.state,
    country: row.country,
    country_code: row.country_code,
    phone_number: row.phone_number,
    company_name: row.company_name,
    company_website: row.company_website,
    job_title: row.job_title,
    network_person_url: row.network_person_url,
    network_company_url: row.network_company_url,
    linkedin_person_url: row.network_person_url,
    linkedin_company_url: row.network_company_url,
  };
  const custom = row.custom_variables;
  if (!custom || typeof custom !== 'object' || Array.isArray(custom)) return builtIn;
  const out: Record<string, unknown> = { ...builtIn };
  const extra = customVariableKeys({ stored: custom as Record<string, unknown>, builtIn: new Set(Object.keys(builtIn)) });
  for (const [key, value] of Object.entries(extra)) setKey(out, key, value);
  return out as LeadRecord;
}
