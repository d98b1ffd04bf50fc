import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pino } from 'pino';
import { mergeSchemas } from 'graphql-yoga';
import { createTestOrganization } from '@outreach/core/testing';
import { defineOperation } from '@outreach/core';
import { startTestServer, trpcFailure, type TestServer, type TrpcFailure } from '../testing/test-server';
import { routes } from '../rest/routes';
import { route } from '../rest/route';
import { procedureFor, router } from '../trpc/trpc';
import { schema } from '../graphql/schema';
import { run } from '../graphql/operation-field';

let server: TestServer;
let key: string;
let workspaceId: string;
let foreignWorkspaceId: string;
let campaignId: string;
const UNKNOWN_TAG = '0123456789abcdef01234567';

const exploding = defineOperation({
  name: 'test.explode',
  kind: 'query',
  summary: 'fails with an unexpected error',
  input: z.object({}),
  output: z.object({}),
  workspace: 'none',
  run: async () => {
    throw new Error('secret database detail');
  },
});

beforeAll(async () => {
  server = await startTestServer();
  const mine = await createTestOrganization({ db: server.db });
  const theirs = await createTestOrganization({ db: server.db });
  key = mine.apiKey;
  workspaceId = mine.workspaceId;
  foreignWorkspaceId = theirs.workspaceId;
  expect((await server.rest('POST', '/tags/create', { key, body: { workspace_id: workspaceId, name: 'Taken', color: '#123' } })).status).toBe(200);
  // A new campaign has no step, no mailbox and no schedule: it cannot be launched.
  const campaign = await server.rest('POST', '/campaign/add/campaign', { key, body: { workspace_id: workspaceId, camp_name: 'Incomplete' } });
  campaignId = campaign.body.id;
});
afterAll(() => server?.close());

type Outcome = TrpcFailure;

interface Case {
  name: string;
  rest: () => Promise<Outcome & { body: any }>;
  graphql: () => Promise<Outcome>;
  trpc: () => Promise<Outcome>;
  expected: { rest: Outcome; graphql: Outcome; trpc: Outcome };
}

async function restOutcome(method: string, path: string, opts: Parameters<TestServer['rest']>[2] = {}) {
  const r = await server.rest(method, path, opts);
  return { status: r.status, code: r.body.code, field: r.body.errors?.[0]?.field, body: r.body };
}

async function gqlOutcome(query: string, opts: { key?: string } = {}): Promise<Outcome> {
  const r = await server.graphql(query, opts);
  const err = r.body.errors?.[0];
  return { status: r.status, code: err?.extensions?.code, field: err?.extensions?.errors?.[0]?.field };
}

const cases: () => Case[] = () => [
  {
    name: 'no API key',
    rest: () => restOutcome('GET', '/workspaces'),
    graphql: () => gqlOutcome('{ workspaces { id } }'),
    trpc: () => trpcFailure(() => server.trpc().workspace.list.query()),
    expected: {
      rest: { status: 401, code: 'auth.missing_key' },
      graphql: { status: 401, code: 'UNAUTHENTICATED' },
      trpc: { status: 401, code: 'UNAUTHORIZED' },
    },
  },
  {
    name: 'unknown API key',
    rest: () => restOutcome('GET', '/workspaces', { key: '00000000-00000000-00000000-00000000' }),
    graphql: () => gqlOutcome('{ workspaces { id } }', { key: '00000000-00000000-00000000-00000000' }),
    trpc: () => trpcFailure(() => server.trpc('00000000-00000000-00000000-00000000').workspace.list.query()),
    expected: {
      rest: { status: 401, code: 'auth.invalid_key' },
      graphql: { status: 401, code: 'UNAUTHENTICATED' },
      trpc: { status: 401, code: 'UNAUTHORIZED' },
    },
  },
  {
    name: "another organization's workspace",
    rest: () => restOutcome('GET', '/workspace-settings/lead-labels', { key, query: { workspace_id: foreignWorkspaceId } }),
    graphql: () => gqlOutcome(`{ workspace(id: "${foreignWorkspaceId}") { id leadLabels { key } } }`, { key }),
    trpc: () => trpcFailure(() => server.trpc(key).leadLabel.list.query({ workspace_id: foreignWorkspaceId })),
    expected: {
      rest: { status: 403, code: 'auth.workspace_forbidden' },
      graphql: { status: 200, code: 'FORBIDDEN' },
      trpc: { status: 403, code: 'FORBIDDEN' },
    },
  },
  {
    name: 'a missing required field',
    rest: () => restOutcome('GET', '/workspace-settings/lead-labels', { key }),
    graphql: () => gqlOutcome('mutation { createWorkspace(name: "   ") { id } }', { key }),
    trpc: () => trpcFailure(() => server.trpc(key).leadLabel.list.query({} as { workspace_id: string })),
    expected: {
      rest: { status: 400, code: 'request.invalid', field: 'workspace_id' },
      graphql: { status: 200, code: 'BAD_USER_INPUT', field: 'workspace_name' },
      trpc: { status: 400, code: 'BAD_REQUEST', field: 'workspace_id' },
    },
  },
  {
    name: 'a name another row already has (conflict)',
    rest: () => restOutcome('POST', '/tags/create', { key, body: { workspace_id: workspaceId, name: 'taken', color: '#123' } }),
    graphql: () => gqlOutcome(`mutation { createTag(workspaceId: "${workspaceId}", name: "taken", color: "#123") { id } }`, { key }),
    trpc: () => trpcFailure(() => server.trpc(key).tag.create.mutate({ workspace_id: workspaceId, name: 'taken', color: '#123' })),
    expected: {
      rest: { status: 409, code: 'tag.duplicate_name' },
      graphql: { status: 200, code: 'CONFLICT' },
      trpc: { status: 409, code: 'CONFLICT' },
    },
  },
  {
    name: 'an unknown id (not found)',
    rest: () => restOutcome('PUT', '/tags/update', { key, body: { workspace_id: workspaceId, tag_id: UNKNOWN_TAG, name: 'x' } }),
    graphql: () => gqlOutcome(`mutation { updateTag(workspaceId: "${workspaceId}", tagId: "${UNKNOWN_TAG}", name: "x") { id } }`, { key }),
    trpc: () => trpcFailure(() => server.trpc(key).tag.update.mutate({ workspace_id: workspaceId, tag_id: UNKNOWN_TAG, name: 'x' })),
    expected: {
      rest: { status: 404, code: 'tag.not_found' },
      graphql: { status: 200, code: 'NOT_FOUND' },
      trpc: { status: 404, code: 'NOT_FOUND' },
    },
  },
  {
    name: 'an unmet precondition (launching an incomplete campaign)',
    rest: () => restOutcome('POST', '/campaign/launch', { key, body: { workspace_id: workspaceId, campaign_id: campaignId } }),
    graphql: () => gqlOutcome(`mutation { launchCampaign(workspaceId: "${workspaceId}", id: "${campaignId}") { status } }`, { key }),
    trpc: () => trpcFailure(() => server.trpc(key).campaign.launch.mutate({ workspace_id: workspaceId, campaign_id: campaignId })),
    expected: {
      // The vendor answers 400 here.
      rest: { status: 400, code: 'campaign.not_launchable', field: 'sequences' },
      graphql: { status: 200, code: 'PRECONDITION_FAILED', field: 'sequences' },
      trpc: { status: 412, code: 'PRECONDITION_FAILED', field: 'sequences' },
    },
  },
  {
    name: 'an unknown route',
    rest: () => restOutcome('GET', '/campaign/no-such-thing', { key }),
    graphql: () => gqlOutcome('{ noSuchField }', { key }),
    trpc: () => trpcFailure(() => (server.trpc(key) as any).nope.list.query()),
    expected: {
      rest: { status: 404, code: 'request.unknown_path' },
      graphql: { status: 400, code: 'GRAPHQL_VALIDATION_FAILED' },
      trpc: { status: 404, code: 'NOT_FOUND' },
    },
  },
  {
    name: 'a wrong method',
    rest: () => restOutcome('DELETE', '/workspaces', { key }),
    graphql: async () => {
      const r = await fetch(`${server.url}/graphql`, { method: 'PUT', headers: { 'x-api-key': key } });
      return { status: r.status, code: r.status === 405 ? 'METHOD_NOT_ALLOWED' : 'unexpected' };
    },
    // A mutation called as a query (GET).
    trpc: () => trpcFailure(() => (server.trpc(key).workspace.create as any).query({ workspace_name: 'x' })),
    expected: {
      rest: { status: 405, code: 'request.method_not_allowed' },
      graphql: { status: 405, code: 'METHOD_NOT_ALLOWED' },
      trpc: { status: 405, code: 'METHOD_NOT_SUPPORTED' },
    },
  },
];

describe('error contract: REST, GraphQL and tRPC answer each failure the same way', () => {
  it.each(cases().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const rest = await c.rest();
    expect({ status: rest.status, code: rest.code, field: rest.field }).toEqual({ field: undefined, ...c.expected.rest });
    // The vendor's error envelope.
    expect(rest.body.status).toBe('error');
    expect(typeof rest.body.message).toBe('string');
    if (c.expected.rest.field) expect(rest.body.message).toContain(c.expected.rest.field);
    const gql = await c.graphql();
    expect({ status: gql.status, code: gql.code, field: gql.field }).toEqual({ field: undefined, ...c.expected.graphql });
    const trpc = await c.trpc();
    expect({ status: trpc.status, code: trpc.code, field: trpc.field }).toEqual({ field: undefined, ...c.expected.trpc });
  });

  it('names the allowed methods on a 405', async () => {
    const r = await server.rest('PUT', '/workspaces/add', { key, body: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });

  it('answers malformed JSON with a 400 in the vendor shape', async () => {
    const r = await server.rest('POST', '/workspaces/add', { key, body: '{"workspace_name": ' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 'error', code: 'request.malformed_json' });
  });
});

describe('an unexpected failure', () => {
  // An operation whose run throws a plain Error, served on every transport by this
  // test only: a REST route, a tRPC procedure and a GraphQL field built the way the
  // real ones are. The logger is captured to find the details under the request id.
  const logged: Record<string, any>[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  let explodingServer: TestServer;
  let explodingKey: string;

  beforeAll(async () => {
    explodingServer = await startTestServer({
      log,
      routes: [...routes, route('GET', '/test/explode', exploding)],
      trpcRouter: router({ test: router({ explode: procedureFor(exploding) }) }),
      graphqlSchema: mergeSchemas({
        schemas: [schema],
        typeDefs: 'extend type Query { testExplode: Boolean }',
        resolvers: { Query: { testExplode: (_root: unknown, _args: unknown, { ctx }: any) => run(ctx, exploding, {}) } },
      }),
    });
    explodingKey = (await createTestOrganization({ db: explodingServer.db })).apiKey;
  });
  afterAll(() => explodingServer?.close());

  /** The error lines logged under a request id, carrying the real error. */
  const loggedFor = (requestId: string) => logged.filter((line) => line['reqId'] === requestId && line['err']?.message === 'secret database detail');
  const headers = (requestId: string) => ({ 'x-api-key': explodingKey, 'x-request-id': requestId });
  const masked = (requestId: string) => `Internal server error (request id ${requestId})`;

  it('is a masked 500 on REST that carries the request id, with the real error logged under it', async () => {
    const r = await explodingServer.rest('GET', '/test/explode', { headers: headers('trace-rest') });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ status: 'error', message: masked('trace-rest'), request_id: 'trace-rest' });
    expect(r.headers.get('x-request-id')).toBe('trace-rest');
    expect(JSON.stringify(r.body)).not.toContain('secret');
    expect(loggedFor('trace-rest').length).toBeGreaterThan(0);
  });

  it('is a masked INTERNAL_SERVER_ERROR on tRPC with the same text, logged under the request id', async () => {
    const response = await fetch(`${explodingServer.url}/trpc/test.explode?input=${encodeURIComponent('{}')}`, { headers: headers('trace-trpc') });
    const body = (await response.json()) as any;
    expect(response.status).toBe(500);
    expect(body.error.message).toBe(masked('trace-trpc'));
    expect(body.error.data).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, request_id: 'trace-trpc' });
    expect(JSON.stringify(body)).not.toContain('secret');
    expect(loggedFor('trace-trpc').length).toBeGreaterThan(0);
  });

  it('is a masked INTERNAL_SERVER_ERROR on GraphQL with the same text, logged under the request id', async () => {
    const response = await fetch(`${explodingServer.url}/graphql`, {
      method: 'POST',
      headers: { ...headers('trace-graphql'), 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ testExplode }' }),
    });
    const body = (await response.json()) as any;
    // A resolver's failure: 200 with errors[] and the field null, as GraphQL over HTTP prescribes.
    expect(response.status).toBe(200);
    expect(body.data).toEqual({ testExplode: null });
    expect(body.errors).toEqual([
      {
        message: masked('trace-graphql'),
        path: ['testExplode'],
        locations: [{ line: 1, column: 3 }],
        extensions: { code: 'INTERNAL_SERVER_ERROR', request_id: 'trace-graphql' },
      },
    ]);
    expect(JSON.stringify(body)).not.toContain('secret');
    expect(loggedFor('trace-graphql')).toHaveLength(1);
  });

  it('answers domain errors thrown by GraphQL resolvers through the error map, logging nothing', async () => {
    const before = logged.length;
    const r = await explodingServer.graphql(`{ workspace(id: "${UNKNOWN_TAG}") { id } }`, { key: explodingKey });
    expect(r.status).toBe(200);
    expect(r.body.errors[0]).toMatchObject({ path: ['workspace'], extensions: { code: 'FORBIDDEN', domain_code: 'auth.workspace_forbidden' } });
    expect(logged.length).toBe(before);
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once a key has spent its burst, on every transport', async () => {
    const limited = await startTestServer({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
    try {
      const org = await createTestOrganization({ db: limited.db });
      expect((await limited.rest('GET', '/workspaces', { key: org.apiKey })).status).toBe(200);
      expect((await limited.rest('GET', '/workspaces', { key: org.apiKey })).status).toBe(200);
      const refused = await limited.rest('GET', '/workspaces', { key: org.apiKey });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limit.exceeded');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const gql = await limited.graphql('{ workspaces { id } }', { key: org.apiKey });
      expect(gql.status).toBe(429);
      expect((await trpcFailure(() => limited.trpc(org.apiKey).workspace.list.query())).status).toBe(429);
      // Another key has its own bucket.
      const other = await createTestOrganization({ db: limited.db });
      expect((await limited.rest('GET', '/workspaces', { key: other.apiKey })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

