import { beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isInterfaceType, isNonNullType, isObjectType, isUnionType, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { createTestOrganization } from '@outreach/core/testing';
import { graphqlIntrospectionEnabled, loadEnv } from '../env';
import { startTestServer } from '../testing/test-server';
import { useTestServer } from '../testing/suite';
import { schema } from './schema';

const { server, org } = useTestServer();
let key: string;
let workspaceId: string;

beforeAll(() => {
  key = org.apiKey;
  workspaceId = org.workspaceId;
});

/** A document as a client would send it, answered as yoga answers a plain JSON client. */
async function post(query: string, options: { key?: string; accept?: string; variables?: Record<string, unknown> } = {}) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: options.accept ?? 'application/json',
      ...(options.key ? { 'x-api-key': options.key } : {}),
    },
    body: JSON.stringify({ query, variables: options.variables }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const ALL_LEAD_FIELDS =
  'addressLine campaignId city companyName companyWebsite country countryCode createdAt currentStep customVariables email emailAccountId firstName id isCompleted jobTitle label lastName lastSentAt networkCompanyUrl networkPersonUrl notes phoneNumber state status updatedAt workspaceId';
const LEAD_FIELDS = 'id email firstName lastName companyName companyWebsite jobTitle city country phoneNumber status label createdAt updatedAt';

describe('GraphQL query limits', () => {
  it('refuses a document with hundreds of aliases with 400 naming the alias limit, before running it', async () => {
    const aliases = Array.from({ length: 300 }, (_, i) => `a${i}: workspaces { id name }`).join(' ');
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const r = await post(`{ ${aliases} }`, { key, accept });
      expect(r.status).toBe(400);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors[0].message).toMatch(/aliases limit of 15 exceeded, found 300/i);
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', domain_code: 'graphql.max_aliases' });
    }
  });

  it('refuses a document nested deeper than the depth limit', async () => {
    let selection = 'id';
    for (let i = 0; i < 14; i++) selection = `parent { ${selection} }`;
    const r = await post(`query($id: ID!, $ws: ID!) { campaign(id: $id, workspaceId: $ws) { ${selection} } }`, { key, variables: { id: 'x', ws: workspaceId } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/depth limit of 12 exceeded/i);
    expect(r.body.errors[0].extensions.domain_code).toBe('graphql.max_depth');
  });

  it('refuses a document whose cost (fields times page sizes) is beyond the cost limit', async () => {
    // A full page of leads costs 3,900: 100 × (edge 2 + cursor 1 + node 2 + 27 fields + campaign 2 + 3 fields).
    const pages = (n: number) =>
      Array.from({ length: n }, (_, i) => `p${i}: leads(first: 100) { edges { cursor node { ${ALL_LEAD_FIELDS} campaign { id name status } } } }`).join(' ');
    const twelve = await post(`query($id: ID!) { workspace(id: $id) { ${pages(12)} } }`, { key, variables: { id: workspaceId } });
    expect(twelve.body.errors).toBeUndefined();
    expect(twelve.status).toBe(200);
    // Five pages of leads with 30 e-mails each: about 5 × 100 × (39 + 30 × 6) ≈ 110,000.
    const withEmails = Array.from({ length: 5 }, (_, i) => `p${i}: leads(first: 100) { edges { cursor node { ${ALL_LEAD_FIELDS} campaign { id name status } emails(first: 30) { edges { node { id subject } } } } } }`).join(' ');
    const over = await post(`query($id: ID!) { workspace(id: $id) { ${withEmails} } }`, { key, variables: { id: workspaceId } });
    expect(over.status).toBe(400);
    expect(over.body.errors[0].message).toMatch(/cost limit of 100000 exceeded, found 1\d{5}/i);
    expect(over.body.errors[0].extensions.domain_code).toBe('graphql.cost_limit');
  });

  it('refuses a document with more tokens than the token limit', async () => {
    const r = await post(`{ workspaces { id ${'__typename '.repeat(10_000)} } }`, { key });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/token limit of 10000 exceeded/i);
    expect(r.body.errors[0].extensions.domain_code).toBe('graphql.max_tokens');
  });

  it('refuses a document with more directives than the directive limit', async () => {
    const r = await post(`{ workspaces { id ${'name @include(if: true) '.repeat(60)} } }`, { key });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: any) => e.message).join('\n')).toMatch(/directives limit of 50 exceeded/i);
  });

  it('lets a page of every connection with all its fields through in one document', async () => {
    const campaign = await server.rest('POST', '/campaign/add/campaign', { key, body: { workspace_id: workspaceId, camp_name: 'Limits' } });
    const added = await server.rest('POST', '/lead/add', { key, body: { workspace_id: workspaceId, campaign_id: campaign.body.id, leads: [{ email: 'ann@lead.example', first_name: 'Ann' }] } });
    expect(added.status).toBe(200);
    // What a UI's workspace overview asks in one go: a page of each list, each lead with its latest e-mail.
    const r = await post(
      `query($id: ID!) { workspace(id: $id) {
        id name
        campaigns(first: 100) { totalCount edges { cursor node { id name status leadCount sentCount openRate parent { id name }
          sequences { step waitTime variations { variation name subject body } }
          variationStats { step variations { variation name sent open reply posReply } } } } pageInfo { hasNextPage endCursor } }
        leads(first: 100) { totalCount edges { cursor node { ${LEAD_FIELDS} campaign { id name status }
          emails(first: 1) { totalCount edges { node { id subject contentPreview direction timestampCreated } } } } } pageInfo { hasNextPage endCursor } }
        emailAccounts(first: 100) { totalCount edges { node { id email status warmupStatus health { status lastError } } } pageInfo { hasNextPage endCursor } }
        blocklist(first: 100) { totalCount edges { node { id value } } pageInfo { hasNextPage } }
      } }`,
      { key, variables: { id: workspaceId } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.status).toBe(200);
    expect(r.body.data.workspace.id).toBe(workspaceId);
    expect(r.body.data.workspace.campaigns.edges.map((e: any) => e.node.name)).toEqual(['Limits']);
    expect(r.body.data.workspace.leads.edges.map((e: any) => e.node.email)).toEqual(['ann@lead.example']);
  });

  /**
   * Every root field with its whole selection (each type once on a path; connections at
   * `first: 100`, a connection inside another one's page at `first: 1`, as a list of
   * leads each with its latest e-mail) gets through parsing and validation: without a key
   * it reaches authentication (401), never a 400 from a limit. The same selection with the
   * inner connections at `first: 100` too (a page of leads with 100 e-mails each) is refused.
   */
  it('lets the full selection of every root field through the limits, and refuses it with pages of pages', async () => {
    const isConnection = (f: GraphQLField<unknown, unknown>) => f.args.some((a) => a.name === 'first');
    let innerPage = 1;
    /** `first`: the page size of the connections at this level (100, or `innerPage` inside a page). */
    function selection(type: GraphQLObjectType, seen: Set<string>, first: number): string {
      const parts: string[] = [];
      for (const f of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        if (f.args.some((a) => isNonNullType(a.type))) continue;
        const named = getNamedType(f.type);
        const page = isConnection(f) ? `(first: ${first})` : '';
        if (isObjectType(named)) {
          if (!seen.has(named.name)) parts.push(`${f.name}${page} { ${selection(named, new Set([...seen, named.name]), isConnection(f) ? innerPage : first)} }`);
        } else if (isInterfaceType(named) || isUnionType(named)) parts.push(`${f.name} { __typename }`);
        else parts.push(f.name);
      }
      return parts.join(' ');
    }
    const documentFor = (kind: string, f: GraphQLField<unknown, unknown>) => {
      const required = f.args.filter((a) => isNonNullType(a.type));
      const declared = required.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
      const args = [...required.map((a) => `${a.name}: $${a.name}`), ...(isConnection(f) ? ['first: 100'] : [])];
      const named = getNamedType(f.type);
      const body = isObjectType(named) ? ` { ${selection(named, new Set([named.name]), isConnection(f) ? innerPage : 100)} }` : isInterfaceType(named) ? ' { __typename }' : '';
      return `${kind} Full${declared ? `(${declared})` : ''} { ${f.name}${args.length ? `(${args.join(', ')})` : ''}${body} }`;
    };
    const checked: string[] = [];
    for (const [kind, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
      for (const f of Object.values(root.getFields())) {
        if (['acceptInvite', 'signIn', 'setUpOwner', 'acceptInvitation'].includes(f.name)) continue; // public: they would run
        const r = await post(documentFor(kind, f));
        if (f.name === 'viewer') {
          // Public too: without a session it answers null, its full selection within the limits.
          expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { data: { viewer: null } } });
          continue;
        }
        expect({ field: f.name, status: r.status, errors: r.status === 401 ? undefined : r.body.errors }).toEqual({ field: f.name, status: 401, errors: undefined });
        checked.push(f.name);
      }
    }
    expect(checked.length).toBeGreaterThan(50);

    innerPage = 100;
    const pagesOfPages = await post(documentFor('query', schema.getQueryType()!.getFields()['workspace']!));
    expect(pagesOfPages.status).toBe(400);
    expect(pagesOfPages.body.errors[0].extensions.domain_code).toBe('graphql.cost_limit');
  });
});

describe('introspection', () => {
  const introspection = '{ __schema { queryType { name } } }';

  it('is on by default outside production and off by default in production', () => {
    expect(graphqlIntrospectionEnabled(loadEnv({ NODE_ENV: 'test' }))).toBe(true);
    expect(graphqlIntrospectionEnabled(loadEnv({ NODE_ENV: 'development' }))).toBe(true);
    expect(graphqlIntrospectionEnabled(loadEnv({ NODE_ENV: 'production' }))).toBe(false);
    expect(graphqlIntrospectionEnabled(loadEnv({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' }))).toBe(true);
    expect(graphqlIntrospectionEnabled(loadEnv({ NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'false' }))).toBe(false);
    expect(graphqlIntrospectionEnabled(loadEnv({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: '' }))).toBe(false);
    expect(() => loadEnv({ GRAPHQL_INTROSPECTION: 'yes' })).toThrow(/GRAPHQL_INTROSPECTION/);
  });

  it('answers introspection in tests (the default outside production)', async () => {
    const r = await post(introspection, { key });
    expect(r.status).toBe(200);
    expect(r.body.data.__schema.queryType.name).toBe('Query');
  });

  it('refuses introspection in production unless GRAPHQL_INTROSPECTION=true', async () => {
    const production = await startTestServer({ env: { NODE_ENV: 'production' } });
    const enabled = await startTestServer({ env: { NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' } });
    try {
      const org = await createTestOrganization({ db: production.db });
      const refused = await fetch(`${production.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', 'x-api-key': org.apiKey },
        body: JSON.stringify({ query: introspection }),
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as any).errors[0].message).toMatch(/introspection has been disabled/i);
      // Ordinary queries (and __typename) still run.
      const ordinary = await fetch(`${production.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': org.apiKey },
        body: JSON.stringify({ query: '{ __typename workspaces { id } }' }),
      });
      expect(ordinary.status).toBe(200);

      const allowed = await fetch(`${enabled.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': org.apiKey },
        body: JSON.stringify({ query: introspection }),
      });
      expect(allowed.status).toBe(200);
      expect(((await allowed.json()) as any).data.__schema.queryType.name).toBe('Query');
    } finally {
      await production.close();
      await enabled.close();
    }
  });
});
