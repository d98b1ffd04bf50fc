// GraphQL types and fields of the workspace settings, additional fields, settings copies and invitations.
import type { z } from 'zod';
import { operations } from '@outreach/core';
import { builder } from './builder';
import { WorkspaceType } from './workspace.graphql';
import { runOperation } from './run';

type SettingsShape = z.output<typeof operations.workspaceSettings.get.output>;
type FieldShape = { name: string; default_value: string };

const WorkspaceSettingsType = builder.objectRef<SettingsShape>('WorkspaceSettings').implement({
  description: 'Time zone and sending settings of a workspace, defaults filled in',
  fields: (t) => ({
    workspaceId: t.exposeID('workspace_id'),
    name: t.exposeString('name'),
    timezone: t.exposeString('timezone'),
    trackingDomain: t.exposeString('tracking_domain'),
    dkimSelectors: t.exposeStringList('dkim_selectors'),
    unsubscribeText: t.exposeString('unsubscribe_text'),
    defaultDailyLimit: t.exposeInt('default_daily_limit'),
    defaultSendingGap: t.exposeInt('default_sending_gap'),
  }),
});

const AdditionalFieldType = builder.objectRef<FieldShape>('AdditionalField').implement({
  description: 'A custom lead field of a workspace',
  fields: (t) => ({
    name: t.exposeString('name'),
    defaultValue: t.exposeString('default_value'),
  }),
});

const InviteRoleEnum = builder.enumType('InviteRole', { values: ['ADMIN', 'MEMBER'] as const });

const WorkspaceInvitationType = builder
  .objectRef<{ invite_id: string; token: string; expires_at: string }>('WorkspaceInvitation')
  .implement({
    description: 'A pending invitation; the token is shown once',
    fields: (t) => ({
      inviteId: t.exposeID('invite_id'),
      token: t.exposeString('token'),
      expiresAt: t.field({ type: 'DateTime', resolve: (invite) => new Date(invite.expires_at) }),
    }),
  });

builder.prismaObjectField(WorkspaceType, 'settings', (t) =>
  t.field({
    type: WorkspaceSettingsType,
    description: operations.workspaceSettings.get.description,
    resolve: (workspace, _args, { ctx }) => runOperation({ op: operations.workspaceSettings.get, ctx, input: { workspace_id: workspace.id } }),
  }),
);

builder.prismaObjectField(WorkspaceType, 'additionalFields', (t) =>
  t.field({
    type: [AdditionalFieldType],
    description: operations.additionalField.list.description,
    resolve: (workspace, _args, { ctx }) => runOperation({ op: operations.additionalField.list, ctx, input: { workspace_id: workspace.id } }),
  }),
);

builder.mutationField('updateWorkspaceSettings', (t) =>
  t.field({
    type: WorkspaceSettingsType,
    description: operations.workspaceSettings.update.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      name: t.arg.string(),
      timezone: t.arg.string(),
      trackingDomain: t.arg.string(),
      dkimSelectors: t.arg.stringList(),
      unsubscribeText: t.arg.string(),
      defaultDailyLimit: t.arg.int(),
      defaultSendingGap: t.arg.int(),
    },
    resolve: (_root, args, { ctx }) =>
      runOperation({
        op: operations.workspaceSettings.update,
        ctx,
        input: {
          workspace_id: args.workspaceId,
          name: args.name ?? undefined,
          timezone: args.timezone ?? undefined,
          tracking_domain: args.trackingDomain ?? undefined,
          dkim_selectors: args.dkimSelectors ?? undefined,
          unsubscribe_text: args.unsubscribeText ?? undefined,
          default_daily_limit: args.defaultDailyLimit ?? undefined,
          default_sending_gap: args.defaultSendingGap ?? undefined,
        },
      }),
  }),
);

builder.mutationField('createAdditionalField', (t) =>
  t.field({
    type: AdditionalFieldType,
    description: operations.additionalField.create.description,
    args: { workspaceId: t.arg.id({ required: true }), name: t.arg.string({ required: true }), defaultValue: t.arg.string() },
    resolve: async (_root, args, { ctx }) => {
      const created = await runOperation({
        op: operations.additionalField.create,
        ctx,
        input: { workspace_id: args.workspaceId, name: args.name, default_value: args.defaultValue ?? undefined },
      });
      return { name: created.name, default_value: args.defaultValue ?? '' };
    },
  }),
);

builder.mutationField('updateAdditionalField', (t) =>
  t.field({
    type: AdditionalFieldType,
    description: operations.additionalField.update.description,
    args: { workspaceId: t.arg.id({ required: true }), name: t.arg.string({ required: true }), defaultValue: t.arg.string({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const input = { workspace_id: args.workspaceId, name: args.name, default_value: args.defaultValue };
      await runOperation({ op: operations.additionalField.update, ctx, input });
      // The stored name may differ in case from the one given: answer it as stored.
      const fields = await runOperation({ op: operations.additionalField.list, ctx, input: { workspace_id: args.workspaceId } });
      const wanted = args.name.trim().replace(/\s+/g, '_').toLowerCase();
      return fields.find((f) => f.name.toLowerCase() === wanted) ?? { name: args.name, default_value: args.defaultValue };
    },
  }),
);

builder.mutationField('deleteAdditionalFields', (t) =>
  t.int({
    description: `${operations.additionalField.delete.description} Answers the number of fields deleted.`,
    args: { workspaceId: t.arg.id({ required: true }), names: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const deleted = await runOperation({ op: operations.additionalField.delete, ctx, input: { workspace_id: args.workspaceId, names: args.names } });
      return deleted.deleted_count;
    },
  }),
);

builder.mutationField('copyWorkspaceSettings', (t) =>
  t.int({
    description: `${operations.workspace.copySettings.description} Answers the number of target workspaces.`,
    args: { workspaceId: t.arg.id({ required: true }), toWorkspaceIds: t.arg.idList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const copied = await runOperation({
        op: operations.workspace.copySettings,
        ctx,
        input: { workspace_id: args.workspaceId, to_workspace_ids: args.toWorkspaceIds },
      });
      return copied.copied;
    },
  }),
);

builder.mutationField('inviteUser', (t) =>
  t.field({
    type: WorkspaceInvitationType,
    description: operations.workspace.inviteUser.description,
    args: { workspaceId: t.arg.id({ required: true }), email: t.arg.string({ required: true }), role: t.arg({ type: InviteRoleEnum, required: true }) },
    resolve: (_root, args, { ctx }) =>
      runOperation({ op: operations.workspace.inviteUser, ctx, input: { workspace_id: args.workspaceId, email: args.email, role: args.role } }),
  }),
);

const AcceptedInvite = builder.objectRef<{ workspace_id: string; api_key: string }>('AcceptedInvite').implement({
  description: 'The workspace joined and the API key issued for it (shown once)',
  fields: (t) => ({ workspaceId: t.exposeID('workspace_id'), apiKey: t.exposeString('api_key') }),
});

builder.mutationField('acceptInvite', (t) =>
  t.field({
    type: AcceptedInvite,
    description: 'Accepts a workspace invitation; answers without an API key (the invited person has none yet)',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => runOperation({ op: operations.workspace.acceptInvite, ctx, input: { token: args.token } }),
  }),
);
