import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { BoolInput, ObjectId, StatusSuccess, WorkspaceIdField } from '../shared/schemas';

const text = z.string({ error: 'must be a string' }).nullish();

/** A lead as the spec lists it; unknown keys are kept as custom variables. */
export const LeadObject = z
  .object({
    email: z.unknown().optional().describe('Lead address; a missing or malformed one counts in invalid_email_count'),
    first_name: text,
    last_name: text,
    notes: text,
    address_line: text,
    city: text,
    state: text,
    country: text,
    country_code: text,
    phone_number: z.union([z.string(), z.number()], { error: 'must be a string' }).nullish(),
    company_name: text,
    company_website: text,
    job_title: text,
    network_person_url: text,
    network_company_url: text,
    // The vendor's names for the two professional-network fields.
    linkedin_person_url: text,
    linkedin_company_url: text,
    custom_variables: z.record(z.string(), z.string({ error: 'must be a string' })).optional(),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean(), z.null()], { error: 'must be a string, number or boolean (kept as a custom variable)' }));
export type LeadObject = z.infer<typeof LeadObject>;

const flag = BoolInput.optional().default(false);

export const MAX_LEADS_PER_REQUEST = 10_000;

export const AddLeadsInput = z.object({
  workspace_id: WorkspaceIdField,
  campaign_id: ObjectId.describe('Target campaign (a parent campaign; subsequences take leads through /lead/add-lead-in-subseq)'),
  leads: z
    .array(LeadObject)
    .min(1, 'must contain at least 1 lead')
    .max(MAX_LEADS_PER_REQUEST, `must contain at most ${MAX_LEADS_PER_REQUEST} leads per request`),
  skip_if_in_workspace: flag.describe('Skip a lead whose address is in any other campaign of the workspace'),
  skip_lead_in_active_pause_camp: flag.describe('Skip a lead that is in an active or paused campaign of the workspace'),
  skip_lead_for_active_only_camp: flag.describe('Skip a lead that is in an active campaign of the workspace'),
  resume_camp_if_completed: flag.describe('Reactivate a completed campaign when at least one lead was added'),
  crm_sync: flag.describe('Stored on the upload record; there is no CRM integration yet'),
  is_overwrite: flag.describe("Update the fields of a lead already in this campaign instead of counting it in already_in_campaign"),
});
export type AddLeadsInput = z.infer<typeof AddLeadsInput>;

export const AddLeadsOutput = z.object({
  status: StatusSuccess,
  total_sent: z.number().int().describe('Leads in the request'),
  leads_uploaded: z.number().int().describe('Leads added, plus existing leads updated with is_overwrite'),
  duplicate_email_count: z.number().int().describe('Repeats of an address earlier in the same request'),
  already_in_campaign: z.number().int(),
  invalid_email_count: z.number().int(),
  skipped: z.number().int().describe('Blocklisted addresses or domains, and leads skipped by the skip_* flags'),
  remaining_in_plan: z.number().int().describe("Leads the organization's allowance still admits after this upload"),
  overflowed_lead_count: z.number().int().describe('Leads not added because the allowance was reached'),
});
export type AddLeadsOutput = z.infer<typeof AddLeadsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(LeadObject, 'LeadInput');
nameApiSchema(AddLeadsOutput, 'LeadUploadResult');
