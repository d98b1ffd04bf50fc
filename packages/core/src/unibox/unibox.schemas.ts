import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { BoolInput, ObjectId, pageLimit, StatusSuccess, WorkspaceIdField, ZeroOne, requiredOr } from '../shared/schemas';
import { splitAddresses } from './unibox.rules';

const PageTrail = z.string({ error: 'must be a string' }).optional().describe('Cursor from the previous page; omit or send "" for the first page');
const Limit = pageLimit(50);

/** One address: trimmed, lower-cased, checked. */
const Address = z
  .string({ error: requiredOr('a string') })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters'));

/**
 * Recipients: an array of addresses, or one string of addresses separated by commas or
 * semicolons (as the vendor's `to_address_email_list`). Errors name `<field>.<i>`.
 */
function Addresses(options: { min: number }) {
  return z.preprocess(
    (v) => (typeof v === 'string' ? splitAddresses(v) : v),
    z
      .array(Address, { error: requiredOr('an array of email addresses or a comma-separated string') })
      .min(options.min, 'must hold at least one email address')
      .max(50, 'must hold at most 50 email addresses'),
  );
}

/** A reference to one unibox message: our id, or its Message-ID with or without angle brackets. */
const MessageRef = (what: string) =>
  z
    .string({ error: requiredOr('a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(998, 'must be at most 998 characters')
    .describe(`${what}: the unibox id of the e-mail, or its Message-ID (with or without angle brackets)`);

const Subject = z.string({ error: requiredOr('a string') }).max(998, 'must be at most 998 characters');
const Body = z.string({ error: requiredOr('a string') }).max(5_000_000, 'must be at most 5,000,000 characters');
const From = Address.describe('Sending mailbox: the address of an email account of the workspace');

/**
 * Standard base64, line breaks and spaces allowed: whole 4-character groups, padding only
 * at the end. Linear in the input (whitespace is removed first): an expression matching
 * whitespace and base64 together backtracks quadratically on a long run of spaces.
 */
export function isBase64(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  return compact.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(compact);
}

export const AttachmentInput = z.object({
  file_name: z.string({ error: requiredOr('a string') }).trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  content: z
    .string({ error: requiredOr('a base64 string') })
    .max(14_000_000, 'must be at most 14,000,000 characters (10 MB decoded)')
    .refine(isBase64, 'must be base64-encoded (whole groups of 4 characters, "=" padding only at the end)')
    .describe('File contents, base64-encoded'),
  content_type: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(255).optional().describe('MIME type; guessed from the file name when omitted'),
});
export type AttachmentInput = z.infer<typeof AttachmentInput>;

const Attachments = z
  .array(AttachmentInput, { error: 'must be an array of attachments' })
  .max(20, 'must hold at most 20 attachments')
  .optional()
  .describe('Files to attach, at most 10 MB in total (decoded)');

// ─── reading ──────────────────────────────────────────────────────────────────────

export const EmailType = z.enum(['all', 'received', 'sent'], { error: 'must be all, received or sent' });
export type EmailType = z.infer<typeof EmailType>;

export const ListUniboxEmailsInput = z.object({
  workspace_id: WorkspaceIdField,
  email_type: EmailType.default('all').describe('all (default), received (IN) or sent (OUT)'),
  lead: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').optional().describe("Only the e-mails of the lead with this address (case-insensitive)"),
  campaign_id: ObjectId.optional().describe('Only the e-mails of this campaign'),
  label: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100).optional().describe('Only e-mails with this label (INTERESTED, OUT_OF_OFFICE, …)'),
  thread_id: ObjectId.optional().describe('Only the e-mails of this thread'),
  preview_only: BoolInput.default(false).describe('true: `body` is left out; `content_preview` only'),
  page_trail: PageTrail,
  limit: Limit,
});
export type ListUniboxEmailsInput = z.infer<typeof ListUniboxEmailsInput>;

export const ListOtherEmailsInput = z.object({
  workspace_id: WorkspaceIdField,
  preview_only: BoolInput.default(false).describe('true: `body` is left out; `content_preview` only'),
  page_trail: PageTrail,
  limit: Limit,
});
export type ListOtherEmailsInput = z.infer<typeof ListOtherEmailsInput>;

const AddressJson = z.object({ address: z.string(), name: z.string() });

export const UniboxEmailRecord = z.object({
  id: z.string().describe('Unibox id of the e-mail (usable as reply_to_id)'),
  message_id: z.string().describe('Message-ID in angle brackets'),
  thread_id: z.string(),
  direction: z.enum(['IN', 'OUT']),
  is_unread: ZeroOne.describe('1 when unread, 0 when read (a number, as the vendor answers it)'),
  label: z.string().describe('Label of the e-mail; "" when none'),
  lead: z.string().describe('Lead address; "" when the e-mail is not linked to a lead'),
  lead_id: z.string().describe('"" when not linked to a lead'),
  campaign_id: z.string().describe('"" when not linked to a campaign'),
  eaccount: z.string().describe('Our mailbox the e-mail was received by or sent from ("" if it was deleted)'),
  from_address_email: z.string(),
  from_address_json: z.array(AddressJson),
  to_address_email_list: z.string().describe('Comma-separated addresses'),
  to_address_json: z.array(AddressJson),
  cc_address_email_list: z.string().describe('Comma-separated addresses'),
  cc_address_json: z.array(AddressJson),
  bcc_address_email_list: z.string().describe('Comma-separated addresses (our sends only)'),
  bcc_address_json: z.array(AddressJson),
  subject: z.string(),
  content_preview: z.string().describe('First 200 characters of the text, whitespace collapsed'),
  body: z.object({ html: z.string(), text: z.string() }).optional().describe('Left out when preview_only is true'),
  headers: z.record(z.string(), z.string()).describe('Message-ID, and In-Reply-To and References when present'),
  attachments: z.array(z.object({ file_name: z.string(), content_type: z.string(), size: z.number().int() })).describe('Metadata only'),
  timestamp_created: z.string().describe('When it was received or sent: ISO 8601, UTC'),
  source_modified_at: z.string().describe('When our copy was stored: ISO 8601, UTC'),
});
export type UniboxEmailRecord = z.infer<typeof UniboxEmailRecord>;

export const UniboxEmailsOutput = z.object({
  page_trail: z.string().describe('Pass back for the next page; "" on the last page'),
  data: z.array(UniboxEmailRecord),
});
export type UniboxEmailsOutput = z.infer<typeof UniboxEmailsOutput>;

export const UnreadCountInput = z.object({ workspace_id: WorkspaceIdField });
export type UnreadCountInput = z.infer<typeof UnreadCountInput>;
export const UnreadCountOutput = z.object({ count: z.number().int() });
export type UnreadCountOutput = z.infer<typeof UnreadCountOutput>;

// ─── managing ─────────────────────────────────────────────────────────────────────

export const ThreadInput = z.object({
  workspace_id: WorkspaceIdField,
  thread_id: ObjectId.describe('Unibox thread id'),
});
export type ThreadInput = z.infer<typeof ThreadInput>;

export const DeleteEmailInput = z.object({
  workspace_id: WorkspaceIdField,
  message_id: MessageRef('The e-mail to delete'),
});
export type DeleteEmailInput = z.infer<typeof DeleteEmailInput>;

export const UniboxStatusOutput = z.object({ status: StatusSuccess });
export type UniboxStatusOutput = z.infer<typeof UniboxStatusOutput>;

// ─── sending ──────────────────────────────────────────────────────────────────────

export const ReplyInput = z.object({
  workspace_id: WorkspaceIdField,
  reply_to_id: MessageRef('The e-mail to answer'),
  subject: Subject.optional().describe('Default: "Re: <subject of the e-mail answered>"'),
  from: From.optional().describe("Sending mailbox (an email account of the workspace); default: the thread's mailbox"),
  to: Addresses({ min: 1 }).optional().describe('Recipients; default: the sender of the e-mail answered (its recipients when it is ours)'),
  cc: Addresses({ min: 0 }).optional(),
  bcc: Addresses({ min: 0 }).optional(),
  body: Body.describe('HTML body'),
  attachments: Attachments,
});
export type ReplyInput = z.infer<typeof ReplyInput>;

export const ForwardInput = z.object({
  workspace_id: WorkspaceIdField,
  reply_to_id: MessageRef('The e-mail to forward'),
  subject: Subject.optional().describe('Default: "Fwd: <subject of the e-mail forwarded>"'),
  from: From.optional().describe("Sending mailbox (an email account of the workspace); default: the thread's mailbox"),
  to: Addresses({ min: 1 }),
  cc: Addresses({ min: 0 }).optional(),
  bcc: Addresses({ min: 0 }).optional(),
  body: Body.default('').describe('HTML written above the forwarded e-mail'),
});
export type ForwardInput = z.infer<typeof ForwardInput>;

export const ComposeInput = z.object({
  workspace_id: WorkspaceIdField,
  lead_id: ObjectId.describe('The lead to write to'),
  camp_id: ObjectId.optional().describe("The lead's campaign; default: the lead's campaign"),
  subject: Subject,
  from: From.optional().describe('Sending mailbox; default: the mailbox that has been writing to the lead'),
  cc: Addresses({ min: 0 }).optional(),
  bcc: Addresses({ min: 0 }).optional(),
  body: Body.describe('HTML body'),
  attachments: Attachments,
});
export type ComposeInput = z.infer<typeof ComposeInput>;

export const SendInput = z.object({
  workspace_id: WorkspaceIdField,
  from: From,
  to: Addresses({ min: 1 }),
  cc: Addresses({ min: 0 }).optional(),
  bcc: Addresses({ min: 0 }).optional(),
  subject: Subject,
  body: Body.describe('HTML body'),
  attachments: Attachments,
});
export type SendInput = z.infer<typeof SendInput>;

export const SaveDraftInput = z.object({
  workspace_id: WorkspaceIdField,
  parent_message_id: MessageRef('The e-mail the draft answers').optional(),
  from: From,
  to: Addresses({ min: 0 }).optional(),
  cc: Addresses({ min: 0 }).optional(),
  bcc: Addresses({ min: 0 }).optional(),
  subject: Subject.default(''),
  body: Body.default('').describe('HTML body'),
});
export type SaveDraftInput = z.infer<typeof SaveDraftInput>;

export const SentEmailOutput = z.object({
  status: StatusSuccess,
  id: z.string().describe('Unibox id of the new e-mail'),
  thread_id: z.string(),
  message_id: z.string().describe('Message-ID in angle brackets'),
});
export type SentEmailOutput = z.infer<typeof SentEmailOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(UniboxEmailRecord, 'UniboxEmail');
nameApiSchema(AttachmentInput, 'AttachmentInput');
nameApiSchema(SentEmailOutput, 'SentEmail');
