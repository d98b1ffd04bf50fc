import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { SkipLimit, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';
import { normalizeBlocklistEntry, type NormalizedEntry } from './blocklist.rules';

/** One entry of a request, normalised; an invalid one is an issue at `entries.<i>`. */
const EntryField = z
  .string({ error: 'must be a string' })
  .transform((raw, ctx): NormalizedEntry => {
    const entry = normalizeBlocklistEntry(raw);
    if (!entry) {
      ctx.addIssue({ code: 'custom', message: 'must be an email address or a domain' });
      return z.NEVER;
    }
    return entry;
  });

const EntriesField = z
  .array(EntryField, { error: requiredOr('an array of email addresses or domains') })
  .min(1, 'must hold at least one entry')
  .max(1000, 'must hold at most 1000 entries')
  .describe('Email addresses or domains (`example.com`, `@example.com` and `*@example.com` all block the domain)');

export const ListBlocklistInput = z.object({
  workspace_id: WorkspaceIdField,
  ...SkipLimit,
  search: z
    .string({ error: 'must be a string' })
    .trim()
    .max(320, 'must be at most 320 characters')
    .optional()
    .describe('Only entries containing this text, case-insensitively (our addition; not a vendor parameter)'),
});
export type ListBlocklistInput = z.infer<typeof ListBlocklistInput>;

export const BlocklistItem = z.object({
  _id: z.string(),
  workspace_id: z.string(),
  value: z.string().describe('A lower-case address, or a lower-case domain blocking every address at it'),
  created_by_label: z.string(),
  created_at: z.string().describe('ISO 8601 timestamp'),
});
export type BlocklistItem = z.infer<typeof BlocklistItem>;

export const ListBlocklistOutput = z
  .record(z.string(), BlocklistItem)
  .describe('Entries keyed "0", "1", … in page order (newest first), as the vendor answers');
export type ListBlocklistOutput = z.infer<typeof ListBlocklistOutput>;

export const AddBlocklistEntriesInput = z.object({
  workspace_id: WorkspaceIdField,
  entries: EntriesField,
});
export type AddBlocklistEntriesInput = z.infer<typeof AddBlocklistEntriesInput>;

export const AddBlocklistEntriesOutput = z.object({
  status: StatusSuccess,
  entries_added: z.number().int(),
  already_in_blocklist: z.number().int(),
});
export type AddBlocklistEntriesOutput = z.infer<typeof AddBlocklistEntriesOutput>;

export const DeleteBlocklistEntriesInput = z.object({
  workspace_id: WorkspaceIdField,
  entries: EntriesField,
});
export type DeleteBlocklistEntriesInput = z.infer<typeof DeleteBlocklistEntriesInput>;

export const DeleteBlocklistEntriesOutput = z.object({
  status: StatusSuccess,
  entries_deleted: z.number().int(),
});
export type DeleteBlocklistEntriesOutput = z.infer<typeof DeleteBlocklistEntriesOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(BlocklistItem, 'BlocklistEntry');
