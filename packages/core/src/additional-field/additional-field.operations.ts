import { classifyPrismaError, newId, type Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { conflict, notFound } from '../shared/errors';
import { assertNotClientKey } from '../shared/tenancy';
import {
  CreateAdditionalFieldInput,
  CreateAdditionalFieldOutput,
  DeleteAdditionalFieldsInput,
  DeleteAdditionalFieldsOutput,
  ListAdditionalFieldsInput,
  ListAdditionalFieldsOutput,
  UpdateAdditionalFieldInput,
  UpdateAdditionalFieldOutput,
} from './additional-field.schemas';

/**
 * Serializes field writes of one workspace: names are unique case-insensitively,
 * which the (exact) unique index cannot enforce alone.
 */
async function lockWorkspace(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$queryRawUnsafe('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', workspaceId);
}

export const listAdditionalFields = defineOperation({
  name: 'additionalField.list',
  kind: 'query',
  summary: 'List additional lead fields',
  description: 'The workspace\'s additional (custom) lead fields with their default values, in creation order.',
  input: ListAdditionalFieldsInput,
  output: ListAdditionalFieldsOutput,
  workspace: 'required',
  async run(ctx, input) {
    const rows = await ctx.db.additionalField.findMany({
      where: { workspaceId: input.workspace_id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { name: true, defaultValue: true },
    });
    return rows.map((r) => ({ name: r.name, default_value: r.defaultValue }));
  },
});

export const createAdditionalField = defineOperation({
  name: 'additionalField.create',
  kind: 'mutation',
  summary: 'Add an additional lead field',
  description: [
    'Adds a custom lead field. The name is trimmed and each run of spaces becomes one `_` ("Deal size" → Deal_size);',
    'it must then match `^[A-Za-z][A-Za-z0-9_]{0,63}$` and not be a built-in lead field in any case (email, first_name, …)',
    '(400 on `name`). Names are unique per workspace regardless of case: "deal_size" after "Deal_size" is a 409',
    '`additional_field.duplicate`. `default_value` (at most 1000 characters) defaults to "". Answers the name as stored.',
    'Client-access keys cannot add fields (403).',
  ].join(' '),
  input: CreateAdditionalFieldInput,
  output: CreateAdditionalFieldOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const duplicate = () => conflict('additional_field.duplicate', `an additional field named ${input.name} already exists in this workspace`);
    try {
      await ctx.db.$transaction(async (tx) => {
        await lockWorkspace(tx, input.workspace_id);
        const existing = await tx.additionalField.findFirst({
          where: { workspaceId: input.workspace_id, name: { equals: input.name, mode: 'insensitive' } },
          select: { id: true },
        });
        if (existing) throw duplicate();
        await tx.additionalField.create({
          data: { id: newId(), workspaceId: input.workspace_id, name: input.name, defaultValue: input.default_value ?? '' },
        });
      });
    } catch (error) {
      if (classifyPrismaError(error)?.kind === 'conflict') throw duplicate();
      throw error;
    }
    return { status: 'success' as const, name: input.name };
  },
});

export const updateAdditionalField = defineOperation({
  name: 'additionalField.update',
  kind: 'mutation',
  summary: 'Update an additional lead field',
  description: [
    'Sets the default value of a field, found by name regardless of case (spaces in the given name count as underscores).',
    'Names are immutable: there is no rename. An unknown name is a 404 `additional_field.not_found`.',
    'Client-access keys cannot change fields (403).',
  ].join(' '),
  input: UpdateAdditionalFieldInput,
  output: UpdateAdditionalFieldOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const updated = await ctx.db.$transaction((tx) =>
      tx.additionalField.updateMany({
        where: { workspaceId: input.workspace_id, name: { equals: input.name, mode: 'insensitive' } },
        data: { defaultValue: input.default_value },
      }),
    );
    if (updated.count === 0) throw notFound('additional_field.not_found', `no additional field named ${input.name} in this workspace`);
    return { status: 'success' as const };
  },
});

export const deleteAdditionalFields = defineOperation({
  name: 'additionalField.delete',
  kind: 'mutation',
  summary: 'Delete additional lead fields',
  description: [
    'Deletes fields by name (regardless of case; spaces count as underscores). Unknown names are ignored and not counted',
    'in `deleted_count`, so a retried delete succeeds. Values leads already carry under the name are kept in their',
    'custom variables. Client-access keys cannot delete fields (403).',
  ].join(' '),
  input: DeleteAdditionalFieldsInput,
  output: DeleteAdditionalFieldsOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const lowered = [...new Set(input.names.map((n) => n.toLowerCase()))];
    const deleted = await ctx.db.$transaction((tx) =>
      tx.$executeRawUnsafe(
        'DELETE FROM additional_fields WHERE workspace_id = $1 AND lower(name) = ANY($2::text[])',
        input.workspace_id,
        lowered,
      ),
    );
    return { status: 'success' as const, deleted_count: deleted };
  },
});
