// Prometheus metrics (docs/operations.md, "Metrics"): prom-client on a registry of this process's own
// (never the library's global one, so that several apps in one test process keep apart), served at
// GET /metrics to whoever presents METRICS_TOKEN. Core reports what its workers do through the
// Observer port; this module counts it, times requests, and reads the queues at each scrape.
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { PrismaClient } from '@outreach/db';
import { queueDepths, unreadMailboxes, WORKER_NAMES, type Clock, type Observer } from '@outreach/core';
import { internalRestError } from './errors/error-map';
import { requestIdOf } from './request-context';

/** The route label of a request no route took (an unknown path: no raw path is ever a label). */
export const UNMATCHED_ROUTE = 'unmatched';
/** `res.locals` key under which a handler names its route when Express's match would mislead (the final 404). */
export const ROUTE_LABEL = 'metricsRoute';

/** A PostgreSQL connection pool's clients (pg's Pool: totalCount, idleCount, waitingCount). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Metrics {
  registry: Registry;
  /** What the workers report (core's port), counted here. */
  observer: Observer;
  /** Times each request under its method, route pattern and status: the app's first middleware. */
  timeRequests: RequestHandler;
  /** GET /metrics: the text format for `Authorization: Bearer <METRICS_TOKEN>`, 401 otherwise. */
  serve: RequestHandler;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TICK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Whether an Authorization header carries the token: `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  if (typeof header !== 'string') return false;
  const given = /^Bearer +(\S+) *$/i.exec(header)?.[1];
  // Both sides hashed: equal lengths, and the time taken says nothing about the token.
  return given !== undefined && timingSafeEqual(digest(given), expected);
}

function patternText(pattern: unknown): string {
  if (typeof pattern === 'string') return pattern;
  if (Array.isArray(pattern)) return pattern.map(patternText).join('|');
  return String(pattern);
}

/**
 * The route label of an answered request: the pattern of the route Express matched under the
 * mount path of its router (`/api/v1/campaigns/:campaign_id`, `/graphql`), the mount path of the
 * middleware that answered (`/trpc`, `/assets`), or `unmatched`. Mount paths are fixed strings in
 * the code that Express matches without regard to case, hence lowercased.
 */
export function routeLabelOf(req: Request, res: Response): string {
  const named = res.locals[ROUTE_LABEL];
  if (typeof named === 'string') return named;
  const base = req.baseUrl.toLowerCase();
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (pattern !== undefined) return `${base}${patternText(pattern)}`;
  if (base && res.statusCode !== 404) return base;
  return UNMATCHED_ROUTE;
}

export function createMetrics(options: {
  token: string;
  /** For the queue depths, read at each scrape. */
  db: PrismaClient;
  clock: Clock;
  log: Logger;
  /** The PostgreSQL pool's clients, when the database exposes its pool; absent: no pool metrics. */
  poolStats?: () => PoolStats;
}): Metrics {
  const { db, clock, log } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const http = new Histogram({
    name: 'outreach_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern (never the raw path) and status, in seconds.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const sends = new Counter({
    name: 'outreach_sends_total',
    help: 'Campaign e-mails recorded as sent by the workers of this process: accepted, unconfirmed (outcome unknown), bounced (refused while sending).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const bounces = new Counter({
    name: 'outreach_bounces_total',
    help: 'Bounces recognised by the workers of this process: hard (5xx while sending), soft (retries exhausted), dsn (a delivery report read from a mailbox).',
    labelNames: ['kind'] as const,
    registers,
  });
  const replies = new Counter({
    name: 'outreach_replies_total',
    help: 'Messages from leads stored by the reply reader of this process, by classification.',
    labelNames: ['kind'] as const,
    registers,
  });
  const ticks = new Histogram({
    name: 'outreach_worker_tick_duration_seconds',
    help: "Duration of the workers' rounds (the sending tick, webhook, warmup and automation rounds, one mailbox read), in seconds.",
    labelNames: ['worker'] as const,
    buckets: TICK_BUCKETS,
    registers,
  });
  const tickFailures = new Counter({
    name: 'outreach_worker_tick_failures_total',
    help: "Workers' rounds that failed (logged at error, retried after a growing pause).",
    labelNames: ['worker'] as const,
    registers,
  });
  new Gauge({
    name: 'outreach_queue_depth',
    help: 'Work waiting, read from the database at each scrape: sends_due (leads of ACTIVE campaigns whose next send time has come), webhook_deliveries_pending, deletes_pending (campaigns, workspaces and organizations the purge worker has still to finish), mailboxes_unread (mailboxes to read that no live reply worker holds).',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      try {
        const now = clock.now();
        const [depths, unread] = await Promise.all([queueDepths({ db, now }), unreadMailboxes({ db, now })]);
        this.set({ queue: 'sends_due' }, depths.sendsDue);
        this.set({ queue: 'webhook_deliveries_pending' }, depths.webhookDeliveriesPending);
        this.set({ queue: 'deletes_pending' }, depths.deletesPending);
        this.set({ queue: 'mailboxes_unread' }, unread);
      } catch (error) {
        // No stale value: the series are absent from this scrape.
        this.reset();
        log.warn({ err: error }, 'metrics: reading the queue depths failed');
      }
    },
  });
  const poolStats = options.poolStats;
  if (poolStats) {
    new Gauge({
      name: 'outreach_db_pool_clients',
      help: "PostgreSQL pool clients of this process: total (open), idle, waiting (queries waiting for a client).",
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  // Every series of a counter exists from the start, so rate() and absent() work before the first event.
  for (const outcome of ['accepted', 'unconfirmed', 'bounced']) sends.inc({ outcome }, 0);
  for (const kind of ['hard', 'soft', 'dsn']) bounces.inc({ kind }, 0);
  for (const kind of ['reply', 'out_of_office', 'automatic_reply']) replies.inc({ kind }, 0);
  for (const worker of WORKER_NAMES) tickFailures.inc({ worker }, 0);

  const observer: Observer = {
    onSent: ({ outcome }) => sends.inc({ outcome }),
    onBounce: ({ kind }) => bounces.inc({ kind }),
    onReply: ({ kind }) => replies.inc({ kind }),
    onTick: ({ worker, ms, failed }) => {
      ticks.observe({ worker }, ms / 1000);
      if (failed) tickFailures.inc({ worker });
    },
  };

  const timeRequests: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      http.observe({ method: req.method, route: routeLabelOf(req, res), status: String(res.statusCode) }, seconds);
    });
    next();
  };

  const expected = digest(options.token);
  const serve: RequestHandler = async (req: Request, res: Response, next: NextFunction) => {
    if (!bearerMatches(req.headers.authorization, expected)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer realm="metrics"')
        .json({ status: 'error', message: 'GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>', code: 'metrics.unauthorized' });
      return;
    }
    try {
      const text = await registry.metrics();
      res.status(200).set({ 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).send(text);
    } catch (error) {
      next(error);
    }
  };

  return { registry, observer, timeRequests, serve };
}

/**
 * The worker role's own listener (it has no HTTP API): GET /metrics and nothing else, every other
 * path 404 as on the API.
 */
export function metricsApp(options: { metrics: Metrics; log: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', options.metrics.serve);
  app.use((req: Request, res: Response) => {
    res.status(404).json({ status: 'error', message: `no such path: ${req.method} ${req.path}`, code: 'request.unknown_path' });
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = requestIdOf(req);
    options.log.error({ err, reqId: requestId }, 'metrics: unhandled error');
    if (!res.headersSent) {
      const answer = internalRestError(requestId);
      res.status(answer.status).json(answer.body);
    }
  });
  return app;
}
