import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Request, Response } from 'express';
import { toDomainError } from '@outreach/core';
import { graphqlError } from '../errors/error-map';
import { anonymousContext, authenticatedContext, headerApiKey, type GatewayDeps } from '../request-context';
import type { GraphqlContext } from './builder';
import { schema } from './schema';
import { useRequestInputRules } from './request-input.plugin';
import { BODY_LIMIT_BYTES } from '../request-body';
import { queryLimitPlugins } from './limits';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';

type ServerContext = { req: Request; res: Response };

/** Root fields that answer without an API key (the invited person has none yet). */
const PUBLIC_MUTATIONS = new Set(['acceptInvite']);

/**
 * A request without a key is let through only when the operation it runs is a
 * mutation selecting public root fields and nothing else; any other is a 401.
 */
export function isPublicOperation(options: { query: string | undefined; operationName?: string | null }): boolean {
  if (!options.query) return false;
  try {
    const operations = parse(options.query).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const op = options.operationName ? operations.find((o) => o.name?.value === options.operationName) : operations.length === 1 ? operations[0] : undefined;
    if (!op || op.operation !== 'mutation') return false;
    return op.selectionSet.selections.every(
      (s) => s.kind === Kind.FIELD && (PUBLIC_MUTATIONS.has(s.name.value) || s.name.value === '__typename'),
    );
  } catch {
    return false;
  }
}

export function createGraphqlHandler(options: { deps: GatewayDeps; graphiql: boolean }): YogaServerInstance<ServerContext, GraphqlContext> {
  return createYoga<ServerContext, GraphqlContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: options.graphiql ? { title: 'Outreach GraphQL', headers: JSON.stringify({ 'x-api-key': '<your key>' }) } : false,
    landingPage: false,
    // Masking stays on: resolvers turn domain errors into GraphQL errors themselves
    // (graphql/run.ts); anything else reaches the client as a generic message.
    maskedErrors: true,
    logging: false,
    // The body limit of every transport (request-body.ts); yoga answers 413 beyond it.
    maxRequestBodySize: BODY_LIMIT_BYTES,
    plugins: [
      // Unreadable bodies (charset, compression) are a 4xx; NUL and lone surrogates in text are refused.
      useRequestInputRules(),
      // Depth, alias, cost, token and directive limits (graphql/limits.ts): 400 before anything runs.
      ...queryLimitPlugins(),
      // Introspection (GRAPHQL_INTROSPECTION): off by default in production.
      ...(options.deps.graphqlIntrospection ? [] : [useDisableIntrospection()]),
    ],
    context: async ({ req, res, params }) => {
      try {
        const apiKey = headerApiKey(req);
        if (!apiKey && isPublicOperation({ query: params.query, operationName: params.operationName })) {
          return { ctx: anonymousContext({ deps: options.deps, requestId: res.locals['requestId'] as string, clientAddress: req.ip ?? 'unknown' }) };
        }
        const ctx = await authenticatedContext({
          deps: options.deps,
          apiKey,
          requestId: res.locals['requestId'] as string,
          clientAddress: req.ip ?? 'unknown',
        });
        return { ctx };
      } catch (error) {
        const domain = toDomainError(error);
        if (domain) throw graphqlError(domain, { withHttpStatus: true });
        throw error;
      }
    },
  });
}
