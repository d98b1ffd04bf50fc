import { beforeAll, describe, expect, it } from 'vitest';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server, org: mine, foreign: theirs } = useTestServer();
let key: string;
let workspaceId: string;
let foreignWorkspaceId: string;

beforeAll(() => {
  key = mine.apiKey;
  workspaceId = mine.workspaceId;
  foreignWorkspaceId = theirs.workspaceId;
});

function gqlFailure(body: any): { code: string; field?: string } {
  const error = body.errors?.[0];
  return { code: error?.extensions?.code, field: error?.extensions?.errors?.[0]?.field };
}

const GENERATE = `mutation Generate($workspaceId: ID!, $profiles: [SenderProfileInput!]!) {
  generateSenderIdentities(workspaceId: $workspaceId, profiles: $profiles) { firstName lastName prefixes }
}`;

const RECIPIENT_PROVIDERS = `query Providers($workspaceId: ID) {
  recipientProviders(workspaceId: $workspaceId) { id count items { recipientType name accountClass } }
}`;

function profilesOf(count: number) {
  return Array.from({ length: count }, (_, i) => ({ first_name: `Sender${i}`, last_name: 'Example' }));
}

describe('POST /dfy/generate-sender-identities', () => {
  const profiles = [
    { first_name: ' John ', last_name: 'Smith' },
    { first_name: 'José', middle_name: 'Ana', last_name: 'Núñez' },
    { first_name: 'Zoë', last_name: "O'Brien" },
  ];

  it('answers the same senders through REST, tRPC and GraphQL', async () => {
    const rest = await server.rest('POST', '/dfy/generate-sender-identities', { key, body: { workspace_id: workspaceId, profiles } });
    expect(rest.status).toBe(200);
    const senders = rest.body.senders as { first_name: string; last_name: string; prefixes: string[] }[];
    expect(Object.keys(rest.body)).toEqual(['senders']);
    expect(senders.map((s) => [s.first_name, s.last_name, s.prefixes.length])).toEqual([
      ['John', 'Smith', 33],
      ['José', 'Núñez', 33],
      ['Zoë', "O'Brien", 33],
    ]);
    const all = senders.flatMap((s) => s.prefixes);
    expect(new Set(all).size).toBe(99);
    expect(senders[0]!.prefixes.slice(0, 6)).toEqual(['john.smith', 'johnsmith', 'john_smith', 'jsmith', 'j.smith', 'smith.john']);
    expect(senders[1]!.prefixes).toContain('jose.ana.nunez');

    const trpc = await server.trpc(key).dfy.generateSenderIdentities.mutate({ workspace_id: workspaceId, profiles });
    expect(trpc).toEqual(rest.body);

    const gql = await server.graphql(GENERATE, {
      key,
      variables: {
        workspaceId,
        profiles: profiles.map((p) => ({ firstName: p.first_name, lastName: p.last_name, middleName: p.middle_name })),
      },
    });
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();
    const fromGraphql = (gql.body.data.generateSenderIdentities as { firstName: string; lastName: string; prefixes: string[] }[]).map((s) => ({
      first_name: s.firstName,
      last_name: s.lastName,
      prefixes: s.prefixes,
    }));
    expect(fromGraphql).toEqual(senders);
  });

  it.each([
    ['no profiles', 0],
    ['34 profiles', 34],
  ])('refuses %s with a 400 on profiles', async (_name, count) => {
    const body = { workspace_id: workspaceId, profiles: profilesOf(count) };
    const rest = await server.rest('POST', '/dfy/generate-sender-identities', { key, body });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ status: 'error', code: 'request.invalid' });
    expect(rest.body.errors[0].field).toBe('profiles');
    expect(await trpcFailure(() => server.trpc(key).dfy.generateSenderIdentities.mutate(body))).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      field: 'profiles',
    });
    const gql = await server.graphql(GENERATE, {
      key,
      variables: { workspaceId, profiles: body.profiles.map((p) => ({ firstName: p.first_name, lastName: p.last_name })) },
    });
    expect(gqlFailure(gql.body)).toEqual({ code: 'BAD_USER_INPUT', field: 'profiles' });
  });

  it('names a missing last name and a last name with no usable letters', async () => {
    const missing = await server.rest('POST', '/dfy/generate-sender-identities', {
      key,
      body: { workspace_id: workspaceId, profiles: [{ first_name: 'John' }] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'profiles.0.last_name', message: 'is required' }]);
    expect(missing.body.message).toContain('profiles.0.last_name');

    const unusable = await server.rest('POST', '/dfy/generate-sender-identities', {
      key,
      body: { workspace_id: workspaceId, profiles: [{ first_name: 'John', last_name: 'Smith' }, { first_name: 'Ann', last_name: '---' }] },
    });
    expect(unusable.status).toBe(400);
    expect(unusable.body).toMatchObject({
      status: 'error',
      message: 'profiles.1.last_name has no letters usable in a mailbox name',
      errors: [{ field: 'profiles.1.last_name', message: 'has no letters usable in a mailbox name' }],
    });
  });

  it("refuses another organization's workspace with a 403 on every transport", async () => {
    const body = { workspace_id: foreignWorkspaceId, profiles: profilesOf(1) };
    const rest = await server.rest('POST', '/dfy/generate-sender-identities', { key, body });
    expect(rest.status).toBe(403);
    expect(rest.body.code).toBe('auth.workspace_forbidden');
    expect((await trpcFailure(() => server.trpc(key).dfy.generateSenderIdentities.mutate(body))).status).toBe(403);
    const gql = await server.graphql(GENERATE, {
      key,
      variables: { workspaceId: foreignWorkspaceId, profiles: [{ firstName: 'Sender', lastName: 'Example' }] },
    });
    expect(gqlFailure(gql.body).code).toBe('FORBIDDEN');
    expect(gql.body.data).toBeNull();
  });

  it('requires an API key', async () => {
    const rest = await server.rest('POST', '/dfy/generate-sender-identities', { body: { workspace_id: workspaceId, profiles: profilesOf(1) } });
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('auth.missing_key');
  });
});

describe('GET /email-placement/get/recipient-providers', () => {
  const expected = {
    code: 200,
    message: 'success',
    data: [
      {
        _id: 'PERSONAL',
        items: [{ recipient_type: 'PERSONAL_PROVIDERA', name: 'Provider A (personal)', account_class: 'PERSONAL' }],
        count: 1,
      },
      {
        _id: 'PROFESSIONAL',
        items: [
          { recipient_type: 'PROVIDERA', name: 'Provider A (business)', account_class: 'PROFESSIONAL' },
          { recipient_type: 'PROVIDERB', name: 'Provider B (business)', account_class: 'PROFESSIONAL' },
        ],
        count: 2,
      },
    ],
  };

  it('lists the catalog without a workspace, the same through REST, tRPC and GraphQL', async () => {
    const rest = await server.rest('GET', '/email-placement/get/recipient-providers', { key });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(expected);
    // Key order too: clients diffing raw JSON see the vendor's layout.
    expect(JSON.stringify(rest.body)).toBe(JSON.stringify(expected));

    expect(await server.trpc(key).placement.recipientProviders.query()).toEqual(expected);

    const gql = await server.graphql(RECIPIENT_PROVIDERS, { key });
    expect(gql.body.errors).toBeUndefined();
    const fromGraphql = (gql.body.data.recipientProviders as any[]).map((g) => ({
      _id: g.id,
      items: g.items.map((i: any) => ({ recipient_type: i.recipientType, name: i.name, account_class: i.accountClass })),
      count: g.count,
    }));
    expect(fromGraphql).toEqual(expected.data);
  });

  it('accepts the caller\'s own workspace', async () => {
    const rest = await server.rest('GET', '/email-placement/get/recipient-providers', { key, query: { workspace_id: workspaceId } });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(expected);
    expect(await server.trpc(key).placement.recipientProviders.query({ workspace_id: workspaceId })).toEqual(expected);
  });

  it("refuses another organization's workspace with a 403 and a malformed one with a 400", async () => {
    const foreign = await server.rest('GET', '/email-placement/get/recipient-providers', { key, query: { workspace_id: foreignWorkspaceId } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('auth.workspace_forbidden');
    expect(
      (await trpcFailure(() => server.trpc(key).placement.recipientProviders.query({ workspace_id: foreignWorkspaceId }))).status,
    ).toBe(403);
    const gql = await server.graphql(RECIPIENT_PROVIDERS, { key, variables: { workspaceId: foreignWorkspaceId } });
    expect(gqlFailure(gql.body).code).toBe('FORBIDDEN');

    const malformed = await server.rest('GET', '/email-placement/get/recipient-providers', { key, query: { workspace_id: 'nope' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].field).toBe('workspace_id');
  });

  it('answers 401 without an API key on every transport', async () => {
    const rest = await server.rest('GET', '/email-placement/get/recipient-providers');
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ status: 'error', code: 'auth.missing_key' });
    expect((await trpcFailure(() => server.trpc().placement.recipientProviders.query())).status).toBe(401);
    const gql = await server.graphql(RECIPIENT_PROVIDERS);
    expect(gql.status).toBe(401);
  });
});
