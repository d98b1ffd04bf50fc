import type { PrismaClient, Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { notFound } from '../shared/errors';
import { assertNotClientKey } from '../shared/tenancy';
import { readStoredSettings, SETTINGS_DEFAULTS } from './workspace-settings.rules';
import {
  GetWorkspaceSettingsInput,
  UpdateWorkspaceSettingsInput,
  WorkspaceSettings,
} from './workspace-settings.schemas';

/** The settings object of one workspace, defaults filled in. */
export async function readWorkspaceSettings(options: { db: PrismaClient | Tx; workspaceId: string }): Promise<WorkspaceSettings> {
  const row = await options.db.workspace.findUnique({
    where: { id: options.workspaceId },
    select: { id: true, name: true, timezone: true, settings: true },
  });
  if (!row) throw notFound('workspace.not_found', 'workspace not found');
  return {
    workspace_id: row.id,
    name: row.name,
    timezone: row.timezone || SETTINGS_DEFAULTS.timezone,
    ...readStoredSettings(row.settings),
  };
}

export const getWorkspaceSettings = defineOperation({
  name: 'workspaceSettings.get',
  kind: 'query',
  summary: 'Get workspace settings',
  description: [
    'The workspace\'s name, time zone and sending settings. A setting never written answers its default:',
    `timezone "${SETTINGS_DEFAULTS.timezone}", tracking_domain "" (none), dkim_selectors [],`,
    `unsubscribe_text "${SETTINGS_DEFAULTS.unsubscribe_text}", default_daily_limit ${SETTINGS_DEFAULTS.default_daily_limit},`,
    `default_sending_gap ${SETTINGS_DEFAULTS.default_sending_gap} (minutes). A stored value of the wrong shape also answers the default.`,
    'Any key that reaches the workspace may read them.',
  ].join(' '),
  input: GetWorkspaceSettingsInput,
  output: WorkspaceSettings,
  workspace: 'required',
  async run(ctx, input) {
    return readWorkspaceSettings({ db: ctx.db, workspaceId: input.workspace_id });
  },
});

export const updateWorkspaceSettings = defineOperation({
  name: 'workspaceSettings.update',
  kind: 'mutation',
  role: 'admin',
  summary: 'Update workspace settings',
  description: [
    'Changes the given settings and answers the full settings object after the change; settings not given keep their value.',
    '`timezone` must be an IANA zone the server knows (or UTC); `tracking_domain` a hostname of at least two labels, lower-cased',
    '(an empty string removes it); `dkim_selectors` at most 20 DNS selectors, lower-cased and de-duplicated, replacing the list',
    '(read by the domain-vitals check); `unsubscribe_text` at most 500 characters; `default_daily_limit` 0 to 10000;',
    '`default_sending_gap` 0 to 1440 minutes. An unknown key is a 400, so a typo never passes silently.',
    'The settings JSON is merged in SQL, so two concurrent updates of different settings both stick.',
    'Client-access keys cannot change settings (403).',
  ].join(' '),
  input: UpdateWorkspaceSettingsInput,
  output: WorkspaceSettings,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const { workspace_id: workspaceId, name, timezone, ...stored } = input;
    const patch = Object.fromEntries(Object.entries(stored).filter(([, v]) => v !== undefined));
    return ctx.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(
        `UPDATE workspaces
            SET settings = CASE WHEN jsonb_typeof(settings) = 'object' THEN settings ELSE '{}'::jsonb END || $2::jsonb,
                name = COALESCE($3, name),
                timezone = COALESCE($4, timezone),
                updated_at = now()
          WHERE id = $1 AND organization_id = $5`,
        workspaceId,
        JSON.stringify(patch),
        name ?? null,
        timezone ?? null,
        ctx.actor.organizationId,
      );
      return readWorkspaceSettings({ db: tx, workspaceId });
    });
  },
});
