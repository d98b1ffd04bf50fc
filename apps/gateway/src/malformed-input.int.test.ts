// Malformed input is never a 500 (issue #11). Every REST operation of the OpenAPI document,
// every tRPC procedure and every GraphQL root field gets the same malformed variants (another
// charset, corrupt compression, NUL and lone surrogates in each field, malformed JSON, wrong
// JSON types) and must answer a 4xx naming the problem, or its ordinary answer.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestOrganization, startSmtpServer, type SmtpTestServer } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';
import { appRouter } from './trpc/router';
import { schema as graphqlSchema } from './graphql/schema';

type Json = Record<string, unknown>;
type Expect = number | 'not5xx';

const LIMIT = 25 * 1024 * 1024;
const NUL = 'fuzz\u0000nul';
const SURROGATE = 'fuzz\ud800alone';

// The fuzz sends a few thousand requests with one key: no rate limit in the way.
const { server, org } = useTestServer({ env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' } });
let key: string;
let ws: string;
let campaignId: string;

beforeAll(async () => {
  key = org.apiKey;
  ws = org.workspaceId;
  campaignId = (await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws })).id;
});
afterAll(async () => {
  await server?.deps.service.ports.smtp.close();
});

// ---------------------------------------------------------------------------------------
// Sample input from a JSON Schema (OpenAPI, and tRPC's zod schemas through z.toJSONSchema)

type Schema = { [k: string]: unknown };

function idFor(name: string): string {
  if (name === 'workspace_id' || name === 'workspaceId') return ws;
  if (/campaign/i.test(name)) return campaignId;
  return newId();
}

/** The OpenAPI document's named schemas, which its operations refer to with `$ref`. */
let components: Record<string, Schema> = {};

function sampleOf(schema: Schema | undefined, name: string, depth = 0): unknown {
  if (!schema || depth > 4) return 'fuzz';
  if (typeof schema['$ref'] === 'string') return sampleOf(components[schema['$ref'].split('/').pop()!], name, depth);
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  const branches = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (branches?.length) return sampleOf(branches.find((b) => b['type'] !== 'null') ?? branches[0], name, depth + 1);
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'string': {
      if (typeof schema['pattern'] === 'string' && schema['pattern'].includes('{24}')) return idFor(name);
      if (schema['format'] === 'email' || /email|^from$|^to$/.test(name)) return 'fuzz@fuzz.invalid';
      if (schema['format'] === 'uri' || schema['format'] === 'url' || /url/.test(name)) return 'http://127.0.0.1:9/fuzz';
      if (schema['format'] === 'date-time') return new Date().toISOString();
      if (schema['format'] === 'date') return '2024-01-01';
      return 'fuzz';
    }
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    case 'boolean':
      return false;
    case 'array':
      return [sampleOf(schema['items'] as Schema, name, depth + 1)];
    case 'object':
      return sampleObject(schema, depth + 1);
    default:
      return 'fuzz';
  }
}

function sampleObject(schema: Schema, depth = 0): Json {
  const out: Json = {};
  for (const [name, sub] of Object.entries((schema['properties'] ?? {}) as Record<string, Schema>)) out[name] = sampleOf(sub, name, depth);
  return out;
}

/** A value of another JSON type than the sample's. */
function wrongType(sample: unknown): unknown {
  if (typeof sample === 'string') return 12345;
  if (typeof sample === 'number' || typeof sample === 'boolean') return { not: 'a scalar' };
  if (Array.isArray(sample)) return { not: 'a list' };
  if (sample && typeof sample === 'object') return 'not an object';
  return ['unexpected'];
}

/** The sample with a field's value broken: its strings (or itself) carry `text`. */
function withText(value: unknown, text: string): unknown {
  if (Array.isArray(value)) return value.length ? value.map((v) => withText(v, text)) : [text];
  if (value && typeof value === 'object' && Object.keys(value).length) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withText(v, text)]));
  return text;
}

/** The dotted path of the first string `text` in `value` (document order), as field errors name it. */
function pathOf(value: unknown, text: string, path: string[]): string | undefined {
  if (value === text) return path.join('.');
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = pathOf(v, text, [...path, k]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `depth` nested arrays around a string, as JSON text (JSON.stringify would overflow). */
function deepJson(depth: number): string {
  return `${'['.repeat(depth)}"deep"${']'.repeat(depth)}`;
}

// ---------------------------------------------------------------------------------------
// Requests, tallies, and a small pool to run them

interface Probe {
  transport: 'rest' | 'trpc' | 'graphql';
  label: string;
  url: string;
  init: RequestInit;
  expect: Expect;
  /** The field the 400 must name (NUL, lone surrogate). */
  field?: string;
}

interface Outcome {
  probe: Probe;
  status: number;
  body: any;
  internal: boolean;
  ms: number;
}

function fieldOf(outcome: Outcome): string | undefined {
  const b = outcome.body;
  if (outcome.probe.transport === 'rest') return b?.errors?.[0]?.field;
  if (outcome.probe.transport === 'trpc') return b?.error?.data?.errors?.[0]?.field;
  return b?.errors?.[0]?.extensions?.errors?.[0]?.field;
}

async function run(probe: Probe): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(probe.url, probe.init);
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  // GraphQL answers resolver failures 200 with errors[]: a masked one is a 500 all the same.
  const internal =
    response.status >= 500 ||
    (Array.isArray(body?.errors) && body.errors.some((e: any) => e?.extensions?.code === 'INTERNAL_SERVER_ERROR'));
  return { probe, status: response.status, body, internal, ms: performance.now() - started };
}

async function runAll(probes: Probe[], concurrency = 6): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < probes.length) {
        const probe = probes[next++]!;
        outcomes.push(await run(probe));
      }
    }),
  );
  return outcomes;
}

/** Problems: every 5xx (or masked GraphQL error), and every answer other than the expected 4xx. */
function problemsOf(outcomes: Outcome[]): string[] {
  const problems: string[] = [];
  for (const o of outcomes) {
    const where = `${o.probe.transport} ${o.probe.label}`;
    const snippet = JSON.stringify(o.body).slice(0, 200);
    if (o.internal) problems.push(`${where}: ${o.status} ${snippet}`);
    else if (o.probe.expect !== 'not5xx' && o.status !== o.probe.expect) problems.push(`${where}: expected ${o.probe.expect}, got ${o.status} ${snippet}`);
    else if (o.probe.field !== undefined && fieldOf(o) !== o.probe.field) problems.push(`${where}: expected field ${o.probe.field}, got ${fieldOf(o)} ${snippet}`);
  }
  return problems;
}

/** The variant of a probe, its label without the operation: `NUL in subject`, `charset iso-8859-1`. */
function variantOf(probe: Probe): string {
  return probe.label.replace(/^([A-Z]+ \S+|(query|mutation) \S+|\S+) /, '').replace(/ (in|for) \$?\S+$/, ' in <field>');
}

function report(name: string, outcomes: Outcome[], units: number) {
  const internal = outcomes.filter((o) => o.internal);
  const byVariant = new Map<string, number>();
  for (const o of internal) byVariant.set(variantOf(o.probe), (byVariant.get(variantOf(o.probe)) ?? 0) + 1);
  const detail = [...byVariant].sort((a, b) => b[1] - a[1]).map(([v, n]) => `${n} × ${v}`).join('; ');
  const slowest = outcomes.reduce((a, b) => (b.ms > a.ms ? b : a));
  console.log(`${name}: ${units} operations, ${outcomes.length} requests, ${internal.length} 5xx${detail ? ` (${detail})` : ''}; slowest ${Math.round(slowest.ms)} ms (${slowest.probe.label})`);
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Body-level variants, the same on every transport that takes a JSON body. */
function bodyVariants(body: string): { label: string; headers: Record<string, string>; body: BodyInit; expect: Expect }[] {
  const gz = gzipSync(body);
  return [
    { label: 'charset iso-8859-1', headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body, expect: 415 },
    { label: 'gzip header, plain body', headers: { ...JSON_HEADERS, 'content-encoding': 'gzip' }, body, expect: 400 },
    { label: 'gzip truncated', headers: { ...JSON_HEADERS, 'content-encoding': 'gzip' }, body: new Uint8Array(gz.subarray(0, Math.max(12, gz.length >> 1))), expect: 400 },
    { label: 'br header, garbage body', headers: { ...JSON_HEADERS, 'content-encoding': 'br' }, body: new Uint8Array([0xff, 0xfe, 0xfd, 0x00, 0x01, 0x02, 0x03]), expect: 400 },
    { label: 'unknown content encoding', headers: { ...JSON_HEADERS, 'content-encoding': 'compress' }, body, expect: 415 },
    { label: 'malformed JSON', headers: JSON_HEADERS, body: body.slice(0, Math.max(1, body.length - 3)), expect: 400 },
    { label: 'invalid UTF-8 bytes', headers: JSON_HEADERS, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), expect: 'not5xx' },
    { label: 'JSON array body', headers: JSON_HEADERS, body: '[1,2]', expect: 'not5xx' },
    { label: 'JSON scalar body', headers: JSON_HEADERS, body: '"text"', expect: 'not5xx' },
    { label: 'deeply nested body', headers: JSON_HEADERS, body: `{"deep":${deepJson(100_000)}}`, expect: 'not5xx' },
  ];
}

/** Field-level variants of an input object: NUL, lone surrogate and a wrong type in each field. */
function fieldVariants(sample: Json): { label: string; input: Json | string; expect: Expect; field?: string }[] {
  const out: { label: string; input: Json | string; expect: Expect; field?: string }[] = [];
  for (const [name, value] of Object.entries(sample)) {
    const broken = (text: string) => withText(value, text);
    const nulValue = broken(NUL);
    const field = pathOf(nulValue, NUL, [name]);
    out.push({ label: `NUL in ${name}`, input: { ...sample, [name]: nulValue }, expect: 400, field });
    out.push({ label: `lone surrogate in ${name}`, input: { ...sample, [name]: broken(SURROGATE) }, expect: 400, field });
    out.push({ label: `wrong type in ${name}`, input: { ...sample, [name]: wrongType(value) }, expect: 'not5xx' });
  }
  // Every field at once as 10,000 nested arrays (JSON.stringify and recursive code overflow on such input).
  const deep = `{${Object.keys(sample).map((k) => `${JSON.stringify(k)}:${deepJson(10_000)}`).join(',')}}`;
  out.push({ label: 'deeply nested values', input: deep, expect: 'not5xx' });
  out.push({ label: 'NUL in an unknown field', input: { ...sample, fuzz_extra: NUL }, expect: 400, field: 'fuzz_extra' });
  out.push({ label: 'NUL in a field name', input: { ...sample, ['fuzz\u0000key']: 'x' }, expect: 400, field: 'fuzz\\u0000key' });
  return out;
}

describe('malformed input on every operation is a 4xx, never a 500', () => {
  it('REST: every operation of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };
    components = doc.components.schemas;
    const probes: Probe[] = [];
    let operations = 0;
    const auth = { 'x-api-key': key };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        operations += 1;
        const M = method.toUpperCase();
        const params = (op.parameters ?? []) as { name: string; in: string; schema: Schema }[];
        const pathParams = params.filter((p) => p.in === 'path');
        const urlFor = (override?: { name: string; raw: string }) =>
          `${server.url}/api/v1${path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
            if (override?.name === name) return override.raw;
            const p = pathParams.find((x) => x.name === name);
            return encodeURIComponent(String(sampleOf(p?.schema, name)));
          })}`;
        const where = `${M} ${path}`;
        // Path parameters: NUL, and bytes that are not UTF-8 (undecodable).
        for (const p of pathParams) {
          probes.push({ transport: 'rest', label: `${where} NUL in path ${p.name}`, url: urlFor({ name: p.name, raw: 'ab%00cd' }), init: { method: M, headers: auth }, expect: 400, field: p.name });
          probes.push({ transport: 'rest', label: `${where} invalid UTF-8 in path ${p.name}`, url: urlFor({ name: p.name, raw: '%ED%A0%80' }), init: { method: M, headers: auth }, expect: 400 });
        }
        if (M === 'GET') {
          const query = params.filter((p) => p.in === 'query');
          const sample = Object.fromEntries(query.map((p) => [p.name, sampleOf(p.schema, p.name)]));
          const qs = (extra: string) => `${new URLSearchParams(Object.entries(sample).map(([k, v]) => [k, String(v)]))}${extra}`;
          const get = (label: string, url: string, expect: Expect, field?: string) => probes.push({ transport: 'rest', label: `${where} ${label}`, url, init: { method: 'GET', headers: auth }, expect, ...(field ? { field } : {}) });
          get('valid', `${urlFor()}?${qs('')}`, 'not5xx');
          for (const p of query) {
            const others = new URLSearchParams(Object.entries(sample).filter(([k]) => k !== p.name).map(([k, v]) => [k, String(v)]));
            get(`NUL in ${p.name}`, `${urlFor()}?${others}&${p.name}=a%00b`, 400, p.name);
            get(`invalid UTF-8 in ${p.name}`, `${urlFor()}?${others}&${p.name}=%ED%A0%80%FF`, 'not5xx');
            get(`object for ${p.name}`, `${urlFor()}?${others}&${p.name}[x]=1`, 'not5xx');
          }
          get('NUL in an unknown parameter', `${urlFor()}?${qs('&fuzz_extra=%00')}`, 400, 'fuzz_extra');
          continue;
        }
        const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
        const sample = bodySchema ? sampleObject(bodySchema) : {};
        const send = (label: string, headers: Record<string, string>, body: BodyInit, expect: Expect, field?: string) =>
          probes.push({ transport: 'rest', label: `${where} ${label}`, url: urlFor(), init: { method: M, headers: { ...auth, ...headers }, body }, expect, ...(field ? { field } : {}) });
        send('valid', JSON_HEADERS, JSON.stringify(sample), 'not5xx');
        for (const v of bodyVariants(JSON.stringify(sample))) send(v.label, v.headers, v.body, v.expect);
        for (const v of fieldVariants(sample)) send(v.label, JSON_HEADERS, typeof v.input === 'string' ? v.input : JSON.stringify(v.input), v.expect, v.field);
      }
    }
    const outcomes = await runAll(probes);
    report('REST', outcomes, operations);
    expect(operations).toBeGreaterThan(50);
    expect(problemsOf(outcomes)).toEqual([]);
  });

  it('tRPC: every procedure of the router', async () => {
    const procedures = Object.entries((appRouter as any)._def.procedures as Record<string, any>);
    const probes: Probe[] = [];
    const auth = { 'x-api-key': key };
    for (const [path, procedure] of procedures) {
      const type = procedure._def.type as 'query' | 'mutation';
      const input = procedure._def.inputs?.[0] as z.ZodType | undefined;
      const jsonSchema = input ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Schema) : {};
      const sample = sampleObject(jsonSchema);
      const url = `${server.url}/trpc/${path}`;
      const call = (label: string, value: Json | string, expect: Expect, field?: string) => {
        const raw = typeof value === 'string' ? value : JSON.stringify(value);
        const init: RequestInit = type === 'query' ? { method: 'GET', headers: auth } : { method: 'POST', headers: { ...auth, ...JSON_HEADERS }, body: raw };
        const target = type === 'query' ? `${url}?input=${encodeURIComponent(raw)}` : url;
        probes.push({ transport: 'trpc', label: `${path} ${label}`, url: target, init, expect, ...(field ? { field } : {}) });
      };
      call('valid', sample, 'not5xx');
      call('malformed JSON input', '{"workspace_id": ', 400);
      for (const v of fieldVariants(sample)) call(v.label, v.input, v.expect, v.field);
      // Body-level variants go as POST bodies (a query answers them before its method check).
      for (const v of bodyVariants(JSON.stringify(sample))) {
        // A query answers a POST 405 once its body is read: only the reading problems (charset, encoding) come first.
        const expect = type === 'mutation' || v.expect === 415 || /gzip|br |deflate/.test(v.label) ? v.expect : 'not5xx';
        probes.push({ transport: 'trpc', label: `${path} ${v.label}`, url, init: { method: 'POST', headers: { ...auth, ...v.headers }, body: v.body }, expect });
      }
    }
    const outcomes = await runAll(probes);
    report('tRPC', outcomes, procedures.length);
    expect(procedures.length).toBeGreaterThan(50);
    expect(problemsOf(outcomes)).toEqual([]);
  });

  it('GraphQL: every root field of the schema', async () => {
    const probes: Probe[] = [];
    let fields = 0;
    const headers = { ...JSON_HEADERS, accept: 'application/graphql-response+json, application/json', 'x-api-key': key };
    const gql = (label: string, payload: unknown, expect: Expect, field?: string) =>
      probes.push({ transport: 'graphql', label, url: `${server.url}/graphql`, init: { method: 'POST', headers, body: JSON.stringify(payload) }, expect, ...(field ? { field } : {}) });

    const sampleFor = (type: GraphQLInputType, name: string, depth = 0): unknown => {
      const inner = getNullableType(type) as GraphQLInputType;
      if (isListType(inner)) return [sampleFor(inner.ofType, name, depth + 1)];
      if (isEnumType(inner)) return inner.getValues()[0]?.value;
      if (isInputObjectType(inner)) {
        const out: Json = {};
        for (const f of Object.values(inner.getFields())) if (isNonNullType(f.type) || depth < 2) out[f.name] = sampleFor(f.type, f.name, depth + 1);
        return out;
      }
      if (isScalarType(inner)) {
        if (inner.name === 'Int' || inner.name === 'Float') return 1;
        if (inner.name === 'Boolean') return false;
        if (inner.name === 'ID' || /Id$/.test(name)) return /workspace/i.test(name) ? ws : /campaign/i.test(name) ? campaignId : newId();
        if (/email|^from$|^to$/i.test(name)) return 'fuzz@fuzz.invalid';
        if (/url/i.test(name)) return 'http://127.0.0.1:9/fuzz';
        if (/date|time|At$/i.test(name)) return new Date().toISOString();
        return 'fuzz';
      }
      return 'fuzz';
    };
    const isStringish = (type: GraphQLInputType) => {
      const named = getNamedType(type);
      return isScalarType(named) && ['String', 'ID'].includes(named.name);
    };

    for (const [kind, root] of [['query', graphqlSchema.getQueryType()], ['mutation', graphqlSchema.getMutationType()]] as const) {
      for (const field of Object.values((root as GraphQLObjectType).getFields()) as GraphQLField<unknown, unknown>[]) {
        if (field.name.startsWith('__')) continue;
        fields += 1;
        const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
        const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
        const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${kind} Fuzz${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`;
        const variables = Object.fromEntries(field.args.map((a) => [a.name, sampleFor(a.type, a.name)]));
        const where = `${kind} ${field.name}`;
        gql(`${where} valid`, { query, variables }, 'not5xx');
        for (const a of field.args) {
          const value = variables[a.name];
          gql(`${where} wrong type in $${a.name}`, { query, variables: { ...variables, [a.name]: wrongType(value) } }, 'not5xx');
          if (isStringish(a.type) || isInputObjectType(getNamedType(a.type))) {
            const nul = withText(value, NUL);
            const field = pathOf(nul, NUL, [a.name]);
            gql(`${where} NUL in $${a.name}`, { query, variables: { ...variables, [a.name]: nul } }, 400, field);
            gql(`${where} lone surrogate in $${a.name}`, { query, variables: { ...variables, [a.name]: withText(value, SURROGATE) } }, 400, field);
          }
          if (isStringish(a.type) && !isListType(getNullableType(a.type))) {
            // The same as a literal in the document: `name: "fuzz\u0000nul"`.
            const literalDefs = field.args.filter((x) => x !== a).map((x) => `$${x.name}: ${x.type.toString()}`).join(', ');
            const literalArgs = field.args.map((x) => (x === a ? `${x.name}: "fuzz\\u0000nul"` : `${x.name}: $${x.name}`)).join(', ');
            const literalQuery = `${kind} Fuzz${literalDefs ? `(${literalDefs})` : ''} { ${field.name}(${literalArgs})${selection} }`;
            const { [a.name]: _dropped, ...rest } = variables;
            gql(`${where} NUL literal in ${a.name}`, { query: literalQuery, variables: rest }, 400, a.name);
          }
        }
        const deepVariables = `{${field.args.map((a) => `${JSON.stringify(a.name)}:${deepJson(10_000)}`).join(',')}}`;
        probes.push({ transport: 'graphql', label: `${where} deeply nested variables`, url: `${server.url}/graphql`, init: { method: 'POST', headers, body: `{"query":${JSON.stringify(query)},"variables":${deepVariables}}` }, expect: 'not5xx' });
        for (const v of bodyVariants(JSON.stringify({ query, variables }))) {
          probes.push({ transport: 'graphql', label: `${where} ${v.label}`, url: `${server.url}/graphql`, init: { method: 'POST', headers: { ...headers, ...v.headers }, body: v.body }, expect: v.expect });
        }
      }
    }
    probes.push({
      transport: 'graphql',
      label: 'valid gzip body',
      url: `${server.url}/graphql`,
      init: { method: 'POST', headers: { ...headers, 'content-encoding': 'gzip' }, body: new Uint8Array(gzipSync(JSON.stringify({ query: '{ __typename }' }))) },
      expect: 200,
    });
    probes.push({
      transport: 'graphql',
      label: 'valid br body',
      url: `${server.url}/graphql`,
      init: { method: 'POST', headers: { ...headers, 'content-encoding': 'br' }, body: new Uint8Array(brotliCompressSync(JSON.stringify({ query: '{ __typename }' }))) },
      expect: 200,
    });
    const outcomes = await runAll(probes);
    report('GraphQL', outcomes, fields);
    expect(fields).toBeGreaterThan(50);
    expect(problemsOf(outcomes)).toEqual([]);
  });
});

describe('readable answers for unreadable bodies', () => {
  it('names the charset, the corrupt compression and accepts a valid gzip body, on each transport', async () => {
    const body = JSON.stringify({ workspace_name: 'Gzip workspace' });
    const charset = { 'x-api-key': key, 'content-type': 'application/json; charset=iso-8859-1' };
    const gzip = { 'x-api-key': key, 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const rest = await fetch(`${server.url}/api/v1/workspaces/add`, { method: 'POST', headers: charset, body });
    expect([rest.status, await rest.json()]).toEqual([
      415,
      { status: 'error', message: 'request body charset "iso-8859-1" is not supported: send UTF-8 (charset=utf-8, or no charset)', code: 'request.unsupported_charset' },
    ]);
    const restGzip = await fetch(`${server.url}/api/v1/workspaces/add`, { method: 'POST', headers: gzip, body });
    expect([restGzip.status, await restGzip.json()]).toEqual([
      400,
      { status: 'error', message: 'request body is not valid gzip (Content-Encoding: gzip)', code: 'request.malformed_encoding' },
    ]);
    for (const [encoding, encoded] of [['gzip', gzipSync(body)], ['deflate', deflateSync(body)], ['br', brotliCompressSync(body)]] as const) {
      const valid = await fetch(`${server.url}/api/v1/workspaces/add`, { method: 'POST', headers: { ...gzip, 'content-encoding': encoding }, body: new Uint8Array(encoded) });
      expect([encoding, valid.status]).toEqual([encoding, 200]);
    }
    const trpcGzip = await fetch(`${server.url}/trpc/workspace.create`, { method: 'POST', headers: gzip, body: new Uint8Array(gzipSync(body)) });
    expect(trpcGzip.status).toBe(200);
    expect(((await trpcGzip.json()) as any).result.data.status).toBe('success');
    const trpcCharset = await fetch(`${server.url}/trpc/workspace.create`, { method: 'POST', headers: charset, body });
    expect(trpcCharset.status).toBe(415);
    expect(((await trpcCharset.json()) as any).error.data).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', domain_code: 'request.unsupported_charset' });
    const gqlCharset = await fetch(`${server.url}/graphql`, { method: 'POST', headers: charset, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(gqlCharset.status).toBe(415);
    expect(((await gqlCharset.json()) as any).errors[0].extensions).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', domain_code: 'request.unsupported_charset' });
    const gqlGzip = await fetch(`${server.url}/graphql`, { method: 'POST', headers: gzip, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(gqlGzip.status).toBe(400);
    expect(((await gqlGzip.json()) as any).errors[0]).toEqual({
      message: 'request body is not valid gzip (Content-Encoding: gzip)',
      extensions: { code: 'BAD_REQUEST', domain_code: 'request.malformed_encoding' },
    });
  });

  it('answers 413 for a body just over 25 MB on each transport, reading it as a stream', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    const streamed = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > LIMIT) return controller.close();
          // `{"workspace_name": "` then spaces: valid JSON if it were not too large.
          const piece = sent === 0 ? new TextEncoder().encode('{"workspace_name": "') : chunk;
          sent += piece.byteLength;
          controller.enqueue(piece);
        },
      });
    };
    for (const url of ['/api/v1/workspaces/add', '/trpc/workspace.create', '/graphql']) {
      const response = await fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: streamed(),
        duplex: 'half',
      } as RequestInit);
      expect([url, response.status]).toEqual([url, 413]);
      expect(await response.text()).toMatch(/too large/i);
    }
    // tRPC reads other bodies itself (multipart forms), under the same limit.
    const form = await fetch(`${server.url}/trpc/workspace.create`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'multipart/form-data; boundary=fuzz' },
      body: streamed(),
      duplex: 'half',
    } as RequestInit);
    expect(form.status).toBe(413);
    expect(((await form.json()) as any).error).toMatchObject({ message: 'request body is too large (limit 25 MB)', data: { code: 'PAYLOAD_TOO_LARGE', domain_code: 'request.too_large' } });
  });
});

describe('a NUL in an e-mail to send', () => {
  let smtp: SmtpTestServer;
  let org: Awaited<ReturnType<typeof createTestOrganization>>;

  beforeAll(async () => {
    smtp = await startSmtpServer({ users: { 'nul@sender.test': 'nul-pw' } });
    org = await createTestOrganization({ db: server.db });
    await server.db.prisma.emailAccount.create({
      data: {
        id: newId(),
        organizationId: org.organizationId,
        workspaceId: org.workspaceId,
        email: 'nul@sender.test',
        emailNormalized: 'nul@sender.test',
        firstName: 'Nul',
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpUsername: 'nul@sender.test',
        smtpPasswordEnc: server.deps.service.secrets.encrypt('nul-pw'),
        imapHost: '127.0.0.1',
        imapPort: 1,
        imapUsername: 'nul@sender.test',
        imapPasswordEnc: server.deps.service.secrets.encrypt('nul-pw'),
        dailyLimit: 100,
      },
    });
  });
  afterAll(() => smtp?.close());

  it('is refused on every transport before anything reaches the SMTP server', async () => {
    const input = { workspace_id: org.workspaceId, from: 'nul@sender.test', to: ['lead@else.test'], subject: 'Hi\u0000there', body: '<p>b</p>' };
    const rest = await server.rest('POST', '/unibox/emails/send', { key: org.apiKey, body: input });
    expect([rest.status, rest.body.errors]).toEqual([400, [{ field: 'subject', message: 'must not contain a NUL character (\\u0000)' }]]);
    const trpc = await fetch(`${server.url}/trpc/unibox.send`, { method: 'POST', headers: { 'x-api-key': org.apiKey, ...JSON_HEADERS }, body: JSON.stringify({ ...input, subject: 'Hi', body: 'Lone \udc00' }) });
    expect(trpc.status).toBe(400);
    expect(((await trpc.json()) as any).error.data.errors).toEqual([{ field: 'body', message: 'must not contain a lone UTF-16 surrogate (not valid Unicode text)' }]);
    const gql = await server.graphql(
      `mutation($ws: ID!, $s: String!) { sendUniboxEmail(workspaceId: $ws, from: "nul@sender.test", to: ["lead@else.test"], subject: $s, body: "b") { id } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, s: 'Hi\u0000there' } },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 's' }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toEqual([]);

    // The same e-mail without the NUL goes out: the SMTP server is listening.
    const sent = await server.rest('POST', '/unibox/emails/send', { key: org.apiKey, body: { ...input, subject: 'Hi there' } });
    expect(sent.status).toBe(200);
    expect(smtp.messages.map((m) => m.to)).toEqual([['lead@else.test']]);
  });
});
