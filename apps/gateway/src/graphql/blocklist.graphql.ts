// GraphQL types and fields of the blocklist operations.
import { checkActorScope, operations } from '@outreach/core';
import { builder } from './builder';
import { WorkspaceType } from './workspace.graphql';
import { guard, runOperation } from './run';

export const BlocklistEntryType = builder.prismaObject('BlocklistEntry', {
  description: 'A blocked address, or a domain blocking every address at it (lower-case)',
  fields: (t) => ({
    id: t.exposeID('id'),
    value: t.exposeString('value'),
    isDomain: t.exposeBoolean('isDomain'),
    createdByLabel: t.exposeString('createdByLabel'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField(WorkspaceType, 'blocklist', (t) =>
  t.prismaConnection({
    type: 'BlocklistEntry',
    cursor: 'id',
    description: 'Blocklist entries, newest first (client keys need BLOCKLIST_LIST)',
    resolve: (query, workspace, _args, { ctx }) =>
      guard(ctx, async () => {
        // The workspace field checked the key reaches the workspace; the permission is this field's.
        checkActorScope({ actor: ctx.actor, workspaceId: workspace.id, permission: operations.blocklist.list.permission });
        return ctx.db.blocklistEntry.findMany({
          ...query,
          where: { workspaceId: workspace.id },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        });
      }),
  }),
);

const BlocklistAddResult = builder.objectRef<{ entriesAdded: number; alreadyInBlocklist: number }>('BlocklistAddResult').implement({
  fields: (t) => ({
    entriesAdded: t.exposeInt('entriesAdded'),
    alreadyInBlocklist: t.exposeInt('alreadyInBlocklist'),
  }),
});

builder.mutationField('addBlocklistEntries', (t) =>
  t.field({
    type: BlocklistAddResult,
    description: operations.blocklist.addEntries.description,
    args: { workspaceId: t.arg.id({ required: true }), entries: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const added = await runOperation({
        op: operations.blocklist.addEntries,
        ctx,
        input: { workspace_id: args.workspaceId, entries: args.entries },
      });
      return { entriesAdded: added.entries_added, alreadyInBlocklist: added.already_in_blocklist };
    },
  }),
);

builder.mutationField('deleteBlocklistEntries', (t) =>
  t.int({
    description: 'Removes entries (normalised as when adding); answers the number of entries removed',
    args: { workspaceId: t.arg.id({ required: true }), entries: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const deleted = await runOperation({
        op: operations.blocklist.deleteEntries,
        ctx,
        input: { workspace_id: args.workspaceId, entries: args.entries },
      });
      return deleted.entries_deleted;
    },
  }),
);
