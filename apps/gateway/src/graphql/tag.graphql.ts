// GraphQL types and fields of the tag operations.
import { operations } from '@outreach/core';
import { builder } from './builder';
import { WorkspaceType } from './workspace.graphql';
import { guard, inOrderOf, runOperation } from './run';

export const TagType = builder.prismaObject('Tag', {
  description: 'A tag of a workspace, put on campaigns and email accounts',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    color: t.exposeString('color'),
    description: t.exposeString('description'),
    status: t.exposeString('status'),
    campaignCount: t.relationCount('campaigns'),
    accountCount: t.relationCount('emailAccounts'),
  }),
});

builder.prismaObjectField(WorkspaceType, 'tags', (t) =>
  t.prismaField({
    type: ['Tag'],
    description: 'Tags, oldest first (client keys need TAG_LIST)',
    args: { skip: t.arg.int(), limit: t.arg.int() },
    resolve: async (query, workspace, args, { ctx }) => {
      const listed = await runOperation({
        op: operations.tag.list,
        ctx,
        input: { workspace_id: workspace.id, skip: args.skip ?? undefined, limit: args.limit ?? undefined },
      });
      const ids = listed.map((tag) => tag._id);
      return guard(ctx, async () => inOrderOf(await ctx.db.tag.findMany({ ...query, where: { id: { in: ids }, workspaceId: workspace.id } }), ids));
    },
  }),
);

builder.mutationField('createTag', (t) =>
  t.prismaField({
    type: 'Tag',
    description: operations.tag.create.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      color: t.arg.string({ required: true }),
      description: t.arg.string(),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const created = await runOperation({
        op: operations.tag.create,
        ctx,
        input: { workspace_id: args.workspaceId, name: args.name, color: args.color, description: args.description ?? undefined },
      });
      return guard(ctx, () => ctx.db.tag.findUniqueOrThrow({ ...query, where: { id: created.tag_id } }));
    },
  }),
);

builder.mutationField('updateTag', (t) =>
  t.prismaField({
    type: 'Tag',
    description: operations.tag.update.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      tagId: t.arg.id({ required: true }),
      name: t.arg.string(),
      color: t.arg.string(),
      description: t.arg.string(),
    },
    resolve: async (query, _root, args, { ctx }) => {
      await runOperation({
        op: operations.tag.update,
        ctx,
        input: {
          workspace_id: args.workspaceId,
          tag_id: args.tagId,
          name: args.name ?? undefined,
          color: args.color ?? undefined,
          description: args.description ?? undefined,
        },
      });
      return guard(ctx, () => ctx.db.tag.findUniqueOrThrow({ ...query, where: { id: String(args.tagId).toLowerCase() } }));
    },
  }),
);

builder.mutationField('deleteTags', (t) =>
  t.int({
    description: 'Deletes tags by id (removing them from campaigns and accounts); answers the number deleted',
    args: { workspaceId: t.arg.id({ required: true }), ids: t.arg.idList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const deleted = await runOperation({ op: operations.tag.delete, ctx, input: { workspace_id: args.workspaceId, ids: args.ids } });
      return deleted.deleted_count;
    },
  }),
);
