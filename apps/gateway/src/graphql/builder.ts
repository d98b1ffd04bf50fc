import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import type { Ctx } from '@outreach/core';

export interface GraphqlContext {
  ctx: Ctx;
}

export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  Scalars: { JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  // Relay for the cursor connections (connection.ts); every type comes from core's zod schemas.
  plugins: [RelayPlugin],
  relay: {},
  defaultFieldNullability: false,
  // The Prisma plugin's global types (loaded with @outreach/db's generated pothos-types) ask
  // every builder for a `prisma` option; this builder does not use that plugin.
} as never);

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({});
builder.mutationType({});
