import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to timeoutMs), then closes the rest. */
  close(): Promise<void>;
}

export async function listen(options: { app: Express; port: number; host: string; log: Logger; shutdownTimeoutMs: number }): Promise<RunningServer> {
  const server = createServer(options.app);
  // Keep-alive sockets must not hold a shutdown open.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
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
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          options.log.warn('shutdown timeout: closing remaining connections');
          server.closeAllConnections();
        }, options.shutdownTimeoutMs);
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
