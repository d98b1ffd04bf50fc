import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/suite';
import { routes } from './routes';
import type { Route } from './route';

// A small burst, so that the 429 the document declares can be met; the calls made with
// `org`'s key stay below it, `foreign`'s key is spent on purpose.
const { server, org, foreign } = useTestServer({ env: { RATE_LIMIT_BURST: '40', RATE_LIMIT_PER_SECOND: '1' } });

type Doc = any;
let doc: Doc;
beforeAll(async () => {
  const res = await fetch(`${server.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
});

const openApiPath = (r: Pick<Route, 'path'>) => r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const operationOf = (r: Pick<Route, 'path' | 'method'>) => doc.paths[openApiPath(r)]?.[r.method.toLowerCase()];
const componentOf = (ref: string) => ref.split('/').reduce((node: any, key) => (key === '#' ? doc : node?.[key]), doc);
const responseOf = (op: any, status: number) => {
  const r = op.responses[String(status)];
  return r?.$ref ? componentOf(r.$ref) : r;
};
const declared = (op: any) => Object.keys(op.responses).map(Number);

/** The operation input its examples make: path and query parameters, and the body. */
function requestExampleOf(op: any): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const p of op.parameters ?? []) if (p.example !== undefined) input[p.name] = p.example;
  return { ...input, ...(op.requestBody?.content['application/json'].example ?? {}) };
}

/** Every `$ref` string in a value. */
function refsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/** The schema components a schema uses, through other components too. */
function componentsUsedBy(schema: unknown): Set<string> {
  const seen = new Set<string>();
  const queue = [...refsIn(schema)];
  while (queue.length) {
    const ref = queue.pop()!;
    if (!ref.startsWith('#/components/schemas/') || seen.has(ref)) continue;
    seen.add(ref);
    queue.push(...refsIn(componentOf(ref)));
  }
  return new Set([...seen].map((r) => r.split('/').pop()!));
}

describe('API reference', () => {
  it('the OpenAPI 3.1 document lists every route with its schemas and error answers', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiKeyHeader).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    for (const r of routes) {
      const op = operationOf(r);
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op['x-trpc-procedure']).toBe(r.op.name);
      expect(op.responses['200'].content['application/json'].schema).toBeDefined();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '405', '429', '500']));
    }
    const stats = doc.paths['/campaign/get/variation-stats'].get;
    expect(stats.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['workspace_id', 'query', true],
      ['campaign_id', 'query', true],
      ['start_date', 'query', false],
      ['end_date', 'query', false],
    ]);
    // The spec's `{ message }` error body on this operation, the vendor's elsewhere.
    expect(responseOf(stats, 400).content['application/json'].schema.$ref).toBe('#/components/schemas/MessageError');
    expect(responseOf(doc.paths['/tags/create'].post, 400).content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(stats.description).toContain('open-ended');
    const upload = doc.paths['/lead/add'].post;
    expect(upload.requestBody.content['application/json'].schema.properties.leads.maxItems).toBe(10_000);
    expect(upload.description).toContain('no CRM integration yet');
  });

  it('names each resource once as a component schema that the operations refer to', () => {
    const schemas = doc.components.schemas as Record<string, unknown>;
    // The 200 answer of each route refers, somewhere inside, to its resource type.
    const resourceOf: [string, string, string][] = [
      ['GET', '/campaign/list-all', 'Campaign'],
      ['GET', '/campaign/list', 'CampaignListItem'],
      ['GET', '/lead/workspace-leads', 'Lead'],
      ['GET', '/lead/get', 'Lead'],
      ['GET', '/account/list', 'EmailAccount'],
      ['GET', '/unibox/emails', 'UniboxEmail'],
      ['GET', '/unibox/campaign-emails', 'CampaignEmail'],
      ['GET', '/hook/list', 'Webhook'],
      ['GET', '/tags/list', 'Tag'],
      ['GET', '/client', 'Client'],
      ['GET', '/workspaces', 'Workspace'],
      ['GET', '/blocklist/list', 'BlocklistEntry'],
      ['GET', '/workspace-settings/lead-labels', 'LeadLabel'],
      ['GET', '/workspace-settings', 'WorkspaceSettings'],
      ['GET', '/workspaces/additional-fields', 'AdditionalField'],
      ['GET', '/campaign/get/variation-stats', 'VariationStats'],
      ['POST', '/lead/add', 'LeadUploadResult'],
    ];
    for (const [method, path, name] of resourceOf) {
      expect(schemas[name], name).toBeDefined();
      const op = doc.paths[path][method.toLowerCase()];
      expect([...componentsUsedBy(op.responses['200'])], `${method} ${path}`).toContain(name);
    }
    // Request bodies refer to the input types of their parts.
    expect([...componentsUsedBy(doc.paths['/lead/add'].post.requestBody)]).toContain('LeadInput');
    expect([...componentsUsedBy(doc.paths['/campaign/add/subsequence'].post.requestBody)]).toContain('SubsequenceEvent');
    // The same type everywhere: the campaign of list-all is the one schema, not a copy per route.
    expect(JSON.stringify(doc.paths['/campaign/list-all'].get.responses['200'].content['application/json'].schema)).not.toContain('"camp_name"');
    // Every reference resolves, and every component schema is used by some operation.
    const used = componentsUsedBy([doc.paths, doc.components.responses]);
    for (const ref of refsIn(doc)) expect(componentOf(ref), ref).toBeDefined();
    for (const name of Object.keys(schemas)) expect(used.has(name), `component ${name} is used`).toBe(true);
  });

  it('declares every error status each operation answers, by the documented rule', () => {
    for (const r of routes) {
      const op = operationOf(r);
      const statuses = declared(op);
      const where = `${r.method} ${r.path}`;
      expect(statuses, where).toEqual(expect.arrayContaining([400, 405, 429, 500]));
      if (!r.public) expect(statuses, where).toEqual(expect.arrayContaining([401, 403]));
      if (r.method !== 'GET') expect(statuses, where).toEqual(expect.arrayContaining([413, 415]));
      else expect(statuses, where).not.toContain(413);
      for (const s of statuses) expect(responseOf(op, s)?.description, `${where} ${s}`).toBeTruthy();
    }
    const statusesOf = (method: string, path: string) => declared(doc.paths[path][method]);
    // Lists name nothing and store nothing; writes by id can miss and conflict; computations store nothing.
    expect(statusesOf('get', '/campaign/list-all')).not.toContain(404);
    expect(statusesOf('get', '/campaign/list-all')).not.toContain(409);
    expect(statusesOf('post', '/tags/create')).toContain(409);
    expect(statusesOf('post', '/tags/create')).not.toContain(404);
    expect(statusesOf('put', '/tags/update')).toEqual(expect.arrayContaining([404, 409]));
    expect(statusesOf('post', '/campaign/launch')).toEqual(expect.arrayContaining([404, 409]));
    expect(statusesOf('get', '/account/status')).toContain(404);
    expect(statusesOf('post', '/unibox/threads/{thread_id}/mark-as-read')).toContain(404);
    expect(statusesOf('post', '/account/test/vitals')).not.toContain(409);
    expect(statusesOf('post', '/workspaces/accept-invite')).not.toContain(401);
    expect(responseOf(doc.paths['/campaign/launch'].post, 405).headers.Allow).toBeDefined();
    expect(responseOf(doc.paths['/tags/list'].get, 429).headers['Retry-After']).toBeDefined();
  });

  it('each declared status is what the server answers: replayed calls match the document', async () => {
    const key = org.apiKey;
    const ws = org.workspaceId;
    const call = async (method: string, path: string, init: { key?: string; body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string>; query?: Record<string, string> } = {}) => {
      const qs = init.query ? `?${new URLSearchParams(init.query)}` : '';
      const res = await fetch(`${server.url}/api/v1${path}${qs}`, {
        method,
        headers: { ...(init.key ? { 'x-api-key': init.key } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
        body: init.body,
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    };
    const expectDeclared = (method: string, path: string, answer: { status: number; body: Record<string, unknown> }) => {
      const op = doc.paths[path][method.toLowerCase()];
      expect(declared(op), `${method} ${path} answered ${answer.status}`).toContain(answer.status);
      const schema = componentOf(responseOf(op, answer.status).content['application/json'].schema.$ref);
      for (const field of schema.required) expect(answer.body, `${method} ${path} ${answer.status}`).toHaveProperty(field);
    };
    const json = (v: unknown) => JSON.stringify(v);

    // 405 on every path, with the method it does not take; Allow lists those it does.
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const other = ['put', 'patch', 'post', 'get', 'delete'].find((m) => !(m in methods)) ?? 'options';
      const concrete = path.replace(/\{[^}]+\}/g, '6654c3f1b8a2d7e96f0a1c53');
      const answer = await call(other.toUpperCase(), concrete, { key });
      expect(answer.status, `${other} ${path}`).toBe(405);
      expect(answer.headers.get('allow')?.split(', ').sort()).toEqual(Object.keys(methods).map((m) => m.toUpperCase()).sort());
      for (const m of Object.keys(methods)) expectDeclared(m, path, answer);
    }

    expectDeclared('POST', '/tags/create', await call('POST', '/tags/create', { key, body: json({ workspace_id: ws, name: 'x', color: 'blue' }) }));
    expectDeclared('GET', '/tags/list', await call('GET', '/tags/list', { query: { workspace_id: ws } }));
    expectDeclared('GET', '/tags/list', await call('GET', '/tags/list', { key, query: { workspace_id: foreign.workspaceId } }));
    const created = await call('POST', '/tags/create', { key, body: json({ workspace_id: ws, name: 'Hot prospects', color: '#1E90FF' }) });
    expect(created.status).toBe(200);
    const duplicate = await call('POST', '/tags/create', { key, body: json({ workspace_id: ws, name: 'Hot prospects', color: '#1E90FF' }) });
    expect(duplicate.status).toBe(409);
    expectDeclared('POST', '/tags/create', duplicate);
    const missing = await call('PUT', '/tags/update', { key, body: json({ workspace_id: ws, tag_id: '6655d2a9e7c4b1f30d8e6a64', name: 'Renamed' }) });
    expect(missing.status).toBe(404);
    expectDeclared('PUT', '/tags/update', missing);
    const latin1 = await call('POST', '/tags/create', { key, body: json({ workspace_id: ws, name: 'n', color: '#000000' }), headers: { 'content-type': 'application/json; charset=latin1' } });
    expect(latin1.status).toBe(415);
    expectDeclared('POST', '/tags/create', latin1);
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(26 * 1024 * 1024, 0x20)));
    const tooLarge = await call('POST', '/tags/create', { key, body: bomb, headers: { 'content-encoding': 'gzip' } });
    expect(tooLarge.status).toBe(413);
    expectDeclared('POST', '/tags/create', tooLarge);
    // A message-shaped operation answers its declared `{ message }` body.
    expectDeclared('GET', '/campaign/get/variation-stats', await call('GET', '/campaign/get/variation-stats', { key, query: { workspace_id: ws, campaign_id: 'nope' } }));

    // 429 once the (small) burst of a key is spent.
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 100 && !limited; i++) {
      const answer = await call('GET', '/tags/list', { key: foreign.apiKey, query: { workspace_id: foreign.workspaceId } });
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.status).toBe(429);
    expect(limited?.headers.get('retry-after')).toBeTruthy();
    expectDeclared('GET', '/tags/list', limited!);
  });

  it('every operation has a request and a response example that its own schemas accept', () => {
    const problems: string[] = [];
    for (const r of routes) {
      const op = operationOf(r);
      const where = `${r.method} ${r.path}`;
      for (const p of op.parameters ?? []) if (p.required && p.example === undefined) problems.push(`${where}: no example for ${p.name}`);
      if (op.requestBody && op.requestBody.content['application/json'].example === undefined) problems.push(`${where}: no body example`);
      const request = r.op.input.safeParse(requestExampleOf(op));
      if (!request.success) problems.push(`${where} request: ${request.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      const example = op.responses['200'].content['application/json'].example;
      if (example === undefined) problems.push(`${where}: no response example`);
      const response = r.op.output.safeParse(example);
      if (!response.success) problems.push(`${where} response: ${response.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('examples look like real data: ids, addresses, dates and times in their formats', () => {
    const problems: string[] = [];
    const check = (value: unknown, key: string, where: string) => {
      if (Array.isArray(value)) return value.forEach((v) => check(v, key, where));
      if (value && typeof value === 'object') return Object.entries(value).forEach(([k, v]) => check(v, k, `${where}.${k}`));
      if (typeof value !== 'string' || value === '') return;
      if (/^(message_id|reply_to_id|parent_message_id)$/.test(key)) {
        if (!/^<[^<>@\s]+@[^<>@\s]+>$/.test(value)) problems.push(`${where}: ${value} is not a Message-ID`);
      } else if (/^(_id|id|ids)$|_ids?$/.test(key)) {
        // Ids are 24-hex; the recipient provider groups' `_id` is their account class (PERSONAL), as the vendor's.
        if (!/^[0-9a-f]{24}$/.test(value) && !(key === '_id' && /^[A-Z_]+$/.test(value))) problems.push(`${where}: ${value} is not a 24-hex id`);
      } else if (/(^|_)email$|^(lead|eaccount)$/.test(key)) {
        if (!/^[^@\s]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(value)) problems.push(`${where}: ${value} is not an e-mail address`);
      } else if (/_at$/.test(key)) {
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/.test(value)) problems.push(`${where}: ${value} is not an ISO 8601 time`);
      } else if (/(^|_)date$/.test(key)) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) problems.push(`${where}: ${value} is not a YYYY-MM-DD date`);
      }
    };
    for (const r of routes) {
      const op = operationOf(r);
      check(requestExampleOf(op), '', `${r.method} ${r.path} request`);
      check(op.responses['200'].content['application/json'].example, '', `${r.method} ${r.path} response`);
    }
    expect(problems).toEqual([]);
    // Enumerations show vendor values.
    const labels = requestExampleOf(doc.paths['/campaign/add/subsequence'].post) as any;
    expect(labels.events[0].val[0]).toMatch(/^LEAD_MARKED_AS_/);
  });

  it('the examples of the specification operations are what the server answers', async () => {
    const ws = org.workspaceId;
    const replay = async (method: string, path: string) => {
      const op = doc.paths[path][method];
      const input = { ...requestExampleOf(op), workspace_id: ws };
      const url = `${server.url}/api/v1${path}${method === 'get' ? `?${new URLSearchParams(input as Record<string, string>)}` : ''}`;
      const res = await fetch(url, {
        method: method.toUpperCase(),
        headers: { 'x-api-key': org.apiKey, 'content-type': 'application/json' },
        body: method === 'get' ? undefined : JSON.stringify(input),
      });
      expect(res.status).toBe(200);
      return { answer: await res.json(), example: op.responses['200'].content['application/json'].example };
    };
    // Pure operations: the example answer is the real one.
    const identities = await replay('post', '/dfy/generate-sender-identities');
    expect(identities.answer).toEqual(identities.example);
    expect(identities.example.senders.flatMap((s: any) => s.prefixes)).toHaveLength(99);
    const providers = await replay('get', '/email-placement/get/recipient-providers');
    expect(providers.answer).toEqual(providers.example);
  });

  it('passes `redocly lint` with no error and no warning but the localhost server URL', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const require = createRequire(import.meta.url);
      const cli = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
      const config = fileURLToPath(new URL('../../../../redocly.yaml', import.meta.url));
      const run = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--config', config, '--format=json', '--max-problems=1000'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
      const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
      const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(problems.filter((p) => !/^warn no-server-example\.com #\/servers\/0\/url:/.test(p))).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the /docs page renders every operation and the named schemas for a person to read', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    // The page shows paths in OpenAPI form: `/unibox/threads/{thread_id}/mark-as-read`.
    for (const r of routes) expect(html).toContain(`/api/v1${openApiPath(r)}`);
    expect(html).toContain('Get campaign variation stats');
    expect(html).toContain('id="schema-Campaign"');
    expect(html).toContain('<a href="#schema-Campaign">');
    expect(html).toContain('The path exists but does not take this method');
  });
});

describe('OpenAPI routes of blocklist, tags, webhooks and clients', () => {
  it('documents every route of this catalog', async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, method] of [
      ['/blocklist/list', 'get'], ['/blocklist/add/entries', 'post'], ['/blocklist/delete/entries', 'post'],
      ['/tags/list', 'get'], ['/tags/create', 'post'], ['/tags/update', 'put'], ['/tags/delete', 'delete'],
      ['/hook/list', 'get'], ['/hook/add', 'post'], ['/hook/del', 'delete'],
      ['/client', 'get'], ['/client', 'post'], ['/client', 'put'], ['/client', 'patch'], ['/client', 'delete'],
    ] as const) {
      const entry = Object.entries(doc.paths).find(([p]) => p.endsWith(path))?.[1];
      expect(entry?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});
