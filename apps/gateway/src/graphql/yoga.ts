import { AsyncLocalStorage } from 'node:async_hooks';
import { Kind, parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import express, { type Request, type Response, type Router } from 'express';
import { graphqlErrorOf } from '../errors/error-map';
import { anonymousContext, authenticatedContext, headerApiKey, type GatewayDeps } from '../request-context';
import type { GraphqlContext } from './builder';
import { schema as defaultSchema } from './schema';
import { useRequestInputRules } from './request-input.plugin';
import { BODY_LIMIT_BYTES } from '../request-body';
import { queryLimitPlugins } from './limits';
import { graphiqlAssets, graphiqlPage } from './graphiql';
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

/**
 * `/graphql`, and with GraphiQL (`deps.graphiql`) its assets under `/graphql/assets/`.
 * `schema`: tests serve another one; production serves the one built from the operations.
 */
export function graphqlRouter(options: { deps: GatewayDeps; schema?: GraphQLSchema }): Router {
  const { deps } = options;
  const endpoint = '/graphql';
  // The request a GraphQL error belongs to: yoga's maskError is given the error only.
  const requests = new AsyncLocalStorage<{ requestId: string }>();
  const yoga = createYoga<ServerContext, GraphqlContext>({
    schema: options.schema ?? defaultSchema,
    graphqlEndpoint: endpoint,
    graphiql: deps.graphiql ? { title: 'Outreach GraphQL', headers: JSON.stringify({ 'x-api-key': '<your key>' }) } : false,
    renderGraphiQL: graphiqlPage(`${endpoint}/assets`),
    landingPage: false,
    // The one error path of GraphQL: resolvers and the context just throw; every error of
    // an answer comes through here, domain errors mapped (errors/error-map.ts), unknown
    // ones masked with the request id and logged with it.
    maskedErrors: {
      maskError: (error) => {
        const requestId = requests.getStore()?.requestId ?? 'unknown';
        const answer = graphqlErrorOf(error, requestId);
        if (answer.unknown) deps.service.log.error({ err: answer.cause, reqId: requestId }, 'unhandled error');
        return answer.error;
      },
    },
    logging: false,
    // The body limit of every transport (request-body.ts); yoga answers 413 beyond it.
    maxRequestBodySize: BODY_LIMIT_BYTES,
    plugins: [
      // Unreadable bodies (charset, compression) are a 4xx; NUL and lone surrogates in text are refused.
      useRequestInputRules(),
      // Depth, alias, cost, token and directive limits (graphql/limits.ts): 400 before anything runs.
      ...queryLimitPlugins(),
      // Introspection (GRAPHQL_INTROSPECTION): off by default in production.
      ...(deps.graphqlIntrospection ? [] : [useDisableIntrospection()]),
    ],
    // A failed authentication is thrown as it is: maskError answers it with its HTTP status.
    context: async ({ req, res, params }) => {
      const requestId = res.locals['requestId'] as string;
      const clientAddress = req.ip ?? 'unknown';
      const apiKey = headerApiKey(req);
      if (!apiKey && isPublicOperation({ query: params.query, operationName: params.operationName })) {
        return { ctx: anonymousContext({ deps, requestId, clientAddress }) };
      }
      return { ctx: await authenticatedContext({ deps, apiKey, requestId, clientAddress }) };
    },
  });

  const router = express.Router();
  // Yoga matches its own endpoint path, so it is mounted at the root of the app.
  router.all(endpoint, (req: Request, res: Response) => {
    void requests.run({ requestId: res.locals['requestId'] as string }, () => yoga(req, res, { req, res }));
  });
  if (deps.graphiql) router.use(`${endpoint}/assets`, graphiqlAssets());
  return router;
}
