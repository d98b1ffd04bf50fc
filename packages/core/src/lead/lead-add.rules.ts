import { collectCustomVariables, setKey } from './custom-variables.rules';
import type { LeadObject } from './lead-add.schemas';

// One pattern for the whole address, the same rules as a part at a time (dot-atom local part;
// labels of letters, digits and inner hyphens; a TLD of 2 to 63 letters), in one pass: it runs
// for every lead of an upload.
const ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** A deliverable-looking address: dot-atom local part, a domain with a TLD of letters. */
export function isValidEmail(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.lastIndexOf('@');
  return at > 0 && at <= 64 && ADDRESS.test(address);
}

export const LEAD_COLUMNS = [
  'first_name',
  'last_name',
  'notes',
  'address_line',
  'city',
  'state',
  'country',
  'country_code',
  'phone_number',
  'company_name',
  'company_website',
  'job_title',
  'network_person_url',
  'network_company_url',
] as const;
export type LeadColumn = (typeof LEAD_COLUMNS)[number];

const COLUMNS = new Set<string>(LEAD_COLUMNS);
const KNOWN_KEYS = new Set<string>(['email', 'custom_variables', 'linkedin_person_url', 'linkedin_company_url']);

/** Every column empty, in a literal: each planned lead's columns then share one object shape. */
const noColumns = (): Record<LeadColumn, string | null> => ({
  first_name: null,
  last_name: null,
  notes: null,
  address_line: null,
  city: null,
  state: null,
  country: null,
  country_code: null,
  phone_number: null,
  company_name: null,
  company_website: null,
  job_title: null,
  network_person_url: null,
  network_company_url: null,
});

export interface PlannedLead {
  email: string;
  emailNormalized: string;
  columns: Record<LeadColumn, string | null>;
  customVariables: Record<string, string>;
}

export interface UploadPlan {
  leads: PlannedLead[];
  invalid: number;
  duplicates: number;
}

function clean(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = (typeof value === 'string' ? value : String(value)).trim();
  return s === '' ? null : s;
}

/**
 * Normalises a request's leads: addresses trimmed and compared lower-case; a
 * missing or malformed address is invalid; a repeat of an earlier address in the
 * same request is a duplicate (the first occurrence is kept); unknown keys become
 * custom variables (as strings), beside the explicit `custom_variables`, which wins; a
 * `custom_x` key is the variable `x` (the plain `x` wins when both are given).
 * Plain loops: this runs over up to 10,000 leads on the request path.
 */
export function planLeadUpload(options: { leads: LeadObject[] }): UploadPlan {
  const planner = createUploadPlanner();
  planner.add(options.leads);
  return planner.plan();
}

/**
 * planLeadUpload a slice of the request at a time, in request order (a repeat in a later
 * slice of an address of an earlier one is a duplicate): the operation lets other requests
 * run between slices, or plans a slice while the database writes the one before. `add`
 * returns the slice's planned leads (those it did not count as invalid or duplicate).
 */
export function createUploadPlanner(): { add(leads: LeadObject[]): PlannedLead[]; plan(): UploadPlan } {
  const seen = new Set<string>();
  const leads: PlannedLead[] = [];
  let invalid = 0;
  let duplicates = 0;
  const add = (lead: LeadObject) => {
    const email = typeof lead.email === 'string' ? lead.email.trim() : '';
    if (!isValidEmail(email)) {
      invalid++;
      return;
    }
    const emailNormalized = email.toLowerCase();
    if (seen.has(emailNormalized)) {
      duplicates++;
      return;
    }
    seen.add(emailNormalized);
    // One pass over the lead's own keys: a lead names a few of the columns, rarely all.
    const columns = noColumns();
    const extra: [string, string][] = [];
    for (const key of Object.keys(lead)) {
      const value = lead[key];
      if (COLUMNS.has(key)) columns[key as LeadColumn] = clean(value);
      else if (!KNOWN_KEYS.has(key) && value !== null && value !== undefined) extra.push([key, String(value)]);
    }
    columns.network_person_url ??= clean(lead.linkedin_person_url);
    columns.network_company_url ??= clean(lead.linkedin_company_url);
    // `custom_x` is stored as `x`; `custom_variables` wins over a top-level key of the same variable.
    const customVariables = collectCustomVariables(extra);
    if (lead.custom_variables) {
      for (const [name, value] of Object.entries(collectCustomVariables(Object.entries(lead.custom_variables)))) setKey(customVariables, name, value);
    }
    leads.push({ email, emailNormalized, columns, customVariables });
  };
  return {
    add(slice) {
      const from = leads.length;
      for (const lead of slice) add(lead);
      return leads.slice(from);
    },
    plan: () => ({ leads, invalid, duplicates }),
  };
}
