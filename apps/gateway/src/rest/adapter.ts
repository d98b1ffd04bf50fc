import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { executeOperation, toDomainError } from '@outreach/core';
import type { Logger } from 'pino';
import { internalRestError, restError, restRequestError, type RestErrorShape } from '../errors/error-map';
import { anonymousContext, callerContext, credentialsOf, type GatewayDeps } from '../request-context';
import type { Route } from './route';
import { jsonBodyParser, requestProblemOf } from '../request-body';

type Params = Record<string, unknown>;

function asObject(value: unknown): Params {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Params) } : {};
}

/**
 * The operation input from a request, by the vendor's conventions: the query for GET,
 * the JSON body for writes, with `workspace_id` also accepted in the query on writes,
 * and path parameters merged in. `api_key` is authentication, never input.
 */
export function inputOf(req: Request): Params {
  const query = asObject(req.query);
  const body = asObject(req.body);
  let input: Params;
  if (req.method === 'GET') input = query;
  else {
    input = Object.keys(body).length || req.method !== 'DELETE' ? body : query;
    if (input['workspace_id'] === undefined && query['workspace_id'] !== undefined) input['workspace_id'] = query['workspace_id'];
  }
  Object.assign(input, req.params);
  delete input['api_key'];
  return input;
}

function apiKeyOf(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header) return header;
  const fromQuery = (req.query as Params)['api_key'];
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  const fromBody = asObject(req.body)['api_key'];
  return typeof fromBody === 'string' && fromBody ? fromBody : undefined;
}

export function sendError(options: { res: Response; error: unknown; shape?: RestErrorShape; log: Logger; requestId: string }) {
  const { res, error, shape, log, requestId } = options;
  const domain = toDomainError(error);
  const answer = domain ? restError(domain, shape) : internalRestError(requestId, shape);
  if (!domain) log.error({ err: error, reqId: requestId }, 'unhandled error');
  res.status(answer.status).set(answer.headers).json(answer.body);
}

export function restRouter(options: { deps: GatewayDeps; routes: Route[] }): Router {
  const router = express.Router();
  // UTF-8 JSON, gzip/deflate/br accepted, 25 MB (lead uploads carry up to 10,000 leads).
  router.use(jsonBodyParser({ type: ['application/json', 'application/*+json'] }));
  const allowed = new Map<string, Set<string>>();

  for (const r of options.routes) {
    const methods = allowed.get(r.path) ?? new Set<string>();
    methods.add(r.method);
    allowed.set(r.path, methods);
    router[r.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](r.path, async (req: Request, res: Response) => {
      const requestId = res.locals['requestId'] as string;
      try {
        const ctx = r.public
          ? anonymousContext({ deps: options.deps, requestId, clientAddress: req.ip ?? 'unknown' })
          : await callerContext({ deps: options.deps, credentials: credentialsOf(req, apiKeyOf(req)), requestId, clientAddress: req.ip ?? 'unknown', writes: req.method !== 'GET' && req.method !== 'HEAD' });
        res.locals['operation'] = r.op.name;
        const input = inputOf(req);
        const output = await executeOperation({ op: r.op, ctx, input });
        const location = r.redirect?.(input, output);
        if (location) res.status(302).set({ Location: location, 'Cache-Control': 'no-store' }).end();
        else res.status(200).json(output);
      } catch (error) {
        sendError({ res, error, shape: r.errorShape, log: options.deps.service.log, requestId });
      }
    });
  }

  // A known path with another method: 405 with the methods it does take.
  for (const [path, methods] of allowed) {
    router.all(path, (req: Request, res: Response) => {
      const allow = [...methods].sort().join(', ');
      res.status(405).set('Allow', allow).json({
        status: 'error',
        message: `method ${req.method} is not allowed on ${req.baseUrl}${req.path}; allowed: ${allow}`,
        code: 'request.method_not_allowed',
      });
    });
  }

  router.use((req: Request, res: Response) => {
    res.status(404).json({ status: 'error', message: `no such path: ${req.method} ${req.baseUrl}${req.path}`, code: 'request.unknown_path' });
  });

  // Unreadable requests (malformed JSON or compression, another charset, too large, an
  // undecodable path parameter) answer a 4xx in the vendor's shape.
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    const problem = requestProblemOf(err, req);
    if (!problem) return next(err);
    const answer = restRequestError(problem);
    res.status(answer.status).json(answer.body);
  });
  return router;
}
