// The web app at `/`: a build made here (index.html and one hashed asset), served by the real app.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './testing/suite';
import { PRODUCT_VERSION } from './version';

const dist = mkdtempSync(join(tmpdir(), 'outreach-web-'));
mkdirSync(join(dist, 'assets'));
const INDEX = '<!doctype html><html><head><title>Outreach</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
writeFileSync(join(dist, 'index.html'), INDEX);
writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), 'console.log("app");');

const { server } = useTestServer({ webDist: dist });
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the web app at /', () => {
  it('answers the app page with its security headers, revalidated on every load', async () => {
    const response = await fetch(`${server.url}/`, { headers: html });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe(INDEX);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
  });

  it('answers a hashed asset cached for a year', async () => {
    const response = await fetch(`${server.url}/assets/index-Ab12Cd34.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe('console.log("app");');
  });

  it('answers the app page for a deep link of a client-side route, and for /index.html', async () => {
    for (const path of ['/campaigns/abc', '/sign-in', '/index.html']) {
      const response = await fetch(`${server.url}${path}`, { headers: html });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toBe(INDEX);
      expect(response.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
  });

  it('leaves the APIs their own answers: JSON 404s, a missing asset is no page', async () => {
    const api = await fetch(`${server.url}/api/v1/unknown`, { headers: html });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await api.json()).status).toBe('error');

    const asset = await fetch(`${server.url}/assets/missing-123.js`, { headers: html });
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).toMatch(/^application\/json/);

    const health = await fetch(`${server.url}/healthz`, { headers: html });
    expect(await health.json()).toEqual({ status: 'ok', version: PRODUCT_VERSION });
    expect(PRODUCT_VERSION).toMatch(/^\d+\.\d+\.\d+/);

    // A client asking for JSON at an unknown path gets the JSON 404, not the page.
    const json = await fetch(`${server.url}/nowhere`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect((await json.json()).code).toBe('request.unknown_path');
  });
});

describe('the web app before it is built', () => {
  const missing = useTestServer({ webDist: join(tmpdir(), 'outreach-web-never-built') });

  it('answers 503 with a page that says how to build it', async () => {
    const response = await fetch(`${missing.server.url}/campaigns`, { headers: html });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('npm run build:web');
  });
});
