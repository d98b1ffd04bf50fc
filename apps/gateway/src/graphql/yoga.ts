import { AsyncLocalStorage } from 'node:async_hooks';
import { getOperationAST, Kind, parse, type GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import express, { type Request, type Response, type Router } from 'express';
import { graphqlErrorOf } from '../errors/error-map';
import { anonymousContext, callerContext, credentialsOf, optionalSessionContext, type GatewayDeps } from '../request-context';
import type { GraphqlContext } from './builder';
import { schema as defaultSchema } from './schema';
import { useRequestInputRules } from './request-input.plugin';
import { BODY_LIMIT_BYTES } from '../request-body';
import { queryLimitPlugins } from './limits';
import { graphiqlAssets, graphiqlPage } from './graphiql';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';

type ServerContext = { req: Request; res: Response };

/**
 * Root fields that answer without an API key or a session: accepting an invitation (the invited
 * person has none yet), signing in, setting up the owner, `viewer` (null without a session), and `__typename`.
 */
const PUBLIC_FIELDS = new Set(['acceptInvite', 'signIn', 'setUpOwner', 'acceptInvitation', 'viewer', '__typename']);

/** The kind of operation a request runs (query, mutation, subscription), or null when it names none or does not parse. */
export function operationTypeOf(options: { query?: string; operationName?: string | null }): string | null {
  try {
    return (options.query ? getOperationAST(parse(options.query), options.operationName)?.operation : null) ?? null;
  } catch {
    return null;
  }
}

/** Whether the operation a request runs is a query or mutation of public root fields only: a request without credentials gets through only then. */
export function isPublicOperation(options: { query?: string; operationName?: string | null }): boolean {
  try {
    const op = options.query ? getOperationAST(parse(options.query), options.operationName) : null;
    return (
      (op?.operation === 'mutation' || op?.operation === 'query') &&
      op.selectionSet.selections.every((s) => s.kind === Kind.FIELD && PUBLIC_FIELDS.has(s.name.value))
    );
  } catch {
    return false;
  }
}

/** `/graphql`, and with GraphiQL (`deps.graphiql`) its assets; tests may serve another `schema`. */
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
    // The one error path: resolvers and the context throw, and every error comes through here,
    // domain errors mapped (errors/error-map.ts), unknown ones masked and logged with the request id.
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
    // The API key wins; without one, the session cookie (whose writes carry x-csrf-token); public
    // fields answer without either: public mutations run anonymously, `viewer` reads the session if any.
    context: async ({ req, res, params }) => {
      const request = { deps, requestId: res.locals['requestId'] as string, clientAddress: req.ip ?? 'unknown' };
      const http = { res, deps, clientAddress: request.clientAddress, userAgent: req.headers['user-agent'] };
      const credentials = credentialsOf(req);
      const type = operationTypeOf(params);
      if (!credentials.apiKey && isPublicOperation(params)) {
        const ctx = type === 'query' ? await optionalSessionContext({ ...request, sessionToken: credentials.sessionToken }) : anonymousContext(request);
        return { ctx, http };
      }
      return { ctx: await callerContext({ ...request, credentials, writes: type === 'mutation' || type === 'subscription' }), http };
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
