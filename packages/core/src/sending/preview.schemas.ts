import { z } from 'zod';
import { ObjectId, WorkspaceIdField } from '../shared/schemas';

const previewFields = {
  workspace_id: WorkspaceIdField,
  campaign_id: ObjectId.describe('Campaign (or subsequence) identifier'),
  step: z.number().int().min(1).max(1000).describe('Step number, 1 for the first e-mail'),
  variation: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{1,3}$/, 'must be a variation label such as A or B')
    .transform((s) => s.toUpperCase())
    .describe('Variation label: A, B, …'),
  lead_id: ObjectId.optional().describe("A lead of the campaign; absent: the campaign's first lead, or sample values when it has none"),
  sample: z.boolean().optional().describe('Compose with sample values rather than a lead (lead_id must then be absent)'),
};

const noLeadWithSample = (v: { lead_id?: string; sample?: boolean }) => !(v.sample && v.lead_id);
const noLeadWithSampleIssue = { message: 'must be absent when sample is true', path: ['lead_id'] };

export const PreviewInput = z.object(previewFields).refine(noLeadWithSample, noLeadWithSampleIssue);
export type PreviewInput = z.infer<typeof PreviewInput>;

export const PreviewOutput = z.object({
  subject: z.string().describe('The subject exactly as the engine would send it (a follow-up continuing the thread: `Re: …`)'),
  html: z.string().nullable().describe('The HTML body as sent (unsubscribe link and open pixel included); null when the campaign sends plain text'),
  text: z.string().describe('The plain-text part as sent'),
  missing: z.array(z.string()).describe('Merge fields with no value and no fallback (shown as `{{name}}`); the engine would skip this lead rather than send it'),
  lead_id: z.string().nullable().describe('The lead composed for; null for sample values'),
  lead_email: z.string().nullable(),
  sender_email: z.string().nullable().describe('The mailbox whose name and signature fill the sender fields; null when the campaign has none'),
});
export type PreviewOutput = z.infer<typeof PreviewOutput>;

export const SendTestInput = z
  .object({
    ...previewFields,
    to: z.string().trim().max(254).email('must be an e-mail address').describe('Where the test goes'),
    email_account_id: ObjectId.describe('The mailbox of the workspace it is sent from (must be ACTIVE)'),
  })
  .refine(noLeadWithSample, noLeadWithSampleIssue);
export type SendTestInput = z.infer<typeof SendTestInput>;

export const SendTestOutput = z.object({
  status: z.literal('sent'),
  to: z.string(),
  from: z.string().describe('The mailbox it went out from'),
  subject: z.string().describe('The subject as sent: `[Test] ` then the composed subject'),
  message_id: z.string(),
  missing: z.array(z.string()).describe('Merge fields that had no value (sent as `{{name}}`)'),
});
export type SendTestOutput = z.infer<typeof SendTestOutput>;
