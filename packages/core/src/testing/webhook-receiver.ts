// A webhook receiver on loopback for the webhook worker's tests: it records every request and
// answers per path (by request number) as told, at once, after a delay, once a promise settles
// (a receiver still answering while a test changes the webhook), or never.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How to answer a request: a status (after `delayMs`, and once `after` settles), or not at all. */
export type ReceiverAnswer = { status: number; body?: string; delayMs?: number; after?: Promise<unknown> } | 'hang';

export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request had arrived, and when its answer was sent (unset until then). */
  receivedAt: number;
  answeredAt?: number;
}

export async function startWebhookReceiver() {
  const received: ReceivedRequest[] = [];
  const behaviour = new Map<string, (n: number) => ReceiverAnswer>();
  /** Called with each request's path as it arrives. */
  const listeners = new Set<(path: string) => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const n = received.filter((r) => r.path === path).length;
      const request: ReceivedRequest = { path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: performance.now() };
      received.push(request);
      for (const listener of listeners) listener(path);
      const answer = behaviour.get(path)?.(n) ?? { status: 200, body: 'ok' };
      if (answer === 'hang') return;
      const send = () =>
        setTimeout(() => {
          request.answeredAt = performance.now();
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
        }, answer.delayMs ?? 0);
      if (answer.after) void answer.after.then(send, send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    answer(path: string, fn: (n: number) => ReceiverAnswer) {
      behaviour.set(path, fn);
    },
    at: (path: string) => received.filter((r) => r.path === path),
    /** Resolves when the next request to `path` arrives. */
    arrival(path: string): Promise<void> {
      return new Promise((resolve) => {
        const listener = (at: string) => {
          if (at !== path) return;
          listeners.delete(listener);
          resolve();
        };
        listeners.add(listener);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
