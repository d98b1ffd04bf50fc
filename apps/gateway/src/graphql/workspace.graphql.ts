import { z } from 'zod';
import { assertWorkspaceAccess, operations, WorkspaceIdField } from '@outreach/core';
import { builder } from './builder';
import { guard, inOrderOf, runOperation } from './run';

export const WorkspaceType = builder.prismaObject('Workspace', {
  description: 'A workspace: campaigns, leads, mailboxes and settings of one team or client',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    timezone: t.exposeString('timezone'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('workspaces', (t) =>
  t.prismaField({
    type: ['Workspace'],
    description: 'Workspaces the API key reaches, oldest first',
    resolve: async (query, _root, _args, { ctx }) => {
      const listed = await runOperation({ op: operations.workspace.list, ctx, input: {} });
      const ids = listed.workspaces.map((w) => w._id);
      return guard(ctx, async () => {
        const rows = await ctx.db.workspace.findMany({ ...query, where: { id: { in: ids }, organizationId: ctx.actor.organizationId } });
        return inOrderOf(rows, ids);
      });
    },
  }),
);

builder.queryField('workspace', (t) =>
  t.prismaField({
    type: 'Workspace',
    description: 'One workspace by id (403 as a FORBIDDEN error when the key does not reach it)',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      return guard(ctx, async () => {
        const workspaceId = z.object({ id: WorkspaceIdField }).parse(args).id;
        await assertWorkspaceAccess({ ctx, workspaceId });
        return ctx.db.workspace.findUniqueOrThrow({ ...query, where: { id: workspaceId } });
      });
    },
  }),
);

builder.mutationField('createWorkspace', (t) =>
  t.prismaField({
    type: 'Workspace',
    description: 'Adds a workspace to the organization (organization keys only)',
    args: { name: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      const created = await runOperation({ op: operations.workspace.create, ctx, input: { workspace_name: args.name } });
      return guard(ctx, () => ctx.db.workspace.findUniqueOrThrow({ ...query, where: { id: created._id } }));
    },
  }),
);
