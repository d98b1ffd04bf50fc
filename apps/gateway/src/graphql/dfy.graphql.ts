import type { z } from 'zod';
import { operations } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';

// Core's index does not export the dfy schemas; the operation's output schema is the source.
type SenderIdentity = z.output<typeof operations.dfy.generateSenderIdentities.output>['senders'][number];

const SenderProfileInput = builder.inputType('SenderProfileInput', {
  description: 'A real sender whose name the mailbox usernames are built from',
  fields: (t) => ({
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    middleName: t.string({ description: 'Optional; adds variations with the middle name or its initial' }),
  }),
});

const SenderIdentityType = builder.objectRef<SenderIdentity>('SenderIdentity').implement({
  description: 'A sender with the mailbox usernames (the part before @) generated for it',
  fields: (t) => ({
    firstName: t.exposeString('first_name'),
    lastName: t.exposeString('last_name'),
    prefixes: t.exposeStringList('prefixes'),
  }),
});

builder.mutationField('generateSenderIdentities', (t) =>
  t.field({
    type: [SenderIdentityType],
    description: 'The 99 mailbox usernames of an enterprise DFY order, spread evenly over 1 to 33 sender profiles; nothing is stored',
    args: {
      workspaceId: t.arg.id({ required: true }),
      profiles: t.arg({ type: [SenderProfileInput], required: true }),
    },
    resolve: async (_root, args, { ctx }) => {
      const result = await runOperation({
        op: operations.dfy.generateSenderIdentities,
        ctx,
        input: {
          workspace_id: args.workspaceId,
          profiles: args.profiles.map((p) => ({ first_name: p.firstName, last_name: p.lastName, middle_name: p.middleName })),
        },
      });
      return result.senders;
    },
  }),
);
