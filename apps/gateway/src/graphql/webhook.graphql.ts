// GraphQL types and fields of the webhook operations.
import { operations } from '@outreach/core';
import { builder } from './builder';
import { WorkspaceType } from './workspace.graphql';
import { guard, inOrderOf, runOperation } from './run';

const WebhookStatus = builder.enumType('WebhookStatus', { values: ['ACTIVE', 'DISABLED'] as const });

export const WebhookType = builder.prismaObject('Webhook', {
  description: 'A webhook subscription of a workspace',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    name: t.exposeString('name'),
    // The secret itself stays out of GraphQL: a selection set is too easy to log.
    hasSecret: t.boolean({ resolve: (hook) => hook.secretEnc !== null }),
    campaignIds: t.exposeStringList('campIds'),
    eventTypes: t.exposeStringList('eventTypes'),
    status: t.expose('status', { type: WebhookStatus }),
    ignoreOoo: t.exposeBoolean('ignoreOoo'),
    ignoreAutomatic: t.exposeBoolean('ignoreAutomatic'),
    lastRun: t.expose('lastRun', { type: 'DateTime', nullable: true }),
    lastResponse: t.exposeString('lastResp', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField(WorkspaceType, 'webhooks', (t) =>
  t.prismaField({
    type: ['Webhook'],
    description: 'Webhook subscriptions, oldest first (client keys need HOOK_CREATE)',
    resolve: async (query, workspace, _args, { ctx }) => {
      const listed = await runOperation({ op: operations.webhook.list, ctx, input: { workspace_id: workspace.id } });
      const ids = listed.hooks.map((h) => h._id);
      return guard(ctx, async () => inOrderOf(await ctx.db.webhook.findMany({ ...query, where: { id: { in: ids }, workspaceId: workspace.id } }), ids));
    },
  }),
);

builder.mutationField('addWebhook', (t) =>
  t.prismaField({
    type: 'Webhook',
    description: operations.webhook.add.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      url: t.arg.string({ required: true }),
      campaignIds: t.arg.stringList({ required: true, description: 'Campaign ids, or ["ALL"]' }),
      eventTypes: t.arg.stringList({ required: true }),
      name: t.arg.string(),
      secret: t.arg.string(),
      ignoreOoo: t.arg.boolean(),
      ignoreAutomatic: t.arg.boolean(),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const added = await runOperation({
        op: operations.webhook.add,
        ctx,
        input: {
          workspace_id: args.workspaceId,
          url: args.url,
          camp_ids: args.campaignIds,
          event_types: args.eventTypes,
          name: args.name ?? undefined,
          secret: args.secret ?? undefined,
          ignore_ooo: args.ignoreOoo ? 1 : 0,
          ignore_automatic: args.ignoreAutomatic ? 1 : 0,
        },
      });
      return guard(ctx, () => ctx.db.webhook.findUniqueOrThrow({ ...query, where: { id: added._id } }));
    },
  }),
);

builder.mutationField('deleteWebhooks', (t) =>
  t.int({
    description: 'Deletes webhooks by id; answers the number deleted',
    args: { workspaceId: t.arg.id({ required: true }), ids: t.arg.idList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const deleted = await runOperation({ op: operations.webhook.delete, ctx, input: { workspace_id: args.workspaceId, ids: args.ids } });
      return deleted.deleted_count;
    },
  }),
);
