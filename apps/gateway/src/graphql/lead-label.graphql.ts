import { builder } from './builder';
import { WorkspaceType } from './workspace.graphql';
import { operations } from '@outreach/core';
import { guard, inOrderOf, runOperation } from './run';

const LabelSentiment = builder.enumType('LabelSentiment', { values: ['POSITIVE', 'NEGATIVE', 'NEUTRAL'] as const });

export const LeadLabelType = builder.prismaObject('LeadLabel', {
  description: 'A lead label of a workspace: a system label or a custom one',
  fields: (t) => ({
    id: t.exposeID('id'),
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    sentiment: t.expose('sentiment', { type: LabelSentiment }),
    icon: t.exposeString('icon'),
    isSystem: t.exposeBoolean('isSystem'),
    isAiLabel: t.exposeBoolean('isAiLabel'),
  }),
});

builder.prismaObjectField(WorkspaceType, 'leadLabels', (t) =>
  t.prismaField({
    type: ['LeadLabel'],
    description: 'System labels first, then custom ones; labels hidden from a client key are left out',
    resolve: async (query, workspace, _args, { ctx }) => {
      const listed = await runOperation({ op: operations.leadLabel.list, ctx, input: { workspace_id: workspace.id } });
      const ids = listed.map((l) => l.id);
      return guard(ctx, async () => {
        const rows = await ctx.db.leadLabel.findMany({ ...query, where: { id: { in: ids }, workspaceId: workspace.id } });
        return inOrderOf(rows, ids);
      });
    },
  }),
);

builder.mutationField('addLeadLabel', (t) =>
  t.prismaField({
    type: 'LeadLabel',
    description: operations.leadLabel.add.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      sentiment: t.arg({ type: LabelSentiment, required: true }),
      icon: t.arg.string(),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const created = await runOperation({
        op: operations.leadLabel.add,
        ctx,
        input: { workspace_id: args.workspaceId, name: args.name, sentiment: args.sentiment, icon: args.icon ?? undefined },
      });
      return guard(ctx, () => ctx.db.leadLabel.findUniqueOrThrow({ ...query, where: { id: created.id } }));
    },
  }),
);

builder.mutationField('deleteLeadLabels', (t) =>
  t.int({
    description: `${operations.leadLabel.delete.description} Answers the number of labels deleted.`,
    args: { workspaceId: t.arg.id({ required: true }), ids: t.arg.idList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const deleted = await runOperation({ op: operations.leadLabel.delete, ctx, input: { workspace_id: args.workspaceId, ids: args.ids } });
      return deleted.deleted_count;
    },
  }),
);
