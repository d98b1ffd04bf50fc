import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { WorkspaceIdField } from '../shared/schemas';
import { DKIM_SELECTOR, isHostname, isValidTimeZone, SETTINGS_LIMITS } from './workspace-settings.rules';

export const GetWorkspaceSettingsInput = z.object({ workspace_id: WorkspaceIdField });
export type GetWorkspaceSettingsInput = z.infer<typeof GetWorkspaceSettingsInput>;

export const WorkspaceSettings = z.object({
  workspace_id: z.string(),
  name: z.string(),
  timezone: z.string().describe('IANA time zone of the workspace (default UTC)'),
  tracking_domain: z.string().describe('Custom open/click tracking hostname; empty when none'),
  dkim_selectors: z.array(z.string()).describe('Extra DKIM selectors the domain checks try'),
  unsubscribe_text: z.string(),
  default_daily_limit: z.number().int().describe('Default daily sending limit of new mailboxes'),
  default_sending_gap: z.number().int().describe('Default minutes between two sends of a mailbox'),
});
export type WorkspaceSettings = z.infer<typeof WorkspaceSettings>;

// Strict numbers, not intParam: a JSON body's null or "" must not coerce to 0.
function boundedInt(max: number) {
  return z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be at least 0').max(max, `must be at most ${max}`);
}

export const UpdateWorkspaceSettingsInput = z
  .object({
    workspace_id: WorkspaceIdField,
    name: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    timezone: z
      .string({ error: 'must be a string' })
      .trim()
      .refine(isValidTimeZone, 'must be an IANA time zone such as Europe/Paris or UTC')
      .optional(),
    tracking_domain: z
      .string({ error: 'must be a string' })
      .trim()
      .toLowerCase()
      .refine((v) => v === '' || isHostname(v), 'must be a hostname such as track.example.com (or empty to remove it)')
      .optional(),
    dkim_selectors: z
      .array(
        z
          .string({ error: 'must be a string' })
          .trim()
          .toLowerCase()
          .regex(DKIM_SELECTOR, 'must be a DNS label such as google or s1'),
        { error: 'must be an array of strings' },
      )
      .max(20, 'must hold at most 20 selectors')
      .transform((list) => [...new Set(list)])
      .optional(),
    unsubscribe_text: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').optional(),
    default_daily_limit: boundedInt(SETTINGS_LIMITS.MAX_DAILY_LIMIT).optional(),
    default_sending_gap: boundedInt(SETTINGS_LIMITS.MAX_SENDING_GAP).optional(),
  })
  .strict();
export type UpdateWorkspaceSettingsInput = z.infer<typeof UpdateWorkspaceSettingsInput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(WorkspaceSettings, 'WorkspaceSettings');
