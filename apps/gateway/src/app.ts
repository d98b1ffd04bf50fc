import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { AnyRouter } from '@trpc/server';
import type { GraphQLSchema } from 'graphql';
import { pendingMigrations, type Database } from '@outreach/db';
import { requestIdOf, credentialsOf, type GatewayDeps } from './request-context';
import { restRouter } from './rest/adapter';
import { routes as defaultRoutes } from './rest/routes';
import type { Route } from './rest/route';
import { buildOpenApi, type OpenApiDocument } from './rest/openapi';
import { renderDocsPage } from './rest/docs-page';
import { appRouter } from './trpc/router';
import { graphqlRouter } from './graphql/yoga';
import { trackingRouter } from './tracking-routes';
import { oauthCallbackRouter } from './oauth-routes';
import { webRouter } from './web-routes';
import { loggableUrl } from './loggable-url';
import { BODY_LIMIT_BYTES, jsonBodyParser, requestProblemOf } from './request-body';
import { internalRestError, trpcRequestError } from './errors/error-map';
import { PRODUCT_VERSION } from './version';
import { ROUTE_LABEL, UNMATCHED_ROUTE } from './metrics';

/** The API document's version: the product's (package.json). */
export const VERSION = PRODUCT_VERSION;

export function createApp(options: {
  deps: GatewayDeps;
  db: Database;
  publicUrl: string;
  /** The REST route table (tests add routes; production uses the default). */
  routes?: Route[];
  /** The tRPC router and the GraphQL schema (tests add procedures and fields; production uses the defaults). */
  trpcRouter?: AnyRouter;
  graphqlSchema?: GraphQLSchema;
  /** Set by the process when a shutdown starts: the health endpoints answer 503 `stopping` from then on. */
  lifecycle?: { stopping: boolean };
  /** The built web app served at `/` (tests use their own; production: apps/web/dist). */
  webDist?: string;
}): Express {
  const { deps, db } = options;
  const routes = options.routes ?? defaultRoutes;
  const log = deps.service.log;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'extended');

  // Prometheus (METRICS_TOKEN): every request timed under its route pattern.
  if (deps.metrics) app.use(deps.metrics.timeRequests);

  // Request id on every response and log line; one structured line per request.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdOf(req);
    res.locals['requestId'] = requestId;
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        reqId: requestId,
        method: req.method,
        url: loggableUrl(req.originalUrl),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        op: res.locals['operation'],
      };
      if (res.statusCode >= 500) log.error(line, 'request failed');
      else log.info(line, 'request');
    });
    next();
  });

  // A stopping process answers neither check: it takes no new work and will be gone shortly.
  app.get('/healthz', (_req, res) => {
    if (options.lifecycle?.stopping) res.status(503).json({ status: 'stopping' });
    else res.json({ status: 'ok', version: PRODUCT_VERSION });
  });

  app.get('/readyz', async (_req, res) => {
    if (options.lifecycle?.stopping) {
      res.status(503).json({ status: 'stopping' });
      return;
    }
    try {
      await db.prisma.$queryRawUnsafe('SELECT 1');
      const pending = await pendingMigrations({ db });
      if (pending.length) {
        res.status(503).json({ status: 'unavailable', database: 'ok', pending_migrations: pending });
        return;
      }
      res.json({ status: 'ok', database: 'ok', migrations: 'applied' });
    } catch (error) {
      log.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', database: 'unreachable' });
    }
  });

  // Off (no METRICS_TOKEN): no route, so /metrics answers the 404 of any unknown path.
  if (deps.metrics) app.get('/metrics', deps.metrics.serve);

  // Built once, on first request: converting every schema and checking every example costs about a second.
  let reference: { openapi: OpenApiDocument; docsPage: string } | undefined;
  const apiReference = () => {
    if (!reference) {
      const openapi = buildOpenApi({ routes, serverUrl: `${options.publicUrl}/api/v1`, version: VERSION });
      reference = { openapi, docsPage: renderDocsPage(openapi) };
    }
    return reference;
  };
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(apiReference().openapi);
  });
  app.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(apiReference().docsPage);
  });

  app.use(trackingRouter({ deps }));
  app.use(oauthCallbackRouter({ deps }));
  app.use('/api/v1', restRouter({ deps, routes }));

  // tRPC reads bodies by the REST rules (UTF-8 JSON, gzip/deflate/br, 25 MB): the JSON
  // bodies tRPC parses are read (and inflated) first, and tRPC's own limit covers the rest.
  const trpcBody = jsonBodyParser({ type: ['application/json'], asText: true });
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: options.trpcRouter ?? appRouter,
      maxBodySize: BODY_LIMIT_BYTES,
      middleware: (req, res, next) => {
        trpcBody(req, res, (err?: unknown) => {
          if (err === undefined) return next();
          const problem = requestProblemOf(err, req);
          next(problem ? trpcRequestError(problem) : err);
        });
      },
      createContext: ({ req, res }) => ({
        deps,
        ...credentialsOf(req),
        requestId: res.locals['requestId'] as string,
        clientAddress: req.ip ?? 'unknown',
      }),
      onError: ({ error, ctx }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, reqId: ctx?.requestId }, 'trpc error');
      },
    }),
  );

  app.use(graphqlRouter({ deps, schema: options.graphqlSchema }));

  // The web app at `/` and its client-side routes, after every API so their paths stay theirs.
  app.use(webRouter({ distDir: options.webDist }));

  app.use((req: Request, res: Response) => {
    // A route that passed the request on (the web app's, for an API path) did not answer it.
    res.locals[ROUTE_LABEL] = UNMATCHED_ROUTE;
    res.status(404).json({ status: 'error', message: `no such path: ${req.method} ${req.path}`, code: 'request.unknown_path' });
  });

  // Last resort: anything thrown outside the transports' own handlers.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const requestId = res.locals['requestId'] as string;
    log.error({ err, reqId: requestId }, 'unhandled error');
    if (!res.headersSent) {
      const answer = internalRestError(requestId);
      res.status(answer.status).json(answer.body);
    }
  });
  return app;
}
