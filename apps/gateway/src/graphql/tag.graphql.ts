// GraphQL fields of the tag operations.
import { operations } from '@outreach/core';
import { entity, operationField, run, typeOf } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.tag;
const names = { camp_count: 'campaignCount', ea_count: 'accountCount' };

/** tag.list pages with skip/limit and has no id filter: a tag is found in its pages. */
const Tag = entity(typeOf(ops.list, 'Tag', { names }), {
  load: async (ctx, workspaceId, id) => {
    for (let skip = 0; ; skip += 100) {
      const page = await run<{ _id: string }[]>(ctx, ops.list, { workspace_id: workspaceId, skip, limit: 100 });
      const found = page.find((tag) => tag._id === id.toLowerCase());
      if (found || page.length < 100) return found;
    }
  },
});

operationField('tags', ops.list, { on: Workspace, type: 'Tag', names });
operationField('createTag', ops.create, { returns: { entity: Tag, id: (out) => out.tag_id } });
operationField('updateTag', ops.update, { returns: { entity: Tag, id: (_out, input) => input['tag_id'] } });
operationField('deleteTags', ops.delete, { result: 'deleted_count' });
