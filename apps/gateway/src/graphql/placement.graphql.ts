import type { z } from 'zod';
import { operations } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';

// Core's index does not export the placement schemas; the operation's output schema is the source.
const GroupSchema = operations.placement.recipientProviders.output.shape.data.element;
type RecipientProviderGroup = z.output<typeof GroupSchema>;
type RecipientProvider = RecipientProviderGroup['items'][number];

const RecipientAccountClass = builder.enumType('RecipientAccountClass', {
  description: 'PERSONAL (consumer mailboxes) or PROFESSIONAL (business mailboxes)',
  values: GroupSchema.shape._id.options,
});

const RecipientProviderType = builder.objectRef<RecipientProvider>('RecipientProvider').implement({
  description: 'A recipient email provider a placement test can send to',
  fields: (t) => ({
    recipientType: t.exposeString('recipient_type', { description: 'Provider identifier: PERSONAL_PROVIDERA, PROVIDERA, PROVIDERB' }),
    name: t.exposeString('name'),
    accountClass: t.expose('account_class', { type: RecipientAccountClass }),
  }),
});

const RecipientProviderGroupType = builder.objectRef<RecipientProviderGroup>('RecipientProviderGroup').implement({
  description: 'The recipient providers of one account class',
  fields: (t) => ({
    id: t.exposeID('_id', { description: 'Account class of the group: PERSONAL or PROFESSIONAL' }),
    count: t.exposeInt('count'),
    items: t.expose('items', { type: [RecipientProviderType] }),
  }),
});

builder.queryField('recipientProviders', (t) =>
  t.field({
    type: [RecipientProviderGroupType],
    description: 'Recipient providers for placement tests, PERSONAL group first; the workspace is optional and checked when given',
    args: { workspaceId: t.arg.id() },
    resolve: async (_root, args, { ctx }) => {
      const result = await runOperation({
        op: operations.placement.recipientProviders,
        ctx,
        input: { workspace_id: args.workspaceId ?? undefined },
      });
      return result.data;
    },
  }),
);
