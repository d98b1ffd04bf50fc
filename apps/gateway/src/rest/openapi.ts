import { z } from 'zod';
import type { Route } from './route';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out['$schema'];
  return out;
}

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['status', 'message'],
  properties: {
    status: { const: 'error' },
    message: { type: 'string', description: 'What is wrong, naming the field' },
    code: { type: 'string', description: 'Stable namespaced error code, e.g. `auth.invalid_key`' },
    errors: {
      type: 'array',
      description: 'Field-level validation failures',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    request_id: { type: 'string', description: 'Present on 500 answers: quote it when reporting the failure' },
  },
};

const MESSAGE_BODY: JsonSchema = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' }, code: { type: 'string' }, errors: ERROR_BODY['properties'] && (ERROR_BODY['properties'] as JsonSchema)['errors'] },
};

function errorResponses(route: Route): Record<string, unknown> {
  const ref = route.errorShape === 'message' ? '#/components/schemas/MessageError' : '#/components/schemas/Error';
  const body = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: ref } } } });
  return {
    '400': body('Invalid parameters: the message and `errors` name each field and its problem'),
    '401': body('Missing, unknown or revoked API key'),
    '403': body('The workspace is not reachable with this key, or the key lacks a permission'),
    '429': {
      ...body('Rate limit exceeded for this key'),
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until a request is accepted again' } },
    },
    '500': body('Unexpected failure; the body carries the request id, which is also in the logs'),
  };
}

export function buildOpenApi(options: { routes: Route[]; serverUrl: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of options.routes) {
    const input = jsonSchema(r.op.input, 'input');
    const properties = (input['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((input['required'] ?? []) as string[]);
    const pathParams = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
    const parameters: unknown[] = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: properties[name] ?? { type: 'string' },
    }));
    let requestBody: unknown;
    if (r.method === 'GET') {
      for (const [name, schema] of Object.entries(properties)) {
        if (pathParams.includes(name)) continue;
        const { description, ...rest } = schema;
        parameters.push({ name, in: 'query', required: required.has(name), schema: rest, ...(description ? { description } : {}) });
      }
    } else {
      for (const p of pathParams) delete properties[p];
      requestBody = { required: true, content: { 'application/json': { schema: input } } };
    }
    const tag = r.op.name.split('.')[0] ?? 'misc';
    const operation = {
      operationId: `${r.op.name}${options.routes.filter((x) => x.op === r.op).length > 1 ? `:${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+/g, '_')}` : ''}`,
      summary: r.op.summary,
      ...(r.op.description ? { description: r.op.description } : {}),
      tags: [tag],
      ...(r.deprecated ? { deprecated: true } : {}),
      ...(r.public ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        '200': { description: 'Success', content: { 'application/json': { schema: jsonSchema(r.op.output, 'output') } } },
        ...errorResponses(r),
      },
      'x-trpc-procedure': r.op.name,
    };
    const path = toOpenApiPath(r.path);
    paths[path] = { ...(paths[path] ?? {}), [r.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outreach API',
      version: options.version,
      description:
        'Wire-compatible with the PlusVibe v1 API: same paths, parameters, envelopes and paging. Send the API key in the `x-api-key` header (also accepted as the `api_key` query parameter or body field). `workspace_id` goes in the query for GET and in the JSON body for writes. The same operations are served over tRPC at `/trpc` (procedure = operationId) and GraphQL at `/graphql`.',
    },
    servers: [{ url: options.serverUrl }],
    security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }],
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
      schemas: { Error: ERROR_BODY, MessageError: MESSAGE_BODY },
    },
    paths,
  };
}
export type OpenApiDocument = ReturnType<typeof buildOpenApi>;
