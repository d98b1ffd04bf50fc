import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, pageLimit, WorkspaceIdField, ZeroOne, requiredOr } from '../shared/schemas';

export const CampaignEmailsInput = z.object({
  workspace_id: WorkspaceIdField,
  lead: z
    .string({ error: requiredOr('a string') })
    .trim()
    .min(1, 'must not be empty')
    .describe("Lead's e-mail address (matched case-insensitively)"),
  campaign_id: ObjectId.optional().describe('A parent campaign or a subsequence; omitted: every campaign and subsequence'),
  page_trail: z.string().optional().describe('Cursor from the previous page; omit or send "" for the first page'),
  limit: pageLimit(50),
});
export type CampaignEmailsInput = z.infer<typeof CampaignEmailsInput>;

export const CampaignEmailRecord = z.object({
  id: z.string(),
  organization_id: z.string(),
  workspace_id: z.string(),
  lead_id: z.string(),
  lead: z.string().describe("Lead's e-mail address"),
  eaccount: z.string().describe('Sending mailbox address ("" if the mailbox was deleted)'),
  campaign_id: z.string().describe('Campaign or subsequence that sent the e-mail'),
  parent_camp_id: z.string().describe('Parent campaign of a subsequence send; "" otherwise'),
  current_step: z.number().int(),
  variation: z.string(),
  sent_on: z.string().describe('ISO 8601, UTC, millisecond precision'),
  message_id: z.string().describe('Message-ID in angle brackets'),
  subject: z.string(),
  body: z.string(),
  is_text: ZeroOne.describe('1 for a plain-text send, 0 for HTML'),
});
export type CampaignEmailRecord = z.infer<typeof CampaignEmailRecord>;

export const CampaignEmailsOutput = z.object({
  page_trail: z.string().describe('Pass back for the next page; "" on the last page'),
  data: z.array(CampaignEmailRecord),
});
export type CampaignEmailsOutput = z.infer<typeof CampaignEmailsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(CampaignEmailRecord, 'CampaignEmail');
