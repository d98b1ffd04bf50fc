import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import type { Ctx } from '@outreach/core';

export interface GraphqlContext {
  ctx: Ctx;
}

export const builder = new SchemaBuilder<{ Context: GraphqlContext; Scalars: { JSON: { Input: unknown; Output: unknown } }; DefaultFieldNullability: false }>({
  // Relay for the cursor connections (connection.ts); every type comes from core's zod schemas.
  plugins: [RelayPlugin],
  relay: {},
  defaultFieldNullability: false,
  // The Prisma plugin's global types (@outreach/db's generated pothos-types) ask every builder for a `prisma` option; this one does not use it.
} as never);

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
