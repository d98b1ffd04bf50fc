import { operations } from '@outreach/core';
import { entity, findListed, operationField, typeOf } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.tag;
const names = { camp_count: 'campaignCount', ea_count: 'accountCount' };

const Tag = entity(typeOf(ops.list, 'Tag', { names }), { node: true, load: (ctx, workspaceId, id) => findListed(ctx, ops.list, { workspace_id: workspaceId }, id) });

operationField('tags', ops.list, { on: Workspace, type: 'Tag', names });
operationField('createTag', ops.create, { returns: { entity: Tag, id: (out) => out.tag_id } });
operationField('updateTag', ops.update, { returns: { entity: Tag, id: (_out, input) => input['tag_id'] } });
operationField('deleteTags', ops.delete, { result: 'deleted_count' });
