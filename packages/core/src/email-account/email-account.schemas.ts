import { z } from 'zod';
import { IsoDate } from '../shared/time';
import { intParam, ObjectId, SkipLimit, StatusSuccess, WorkspaceIdField, YesNo } from '../shared/schemas';

const required = (type: string) => (iss: { input: unknown }) => (iss.input === undefined ? 'is required' : `must be ${type}`);

const Text = (max: number) => z.string({ error: required('a string') }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const Email = z.string({ error: required('a string') }).trim().pipe(z.email('must be an email address'));
const Port = intParam({ min: 1, max: 65535 });
const Ids = z.array(ObjectId, { error: required('an array of email account ids') }).min(1, 'must hold at least one id').max(1000, 'must hold at most 1000 ids');
const DailyLimit = intParam({ min: 0, max: 10_000 }).describe('Sends per day, 0 to 10000; 0 stops sending');
const SendingGap = intParam({ min: 0, max: 1440 }).describe('Minutes between two sends, 0 to 1440');
const WarmupStatus = z.enum(['ACTIVE', 'INACTIVE'], { error: 'must be ACTIVE or INACTIVE' });

export const NewAccount = z.object({
  email: Email,
  first_name: z.string({ error: 'must be a string' }).trim().max(100).default(''),
  last_name: z.string({ error: 'must be a string' }).trim().max(100).default(''),
  smtp_host: Text(255),
  smtp_port: Port,
  smtp_username: Text(320),
  smtp_password: z.string({ error: required('a string') }).min(1, 'must not be empty').max(1000),
  imap_host: Text(255),
  imap_port: Port,
  imap_username: Text(320),
  imap_password: z.string({ error: required('a string') }).min(1, 'must not be empty').max(1000),
  daily_limit: DailyLimit.optional(),
  sending_gap: SendingGap.optional(),
});
export type NewAccount = z.infer<typeof NewAccount>;

export const BulkAddAccountsInput = z.object({
  workspace_id: WorkspaceIdField,
  accounts: z.array(NewAccount, { error: required('an array of accounts') }).min(1, 'must hold at least one account').max(100, 'must hold at most 100 accounts'),
  enable_warmup: YesNo.default('no'),
});
export type BulkAddAccountsInput = z.infer<typeof BulkAddAccountsInput>;

export const BulkAddAccountsOutput = z.object({
  status: StatusSuccess,
  added: z.array(z.object({ email: z.string(), _id: z.string() })),
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

export const AccountItem = z.object({
  _id: z.string(),
  email: z.string(),
  status: z.string(),
  warmup_status: z.string(),
  provider: z.string(),
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
    tags: z.array(z.string()),
    cmps: z.array(z.string()),
  }),
});
export type AccountItem = z.infer<typeof AccountItem>;

export const ListAccountsOutput = z.object({ accounts: z.array(AccountItem) });
export type ListAccountsOutput = z.infer<typeof ListAccountsOutput>;

export const AccountByEmailInput = z.object({ workspace_id: WorkspaceIdField, email: Email });
export type AccountByEmailInput = z.infer<typeof AccountByEmailInput>;

export const AccountStatusOutput = z.object({
  email: z.string(),
  status: z.string(),
  warmup_status: z.string(),
  last_error: z.string().nullable(),
  disconnect_reason: z.string().nullable().describe('Why the engine disconnected the mailbox; null when connected or disconnected by a login check'),
  last_synced_at: z.string().nullable().describe('When the reply reader last read its INBOX (ISO 8601); null before the first read'),
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

export const BulkAssignTagsInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: Ids,
  tag_id: ObjectId,
  action: z.enum(['ASSIGN', 'UNASSIGN'], { error: 'must be ASSIGN or UNASSIGN' }),
});
export type BulkAssignTagsInput = z.infer<typeof BulkAssignTagsInput>;

export const BulkAssignTagsOutput = z.object({ status: StatusSuccess, updated_count: z.number().int() });
export type BulkAssignTagsOutput = z.infer<typeof BulkAssignTagsOutput>;

export const BulkReconnectInput = z.object({ workspace_id: WorkspaceIdField, ids: Ids.max(100, 'must hold at most 100 ids') });
export type BulkReconnectInput = z.infer<typeof BulkReconnectInput>;

export const BulkReconnectOutput = z.object({
  status: StatusSuccess,
  results: z.array(z.object({ _id: z.string(), email: z.string(), status: z.string(), error: z.string().optional() })),
});
export type BulkReconnectOutput = z.infer<typeof BulkReconnectOutput>;

export const MoveWorkspaceInput = z.object({ workspace_id: WorkspaceIdField, to_workspace_id: WorkspaceIdField, ids: Ids });
export type MoveWorkspaceInput = z.infer<typeof MoveWorkspaceInput>;

export const MoveWorkspaceOutput = z.object({ status: StatusSuccess, moved: z.number().int() });
export type MoveWorkspaceOutput = z.infer<typeof MoveWorkspaceOutput>;

export const EmailStatsInput = z.object({
  workspace_id: WorkspaceIdField,
  start_date: IsoDate,
  end_date: IsoDate,
  email_acc_id: ObjectId.optional(),
});
export type EmailStatsInput = z.infer<typeof EmailStatsInput>;

export const EmailStatsOutput = z.object({
  header: z.object({
    total_sent_count: z.number().int(),
    total_reply_count: z.number().int(),
    total_open_count: z.number().int(),
    total_bounce_count: z.number().int(),
    total_contacted_count: z.number().int(),
    total_completed_count: z.number().int(),
    total_pos_reply_count: z.number().int(),
    bounce_rate: z.number(),
    open_rate: z.number(),
    reply_rate: z.number(),
    pos_reply_rate: z.number(),
  }),
  chart: z.array(z.object({ date: z.string(), sent_count: z.number().int(), reply_count: z.number().int(), open_count: z.number().int(), bounce_count: z.number().int() })),
});
export type EmailStatsOutput = z.infer<typeof EmailStatsOutput>;
