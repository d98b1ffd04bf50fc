// Input and output of the organization's API-key management (api-key.operations.ts).
import { z } from 'zod';
import { ObjectId, StatusSuccess, WorkspaceIdField, requiredOr, roleInput } from '../shared/schemas';

const ApiKeyId = ObjectId.describe('Id of an API key (`id`, as apiKey.create and apiKey.list answer it)');

/** The role a new key acts with; omitted: full access, as keys made with the CLI. */
export const ApiKeyRoleField = roleInput(['OWNER', 'ADMIN', 'MEMBER', 'READ_ONLY']);

export const CreateApiKeyInput = z.object({
  name: z
    .string({ error: requiredOr('a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .describe('A label to recognise the key by (where it is used)'),
  workspace_id: WorkspaceIdField.optional().describe('Limits the key to this workspace of the organization; omitted: every workspace'),
  role: ApiKeyRoleField.optional().describe('The role the key acts with (READ_ONLY runs queries only); omitted: full access'),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

export const ApiKeyRow = z.object({
  id: z.string(),
  name: z.string(),
  key_prefix: z.string().describe("The key's first group, to recognise it; never the key"),
  workspace_id: z.string().nullable().describe('The one workspace the key reaches; null: every workspace (or, for a partner or client key, those granted to it)'),
  role: z.enum(['OWNER', 'ADMIN', 'MEMBER', 'READ_ONLY']).nullable().describe('null: full access'),
  partner_name: z.string().nullable().describe("A partner key's partner"),
  client_id: z.string().nullable().describe("A client-access key's client"),
  created_at: z.string(),
  last_used_at: z.string().nullable().describe('When the key last authenticated a request, to the minute; null: never used'),
  revoked_at: z.string().nullable(),
});

export const CreateApiKeyOutput = z.object({
  status: StatusSuccess,
  api_key: z.string().describe('The key itself: shown once, stored only as its SHA-256'),
  key: ApiKeyRow,
});

export const ListApiKeysInput = z.object({});
export const ListApiKeysOutput = z.object({ status: StatusSuccess, api_keys: z.array(ApiKeyRow) });

export const RevokeApiKeyInput = z.object({ id: ApiKeyId });
export const RevokeApiKeyOutput = z.object({ status: StatusSuccess, key: ApiKeyRow });
