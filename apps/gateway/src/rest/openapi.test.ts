import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineOperation, nameApiSchema, ObjectId, WorkspaceIdField } from '@outreach/core';
import { buildOpenApi, errorStatusesOf } from './openapi';
import { route, type Route } from './route';

// Schemas of made-up operations, named as core names its resources.
const Gadget = nameApiSchema(
  z.object({
    id: z.string(),
    owner_email: z.string(),
    size: z.number().int().min(1).default(3).describe('Bigger is better'),
    created_at: z.string(),
  }),
  'OpenApiTestGadget',
);
const Part = nameApiSchema(z.object({ label: z.string() }), 'OpenApiTestPart');
const Holder = nameApiSchema(z.object({ part: Part, gadgets: z.array(Gadget) }), 'OpenApiTestHolder');

const op = (name: string, kind: 'query' | 'mutation', input: z.ZodType, output: z.ZodType) =>
  defineOperation({ name, kind, summary: name, input, output, workspace: 'none', run: async () => ({}) as never });

const build = (routes: Route[]) => buildOpenApi({ routes, serverUrl: 'http://localhost/api/v1', version: '0.0.0' }) as any;

describe('OpenAPI component schemas', () => {
  it('one component per named schema, referred to wherever the schema is used', () => {
    const doc = build([route('GET', '/holder', op('test.holder', 'query', z.object({ workspace_id: WorkspaceIdField }), Holder))]);
    expect(doc.paths['/holder'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OpenApiTestHolder' });
    const holder = doc.components.schemas.OpenApiTestHolder;
    expect(holder.properties.part).toEqual({ $ref: '#/components/schemas/OpenApiTestPart' });
    expect(holder.properties.gadgets.items).toEqual({ $ref: '#/components/schemas/OpenApiTestGadget' });
    expect(doc.components.schemas.OpenApiTestGadget.properties.size.description).toBe('Bigger is better');
  });

  it('an input form that differs from the output form is <Name>Input; an identical one shares the name', () => {
    const doc = build([
      route('POST', '/gadget', op('test.putGadget', 'mutation', z.object({ gadget: Gadget, part: Part }), Gadget)),
      route('GET', '/part', op('test.part', 'query', z.object({}), Part)),
    ]);
    const schemas = doc.components.schemas;
    // The default makes `size` optional on input only.
    expect(schemas.OpenApiTestGadget.required).toContain('size');
    expect(schemas.OpenApiTestGadgetInput.required).not.toContain('size');
    expect(doc.paths['/gadget'].post.requestBody.content['application/json'].schema.properties.gadget).toEqual({ $ref: '#/components/schemas/OpenApiTestGadgetInput' });
    expect(doc.paths['/gadget'].post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OpenApiTestGadget' });
    expect(schemas.OpenApiTestPartInput).toBeUndefined();
    expect(doc.paths['/gadget'].post.requestBody.content['application/json'].schema.properties.part).toEqual({ $ref: '#/components/schemas/OpenApiTestPart' });
  });

  it('a name belongs to one schema', () => {
    expect(() => nameApiSchema(z.object({ other: z.string() }), 'OpenApiTestPart')).toThrow(/two schemas/);
    expect(nameApiSchema(Part, 'OpenApiTestPart')).toBe(Part);
    expect(() => nameApiSchema(z.string(), 'not pascal')).toThrow(/PascalCase/);
    // Names given through zod's global registry are components too, and refused twice the same way.
    const a = z.object({ a: z.string() }).meta({ id: 'OpenApiTestTwice' });
    const b = z.object({ b: z.string() }).meta({ id: 'OpenApiTestTwice' });
    const doc = build([route('GET', '/a', op('test.a', 'query', z.object({}), a))]);
    expect(doc.components.schemas.OpenApiTestTwice.properties.a).toBeDefined();
    expect(() => build([route('GET', '/a', op('test.a', 'query', z.object({}), a)), route('GET', '/b', op('test.b', 'query', z.object({}), b))])).toThrow(
      /two different schemas are named OpenApiTestTwice/,
    );
  });
});

describe('OpenAPI error statuses', () => {
  const statuses = (r: Route) => {
    const doc = build([r]);
    return Object.keys(doc.paths[Object.keys(doc.paths)[0]!][r.method.toLowerCase()].responses).map(Number);
  };
  const list = op('test.list', 'query', z.object({ workspace_id: WorkspaceIdField }), z.array(Part));
  const create = op('test.create', 'mutation', z.object({ workspace_id: WorkspaceIdField, name: z.string() }), Part);
  const update = op('test.update', 'mutation', z.object({ workspace_id: WorkspaceIdField, gadget_id: ObjectId }), Part);
  const byEmail = op('test.status', 'query', z.object({ workspace_id: WorkspaceIdField, email: z.string() }), Part);
  const compute = op('test.generateNames', 'mutation', z.object({ workspace_id: WorkspaceIdField, names: z.array(z.string()) }), Part);

  it('every operation: 400, 405, 429, 500; with a key 401 and 403; with a body 413 and 415', () => {
    expect(statuses(route('GET', '/list', list))).toEqual([200, 400, 401, 403, 405, 429, 500]);
    expect(statuses(route('POST', '/accept', create, { public: true }))).toEqual([200, 400, 405, 409, 413, 415, 429, 500]);
  });

  it('404 where the operation names one existing resource; 409 where it stores something', () => {
    expect(statuses(route('POST', '/create', create))).toEqual([200, 400, 401, 403, 405, 409, 413, 415, 429, 500]);
    expect(statuses(route('PUT', '/update', update))).toEqual([200, 400, 401, 403, 404, 405, 409, 413, 415, 429, 500]);
    expect(statuses(route('GET', '/status', byEmail))).toContain(404);
    expect(statuses(route('POST', '/things/:gadget_id/mark', list))).toContain(404);
    expect(statuses(route('POST', '/generate', compute))).not.toContain(409);
    expect(errorStatusesOf(route('GET', '/search', byEmail), { required: ['workspace_id', 'email'], outputIsList: true })).not.toContain(404);
  });
});

describe('OpenAPI examples', () => {
  it('are generated from the schema and the field names, and pass the operation’s validation', () => {
    const input = z.object({
      workspace_id: WorkspaceIdField,
      to_workspace_id: WorkspaceIdField,
      email: z.string().email(),
      start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      end_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      from: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      to: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      limit: z.number().int().max(1000).default(100),
      // A rule JSON Schema cannot show: the generated value is refused, and left out as optional.
      nickname: z.string().refine((s) => s.startsWith('@')).optional(),
    });
    const doc = build([route('GET', '/gadgets', op('test.gadgets', 'query', input, z.array(Gadget)))]);
    const operation = doc.paths['/gadgets'].get;
    const example = Object.fromEntries(operation.parameters.filter((p: any) => p.example !== undefined).map((p: any) => [p.name, p.example]));
    expect(example.workspace_id).toMatch(/^[0-9a-f]{24}$/);
    expect(example.to_workspace_id).toMatch(/^[0-9a-f]{24}$/);
    expect(example.to_workspace_id).not.toBe(example.workspace_id);
    expect(example.email).toMatch(/^[^@]+@[^@]+\.[a-z]+$/);
    expect(example.start_date < example.end_date).toBe(true);
    expect([example.from, example.to]).toEqual(['09:00', '17:00']);
    expect(example.limit).toBe(100);
    expect(example).not.toHaveProperty('nickname');
    expect(input.safeParse(example).success).toBe(true);
    const [gadget] = operation.responses['200'].content['application/json'].example;
    expect(gadget.owner_email).toContain('@');
    expect(gadget.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(gadget.size).toBeGreaterThanOrEqual(1);
  });
});
