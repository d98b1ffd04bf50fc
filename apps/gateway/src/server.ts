import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * The start of a shutdown: from now on new requests are answered 503 (`/healthz` and
   * `/readyz` still reach the app, which reports `stopping`), requests in flight go on.
   */
  refuseNewRequests(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
  /** Requests being answered now. */
  inFlight(): number;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to graceMs, by default
   * the shutdown timeout), then closes the rest.
   */
  close(graceMs?: number): Promise<void>;
}

/** A port already taken, no permission for it, an address not on this machine: a one-line reason. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): ListenError {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE') return new ListenError(`port ${port} is already in use on ${host} (another process listens there); stop it or set PORT`, error.code);
  if (error.code === 'EACCES') return new ListenError(`no permission to listen on ${where}; use a port above 1023 or set PORT`, error.code);
  if (error.code === 'EADDRNOTAVAIL') return new ListenError(`cannot listen on ${where}: the address is not on this machine; check HOST`, error.code);
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return new ListenError(`cannot listen on ${where}: HOST does not resolve`, error.code);
  return new ListenError(`cannot listen on ${where}: ${error.message}`, error.code);
}

export async function listen(options: { app: Express; port: number; host: string; log: Logger; shutdownTimeoutMs: number }): Promise<RunningServer> {
  let refusing = false;
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (refusing) {
      // Keep-alive clients reconnect, to another instance behind a load balancer.
      res.shouldKeepAlive = false;
      const path = (req.url ?? '/').split('?')[0]!;
      if (!HEALTH_PATHS.has(path)) {
        res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5', connection: 'close' });
        res.end(JSON.stringify({ status: 'error', message: 'the server is shutting down; retry on another instance or later', code: 'server.shutting_down' }));
        return;
      }
    }
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
    });
    options.app(req, res);
  };
  const server = createServer(handler);
  // Keep-alive sockets must not hold a shutdown open.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenProblem(error, options.host, options.port));
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    server,
    url,
    refuseNewRequests() {
      refusing = true;
    },
    idle() {
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    inFlight: () => inFlight,
    close(graceMs = options.shutdownTimeoutMs) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          if (inFlight > 0) options.log.warn({ inFlight }, 'shutdown timeout: closing connections with requests in flight');
          server.closeAllConnections();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
