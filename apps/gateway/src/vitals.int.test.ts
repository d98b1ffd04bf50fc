import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsTestServer } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const DKIM_RECORD = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(9)}`;

let dns: DnsTestServer;
let key: string;
let workspaceId: string;
let foreignWorkspaceId: string;

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      'good.test': { txt: ['v=spf1 include:_spf.good.test -all'], mx: [{ exchange: 'mx.good.test', priority: 5 }] },
      '_dmarc.good.test': { txt: ['v=DMARC1; p=reject'] },
      'selector2._domainkey.good.test': { txt: [DKIM_RECORD] },
      'open-relay.test': { txt: ['v=spf1 +all'] },
      '_dmarc.open-relay.test': { txt: ['v=DMARC1; p=bogus'] },
      'broken.test': { servfail: true },
    },
  });
});
afterAll(() => dns?.close());
// Registered after the DNS server's hooks: it starts with the DNS server's address and closes first.
const { server, org: mine, foreign: theirs } = useTestServer(() => ({ env: { DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: '300' } }));
beforeAll(() => {
  key = mine.apiKey;
  workspaceId = mine.workspaceId;
  foreignWorkspaceId = theirs.workspaceId;
});

const VITALS = `mutation Vitals($workspaceId: ID!, $accounts: [String!]!) {
  testDomainVitals(workspaceId: $workspaceId, accounts: $accounts) {
    successList { domain allPass spf dkim dmarc mx }
    failureList { domain error }
  }
}`;

const ACCOUNTS = ['Sales@Good.test', 'open-relay.test', 'ops@good.test', 'x@missing.test', 'broken.test.'];

describe('POST /account/test/vitals', () => {
  it('answers the same report through REST, tRPC and GraphQL', async () => {
    const rest = await server.rest('POST', '/account/test/vitals', { key, body: { workspace_id: workspaceId, accounts: ACCOUNTS } });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      success_list: [
        { domain: 'good.test', allPass: true, spf: true, dkim: true, dmarc: true, mx: true },
        { domain: 'open-relay.test', allPass: false, spf: false, dkim: false, dmarc: false, mx: false },
      ],
      failure_list: [
        { domain: 'missing.test', error: 'domain does not exist' },
        { domain: 'broken.test', error: 'DNS server failure' },
      ],
    });

    const trpc = await server.trpc(key).account.testVitals.mutate({ workspace_id: workspaceId, accounts: ACCOUNTS });
    expect(trpc).toEqual(rest.body);

    const gql = await server.graphql(VITALS, { key, variables: { workspaceId, accounts: ACCOUNTS } });
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.testDomainVitals).toEqual({ successList: rest.body.success_list, failureList: rest.body.failure_list });
  });

  it('answers 401 without an API key, on every transport', async () => {
    const rest = await server.rest('POST', '/account/test/vitals', { body: { workspace_id: workspaceId, accounts: ['good.test'] } });
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ status: 'error', code: 'auth.missing_key' });
    expect(await trpcFailure(() => server.trpc().account.testVitals.mutate({ workspace_id: workspaceId, accounts: ['good.test'] }))).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    const gql = await server.graphql(VITALS, { variables: { workspaceId, accounts: ['good.test'] } });
    expect(gql.status).toBe(401);
  });

  it("answers 403 for another organization's workspace, before any lookup", async () => {
    const before = dns.queries.length;
    const rest = await server.rest('POST', '/account/test/vitals', { key, body: { workspace_id: foreignWorkspaceId, accounts: ['good.test'] } });
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ status: 'error', code: 'auth.workspace_forbidden' });
    expect(await trpcFailure(() => server.trpc(key).account.testVitals.mutate({ workspace_id: foreignWorkspaceId, accounts: ['good.test'] }))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    const gql = await server.graphql(VITALS, { key, variables: { workspaceId: foreignWorkspaceId, accounts: ['good.test'] } });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(dns.queries.length).toBe(before);
  });

  it('answers 400 naming the offending entry', async () => {
    const rest = await server.rest('POST', '/account/test/vitals', { key, body: { workspace_id: workspaceId, accounts: ['good.test', 'no domain here'] } });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ status: 'error', code: 'request.invalid' });
    expect(rest.body.message).toContain('accounts.1');
    expect(await trpcFailure(() => server.trpc(key).account.testVitals.mutate({ workspace_id: workspaceId, accounts: [] }))).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      field: 'accounts',
    });
    const gql = await server.graphql(VITALS, { key, variables: { workspaceId, accounts: ['@good.test'] } });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'accounts.0' }] });
  });

  it('documents the rules in the OpenAPI description', async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    const doc = (await response.json()) as { paths: Record<string, Record<string, { operationId: string; description?: string }>> };
    const op = doc.paths['/account/test/vitals']?.['post'];
    expect(op?.operationId).toBe('account.testVitals');
    expect(op?.description).toContain('+all');
    expect(op?.description).toContain('domain does not exist');
  });
});
