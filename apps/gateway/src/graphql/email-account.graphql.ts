// GraphQL types and fields of the email-account (sending mailbox) operations.
// Passwords and login usernames are never exposed: the type lists its fields explicitly.
import { operations } from '@outreach/core';
import { builder } from './builder';
import { WorkspaceType } from './workspace.graphql';
import { guard, inOrderOf, runOperation } from './run';

const ops = operations.emailAccount;

export const EmailAccountType = builder.prismaObject('EmailAccount', {
  description: 'A sending mailbox (SMTP/IMAP) of a workspace',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    provider: t.exposeString('provider'),
    status: t.exposeString('status'),
    warmupStatus: t.exposeString('warmupStatus'),
    smtpHost: t.exposeString('smtpHost'),
    smtpPort: t.exposeInt('smtpPort'),
    imapHost: t.exposeString('imapHost'),
    imapPort: t.exposeInt('imapPort'),
    dailyLimit: t.exposeInt('dailyLimit'),
    sendingGap: t.exposeInt('sendingGap'),
    signature: t.exposeString('signature'),
    lastError: t.exposeString('lastError', { nullable: true }),
    disconnectReason: t.exposeString('disconnectReason', { nullable: true, description: 'smtp_auth or imap_auth: which login the engine saw refused' }),
    lastSyncedAt: t.expose('imapSyncedAt', { type: 'DateTime', nullable: true, description: 'When the reply reader last read its INBOX' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    tagIds: t.idList({ select: { tags: { select: { tagId: true } } }, resolve: (a) => a.tags.map((x) => x.tagId).sort() }),
    campaignIds: t.idList({ select: { campaigns: { select: { campaignId: true } } }, resolve: (a) => a.campaigns.map((x) => x.campaignId).sort() }),
  }),
});

builder.prismaObjectField(WorkspaceType, 'emailAccounts', (t) =>
  t.prismaField({
    type: ['EmailAccount'],
    description: 'Sending mailboxes, oldest first (client keys need EMAILACCOUNT_LIST)',
    args: { skip: t.arg.int(), limit: t.arg.int(), email: t.arg.string(), tagIds: t.arg.idList() },
    resolve: async (query, workspace, args, { ctx }) => {
      const listed = await runOperation({
        op: ops.list,
        ctx,
        input: {
          workspace_id: workspace.id,
          skip: args.skip ?? undefined,
          limit: args.limit ?? undefined,
          email: args.email ?? undefined,
          tags: args.tagIds?.length ? args.tagIds.join(',') : undefined,
        },
      });
      const ids = listed.accounts.map((a) => a._id);
      return guard(ctx, async () => inOrderOf(await ctx.db.emailAccount.findMany({ ...query, where: { id: { in: ids }, workspaceId: workspace.id } }), ids));
    },
  }),
);

const NewEmailAccountInput = builder.inputType('NewEmailAccountInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    firstName: t.string(),
    lastName: t.string(),
    smtpHost: t.string({ required: true }),
    smtpPort: t.int({ required: true }),
    smtpUsername: t.string({ required: true }),
    smtpPassword: t.string({ required: true }),
    imapHost: t.string({ required: true }),
    imapPort: t.int({ required: true }),
    imapUsername: t.string({ required: true }),
    imapPassword: t.string({ required: true }),
    dailyLimit: t.int(),
    sendingGap: t.int(),
  }),
});

const FailedEmailAccount = builder.objectRef<{ email: string; error: string }>('FailedEmailAccount').implement({
  fields: (t) => ({ email: t.exposeString('email'), error: t.exposeString('error') }),
});

const AddEmailAccountsResult = builder.objectRef<{ addedIds: string[]; failed: { email: string; error: string }[] }>('AddEmailAccountsResult').implement({
  fields: (t) => ({
    added: t.prismaField({
      type: ['EmailAccount'],
      resolve: async (query, result, _args, { ctx }) =>
        guard(ctx, async () => inOrderOf(await ctx.db.emailAccount.findMany({ ...query, where: { id: { in: result.addedIds } } }), result.addedIds)),
    }),
    failed: t.field({ type: [FailedEmailAccount], resolve: (result) => result.failed }),
  }),
});

builder.mutationField('addEmailAccounts', (t) =>
  t.field({
    type: AddEmailAccountsResult,
    description: ops.bulkAdd.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      accounts: t.arg({ type: [NewEmailAccountInput], required: true }),
      enableWarmup: t.arg.boolean(),
    },
    resolve: async (_root, args, { ctx }) => {
      const added = await runOperation({
        op: ops.bulkAdd,
        ctx,
        input: {
          workspace_id: args.workspaceId,
          enable_warmup: args.enableWarmup ? 'yes' : 'no',
          accounts: args.accounts.map((a) => ({
            email: a.email,
            first_name: a.firstName ?? undefined,
            last_name: a.lastName ?? undefined,
            smtp_host: a.smtpHost,
            smtp_port: a.smtpPort,
            smtp_username: a.smtpUsername,
            smtp_password: a.smtpPassword,
            imap_host: a.imapHost,
            imap_port: a.imapPort,
            imap_username: a.imapUsername,
            imap_password: a.imapPassword,
            daily_limit: a.dailyLimit ?? undefined,
            sending_gap: a.sendingGap ?? undefined,
          })),
        },
      });
      return { addedIds: added.added.map((a) => a._id), failed: added.failed };
    },
  }),
);

builder.mutationField('deleteEmailAccount', (t) =>
  t.boolean({
    description: ops.delete.description,
    args: { workspaceId: t.arg.id({ required: true }), email: t.arg.string({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({ op: ops.delete, ctx, input: { workspace_id: args.workspaceId, email: args.email } });
      return true;
    },
  }),
);

builder.mutationField('setEmailAccountWarmup', (t) =>
  t.prismaField({
    type: 'EmailAccount',
    description: 'Enables (true) or pauses (false) warmup of a mailbox found by address',
    args: { workspaceId: t.arg.id({ required: true }), email: t.arg.string({ required: true }), enabled: t.arg.boolean({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      const input = { workspace_id: args.workspaceId, email: args.email };
      await runOperation({ op: args.enabled ? ops.enableWarmup : ops.pauseWarmup, ctx, input });
      const workspaceId = String(args.workspaceId).toLowerCase();
      return guard(ctx, () =>
        ctx.db.emailAccount.findUniqueOrThrow({ ...query, where: { workspaceId_emailNormalized: { workspaceId, emailNormalized: args.email.trim().toLowerCase() } } }),
      );
    },
  }),
);

builder.mutationField('updateEmailAccounts', (t) =>
  t.prismaField({
    type: ['EmailAccount'],
    description: ops.bulkUpdate.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      ids: t.arg.idList({ required: true }),
      dailyLimit: t.arg.int(),
      sendingGap: t.arg.int(),
      signature: t.arg.string(),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const updated = await runOperation({
        op: ops.bulkUpdate,
        ctx,
        input: {
          workspace_id: args.workspaceId,
          ids: args.ids,
          daily_limit: args.dailyLimit ?? undefined,
          sending_gap: args.sendingGap ?? undefined,
          signature: args.signature ?? undefined,
        },
      });
      return guard(ctx, async () => inOrderOf(await ctx.db.emailAccount.findMany({ ...query, where: { id: { in: updated.updated_ids } } }), updated.updated_ids));
    },
  }),
);

builder.mutationField('reconnectEmailAccounts', (t) =>
  t.prismaField({
    type: ['EmailAccount'],
    description: ops.bulkReconnect.description,
    args: { workspaceId: t.arg.id({ required: true }), ids: t.arg.idList({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      const reconnected = await runOperation({ op: ops.bulkReconnect, ctx, input: { workspace_id: args.workspaceId, ids: args.ids } });
      const ids = reconnected.results.map((r) => r._id);
      return guard(ctx, async () => inOrderOf(await ctx.db.emailAccount.findMany({ ...query, where: { id: { in: ids } } }), ids));
    },
  }),
);
