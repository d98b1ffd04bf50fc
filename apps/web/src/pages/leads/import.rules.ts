// The CSV import's pure rules: which lead field a column is (guessed from its header), a row as
// the `addLeads` mutation takes it, and the chunks the upload is sent in. Addresses repeated in
// the file go in the chunk of their first occurrence, so the server counts them as duplicates
// exactly as it would in one request (a repeat in a later chunk would read "already in the campaign").

/** The lead fields of the upload (`LeadInput`, core's lead upload schema), with the headers they are guessed from. */
export const LEAD_FIELDS = [
  { field: 'email', label: 'E-mail', headers: ['email', 'e-mail', 'email address', 'mail', 'emailaddress'] },
  { field: 'firstName', label: 'First name', headers: ['first_name', 'first name', 'firstname', 'given name'] },
  { field: 'lastName', label: 'Last name', headers: ['last_name', 'last name', 'lastname', 'surname', 'family name'] },
  { field: 'companyName', label: 'Company', headers: ['company_name', 'company', 'organization', 'organisation', 'account'] },
  { field: 'companyWebsite', label: 'Website', headers: ['company_website', 'website', 'domain', 'url', 'web'] },
  { field: 'jobTitle', label: 'Job title', headers: ['job_title', 'title', 'position', 'role'] },
  { field: 'phoneNumber', label: 'Phone', headers: ['phone_number', 'phone', 'mobile', 'telephone'] },
  { field: 'networkPersonUrl', label: 'LinkedIn profile', headers: ['linkedin', 'linkedin_person_url', 'network_person_url', 'linkedin url', 'linkedin profile'] },
  { field: 'networkCompanyUrl', label: 'LinkedIn company page', headers: ['linkedin_company_url', 'network_company_url', 'company linkedin'] },
  { field: 'addressLine', label: 'Address', headers: ['address_line', 'address', 'street'] },
  { field: 'city', label: 'City', headers: ['city', 'town'] },
  { field: 'state', label: 'State or region', headers: ['state', 'region', 'province'] },
  { field: 'country', label: 'Country', headers: ['country'] },
  { field: 'countryCode', label: 'Country code', headers: ['country_code', 'country code'] },
  { field: 'notes', label: 'Notes', headers: ['notes', 'note', 'comments'] },
] as const;
export type LeadField = (typeof LEAD_FIELDS)[number]['field'];

/** What a column becomes: a lead field, a custom variable (by name), or nothing. */
export type ColumnTarget = { kind: 'field'; field: LeadField } | { kind: 'variable'; name: string } | { kind: 'ignore' };

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The custom variable a header names: `Industry Segment` → `industry_segment` (usable as {{industry_segment}}). */
export function variableName(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/^custom_/, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The first guess for each column: a lead field its header names (each field once), else a custom variable named after it. */
export function guessMapping(headers: string[]): ColumnTarget[] {
  const taken = new Set<string>();
  return headers.map((header) => {
    const key = squash(header);
    const found = LEAD_FIELDS.find((f) => !taken.has(f.field) && f.headers.some((h) => squash(h) === key));
    if (found) {
      taken.add(found.field);
      return { kind: 'field', field: found.field };
    }
    const name = variableName(header);
    return name ? { kind: 'variable', name } : { kind: 'ignore' };
  });
}

/** Why the mapping cannot be uploaded, or null: an e-mail column is required, and no field is taken twice. */
export function mappingProblem(mapping: ColumnTarget[]): string | null {
  const fields = mapping.flatMap((t) => (t.kind === 'field' ? [t.field] : []));
  if (!fields.includes('email')) return 'Choose the column that holds the e-mail address.';
  const twice = fields.find((f, i) => fields.indexOf(f) !== i);
  if (twice) return `${LEAD_FIELDS.find((f) => f.field === twice)!.label} is chosen for two columns: choose it for one only.`;
  return null;
}

export type LeadInputRow = Partial<Record<LeadField, string>> & { customVariables?: Record<string, string> };

/** A row of the file as the `addLeads` mutation takes it: empty cells are left out; the address is sent as it is (the server judges it). */
export function leadOfRow(row: readonly string[], mapping: readonly ColumnTarget[]): LeadInputRow {
  const lead: LeadInputRow = {};
  const variables: Record<string, string> = {};
  mapping.forEach((target, i) => {
    const value = (row[i] ?? '').trim();
    if (target.kind === 'field') {
      if (value || target.field === 'email') lead[target.field] = value;
    } else if (target.kind === 'variable' && value) {
      Object.defineProperty(variables, target.name, { value, enumerable: true, writable: true, configurable: true });
    }
  });
  if (Object.keys(variables).length) lead.customVariables = variables;
  return lead;
}

/** The server's limit of leads per request. */
export const MAX_PER_REQUEST = 10_000;

/**
 * The rows (indexes) of each request: about `size` rows each, in the file's order, except that
 * a row repeating an earlier address (trimmed, case-insensitive, as the server compares them)
 * joins that address's chunk.
 */
export function planChunks(emails: readonly string[], size: number): number[][] {
  const chunks: number[][] = [];
  const chunkOf = new Map<string, number[]>();
  let current: number[] | null = null;
  emails.forEach((email, i) => {
    const key = email.trim().toLowerCase();
    const earlier = key ? chunkOf.get(key) : undefined;
    if (earlier && earlier.length < MAX_PER_REQUEST) {
      earlier.push(i);
      return;
    }
    if (!current || current.length >= size) {
      current = [];
      chunks.push(current);
    }
    current.push(i);
    if (key && !earlier) chunkOf.set(key, current);
  });
  return chunks;
}

const number = new Intl.NumberFormat('en');

/** Rows of the file by their number in a spreadsheet (the header is row 1), as ranges: "2–251, 260". */
export function rowRanges(indexes: readonly number[]): string {
  const rows = [...indexes].sort((a, b) => a - b).map((i) => i + 2);
  const parts: string[] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j]! + 1) j++;
    parts.push(i === j ? number.format(rows[i]!) : `${number.format(rows[i]!)}–${number.format(rows[j]!)}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** The server's counts of one upload, summed over its requests. */
export interface UploadCounts {
  totalSent: number;
  leadsUploaded: number;
  duplicateEmailCount: number;
  alreadyInCampaign: number;
  invalidEmailCount: number;
  skipped: number;
  overflowedLeadCount: number;
}

export const NO_COUNTS: UploadCounts = { totalSent: 0, leadsUploaded: 0, duplicateEmailCount: 0, alreadyInCampaign: 0, invalidEmailCount: 0, skipped: 0, overflowedLeadCount: 0 };

export function addCounts(a: UploadCounts, b: UploadCounts): UploadCounts {
  const sum = { ...a };
  for (const key of Object.keys(NO_COUNTS) as (keyof UploadCounts)[]) sum[key] = a[key] + b[key];
  return sum;
}
