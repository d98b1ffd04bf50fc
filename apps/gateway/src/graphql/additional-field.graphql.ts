// GraphQL fields of the additional-field (custom lead field) operations.
import { operations } from '@outreach/core';
import { entity, operationField, run, typeOf } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.additionalField;

/** Fields are named, not numbered: read back by name (as stored, whatever its case). */
const AdditionalField = entity(typeOf(ops.list, 'AdditionalField'), {
  load: async (ctx, workspaceId, name) => {
    const fields = await run<{ name: string }[]>(ctx, ops.list, { workspace_id: workspaceId });
    return fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
  },
});

operationField('additionalFields', ops.list, { on: Workspace, type: 'AdditionalField' });
operationField('createAdditionalField', ops.create, { returns: { entity: AdditionalField, id: (out) => out.name } });
operationField('updateAdditionalField', ops.update, { returns: { entity: AdditionalField, id: (_out, input) => ops.update.input.parse(input).name } });
operationField('deleteAdditionalFields', ops.delete, { result: 'deleted_count' });
