import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { BoolInput, ObjectId, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';

export const ListWebhooksInput = z.object({ workspace_id: WorkspaceIdField });
export type ListWebhooksInput = z.infer<typeof ListWebhooksInput>;

export const WebhookItem = z.object({
  _id: z.string(),
  workspace_id: z.string(),
  org_id: z.string(),
  url: z.string(),
  name: z.string(),
  secret: z.string().describe('The signing secret in plain text, as the vendor echoes it; "" when none'),
  camp_ids: z.array(z.string()),
  evt_types: z.array(z.string()),
  status: z.enum(['ACTIVE', 'DISABLED']),
  ignore_ooo: z.union([z.literal(0), z.literal(1)]),
  ignore_automatic: z.union([z.literal(0), z.literal(1)]),
  created_at: z.string(),
  modified_at: z.string(),
  last_run: z.string().nullable().describe('ISO 8601 timestamp of the last delivery; null before the first'),
  last_resp: z.string().nullable().describe('Status or error of the last delivery; null before the first'),
});
export type WebhookItem = z.infer<typeof WebhookItem>;

export const ListWebhooksOutput = z.object({ hooks: z.array(WebhookItem) });
export type ListWebhooksOutput = z.infer<typeof ListWebhooksOutput>;

export const AddWebhookInput = z.object({
  workspace_id: WorkspaceIdField,
  url: z
    .string({ error: requiredOr('a string') })
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .refine((u) => {
      try {
        const parsed = new URL(u);
        return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname.length > 0;
      } catch {
        return false;
      }
    }, 'must be an http(s) URL')
    .refine((u) => {
      // Credentials in the URL would be stored and listed in plain text; the secret signs instead.
      try {
        const parsed = new URL(u);
        return !parsed.username && !parsed.password;
      } catch {
        return true;
      }
    }, 'must not contain a username or password; use the secret'),
  camp_ids: z
    .array(z.string({ error: 'must be a string' }).trim(), { error: requiredOr('an array of campaign ids') })
    .min(1, 'must hold at least one campaign id, or "ALL"')
    .max(1000, 'must hold at most 1000 campaign ids')
    .describe('Campaign ids of the workspace, or ["ALL"] for every campaign now and later'),
  event_types: z
    .array(z.string({ error: 'must be a string' }).trim(), { error: requiredOr('an array of event types') })
    .min(1, 'must hold at least one event type')
    .max(100, 'must hold at most 100 event types'),
  name: z.string({ error: 'must be a string' }).trim().max(200, 'must be at most 200 characters').optional(),
  secret: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').optional(),
  ignore_ooo: BoolInput.default(false).describe('1 (or true, "yes"): skip reply events caused by out-of-office replies'),
  ignore_automatic: BoolInput.default(false).describe('1 (or true, "yes"): skip reply events caused by other automatic replies'),
});
export type AddWebhookInput = z.infer<typeof AddWebhookInput>;

export const AddWebhookOutput = z.object({ status: StatusSuccess, _id: z.string() });
export type AddWebhookOutput = z.infer<typeof AddWebhookOutput>;

export const DeleteWebhooksInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: z.array(ObjectId, { error: requiredOr('an array of webhook ids') }).min(1, 'must hold at least one id').max(1000, 'must hold at most 1000 ids'),
});
export type DeleteWebhooksInput = z.infer<typeof DeleteWebhooksInput>;

export const DeleteWebhooksOutput = z.object({ status: StatusSuccess, deleted_count: z.number().int() });
export type DeleteWebhooksOutput = z.infer<typeof DeleteWebhooksOutput>;

export const TestWebhookInput = z.object({
  workspace_id: WorkspaceIdField,
  id: ObjectId.describe('The webhook to send a test event to'),
});
export type TestWebhookInput = z.infer<typeof TestWebhookInput>;

export const TestWebhookOutput = z.object({
  status: StatusSuccess,
  delivery_id: z.string().describe('The queued delivery; the webhook worker POSTs it, then `last_run` and `last_resp` of the webhook tell how it went'),
});
export type TestWebhookOutput = z.infer<typeof TestWebhookOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(WebhookItem, 'Webhook');
