import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '@outreach/db/pothos-types';
import { getDatamodel } from '@outreach/db/pothos-types';
import type { Ctx } from '@outreach/core';

export interface GraphqlContext {
  ctx: Ctx;
}

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: GraphqlContext;
  Scalars: { DateTime: { Input: Date; Output: Date }; JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  // Relay for cursor connections (prismaConnection); Prisma for model-backed types.
  plugins: [RelayPlugin, PrismaPlugin],
  relay: {},
  defaultFieldNullability: false,
  prisma: {
    // One client per process, built in the composition root and reached through the context.
    client: (context) => context.ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
  },
});

builder.scalarType('DateTime', {
  description: 'ISO 8601 timestamp in UTC',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO 8601 timestamp');
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({});
builder.mutationType({});
