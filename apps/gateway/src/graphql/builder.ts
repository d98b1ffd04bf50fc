import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '@outreach/db/pothos-types';
import { getDatamodel } from '@outreach/db/pothos-types';
import type { Ctx } from '@outreach/core';
import type { ServerResponse } from 'node:http';
import type { GatewayDeps } from '../request-context';

export interface GraphqlContext {
  ctx: Ctx;
  /** The HTTP exchange, for the fields that set or clear the session cookie (people.graphql.ts). */
  http?: { res: ServerResponse; deps: GatewayDeps; clientAddress: string; userAgent: string | undefined };
}

export const builder = new SchemaBuilder<{ Context: GraphqlContext; PrismaTypes: PrismaTypes; Scalars: { JSON: { Input: unknown; Output: unknown } }; DefaultFieldNullability: false }>({
  // Relay for the cursor connections (connection.ts); Prisma for the graph below an entity (graph.ts).
  // The operations' types come from core's zod schemas, the graph's from the Prisma models.
  plugins: [PrismaPlugin, RelayPlugin],
  relay: {},
  prisma: { client: ({ ctx }) => ctx.db, dmmf: getDatamodel(), exposeDescriptions: false },
  defaultFieldNullability: false,
});

builder.scalarType('JSON', { description: 'Any JSON value', serialize: (value) => value, parseValue: (value) => value });
builder.queryType({});
builder.mutationType({});

/** The object types read again by id alone in a workspace (`node`), and the type of each object `node` answers. */
export const nodeTypes = { refs: new Set<unknown>(), of: new WeakMap<object, string>() };
export const Node = builder.interfaceRef<object>('Node').implement({
  description: 'An object read again by its id in a workspace: `node(workspaceId, id)`',
  fields: (t) => ({ id: t.id({ resolve: (value: any) => value.id ?? value._id }) }),
  resolveType: (value) => nodeTypes.of.get(value),
});
