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
