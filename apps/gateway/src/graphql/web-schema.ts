// The GraphQL schema as the web app types its documents against it (gql.tada): printed to
// apps/web/src/graphql/schema.graphql by `npm run web:schema`, which also regenerates the
// typed introspection beside it. Both are checked in; web-schema.test.ts fails when stale.
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from './schema';

export const WEB_SCHEMA_FILE = fileURLToPath(new URL('../../../web/src/graphql/schema.graphql', import.meta.url));

/** The SDL the web app is typed from: the gateway's schema, as printed by graphql-js. */
export function webSchemaText(): string {
  return `${printSchema(schema)}\n`;
}
