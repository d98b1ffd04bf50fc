import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/suite';
import { routes } from './routes';

const { server } = useTestServer();

describe('API reference', () => {
  it('the OpenAPI 3.1 document lists every route with its schemas and error answers', async () => {
    const res = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiKeyHeader).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    for (const r of routes) {
      const op = doc.paths[r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op['x-trpc-procedure']).toBe(r.op.name);
      expect(op.responses['200'].content['application/json'].schema).toBeDefined();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500']));
    }
    const stats = doc.paths['/campaign/get/variation-stats'].get;
    expect(stats.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['workspace_id', 'query', true],
      ['campaign_id', 'query', true],
      ['start_date', 'query', false],
      ['end_date', 'query', false],
    ]);
    expect(stats.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/MessageError');
    expect(stats.description).toContain('open-ended');
    const upload = doc.paths['/lead/add'].post;
    expect(upload.requestBody.content['application/json'].schema.properties.leads.maxItems).toBe(10_000);
    expect(upload.description).toContain('no CRM integration yet');
  });

  it('the /docs page renders every operation for a person to read', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    // The page shows paths in OpenAPI form: `/unibox/threads/{thread_id}/mark-as-read`.
    for (const r of routes) expect(html).toContain(`/api/v1${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect(html).toContain('Get campaign variation stats');
  });
});
