import { invalid } from '../shared/errors';
import { LEAD_COLUMNS, type LeadColumn } from './lead-add.rules';
import { collectCustomVariables } from './custom-variables.rules';

const COLUMNS = new Set<string>(LEAD_COLUMNS);
const ALIASES: Record<string, LeadColumn> = { linkedin_person_url: 'network_person_url', linkedin_company_url: 'network_company_url' };

/**
 * Keys of the lead object that are not contact fields: a variable with one of these
 * names could never be read back (the built-in key wins), so it is refused.
 */
const READ_ONLY = new Set([
  'email',
  '_id',
  'id',
  'organization_id',
  'campaign_id',
  'workspace_id',
  'is_completed',
  'current_step',
  'status',
  'label',
  'email_account_id',
  'email_acc_name',
  'camp_name',
  'created_at',
  'modified_at',
  'last_sent_at',
  'sent_step',
  'total_steps',
  'replied_count',
  'opened_count',
  'bounce_msg',
  'custom_variables',
]);

export interface VariablesPlan {
  /** Lead columns to set; null clears one. */
  columns: Partial<Record<LeadColumn, string | null>>;
  /** Custom variables to merge. */
  custom: Record<string, string>;
}

/** Splits `variables` into lead columns and custom variables; read-only keys are a 400 each. */
export function planVariables(options: { variables: Record<string, string> }): VariablesPlan {
  const columns: Partial<Record<LeadColumn, string | null>> = {};
  const customEntries: [string, string][] = [];
  const refused: string[] = [];
  for (const [key, value] of Object.entries(options.variables)) {
    const column = COLUMNS.has(key) ? (key as LeadColumn) : Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
    if (column) {
      const trimmed = value.trim();
      columns[column] = trimmed === '' ? null : trimmed;
    } else if (READ_ONLY.has(key)) {
      refused.push(key);
    } else {
      customEntries.push([key, value]);
    }
  }
  if (refused.length) {
    const fieldErrors = refused.map((key) => ({
      field: `variables.${key}`,
      message: key === 'email' ? 'cannot be changed: the address identifies the lead' : 'is a read-only lead field',
    }));
    throw invalid('lead.read_only_variable', fieldErrors.map((f) => `${f.field} ${f.message}`).join('; '), fieldErrors);
  }
  // `custom_x` is stored as `x`; the plain `x` wins when both are given.
  return { columns, custom: collectCustomVariables(customEntries) };
}
