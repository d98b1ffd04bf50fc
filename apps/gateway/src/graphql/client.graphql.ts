// GraphQL types and fields of the client-access operations (organization keys only).
import { operations } from '@outreach/core';
import { builder } from './builder';
import { guard, inOrderOf, runOperation } from './run';

const ClientStatus = builder.enumType('ClientStatus', { values: ['ACTIVE', 'INACTIVE'] as const });

export const ClientGrantType = builder.prismaObject('ClientGrant', {
  description: 'What a client may do in one workspace',
  fields: (t) => ({
    workspaceId: t.exposeID('workspaceId'),
    permissions: t.exposeStringList('permissions'),
    hideLabels: t.exposeStringList('hideLabels'),
  }),
});

export const ClientType = builder.prismaObject('Client', {
  description: 'A client-access account of the organization',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    businessName: t.exposeString('businessName'),
    status: t.expose('status', { type: ClientStatus }),
    grants: t.relation('grants', { query: { orderBy: { workspaceId: 'asc' } } }),
  }),
});

const ClientGrantInput = builder.inputType('ClientGrantInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    permissions: t.stringList({ required: true }),
    hideLabels: t.stringList(),
  }),
});

const CreateClientResult = builder.objectRef<{ clientId: string; apiKey: string }>('CreateClientResult').implement({
  fields: (t) => ({
    clientId: t.exposeID('clientId'),
    apiKey: t.exposeString('apiKey', { description: 'Shown once' }),
  }),
});

type GrantArg = { workspaceId: string | number; permissions: string[]; hideLabels?: string[] | null };
const toGrants = (grants: GrantArg[]) =>
  grants.map((g) => ({ workspace_id: g.workspaceId, permissions: g.permissions, hide_labels: g.hideLabels ?? undefined }));

builder.queryField('clients', (t) =>
  t.prismaField({
    type: ['Client'],
    description: operations.client.list.description,
    resolve: async (query, _root, _args, { ctx }) => {
      const listed = await runOperation({ op: operations.client.list, ctx, input: {} });
      const ids = listed.clients.map((c) => c.client_id);
      return guard(ctx, async () =>
        inOrderOf(await ctx.db.client.findMany({ ...query, where: { id: { in: ids }, organizationId: ctx.actor.organizationId } }), ids),
      );
    },
  }),
);

builder.mutationField('createClient', (t) =>
  t.field({
    type: CreateClientResult,
    description: operations.client.create.description,
    args: {
      email: t.arg.string({ required: true }),
      firstName: t.arg.string(),
      lastName: t.arg.string(),
      businessName: t.arg.string(),
      permissions: t.arg({ type: [ClientGrantInput], required: true }),
    },
    resolve: async (_root, args, { ctx }) => {
      const created = await runOperation({
        op: operations.client.create,
        ctx,
        input: {
          client_email: args.email,
          client_first_name: args.firstName ?? undefined,
          client_last_name: args.lastName ?? undefined,
          client_business_name: args.businessName ?? undefined,
          client_permissions: toGrants(args.permissions),
        },
      });
      return { clientId: created.client_id, apiKey: created.api_key };
    },
  }),
);

builder.mutationField('updateClientPermissions', (t) =>
  t.boolean({
    description: operations.client.updatePermissions.description,
    args: { clientId: t.arg.id({ required: true }), permissions: t.arg({ type: [ClientGrantInput], required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({
        op: operations.client.updatePermissions,
        ctx,
        input: { client_id: args.clientId, client_permissions: toGrants(args.permissions) },
      });
      return true;
    },
  }),
);

builder.mutationField('setClientStatus', (t) =>
  t.boolean({
    description: operations.client.setStatus.description,
    args: { clientId: t.arg.id({ required: true }), status: t.arg({ type: ClientStatus, required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({ op: operations.client.setStatus, ctx, input: { client_id: args.clientId, status: args.status } });
      return true;
    },
  }),
);

builder.mutationField('deleteClient', (t) =>
  t.boolean({
    description: operations.client.delete.description,
    args: { clientId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({ op: operations.client.delete, ctx, input: { client_id: args.clientId } });
      return true;
    },
  }),
);
