import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createTestOrganization, testDatabase } from '@outreach/core/testing';
import { createApp } from './app';
import { loadEnv } from './env';
import { listen } from './server';
import { gatewayDeps } from './services';

/** The real app with its request log captured, one parsed JSON object per line. */
const lines: Record<string, any>[] = [];
let url: string;
let key: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const db = await testDatabase();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const deps = gatewayDeps({ db, env: loadEnv({ NODE_ENV: 'test' }), log, encryptionKey: randomBytes(32) });
  const app = createApp({ deps, db, publicUrl: 'http://localhost' });
  const server = await listen({ app, port: 0, host: '127.0.0.1', log: pino({ level: 'silent' }), shutdownTimeoutMs: 1_000 });
  url = server.url;
  close = server.close;
  key = (await createTestOrganization({ db })).apiKey;
});
afterAll(() => close?.());

/** Sends the request and answers the request log line written for it. */
async function logged(path: string, headers: Record<string, string> = {}) {
  const requestId = randomUUID();
  const response = await fetch(`${url}${path}`, { headers: { 'x-request-id': requestId, ...headers } });
  await response.arrayBuffer();
  return vi.waitFor(() => {
    const line = lines.find((l) => l.reqId === requestId && (l.msg === 'request' || l.msg === 'request failed'));
    if (!line) throw new Error(`no log line yet for ${path}`);
    return { status: response.status, line, all: JSON.stringify(lines.filter((l) => l.reqId === requestId)) };
  });
}

describe('request log', () => {
  it('never holds the API key given in the query string, nor other secret parameters', async () => {
    const r = await logged(`/api/v1/workspaces?api_key=${key}&limit=5&Password=hunter2&TOKEN=tok-123`);
    expect(r.status).toBe(200);
    expect(r.line.url).toBe('/api/v1/workspaces?api_key=[redacted]&limit=5&Password=[redacted]&TOKEN=[redacted]');
    expect(r.all).not.toContain(key);
    expect(r.all).not.toContain('hunter2');
    expect(r.all).not.toContain('tok-123');
  });

  it('keeps GraphQL variables sent over GET out of the log', async () => {
    const query = encodeURIComponent('query($email: String) { workspaces { id } }');
    const variables = encodeURIComponent(JSON.stringify({ email: 'hunter2@example.com' }));
    const r = await logged(`/graphql?query=${query}&variables=${variables}`, { 'x-api-key': key });
    expect(r.status).toBe(200);
    expect(r.line.url).toBe(`/graphql?query=${query}&variables=[redacted]`);
    expect(r.all).not.toContain('hunter2');
  });

  it('keeps tRPC input sent over GET out of the log', async () => {
    const input = encodeURIComponent(JSON.stringify({ smtp_password: 'hunter2' }));
    const r = await logged(`/trpc/workspace.list?input=${input}`, { 'x-api-key': key });
    expect(r.line.url).toBe('/trpc/workspace.list?input=[redacted]');
    expect(r.all).not.toContain('hunter2');
  });
});
