import { randomBytes } from 'node:crypto';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { silentLogger, testDatabase } from '@outreach/core/testing';
import { createApp } from '../app';
import { loadEnv, type Env } from '../env';
import { listen } from '../server';
import { gatewayDeps } from '../services';
import type { Route } from '../rest/route';
import type { AppRouter } from '../trpc/router';

/** The real app on a loopback port, on the suite's database. */
export async function startTestServer(
  options: { env?: Record<string, string>; routes?: Route[]; trpcRouter?: AnyRouter; graphqlSchema?: GraphQLSchema; log?: Logger; webDist?: string } = {},
) {
  const db = await testDatabase();
  // Tests talk to local mail servers and receivers: private targets are allowed unless a test says otherwise.
  const env: Env = loadEnv({ NODE_ENV: 'test', ALLOW_PRIVATE_TARGETS: 'true', ...options.env });
  const deps = gatewayDeps({ db, env, log: options.log ?? silentLogger, encryptionKey: randomBytes(32) });
  const app = createApp({ deps, db, publicUrl: 'http://localhost', routes: options.routes, trpcRouter: options.trpcRouter, graphqlSchema: options.graphqlSchema, webDist: options.webDist });
  const server = await listen({ app, port: 0, host: '127.0.0.1', log: silentLogger, shutdownTimeoutMs: 1_000 });
  const url = server.url;

  async function rest(method: string, path: string, options: { key?: string; query?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {}) {
    const qs = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const response = await fetch(`${url}/api/v1${path}${qs}`, {
      method,
      headers: {
        ...(options.key ? { 'x-api-key': options.key } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, headers: response.headers, body };
  }

  async function graphql(query: string, options: { key?: string; variables?: Record<string, unknown> } = {}) {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...(options.key ? { 'x-api-key': options.key } : {}) },
      body: JSON.stringify({ query, variables: options.variables }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  }

  function trpc(key?: string) {
    return createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${url}/trpc`, headers: () => (key ? { 'x-api-key': key } : {}) })],
    });
  }

  return { url, db, deps, rest, graphql, trpc, close: server.close };
}
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

export interface TrpcFailure {
  status: number;
  code: string;
  field?: string;
}

/** The HTTP status, tRPC code and first field error of a tRPC call that must fail. */
export async function trpcFailure(call: () => Promise<unknown>): Promise<TrpcFailure> {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    const data = error.data as { httpStatus: number; code: string; errors?: { field: string }[] };
    return { status: data.httpStatus, code: data.code, field: data.errors?.[0]?.field };
  }
  throw new Error('expected the tRPC call to fail');
}
