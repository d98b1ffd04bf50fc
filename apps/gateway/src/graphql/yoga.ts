import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Request, Response } from 'express';
import { toDomainError } from '@outreach/core';
import { graphqlError } from '../errors/error-map';
import { authenticatedContext, headerApiKey, type GatewayDeps } from '../request-context';
import type { GraphqlContext } from './builder';
import { schema } from './schema';

type ServerContext = { req: Request; res: Response };

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
    context: async ({ req, res }) => {
      try {
        const ctx = await authenticatedContext({
          deps: options.deps,
          apiKey: headerApiKey(req),
          requestId: res.locals['requestId'] as string,
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
