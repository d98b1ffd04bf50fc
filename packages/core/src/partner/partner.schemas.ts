import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, SkipLimit, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';
import { emailAccountOperations } from '../email-account/index';

/** A partner's name (the provider's): what its keys, its mailboxes and its activity carry. */
export const PartnerName = z
  .string({ error: requiredOr('a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .describe("The partner's name (the email-infrastructure provider), e.g. Mailforge");

const PartnerKeyId = ObjectId.describe('Id of a partner key (`partner_key_id`, as POST /partner/keys answers it)');

const WorkspaceIds = z
  .array(WorkspaceIdField, { error: 'must be an array of workspace ids' })
  .max(1000, 'must hold at most 1000 workspace ids')
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: 'is given twice' });
      seen.add(id);
    });
  });

// ─── the organization's side: partner keys, grants, activity ──────────────────────────

export const CreatePartnerKeyInput = z.object({
  name: PartnerName,
  workspace_ids: WorkspaceIds.default([]).describe('Workspaces granted to the key at once (each of the organization); more with POST /partner/grants'),
});
export type CreatePartnerKeyInput = z.infer<typeof CreatePartnerKeyInput>;

export const CreatePartnerKeyOutput = z.object({
  status: StatusSuccess,
  partner_key_id: z.string(),
  api_key: z.string().describe('The key itself: shown once, stored only as its SHA-256'),
  name: z.string(),
  workspace_ids: z.array(z.string()),
});
export type CreatePartnerKeyOutput = z.infer<typeof CreatePartnerKeyOutput>;

export const PartnerKeyItem = z.object({
  partner_key_id: z.string(),
  name: z.string().describe("The partner's name"),
  key_prefix: z.string().describe('First group of the key, to recognise it (never the key)'),
  workspace_ids: z.array(z.string()).describe('Workspaces that grant the key, by id'),
  created_at: z.string(),
  revoked_at: z.string().nullable().describe('When the key was revoked; null while it works'),
});
export type PartnerKeyItem = z.infer<typeof PartnerKeyItem>;

export const ListPartnerKeysInput = z.object({}).default({}).describe('No parameters: every partner key of the organization, revoked ones included.');
export const ListPartnerKeysOutput = z.object({ status: StatusSuccess, partner_keys: z.array(PartnerKeyItem) });
export type ListPartnerKeysOutput = z.infer<typeof ListPartnerKeysOutput>;

export const RevokePartnerKeyInput = z.object({ partner_key_id: PartnerKeyId });
export type RevokePartnerKeyInput = z.infer<typeof RevokePartnerKeyInput>;

export const PartnerGrantInput = z.object({
  partner_key_id: PartnerKeyId,
  workspace_id: WorkspaceIdField.describe('The workspace that grants (or stops granting) the partner key'),
});
export type PartnerGrantInput = z.infer<typeof PartnerGrantInput>;

export const PartnerStatusOutput = z.object({ status: StatusSuccess });

export const ListPartnerActivityInput = z.object({
  workspace_id: WorkspaceIdField.optional().describe('Only the calls made in this workspace'),
  partner_key_id: PartnerKeyId.optional().describe('Only the calls of this partner key'),
  ...SkipLimit,
});
export type ListPartnerActivityInput = z.infer<typeof ListPartnerActivityInput>;

export const PartnerActivityItem = z.object({
  _id: z.string(),
  partner_key_id: z.string(),
  partner_name: z.string(),
  operation: z.string().describe('The operation called (its tRPC name, `partner.uploadAccounts`)'),
  workspace_id: z.string().nullable().describe('The workspace of the call; null for calls across workspaces'),
  email_account_id: z.string().nullable().describe('The email account the call touched (one row per account); null when none'),
  occurred_at: z.string(),
});
export type PartnerActivityItem = z.infer<typeof PartnerActivityItem>;

export const ListPartnerActivityOutput = z.object({ status: StatusSuccess, activity: z.array(PartnerActivityItem) });
export type ListPartnerActivityOutput = z.infer<typeof ListPartnerActivityOutput>;

// ─── the partner's side ───────────────────────────────────────────────────────────────

export const PartnerAccountListInput = z.object({
  workspace_id: WorkspaceIdField.describe('A workspace that grants the partner key'),
  ...SkipLimit,
});
export type PartnerAccountListInput = z.infer<typeof PartnerAccountListInput>;

export const PartnerAccountExistsInput = z.object({
  email: z
    .string({ error: requiredOr('a string') })
    .trim()
    .max(320, 'must be at most 320 characters')
    .pipe(z.email('must be an email address'))
    .describe('The mailbox address, case-insensitive'),
});
export type PartnerAccountExistsInput = z.infer<typeof PartnerAccountExistsInput>;

export const PartnerAccountExistsOutput = z.object({
  status: StatusSuccess,
  exists: z.boolean().describe('Whether the address is connected in any workspace of the organization, granted to this key or not'),
  workspace_ids: z.array(z.string()).describe('The workspaces granted to this key where it is connected (never any other)'),
});
export type PartnerAccountExistsOutput = z.infer<typeof PartnerAccountExistsOutput>;

export const ProviderId = z
  .string({ error: requiredOr('a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .describe("The partner's own id for this order or provider (stored on each added mailbox)");

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(PartnerKeyItem, 'PartnerKey');
nameApiSchema(PartnerActivityItem, 'PartnerActivity');

/** The bulk add's body (`POST /account/bulk-add-regular-accounts`) with the partner's `provider_id`. */
export const UploadPartnerAccountsInput = emailAccountOperations.bulkAdd.input.extend({ provider_id: ProviderId });
export type UploadPartnerAccountsInput = z.infer<typeof UploadPartnerAccountsInput>;
