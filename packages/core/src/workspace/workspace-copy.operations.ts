import { newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { forbidden } from '../shared/errors';
import { assertNotClientKey, checkActorScope } from '../shared/tenancy';
import { CopyWorkspaceSettingsInput, CopyWorkspaceSettingsOutput } from './workspace-copy.schemas';

// Labels and fields are written with one statement each over arrays (unnest), however
// many targets and rows: 50 targets × 100 labels stays two round trips.
const UPSERT_LABELS_SQL = `
INSERT INTO lead_labels (id, workspace_id, key, name, sentiment, icon, is_system, is_ai_label, created_at)
SELECT t.id, t.workspace_id, t.key, t.name, t.sentiment::"LabelSentiment", t.icon, false, t.is_ai_label, t.created_at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::timestamptz[])
       AS t(id, workspace_id, key, name, sentiment, icon, is_ai_label, created_at)
ON CONFLICT (workspace_id, key) DO UPDATE
   SET name = excluded.name, sentiment = excluded.sentiment, icon = excluded.icon, is_ai_label = excluded.is_ai_label
 WHERE lead_labels.is_system = false`;

// Field names are unique regardless of case, which the exact unique index cannot
// express: update the case-insensitive matches, then insert what is still missing.
const UPDATE_FIELDS_SQL = `
UPDATE additional_fields f
   SET default_value = s.default_value
  FROM unnest($2::text[], $3::text[]) AS s(name, default_value)
 WHERE f.workspace_id = ANY($1::text[]) AND lower(f.name) = lower(s.name)`;

const INSERT_FIELDS_SQL = `
INSERT INTO additional_fields (id, workspace_id, name, default_value, created_at)
SELECT t.id, t.workspace_id, t.name, t.default_value, t.created_at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS t(id, workspace_id, name, default_value, created_at)
 WHERE NOT EXISTS (SELECT 1 FROM additional_fields f WHERE f.workspace_id = t.workspace_id AND lower(f.name) = lower(t.name))`;

export const copyWorkspaceSettings = defineOperation({
  name: 'workspace.copySettings',
  kind: 'mutation',
  role: 'admin',
  summary: 'Copy workspace settings to other workspaces',
  description: [
    'Copies the source workspace\'s (`workspace_id`) settings to each of `to_workspace_ids` (1 to 50, duplicates counted once),',
    'in one transaction: the settings JSON (tracking domain, DKIM selectors, unsubscribe text, default limits) and the',
    'time zone replace the target\'s; custom lead labels are upserted by key (name, sentiment and icon overwritten; system',
    'labels exist everywhere already and are left alone); additional fields are upserted by name regardless of case',
    '(default value overwritten). Nothing is deleted from a target: its own extra labels and fields stay. The workspace',
    'name is not copied. Every target must be a workspace of the caller\'s organization that the key reaches (403',
    'otherwise, nothing written); naming the source as a target is a 400. Client-access keys cannot copy (403).',
  ].join(' '),
  input: CopyWorkspaceSettingsInput,
  output: CopyWorkspaceSettingsOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const sourceId = input.workspace_id;
    const targets = [...new Set(input.to_workspace_ids)];
    for (const workspaceId of targets) checkActorScope({ actor: ctx.actor, workspaceId });
    const owned = await ctx.db.workspace.findMany({
      where: { id: { in: targets }, organizationId: ctx.actor.organizationId },
      select: { id: true },
    });
    const ownedIds = new Set(owned.map((w) => w.id));
    const foreign = targets.find((id) => !ownedIds.has(id));
    if (foreign) throw forbidden('auth.workspace_forbidden', `workspace_id ${foreign} is not accessible with this API key`);

    await ctx.db.$transaction(async (tx) => {
      const source = await tx.workspace.findUniqueOrThrow({ where: { id: sourceId }, select: { settings: true, timezone: true } });
      const labels = await tx.leadLabel.findMany({
        where: { workspaceId: sourceId, isSystem: false },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { key: true, name: true, sentiment: true, icon: true, isAiLabel: true },
      });
      const fields = await tx.additionalField.findMany({
        where: { workspaceId: sourceId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { name: true, defaultValue: true },
      });
      await tx.workspace.updateMany({
        where: { id: { in: targets }, organizationId: ctx.actor.organizationId },
        data: { settings: source.settings ?? {}, timezone: source.timezone },
      });
      // Copies keep the source's order: each row one millisecond after the previous one.
      const base = ctx.ports.clock.now().getTime();
      if (labels.length) {
        const rows = targets.flatMap((workspaceId) => labels.map((l, i) => ({ ...l, workspaceId, createdAt: new Date(base + i) })));
        await tx.$executeRawUnsafe(
          UPSERT_LABELS_SQL,
          rows.map(() => newId()),
          rows.map((r) => r.workspaceId),
          rows.map((r) => r.key),
          rows.map((r) => r.name),
          rows.map((r) => r.sentiment),
          rows.map((r) => r.icon),
          rows.map((r) => r.isAiLabel),
          rows.map((r) => r.createdAt.toISOString()),
        );
      }
      if (fields.length) {
        await tx.$executeRawUnsafe(UPDATE_FIELDS_SQL, targets, fields.map((f) => f.name), fields.map((f) => f.defaultValue));
        const rows = targets.flatMap((workspaceId) => fields.map((f, i) => ({ ...f, workspaceId, createdAt: new Date(base + i) })));
        await tx.$executeRawUnsafe(
          INSERT_FIELDS_SQL,
          rows.map(() => newId()),
          rows.map((r) => r.workspaceId),
          rows.map((r) => r.name),
          rows.map((r) => r.defaultValue),
          rows.map((r) => r.createdAt.toISOString()),
        );
      }
    });
    return { status: 'success' as const, copied: targets.length };
  },
});
