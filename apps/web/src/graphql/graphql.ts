// Typed GraphQL documents: gql.tada reads the schema's introspection (graphql-env.d.ts,
// generated from schema.graphql by `npm run web:schema`), so every result and variable type
// comes from the gateway's schema and none is written by hand.
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { ID: string; JSON: unknown };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
export { readFragment } from 'gql.tada';
