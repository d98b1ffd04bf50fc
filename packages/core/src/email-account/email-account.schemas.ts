import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { IsoDate } from '../shared/time';
import { BoolInput, intParam, ObjectId, SkipLimit, sortParams, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';

const Text = (max: number) => z.string({ error: requiredOr('a string') }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const Email = z.string({ error: requiredOr('a string') }).trim().pipe(z.email('must be an email address'));
const Port = intParam({ min: 1, max: 65535 });
const Ids = z.array(ObjectId, { error: requiredOr('an array of email account ids') }).min(1, 'must hold at least one id').max(1000, 'must hold at most 1000 ids');
const DailyLimit = intParam({ min: 0, max: 10_000 }).describe('Sends per day, 0 to 10000; 0 stops sending');
const SendingGap = intParam({ min: 0, max: 1440 }).describe('Minutes between two sends, 0 to 1440');
/** A mailbox's sending status (prisma's EmailAccountStatus). */
export const EMAIL_ACCOUNT_STATUSES = ['ACTIVE', 'DISCONNECTED', 'PAUSED'] as const;
const WarmupStatus = z.enum(['ACTIVE', 'INACTIVE'], { error: requiredOr('ACTIVE or INACTIVE') });

/**
 * The vendor's warmup settings (`payload.warmup`), as `warmup_*` fields of the bulk add (per
 * account) and the bulk update (docs/api.md, "Warmup").
 */
export const WarmupSettingsFields = {
  warmup_limit: intParam({ min: 1, max: 500 }).optional().describe('Warmup e-mails a day at most, 1 to 500 (default 20)'),
  warmup_increment: intParam({ min: 0, max: 100 }).optional().describe('Daily ramp-up: this many on the first day, twice as many on the second, … up to warmup_limit; 0: warmup_limit from the first day (default 2)'),
  warmup_reply_rate: intParam({ min: 0, max: 100 }).optional().describe('Percent of the warmup e-mails received that the mailbox answers, 0 to 100 (default 30)'),
  warmup_custom_words: z.string({ error: 'must be a string' }).max(2000, 'must be at most 2000 characters').optional().describe('Comma-separated words or phrases mixed into warmup e-mails'),
  warmup_signature: z.string({ error: 'must be a string' }).max(5000, 'must be at most 5000 characters').optional().describe('Signature of warmup e-mails (plain text)'),
  warmup_advanced: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional().describe('Further warmup settings, stored and shown as given'),
};

export const NewAccount = z.object({
  email: Email,
  first_name: z.string({ error: 'must be a string' }).trim().max(100).default(''),
  last_name: z.string({ error: 'must be a string' }).trim().max(100).default(''),
  smtp_host: Text(255),
  smtp_port: Port,
  smtp_username: Text(320),
  smtp_password: z.string({ error: requiredOr('a string') }).min(1, 'must not be empty').max(1000),
  imap_host: Text(255),
  imap_port: Port,
  imap_username: Text(320),
  imap_password: z.string({ error: requiredOr('a string') }).min(1, 'must not be empty').max(1000),
  daily_limit: DailyLimit.optional(),
  sending_gap: SendingGap.optional(),
  ...WarmupSettingsFields,
});
export type NewAccount = z.infer<typeof NewAccount>;

export const BulkAddAccountsInput = z.object({
  workspace_id: WorkspaceIdField,
  accounts: z.array(NewAccount, { error: requiredOr('an array of accounts') }).min(1, 'must hold at least one account').max(100, 'must hold at most 100 accounts'),
  enable_warmup: BoolInput.default(false).describe('"yes" (true): start warmup on the added accounts'),
});
export type BulkAddAccountsInput = z.infer<typeof BulkAddAccountsInput>;

export const BulkAddAccountsOutput = z.object({
  status: StatusSuccess,
  added: z.array(z.object({ email: z.string(), _id: z.string(), id: z.string().describe('The same id as `_id` (clients read either)') })),
  failed: z.array(z.object({ email: z.string(), error: z.string() })),
});
export type BulkAddAccountsOutput = z.infer<typeof BulkAddAccountsOutput>;

export const ListAccountsInput = z.object({
    workspace_id: WorkspaceIdField,
    ...SkipLimit,
    tags: z
      .string({ error: 'must be a comma-separated list of tag ids' })
      .optional()
      .transform((s) => (s ? s.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean) : undefined))
      .describe('Comma-separated tag ids: accounts carrying any of them'),
    email: z.string({ error: 'must be a string' }).trim().optional().describe('Substring of the address, case-insensitive'),
    email_acc_id: ObjectId.optional().describe('Only this account (an empty list when the workspace has none with this id)'),
    status: z.enum(EMAIL_ACCOUNT_STATUSES, { error: `must be ${EMAIL_ACCOUNT_STATUSES.join(', ')}` }).optional().describe('Only accounts with this status'),
    ...sortParams(['created_at', 'email', 'status'], 'asc'),
    // The vendor answers 400 "page is not allowed" here (this path pages with skip/limit);
    // clients rely on that to detect the paging style, so it is refused by name. Other
    // unknown parameters are ignored, as on every other path.
    page: z
      .unknown()
      .refine((v) => v === undefined, 'is not allowed')
      .optional()
      .describe('Refused: 400 "page is not allowed", as the vendor does; use skip and limit'),
  });
export type ListAccountsInput = z.infer<typeof ListAccountsInput>;

/** A rate in percent (2 decimals), or -1 when the window holds nothing to divide by (the vendor's "no data"). */
const WindowRate = (text: string) => z.number().describe(`${text}; -1 when there is no data`);

/**
 * What the engine knows of a mailbox's recent sending (docs/api.md, "Mailbox health"): the
 * vendor's `payload.analytics`, with its keys, and ours beside them.
 */
export const HealthInputs = z.object({
  status: z.string().describe('The mailbox status (DISCONNECTED scores 0)'),
  imap_failures: z.number().int().describe('Consecutive failed IMAP connections (connection failures)'),
  sent_7d: z.number().int().describe('Campaign sends of the last 7 days'),
  replied_7d: z.number().int(),
  bounced_7d: z.number().int(),
  complaints_7d: z.number().int().nullable().describe('Spam complaints seen as DSNs; null: not recorded'),
  warmup_inbox_7d: z.number().int().describe('Warmup e-mails of the last 7 days found in the recipient\'s inbox'),
  warmup_spam_7d: z.number().int().describe('… found in spam (and moved back to the inbox)'),
  warmup_promotions_7d: z.number().int().describe('… found in a promotions folder'),
  warmup_missing_7d: z.number().int().describe('… not found within a day'),
  spf: z.boolean().nullable().describe('Its domain has SPF (the vitals check); null while not checked'),
  dkim: z.boolean().nullable(),
  dmarc: z.boolean().nullable(),
  dns_checked_at: z.string().nullable().describe('When its domain was last checked (ISO 8601)'),
});
export type HealthInputs = z.infer<typeof HealthInputs>;

export const AccountAnalytics = z.object({
  health_scores: z.object({
    health_score: z.number().int().describe('Health, 0 to 100, from the last 7 days (docs/api.md, "Mailbox health")'),
    '7d_overall_warmup_health': z.number().int().describe('The same health score, under the vendor\'s key'),
    '7d_google_warmup_health': z.number().int().describe('Percent of the warmup e-mails of the last 7 days to Google mailboxes found in the inbox; -1 when none was placed'),
    '7d_microsoft_warmup_health': z.number().int().describe('The same for Microsoft mailboxes'),
    '7d_other_warmup_health': z.number().int().describe('The same for other mailboxes'),
    '1d_miss_warmup_rate': z.number().describe('Percent of the warmup e-mails of the last 24 hours not found (MISSING); -1 when none was sent'),
    '3d_bounce_rate': WindowRate('Bounced sends over sends of the last 3 days, percent'),
    '7d_bounce_rate': WindowRate('Bounced sends over sends of the last 7 days, percent'),
    health_inputs: HealthInputs.describe('What health_score was computed from'),
  }),
  reply_rates: z.object({
    '7d_replyrate': WindowRate('Replied sends over sends of the last 7 days, percent'),
    '7d_ooo_replyrate': WindowRate('Sends of the last 7 days answered by an out-of-office reply, over those sends, percent'),
  }),
  daily_counters: z.object({
    email_sent_today: z.number().int().describe("E-mails sent today (the workspace's day), campaign and unibox sends: what the daily limit counts"),
    email_replied_today: z.number().int().describe('Replies from leads received today'),
    email_bounced_today: z.number().int().describe('Sends of the last 7 days recorded as bounced today'),
    warmup_email_sent_today: z.number().int().describe('Warmup e-mails sent today (they count toward the daily limit too)'),
  }),
});
export type AccountAnalytics = z.infer<typeof AccountAnalytics>;

export const WarmupSettings = z.object({
  limit: z.number().int().describe('Warmup e-mails a day at most'),
  increment: z.number().int().describe('Daily ramp-up from the first day (0: the limit at once)'),
  reply_rate: z.number().int().describe('Percent of the warmup e-mails received that are answered'),
  warmup_custom_words: z.string(),
  warmup_signature: z.string(),
  advanced: z.record(z.string(), z.unknown()),
  start_date: z.string().nullable().describe('When warmup last became ACTIVE (the ramp-up counts days from it); null when never'),
});
export type WarmupSettings = z.infer<typeof WarmupSettings>;

export const AccountItem = z.object({
  _id: z.string(),
  id: z.string().describe('The same id as `_id` (clients read either)'),
  email: z.string(),
  status: z.string(),
  warmup_status: z.string(),
  provider: z.string(),
  last_error: z.string().nullable().describe('Why the mailbox is DISCONNECTED (or its last connection failure), in a fixed sentence; null when none'),
  disconnect_reason: z
    .string()
    .nullable()
    .describe('What disconnected it: `smtp_auth` or `imap_auth` (a login refused), `oauth_revoked` (its OAuth grant was revoked or expired: authorize it again); null when connected'),
  timestamp_created: z.string(),
  timestamp_updated: z.string(),
  payload: z.object({
    name: z.object({ first_name: z.string(), last_name: z.string() }),
    daily_limit: z.number().int(),
    sending_gap: z.number().int(),
    imap_host: z.string(),
    imap_port: z.number().int(),
    smtp_host: z.string(),
    smtp_port: z.number().int(),
    signature: z.string(),
    warmup: WarmupSettings,
    tags: z.array(z.string()),
    cmps: z.array(z.string()),
    analytics: AccountAnalytics,
  }),
});
export type AccountItem = z.infer<typeof AccountItem>;

export const ListAccountsOutput = z.object({ accounts: z.array(AccountItem) });
export type ListAccountsOutput = z.infer<typeof ListAccountsOutput>;

export const AccountByEmailInput = z.object({ workspace_id: WorkspaceIdField, email: Email });
export type AccountByEmailInput = z.infer<typeof AccountByEmailInput>;

export const AccountStatusOutput = z.object({
  account: z.string().describe('The mailbox address, as the vendor answers it'),
  email: z.string(),
  status: z.string(),
  warmup_status: z.string(),
  last_error: z.string().nullable(),
  disconnect_reason: z.string().nullable().describe('Why the engine disconnected the mailbox; null when connected or disconnected by a login check'),
  last_synced_at: z.string().nullable().describe('When the reply reader last read its INBOX (ISO 8601); null before the first read'),
  health_score: z.number().int().describe('Health, 0 to 100, recomputed by this call (docs/api.md, "Mailbox health")'),
  health_inputs: HealthInputs,
  daily_counters: z.object({
    email_sent_today: z.number().int().describe('Campaign and unibox sends today'),
    warmup_email_sent_today: z.number().int().describe('Warmup e-mails sent today'),
  }),
});
export type AccountStatusOutput = z.infer<typeof AccountStatusOutput>;

export const SuccessOutput = z.object({ status: StatusSuccess });
export type SuccessOutput = z.infer<typeof SuccessOutput>;

export const WarmupOutput = z.object({ status: StatusSuccess, warmup_status: WarmupStatus });
export type WarmupOutput = z.infer<typeof WarmupOutput>;

export const BulkUpdateAccountsInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: Ids,
  daily_limit: DailyLimit.optional(),
  sending_gap: SendingGap.optional(),
  signature: z.string({ error: 'must be a string' }).max(10_000, 'must be at most 10000 characters').optional(),
  ...WarmupSettingsFields,
});
export type BulkUpdateAccountsInput = z.infer<typeof BulkUpdateAccountsInput>;

export const BulkUpdateAccountsOutput = z.object({
  status: StatusSuccess,
  updated_count: z.number().int(),
  updated_ids: z.array(z.string()),
});
export type BulkUpdateAccountsOutput = z.infer<typeof BulkUpdateAccountsOutput>;

export const BulkUpdateWarmupInput = z.object({ workspace_id: WorkspaceIdField, ids: Ids, warmup_status: WarmupStatus });
export type BulkUpdateWarmupInput = z.infer<typeof BulkUpdateWarmupInput>;

export const BulkUpdateWarmupOutput = z.object({ updated_count: z.number().int(), updated_ids: z.array(z.string()) });
export type BulkUpdateWarmupOutput = z.infer<typeof BulkUpdateWarmupOutput>;

export const BulkSetSendingInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: Ids,
  status: z
    .enum(['PAUSED', 'ACTIVE'], { error: requiredOr('PAUSED or ACTIVE') })
    .meta({ id: 'EmailAccountSendingStatus', description: 'PAUSED: ACTIVE mailboxes stop sending; ACTIVE: PAUSED mailboxes send again' }),
});
export type BulkSetSendingInput = z.infer<typeof BulkSetSendingInput>;

export const BulkSetSendingOutput = z.object({
  updated_count: z.number().int(),
  updated_ids: z.array(z.string()).describe('The mailboxes whose status changed'),
});
export type BulkSetSendingOutput = z.infer<typeof BulkSetSendingOutput>;

export const BulkAssignTagsInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: Ids,
  tag_id: ObjectId,
  action: z.enum(['ASSIGN', 'UNASSIGN'], { error: requiredOr('ASSIGN or UNASSIGN') }),
});
export type BulkAssignTagsInput = z.infer<typeof BulkAssignTagsInput>;

export const BulkAssignTagsOutput = z.object({ status: StatusSuccess, updated_count: z.number().int() });
export type BulkAssignTagsOutput = z.infer<typeof BulkAssignTagsOutput>;

export const BulkReconnectInput = z.object({ workspace_id: WorkspaceIdField, ids: Ids.max(100, 'must hold at most 100 ids') });
export type BulkReconnectInput = z.infer<typeof BulkReconnectInput>;

export const BulkReconnectOutput = z.object({
  status: StatusSuccess,
  results: z.array(
    z.object({
      _id: z.string(),
      id: z.string().describe('The same id as `_id`'),
      email: z.string(),
      status: z.string(),
      error: z.string().optional(),
      url: z
        .string()
        .optional()
        .describe("XOAUTH2 (Google, Microsoft) mailboxes: a fresh authorization URL that reconnects this very mailbox (the owner signs in again; 10 minutes, single use)"),
    }),
  ),
});
export type BulkReconnectOutput = z.infer<typeof BulkReconnectOutput>;

export const MoveWorkspaceInput = z.object({ workspace_id: WorkspaceIdField, to_workspace_id: WorkspaceIdField, ids: Ids });
export type MoveWorkspaceInput = z.infer<typeof MoveWorkspaceInput>;

export const MoveWorkspaceOutput = z.object({ status: StatusSuccess, moved: z.number().int() });
export type MoveWorkspaceOutput = z.infer<typeof MoveWorkspaceOutput>;

export const EmailStatsInput = z.object({
  workspace_id: WorkspaceIdField,
  start_date: IsoDate,
  end_date: IsoDate.describe('At most 90 days after start_date'),
  email_acc_id: ObjectId.optional(),
});
export type EmailStatsInput = z.infer<typeof EmailStatsInput>;

const Count = z.number().int();
/** The vendor's counters of email-stats, in its header and in each chart row. */
const StatsCounts = {
  total_sent_count: Count,
  total_reply_count: Count.describe('Sends that got a reply (out-of-office replies are not replies)'),
  total_ooo_reply_count: Count.describe('Sends answered by an out-of-office reply'),
  total_open_count: Count,
  total_bounce_count: Count,
  total_contacted_count: Count.describe('Distinct leads sent to'),
  total_completed_count: Count.describe('Of those, leads whose sequence is completed'),
  total_pos_reply_count: Count.describe('Of those, leads that replied and carry a positive label'),
};

export const EmailStatsHeader = z.object({
  ...StatsCounts,
  bounce_rate: z.number().describe('Bounces over sends, percent'),
  open_rate: z.number().describe('Opens over contacted leads, percent'),
  reply_rate: z.number().describe('Replies over contacted leads, percent'),
  reply_rate_with_ooo: z.number().describe('Replies and out-of-office replies over contacted leads, percent'),
  pos_reply_rate: z.number().describe('Positive repliers over contacted leads, percent'),
});
export type EmailStatsHeader = z.infer<typeof EmailStatsHeader>;

export const EmailStatsChartRow = z.object({ label: z.string().describe('The day for display, "Mar 05"'), date: z.string().describe('YYYY-MM-DD (UTC)'), ...StatsCounts });
export type EmailStatsChartRow = z.infer<typeof EmailStatsChartRow>;

export const EmailStatsOutput = z.object({ header: EmailStatsHeader, chart: z.array(EmailStatsChartRow) });
export type EmailStatsOutput = z.infer<typeof EmailStatsOutput>;

/** At most this many mailboxes per bulk email-stats call (ids given, and page size). */
export const MAX_BULK_STATS_ACCOUNTS = 100;

const AccountIdList = z
  .union([z.array(z.string()), z.string()], { error: 'must be a comma-separated list of email account ids' })
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((id) => id.trim()).filter(Boolean))
  .pipe(z.array(ObjectId).max(MAX_BULK_STATS_ACCOUNTS, `must hold at most ${MAX_BULK_STATS_ACCOUNTS} ids`));

export const EmailStatsBulkInput = z.object({
  workspace_id: WorkspaceIdField,
  start_date: IsoDate,
  end_date: IsoDate.describe('At most 90 days after start_date'),
  email_acc_ids: AccountIdList.optional().describe(`Comma-separated email account ids, at most ${MAX_BULK_STATS_ACCOUNTS}; every mailbox of the workspace when left out`),
  include_chart: BoolInput.default(true).describe('false: every `chart` is empty (default true)'),
  page: intParam({ min: 1 }).default(1).describe('Page number, from 1'),
  limit: intParam({ min: 1 })
    .transform((n) => Math.min(n, MAX_BULK_STATS_ACCOUNTS))
    .default(MAX_BULK_STATS_ACCOUNTS)
    .describe(`Mailboxes per page, 1 to ${MAX_BULK_STATS_ACCOUNTS} (default ${MAX_BULK_STATS_ACCOUNTS}); a larger limit is read as ${MAX_BULK_STATS_ACCOUNTS}`),
});
export type EmailStatsBulkInput = z.infer<typeof EmailStatsBulkInput>;

export const EmailStatsBulkOutput = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total_accounts: z.number().int().describe('Mailboxes matched: the workspace\'s, or those of `email_acc_ids` in the workspace'),
  has_more: z.boolean(),
  accounts: z.array(z.object({ email_acc_id: z.string(), email: z.string(), header: EmailStatsHeader, chart: z.array(EmailStatsChartRow) })),
});
export type EmailStatsBulkOutput = z.infer<typeof EmailStatsBulkOutput>;

export const WarmupStatsInput = z.object({
  workspace_id: WorkspaceIdField,
  start_date: IsoDate,
  end_date: IsoDate.describe('At most 90 days after start_date'),
  email_acc_id: ObjectId.optional().describe('One mailbox; the whole workspace when left out'),
});
export type WarmupStatsInput = z.infer<typeof WarmupStatsInput>;

const Percent = (text: string) => z.number().describe(`${text}, percent (2 decimals; 0 without data)`);
export const WarmupStats = z.object({
  inbox_percent: Percent('Warmup e-mails found in the inbox over those placed (found or missing)'),
  spam_percent: Percent('… found in spam'),
  promotion_percent: Percent('… found in a promotions folder'),
  google_percent: Percent('Warmup e-mails sent to Google mailboxes (MX) over all sent'),
  microsoft_percent: Percent('… to Microsoft mailboxes'),
  other_percent: Percent('… to other mailboxes'),
  total_warmup_sent: z.number().int(),
  total_inboxes: z.number().int().describe('Distinct pool mailboxes the warmup e-mails went to'),
  chart_data: z.array(z.object({ date: z.string().describe('YYYY-MM-DD (UTC)'), sent: z.number().int(), inbox: z.number().int(), spam: z.number().int(), promotion: z.number().int() })),
});
export const WarmupStatsOutput = z.object({ emailAcc: WarmupStats });
export type WarmupStatsOutput = z.infer<typeof WarmupStatsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(AccountItem, 'EmailAccount');
nameApiSchema(NewAccount, 'NewEmailAccount');
nameApiSchema(AccountStatusOutput, 'EmailAccountStatus');
nameApiSchema(HealthInputs, 'MailboxHealthInputs');
nameApiSchema(WarmupSettings, 'WarmupSettings');
nameApiSchema(WarmupStats, 'WarmupStats');
nameApiSchema(EmailStatsOutput, 'EmailStats');
nameApiSchema(EmailStatsHeader, 'EmailStatsHeader');
nameApiSchema(EmailStatsChartRow, 'EmailStatsDay');
