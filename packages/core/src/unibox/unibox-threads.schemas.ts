import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { BoolInput, ObjectId, ZeroOne } from '../shared/schemas';
import { ListUniboxEmailsInput, UniboxEmailRecord } from './unibox.schemas';

// The filters and paging of unibox.emails, read per thread.
const emails = ListUniboxEmailsInput.shape;

export const ListUniboxThreadsInput = z.object({
  workspace_id: emails.workspace_id,
  email_type: emails.email_type.describe('all (default); received: threads with an e-mail received from the lead; sent: threads with an e-mail we sent'),
  lead: emails.lead.describe('Only the conversations of the lead with this address (case-insensitive)'),
  campaign_id: emails.campaign_id.describe('Only threads holding an e-mail of this campaign'),
  label: emails.label.describe("Only threads whose label (that of the thread's latest labelled e-mail from the lead) is this one"),
  thread_id: emails.thread_id.describe('Only this thread'),
  is_unread: BoolInput.optional().describe('true: only threads with an unread received e-mail; false: only threads without one (not a vendor parameter)'),
  email_account_id: ObjectId.optional().describe("Only the conversations of this mailbox (an email account id; not a vendor parameter)"),
  lead_label: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100).optional().describe("Only threads whose lead currently carries this label key (the lead's label, as /lead/data/update sets it; not a vendor parameter)"),
  preview_only: emails.preview_only.describe('true: `last_message.body` is left out; `content_preview` only'),
  page_trail: emails.page_trail,
  limit: emails.limit,
});
export type ListUniboxThreadsInput = z.infer<typeof ListUniboxThreadsInput>;

export const UniboxThreadRecord = z.object({
  thread_id: z.string(),
  subject: z.string(),
  lead: z.string().describe('Lead address; "" when the thread is not linked to a lead'),
  lead_id: z.string().describe('"" when not linked to a lead'),
  campaign_id: z.string().describe('"" when not linked to a campaign'),
  eaccount: z.string().describe('Our mailbox of the conversation ("" if it was deleted)'),
  last_message_at: z.string().describe('Latest activity of the thread: ISO 8601, UTC'),
  message_count: z.number().int().describe('E-mails of the thread in the inbox (drafts not counted)'),
  is_unread: ZeroOne.describe('1 when the thread has an unread received e-mail, else 0 (a number, as the vendor answers it)'),
  label: z.string().describe('Label of the latest received e-mail carrying one; "" when none'),
  // Not described here: a described copy would be another schema (and another GraphQL type).
  last_message: UniboxEmailRecord,
});
export type UniboxThreadRecord = z.infer<typeof UniboxThreadRecord>;

export const UniboxThreadsOutput = z.object({
  page_trail: z.string().describe('Pass back for the next page; "" on the last page'),
  data: z.array(UniboxThreadRecord),
});
export type UniboxThreadsOutput = z.infer<typeof UniboxThreadsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(UniboxThreadRecord, 'UniboxThread');
