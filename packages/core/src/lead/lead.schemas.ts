import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, PageLimit, SkipLimit, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';

/** The lead statuses, in the order the status counts list them. */
export const LEAD_STATUSES = ['NOT_CONTACTED', 'CONTACTED', 'COMPLETED', 'REPLIED', 'RESCHEDULED', 'UNSUBSCRIBED', 'BOUNCED', 'SKIPPED'] as const;
export type LeadStatusName = (typeof LEAD_STATUSES)[number];

const address = z.string({ error: requiredOr('a string') }).trim().min(1, 'must not be empty').max(254, 'must be at most 254 characters');
const optionalCampaign = ObjectId.optional().describe('Only this campaign (or subsequence) of the workspace');
const stamp = z.string().describe('ISO 8601 timestamp (UTC)');

/** A lead as the read operations answer it; custom variables are extra top-level keys. */
export const LeadRecord = z
  .object({
    _id: z.string(),
    organization_id: z.string(),
    campaign_id: z.string(),
    workspace_id: z.string(),
    is_completed: z.boolean(),
    current_step: z.number().int().describe('Last step sent (0 before the first send)'),
    status: z.enum(LEAD_STATUSES),
    label: z.string().nullable().describe('Label key; null when unlabelled or when the label is hidden from this client key'),
    email_account_id: z.string().nullable().describe('Sticky mailbox of the lead'),
    email_acc_name: z.string().describe('Address of that mailbox, or ""'),
    camp_name: z.string(),
    created_at: stamp,
    modified_at: stamp,
    last_sent_at: stamp.nullable(),
    sent_step: z.number().int().describe('Highest step sent to the lead (0 before the first send)'),
    total_steps: z.number().int().describe('Steps of the campaign'),
    replied_count: z.number().int().describe("The lead's sends that were replied to"),
    opened_count: z.number().int().describe("The lead's sends that were opened"),
    bounce_msg: z.string().nullable(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    notes: z.string().nullable(),
    address_line: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable(),
    country_code: z.string().nullable(),
    phone_number: z.string().nullable(),
    company_name: z.string().nullable(),
    company_website: z.string().nullable(),
    job_title: z.string().nullable(),
    network_person_url: z.string().nullable(),
    network_company_url: z.string().nullable(),
    linkedin_person_url: z.string().nullable().describe('Vendor alias of network_person_url'),
    linkedin_company_url: z.string().nullable().describe('Vendor alias of network_company_url'),
  })
  .catchall(z.unknown().describe('A custom variable'));
export type LeadRecord = z.infer<typeof LeadRecord>;

export const GetLeadInput = z.object({
  workspace_id: WorkspaceIdField,
  email: address.describe('Lead address (case-insensitive)'),
  campaign_id: optionalCampaign,
  ...SkipLimit,
});
export type GetLeadInput = z.infer<typeof GetLeadInput>;

export const LeadList = z.array(LeadRecord);
export type LeadList = z.infer<typeof LeadList>;

export const LEAD_SORTS = ['created_at', 'modified_at', '_id'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export const WorkspaceLeadsInput = z.object({
  workspace_id: WorkspaceIdField,
  campaign_id: optionalCampaign,
  status: z.enum(LEAD_STATUSES, { error: `must be one of ${LEAD_STATUSES.join(', ')}` }).optional(),
  label: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').optional().describe('A label key of the workspace'),
  email: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').optional().describe('Address prefix (case-insensitive)'),
  lead_id: ObjectId.optional().describe('Only the lead with this id (not a vendor parameter)'),
  ...PageLimit,
  sort: z.enum(LEAD_SORTS, { error: 'must be created_at, modified_at or _id' }).default('created_at'),
  direction: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).default('desc'),
  page_trail: z.string({ error: 'must be a string' }).optional().describe('Keyset cursor built from the last lead of the previous page (see the description); replaces page'),
});
export type WorkspaceLeadsInput = z.infer<typeof WorkspaceLeadsInput>;

export const CountByStatusInput = z.object({
  workspace_id: WorkspaceIdField,
  campaign_id: optionalCampaign,
});
export type CountByStatusInput = z.infer<typeof CountByStatusInput>;

export const CountByStatusOutput = z.array(z.object({ status: z.enum(LEAD_STATUSES), count: z.number().int() }));
export type CountByStatusOutput = z.infer<typeof CountByStatusOutput>;

export const UpdateLeadDataInput = z
  .object({
    workspace_id: WorkspaceIdField,
    campaign_id: optionalCampaign,
    email: address.describe('Lead address (case-insensitive)'),
    variables: z
      .record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object of string values' })
      .optional()
      .describe('Lead fields (first_name, city, …) and custom variables, all string values'),
    label: z.string({ error: 'must be a string or null' }).trim().nullable().optional().describe('A label key of the workspace; null or "" clears the label'),
  })
  .refine((i) => i.variables !== undefined || i.label !== undefined, { message: 'variables or label is required', path: ['variables'] });
export type UpdateLeadDataInput = z.infer<typeof UpdateLeadDataInput>;

export const UpdateLeadDataOutput = z.object({
  status: StatusSuccess,
  updated: z.number().int().describe('Lead rows updated (one per campaign the address is in)'),
});
export type UpdateLeadDataOutput = z.infer<typeof UpdateLeadDataOutput>;

export const UpdateLeadStatusInput = z.object({
  workspace_id: WorkspaceIdField,
  campaign_id: ObjectId.describe('Campaign of the lead'),
  email: address.describe('Lead address (case-insensitive)'),
  new_status: z.literal('COMPLETED', { error: requiredOr('COMPLETED (the only status that can be set)') }),
});
export type UpdateLeadStatusInput = z.infer<typeof UpdateLeadStatusInput>;

export const StatusOnly = z.object({ status: StatusSuccess });
export type StatusOnly = z.infer<typeof StatusOnly>;

export const MAX_LEADS_PER_CHANGE = 10_000;

export const DeleteLeadsInput = z.object({
  workspace_id: WorkspaceIdField,
  campaign_id: ObjectId.optional().describe('Only this campaign; without it, every campaign of the workspace'),
  delete_list: z
    .array(z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty'), { error: requiredOr('an array of addresses') })
    .min(1, 'must contain at least 1 address')
    .max(MAX_LEADS_PER_CHANGE, `must contain at most ${MAX_LEADS_PER_CHANGE} addresses`),
});
export type DeleteLeadsInput = z.infer<typeof DeleteLeadsInput>;

export const DeleteLeadsOutput = z.object({ status: StatusSuccess, deleted: z.number().int().describe('Lead rows deleted') });
export type DeleteLeadsOutput = z.infer<typeof DeleteLeadsOutput>;

export const AddToSubsequenceInput = z.object({
  workspace_id: WorkspaceIdField,
  subseq_id: ObjectId.describe('A subsequence of the workspace'),
  parent_lead_ids: z
    .array(ObjectId, { error: requiredOr('an array of lead ids') })
    .min(1, 'must contain at least 1 lead id')
    .max(MAX_LEADS_PER_CHANGE, `must contain at most ${MAX_LEADS_PER_CHANGE} lead ids`),
});
export type AddToSubsequenceInput = z.infer<typeof AddToSubsequenceInput>;

export const AddToSubsequenceOutput = z.object({
  status: StatusSuccess,
  inserted: z.number().int().describe('Leads added to the subsequence'),
  overflowed: z.number().int().describe('Leads not added because the allowance was reached'),
});
export type AddToSubsequenceOutput = z.infer<typeof AddToSubsequenceOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(LeadRecord, 'Lead');
