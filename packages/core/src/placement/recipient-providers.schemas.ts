import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { WorkspaceIdField } from '../shared/schemas';

/** Also the order of the groups in the answer. */
export const AccountClass = z.enum(['PERSONAL', 'PROFESSIONAL']).describe('PERSONAL (consumer mailboxes) or PROFESSIONAL (business mailboxes)');
export type AccountClass = z.infer<typeof AccountClass>;

export const ListRecipientProvidersInput = z
  .object({
    workspace_id: WorkspaceIdField.optional().describe('Workspace identifier (24 hex characters); optional, checked when given'),
  })
  .default({});
export type ListRecipientProvidersInput = z.infer<typeof ListRecipientProvidersInput>;

export const RecipientProvider = z.object({
  recipient_type: z.string().describe('Provider identifier (PERSONAL_PROVIDERA, PROVIDERA, PROVIDERB)'),
  name: z.string().describe('Human-readable provider name'),
  account_class: AccountClass,
});
export type RecipientProvider = z.infer<typeof RecipientProvider>;

export const RecipientProviderGroup = z.object({
  _id: AccountClass.describe('Account class of the group'),
  items: z.array(RecipientProvider),
  count: z.number().int().nonnegative().describe('Number of items in the group'),
});
export type RecipientProviderGroup = z.infer<typeof RecipientProviderGroup>;

export const ListRecipientProvidersOutput = z.object({
  code: z.literal(200),
  message: z.literal('success'),
  data: z.array(RecipientProviderGroup),
});
export type ListRecipientProvidersOutput = z.infer<typeof ListRecipientProvidersOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(RecipientProviderGroup, 'RecipientProviderGroup');
nameApiSchema(RecipientProvider, 'RecipientProvider');
