import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization } from '@outreach/core/testing';
import { graphiqlEnabled, loadEnv } from '../env';
import { startTestServer, type TestServer } from '../testing/test-server';

let enabled: TestServer;
let disabled: TestServer;

beforeAll(async () => {
  enabled = await startTestServer({ env: { GRAPHIQL: 'true' } });
  disabled = await startTestServer();
});
afterAll(async () => {
  await enabled?.close();
  await disabled?.close();
});

const asBrowser = (url: string) => fetch(`${url}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });

describe('GraphiQL', () => {
  it('is on in development or with GRAPHIQL=true, off otherwise', () => {
    expect(graphiqlEnabled(loadEnv({ NODE_ENV: 'development' }))).toBe(true);
    expect(graphiqlEnabled(loadEnv({ NODE_ENV: 'production' }))).toBe(false);
    expect(graphiqlEnabled(loadEnv({ NODE_ENV: 'test' }))).toBe(false);
    expect(graphiqlEnabled(loadEnv({ NODE_ENV: 'production', GRAPHIQL: 'true' }))).toBe(true);
    expect(graphiqlEnabled(loadEnv({ NODE_ENV: 'development', GRAPHIQL: 'false' }))).toBe(false);
    expect(graphiqlEnabled(loadEnv({ NODE_ENV: 'production', GRAPHIQL: '' }))).toBe(false);
    expect(() => loadEnv({ GRAPHIQL: 'yes' })).toThrow(/GRAPHIQL/);
  });

  it('renders offline: the page names no other origin and every script, style and worker it references is served by us', async () => {
    const page = await asBrowser(enabled.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Outreach GraphQL');
    // No CDN (unpkg, jsdelivr, …): nothing on another origin, not even protocol-relative.
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/["'(]\/\//);

    const referenced = new Set([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!));
    // Monaco's workers are named in the inline script.
    for (const m of html.matchAll(/"(\/[^"]+\.worker\.js)"/g)) referenced.add(m[1]!);
    const kinds = [...referenced].map((ref) => ref.split('.').at(-1));
    expect(kinds).toEqual(expect.arrayContaining(['js', 'css', 'ico']));
    expect([...referenced].filter((ref) => ref.endsWith('.worker.js'))).toHaveLength(3);

    for (const ref of referenced) {
      expect(ref.startsWith('/'), ref).toBe(true);
      const asset = await fetch(`${enabled.url}${ref}`);
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
      const body = Buffer.from(await asset.arrayBuffer());
      expect(body.length, ref).toBeGreaterThan(1_000);
      const type = asset.headers.get('content-type') ?? '';
      if (ref.endsWith('.js')) expect(type).toMatch(/^text\/javascript/);
      if (ref.endsWith('.css')) expect(type).toMatch(/^text\/css/);
      // Revalidated, not downloaded again (fetch would add `no-cache` to a conditional request by itself).
      const again = await fetch(`${enabled.url}${ref}`, { headers: { 'if-none-match': asset.headers.get('etag')!, 'cache-control': 'max-age=0' } });
      expect(again.status).toBe(304);
    }
    const bundle = await (await fetch(`${enabled.url}${[...referenced].find((ref) => ref.endsWith('graphiql.js'))}`)).text();
    expect(bundle).toContain('renderYogaGraphiQL');
  });

  it('still answers GraphQL on the same path', async () => {
    const { apiKey } = await createTestOrganization({ db: enabled.db });
    const r = await enabled.graphql('{ __typename }', { key: apiKey });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ __typename: 'Query' });
  });

  it('is not served when off: no page, no assets', async () => {
    const page = await asBrowser(disabled.url);
    expect(await page.text()).not.toContain('<html');
    expect((await fetch(`${disabled.url}/graphql/assets/graphiql.js`)).status).toBe(404);
    expect((await fetch(`${enabled.url}/graphql/assets/nope.js`)).status).toBe(404);
  });
});
