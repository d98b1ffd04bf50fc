import { z } from 'zod';
import { apiSchemaNames } from '@outreach/core';
import type { Route } from './route';
import { exampleFromSchema, type Json, type JsonSchema } from './openapi-examples';
import { SPEC_EXAMPLES } from './openapi-spec-examples';

// ─── schemas: zod → JSON Schema, named resources as components ────────────────────────

type Io = 'input' | 'output';

const COMPONENT_PREFIX = '#/components/schemas/';
const DEF_PREFIX = '#/$defs/';
/** A named schema while the document is built: `Campaign@output` (input and output differ). */
const TEMP = /^#\/\$defs\/([A-Za-z0-9_.-]+)@(input|output)$/;

/**
 * zod's metadata for one direction: the global registry's (descriptions), with the API name
 * of a resource schema (core's `nameApiSchema`, or a global `.meta({ id })`) as its id, tagged
 * with the direction, so z.toJSONSchema extracts it to `$defs` under that name.
 */
function metadataFor(io: Io) {
  const registry = z.registry<Record<string, unknown>>();
  registry.get = ((schema: z.core.$ZodType) => {
    const global = z.globalRegistry.get(schema) as Record<string, unknown> | undefined;
    const name = apiSchemaNames.get(schema)?.id ?? (global?.['id'] as string | undefined);
    if (!name) return global;
    return { ...global, id: `${name}@${io}` };
  }) as typeof registry.get;
  return registry;
}
const METADATA = { input: metadataFor('input'), output: metadataFor('output') };

function walk(value: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const v of value) walk(v, visit);
  else if (value && typeof value === 'object') {
    visit(value as Record<string, unknown>);
    for (const v of Object.values(value)) walk(v, visit);
  }
}

function hashOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** Every schema of the document, converted once; named ones collected for `components`. */
class SchemaSet {
  readonly defs = new Map<string, JsonSchema>();

  convert(schema: z.ZodType, io: Io): JsonSchema {
    const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', metadata: METADATA[io] }) as JsonSchema;
    delete out['$schema'];
    const defs = (out['$defs'] ?? {}) as Record<string, JsonSchema>;
    delete out['$defs'];
    // Definitions zod made without a name (cycles) get one from their content.
    const renamed = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) if (!id.includes('@')) renamed.set(id, `Schema${hashOf(JSON.stringify(def))}@${io}`);
    const fix = (node: Record<string, unknown>) => {
      const ref = node['$ref'];
      if (typeof ref === 'string' && ref.startsWith(DEF_PREFIX) && renamed.has(ref.slice(DEF_PREFIX.length))) node['$ref'] = DEF_PREFIX + renamed.get(ref.slice(DEF_PREFIX.length));
    };
    walk(out, fix);
    for (const [id, def] of Object.entries(defs)) {
      walk(def, fix);
      const key = renamed.get(id) ?? id;
      const held = this.defs.get(key);
      // One name, one schema: another schema under a name already converted is refused.
      if (held && JSON.stringify(held) !== JSON.stringify(def)) throw new Error(`OpenAPI: two different schemas are named ${key.split('@')[0]}`);
      this.defs.set(key, def);
    }
    return out;
  }

  /** A `$ref` of a schema being built, for the example generator. */
  resolve = (ref: string): JsonSchema | undefined => (ref.startsWith(DEF_PREFIX) ? this.defs.get(ref.slice(DEF_PREFIX.length)) : undefined);

  /**
   * Component names: a schema whose input and output forms are the same JSON Schema (or that
   * is used in one direction only) is one component under its name; when they differ
   * (defaults, transforms), the output form keeps the name and the input form is `<Name>Input`.
   * A component name is given once: two schemas claiming it are refused.
   */
  components(): { schemas: Record<string, JsonSchema>; nameOf: (temp: string) => string } {
    const byBase = new Map<string, { input?: string; output?: string }>();
    for (const key of this.defs.keys()) {
      const [base, io] = key.split('@') as [string, Io];
      byBase.set(base, { ...byBase.get(base), [io]: key });
    }
    // Compared without the direction of their references, and without the `additionalProperties:
    // false` zod writes on output objects only (input objects take unknown keys and drop them).
    const neutral = (key: string) =>
      JSON.stringify(this.defs.get(key), (k, v) => (k === 'additionalProperties' && v === false ? undefined : v)).replace(/@(input|output)"/g, '"');
    const refsOf = (key: string) => [...JSON.stringify(this.defs.get(key)).matchAll(/"#\/\$defs\/([^"@]+)@(?:input|output)"/g)].map((m) => m[1]!);
    const shared = new Set<string>();
    for (const [base, v] of byBase) if (!v.input || !v.output || neutral(v.input) === neutral(v.output)) shared.add(base);
    // Two forms that look alike but refer to a schema whose forms differ are different too.
    for (let changed = true; changed; ) {
      changed = false;
      for (const base of [...shared]) {
        const v = byBase.get(base)!;
        if (v.input && v.output && refsOf(v.output).some((r) => !shared.has(r))) {
          shared.delete(base);
          changed = true;
        }
      }
    }
    const names = new Map<string, string>();
    const schemas: Record<string, JsonSchema> = {};
    const owner = new Map<string, string>();
    const claim = (name: string, key: string) => {
      const held = owner.get(name);
      if (held && held !== key) throw new Error(`OpenAPI component name ${name} would name two schemas (${held}, ${key}); rename one with nameApiSchema`);
      owner.set(name, key);
      names.set(key, name);
    };
    for (const [base, v] of [...byBase].sort(([a], [b]) => a.localeCompare(b))) {
      if (shared.has(base)) {
        // The input form where there is one: it holds for the output too.
        const key = (v.input ?? v.output)!;
        claim(base, key);
        if (v.input) names.set(v.input, base);
        if (v.output) names.set(v.output, base);
        schemas[base] = this.defs.get(key)!;
      } else {
        claim(base, v.output!);
        claim(`${base}Input`, v.input!);
        schemas[base] = this.defs.get(v.output!)!;
        schemas[`${base}Input`] = this.defs.get(v.input!)!;
      }
    }
    return { schemas, nameOf: (temp) => names.get(temp) ?? temp };
  }
}

/** Points every `$ref` of a built schema at its component. */
function linkRefs(value: unknown, nameOf: (temp: string) => string): void {
  walk(value, (node) => {
    const ref = node['$ref'];
    if (typeof ref !== 'string') return;
    const m = TEMP.exec(ref);
    if (m) node['$ref'] = COMPONENT_PREFIX + nameOf(`${m[1]}@${m[2]}`);
    else if (ref.startsWith(DEF_PREFIX)) node['$ref'] = COMPONENT_PREFIX + nameOf(ref.slice(DEF_PREFIX.length));
  });
}

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

// ─── error answers ────────────────────────────────────────────────────────────────────

const FIELD_ERRORS: JsonSchema = {
  type: 'array',
  description: 'Field-level validation failures',
  items: {
    type: 'object',
    required: ['field', 'message'],
    properties: { field: { type: 'string', description: 'Dotted path of the field (`leads.3.email`)' }, message: { type: 'string' } },
  },
};

const ERROR_BODY: JsonSchema = {
  type: 'object',
  description: "The vendor's error body.",
  required: ['status', 'message'],
  properties: {
    status: { const: 'error' },
    message: { type: 'string', description: 'What is wrong, naming the field' },
    code: { type: 'string', description: 'Stable namespaced error code, e.g. `auth.invalid_key`' },
    errors: FIELD_ERRORS,
    request_id: { type: 'string', description: 'Present on 500 answers: quote it when reporting the failure' },
  },
};

const MESSAGE_BODY: JsonSchema = {
  type: 'object',
  description: 'The error body of the operations whose specification says `{ message }` (variation statistics).',
  required: ['message'],
  properties: {
    message: { type: 'string', description: 'What is wrong, naming the field' },
    code: { type: 'string', description: 'Stable namespaced error code' },
    errors: FIELD_ERRORS,
    request_id: { type: 'string', description: 'Present on 500 answers' },
  },
};

type Shape = 'vendor' | 'message';

interface StatusDoc {
  name: string;
  description: string;
  example: { message: string; code: string; errors?: { field: string; message: string }[]; request_id?: string };
  headers?: Record<string, unknown>;
  /** Answered before any operation runs, always in the vendor's shape. */
  requestLevel?: boolean;
}

const STATUS_DOCS: Record<number, StatusDoc> = {
  400: {
    name: 'BadRequest',
    description: 'Invalid parameters (the message and `errors` name each field and its problem), a condition the operation needs is not met, or an unreadable body (malformed JSON or compression)',
    example: { message: 'campaign_id must be a 24-character hexadecimal id', code: 'request.invalid', errors: [{ field: 'campaign_id', message: 'must be a 24-character hexadecimal id' }] },
  },
  401: { name: 'Unauthorized', description: 'Missing, unknown or revoked API key', example: { message: 'invalid API key', code: 'auth.invalid_key' } },
  403: {
    name: 'Forbidden',
    description: 'The workspace is not reachable with this key (an unknown workspace answers the same), or the key lacks a permission',
    example: { message: 'workspace_id 6651f0c2a4b7e91d3c5a8f20 is not accessible with this API key', code: 'auth.workspace_forbidden' },
  },
  404: {
    name: 'NotFound',
    description: 'A resource the request names (by identifier, address or name) does not exist in the workspace',
    example: { message: 'campaign_id 6652a1d4e8f3b2c7a9d05e11 is not a campaign of workspace 6651f0c2a4b7e91d3c5a8f20', code: 'campaign.not_found' },
  },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path exists but does not take this method; `Allow` lists the methods it takes',
    example: { message: 'method GET is not allowed on /api/v1/campaign/launch; allowed: POST', code: 'request.method_not_allowed' },
    headers: { Allow: { description: 'The methods the path takes, e.g. `GET, POST`', schema: { type: 'string' } } },
    requestLevel: true,
  },
  409: {
    name: 'Conflict',
    description: 'The change conflicts with what is stored: a name or address already taken, or a state that forbids it (an archived campaign)',
    example: { message: 'a tag named "Hot prospects" already exists in this workspace', code: 'tag.duplicate_name' },
  },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 25 MB (read or inflated)', example: { message: 'request body is too large (limit 25 MB)', code: 'request.too_large' }, requestLevel: true },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not UTF-8 JSON, or uses a content encoding other than gzip, deflate or br',
    example: { message: 'request body charset "latin1" is not supported: send UTF-8 (charset=utf-8, or no charset)', code: 'request.unsupported_charset' },
    requestLevel: true,
  },
  429: {
    name: 'TooManyRequests',
    description: 'Rate limit exceeded for this key (or, on public operations, this address)',
    example: { message: 'rate limit exceeded: retry in 1 s', code: 'rate_limited' },
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until a request is accepted again' } },
  },
  500: {
    name: 'InternalError',
    description: 'Unexpected failure; the body carries the request id, which is also in the logs',
    example: { message: 'Internal server error (request id 0f3c9a7e-5b21-4d8e-9a64-2c7f1e0b8d35)', code: 'internal', request_id: '0f3c9a7e-5b21-4d8e-9a64-2c7f1e0b8d35' },
  },
};

/** Operations whose name says they compute without storing anything: no 409. */
const COMPUTATION = /^(test|generate)/;
/** Operations that create what they name: a missing `email` / `name` is not a 404. */
const CREATION = /^(create|add|bulkAdd|invite)/;

/**
 * The error statuses an operation answers, by the rule documented in docs/api.md: every
 * operation 400, 405, 429, 500; with an API key 401 and 403; with a body 413 and 415; 404
 * when it names one existing resource; 409 when it stores something.
 */
export function errorStatusesOf(route: Route, input: { required: string[]; outputIsList: boolean }): number[] {
  const statuses = [400];
  if (!route.public) statuses.push(401, 403);
  const verb = route.op.name.split('.').pop() ?? '';
  const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].length > 0;
  const namesById = input.required.some((k) => /^(id|.*_id)$/.test(k) && k !== 'workspace_id' && k !== 'to_workspace_id');
  const namesByKey = !CREATION.test(verb) && !input.outputIsList && input.required.some((k) => k === 'email' || k === 'name');
  if (pathParams || namesById || namesByKey) statuses.push(404);
  statuses.push(405);
  if (route.op.kind === 'mutation' && !COMPUTATION.test(verb)) statuses.push(409);
  if (route.method !== 'GET') statuses.push(413, 415);
  statuses.push(429, 500);
  return statuses;
}

function responseComponent(status: number, shape: Shape): { name: string; response: JsonSchema } {
  const doc = STATUS_DOCS[status]!;
  const message = shape === 'message' && !doc.requestLevel;
  const example = message ? doc.example : { status: 'error', ...doc.example };
  return {
    name: message ? `${doc.name}Message` : doc.name,
    response: {
      description: doc.description,
      ...(doc.headers ? { headers: doc.headers } : {}),
      content: { 'application/json': { schema: { $ref: `${COMPONENT_PREFIX}${message ? 'MessageError' : 'Error'}` }, example } },
    },
  };
}

// ─── tags ─────────────────────────────────────────────────────────────────────────────

const TAG_DESCRIPTIONS: Record<string, string> = {
  workspace: 'Workspaces of the organization, their settings copy and invitations',
  leadLabel: 'Lead labels (system and custom) of a workspace',
  campaign: 'Campaigns and subsequences: creation, sequences, schedules, state and statistics',
  unibox: 'The unified inbox: threads and e-mails, replies, forwards and drafts',
  lead: 'Leads of campaigns: upload, search, variables, labels and status',
  dfy: 'Managed infrastructure orders (done for you)',
  placement: 'E-mail placement tests',
  account: 'Domain checks of sending accounts',
  blocklist: 'Addresses and domains never written to',
  tag: 'Tags on campaigns and e-mail accounts',
  webhook: 'Webhook subscriptions that send events to a caller',
  client: 'Client access: client accounts and their workspace grants',
  workspaceSettings: 'Workspace settings',
  additionalField: 'Additional lead fields of a workspace, with default values',
  emailAccount: 'Sending mailboxes: connection, warm-up, limits and statistics',
  analytics: 'Campaign and workspace statistics',
  partner: "Email-infrastructure partners: a partner key's operations in the workspaces that grant it, and the organization's partner keys, grants and activity",
};

function tagDescription(tag: string): string {
  return TAG_DESCRIPTIONS[tag] ?? `${tag.replace(/([A-Z])/g, ' $1').toLowerCase()} operations`;
}

// ─── examples ─────────────────────────────────────────────────────────────────────────

interface OperationExamples {
  request: Record<string, Json>;
  response: Json;
}

function examplesOf(route: Route, inputJson: JsonSchema, outputJson: JsonSchema, schemas: SchemaSet): OperationExamples {
  const spec = SPEC_EXAMPLES[route.op.name];
  const domain = route.op.name.split('.')[0] ?? '';
  // The test suite checks both against the operation's zod schemas, for every route.
  const request = spec?.request ?? exampleFromSchema({ json: inputJson, zod: route.op.input, io: 'input', domain, resolve: schemas.resolve }).value;
  const response = spec?.response ?? exampleFromSchema({ json: outputJson, zod: route.op.output, io: 'output', domain, resolve: schemas.resolve }).value;
  return { request: request && typeof request === 'object' && !Array.isArray(request) ? (request as Record<string, Json>) : {}, response };
}

// ─── the document ─────────────────────────────────────────────────────────────────────

export function buildOpenApi(options: { routes: Route[]; serverUrl: string; version: string }) {
  const schemas = new SchemaSet();
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  const usedResponses = new Map<string, JsonSchema>();
  const tags = new Set<string>();

  for (const r of options.routes) {
    const input = schemas.convert(r.op.input, 'input');
    const output = schemas.convert(r.op.output, 'output');
    const inputObject = typeof input['$ref'] === 'string' ? (schemas.resolve(input['$ref']) ?? input) : input;
    const properties = { ...((inputObject['properties'] ?? {}) as Record<string, JsonSchema>) };
    const required = (inputObject['required'] ?? []) as string[];
    const pathParams = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
    const outputObject = typeof output['$ref'] === 'string' ? (schemas.resolve(output['$ref']) ?? output) : output;
    const examples = examplesOf(r, input, output, schemas);

    const parameters: Record<string, unknown>[] = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: properties[name] ?? { type: 'string' },
      ...(examples.request[name] !== undefined ? { example: examples.request[name] } : {}),
    }));
    let requestBody: unknown;
    if (r.method === 'GET') {
      for (const [name, schema] of Object.entries(properties)) {
        if (pathParams.includes(name)) continue;
        const { description, ...rest } = schema;
        parameters.push({
          name,
          in: 'query',
          required: required.includes(name),
          ...(description ? { description } : {}),
          schema: rest,
          ...(examples.request[name] !== undefined ? { example: examples.request[name] } : {}),
        });
      }
    } else {
      const body: JsonSchema = { ...inputObject, properties: { ...properties } };
      for (const p of pathParams) delete (body['properties'] as JsonSchema)[p];
      if (Array.isArray(body['required'])) {
        body['required'] = (body['required'] as string[]).filter((k) => !pathParams.includes(k));
        if (!(body['required'] as string[]).length) delete body['required'];
      }
      const bodyExample = Object.fromEntries(Object.entries(examples.request).filter(([k]) => !pathParams.includes(k)));
      requestBody = { required: true, content: { 'application/json': { schema: body, example: bodyExample } } };
    }

    const responses: Record<string, unknown> = {
      '200': { description: 'Success', content: { 'application/json': { schema: output, example: examples.response } } },
      ...(r.redirect
        ? { '302': { description: 'Asked to redirect (`redirect=true`): the URL of the answer is in `Location`', headers: { Location: { schema: { type: 'string' }, description: 'The URL the JSON answer would carry' } } } }
        : {}),
    };
    const statuses = errorStatusesOf(r, { required, outputIsList: outputObject['type'] === 'array' });
    for (const status of statuses) {
      const { name, response } = responseComponent(status, r.errorShape ?? 'vendor');
      usedResponses.set(name, response);
      responses[String(status)] = { $ref: `#/components/responses/${name}` };
    }

    const tag = r.op.name.split('.')[0] ?? 'misc';
    tags.add(tag);
    const operation = {
      operationId: `${r.op.name}${options.routes.filter((x) => x.op === r.op).length > 1 ? `:${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+/g, '_')}` : ''}`,
      summary: r.op.summary,
      ...(r.op.description ? { description: r.op.description } : {}),
      tags: [tag],
      ...(r.deprecated ? { deprecated: true } : {}),
      ...(r.public ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      'x-trpc-procedure': r.op.name,
    };
    const path = toOpenApiPath(r.path);
    paths[path] = { ...(paths[path] ?? {}), [r.method.toLowerCase()]: operation };
  }

  const { schemas: named, nameOf } = schemas.components();
  linkRefs(paths, nameOf);
  linkRefs(named, nameOf);
  const sorted = <T>(entries: [string, T][]) => Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Outreach API',
      version: options.version,
      description:
        'Wire-compatible with the PlusVibe v1 API: same paths, parameters, envelopes and paging. Send the API key in the `x-api-key` header (also accepted as the `api_key` query parameter or body field). `workspace_id` goes in the query for GET and in the JSON body for writes. The same operations are served over tRPC at `/trpc` (procedure = operationId) and GraphQL at `/graphql`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl }],
    security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }],
    tags: [...tags].sort().map((name) => ({ name, description: tagDescription(name) })),
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
      schemas: { Error: ERROR_BODY, MessageError: MESSAGE_BODY, ...sorted(Object.entries(named)) } as Record<string, JsonSchema>,
      responses: sorted([...usedResponses]),
    },
    paths,
  };
}
export type OpenApiDocument = ReturnType<typeof buildOpenApi>;
