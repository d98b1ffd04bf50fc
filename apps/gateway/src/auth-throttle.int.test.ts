import { describe, expect, it } from 'vitest';
import { createTestOrganization } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

/**
 * Failed authentications are budgeted per client address. The app trusts
 * `x-forwarded-for` from loopback (a proxy on the same machine), which lets one test
 * server see several client addresses. A budget of 3 failures that refills 1 per minute
 * does not refill while a test runs.
 */
const { server } = useTestServer({ env: { AUTH_FAILURE_BURST: '3', AUTH_FAILURES_PER_MINUTE: '1' } });

let unknownKeys = 0;
/** A well-formed key nobody holds: each costs a database lookup. */
function unknownKey(): string {
  unknownKeys += 1;
  return `ffffffff-ffffffff-ffffffff-${unknownKeys.toString(16).padStart(8, '0')}`;
}

interface Answer {
  status: number;
  retryAfter: string | null;
  /** The transport's own error code (REST `code`, tRPC `data.domain_code`, GraphQL `extensions.domain_code`). */
  code: string | undefined;
}

type Transport = (key: string | undefined, address: string) => Promise<Answer>;

const transports: Record<string, Transport> = {
  async rest(key, address) {
    const response = await fetch(`${server.url}/api/v1/workspaces`, {
      headers: { 'x-forwarded-for': address, ...(key ? { 'x-api-key': key } : {}) },
    });
    const body = (await response.json()) as any;
    return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body.code };
  },
  async trpc(key, address) {
    const response = await fetch(`${server.url}/trpc/workspace.list`, {
      headers: { 'x-forwarded-for': address, ...(key ? { 'x-api-key': key } : {}) },
    });
    const body = (await response.json()) as any;
    return { status: response.status, retryAfter: body.error?.data?.retry_after?.toString() ?? null, code: body.error?.data?.domain_code };
  },
  async graphql(key, address) {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(key ? { 'x-api-key': key } : {}) },
      body: JSON.stringify({ query: '{ workspaces { id } }' }),
    });
    const body = (await response.json()) as any;
    return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body.errors?.[0]?.extensions?.domain_code };
  },
};

describe.each(Object.entries(transports).map(([name, call], i) => ({ name, call, i })))('failed authentication on $name', ({ call, i }) => {
  const address = `198.51.100.${10 + i}`;
  const neighbour = `198.51.100.${20 + i}`;

  it('answers 429 with Retry-After once an address has spent its failures, before any lookup', async () => {
    const seen = await createTestOrganization({ db: server.db });
    const fresh = await createTestOrganization({ db: server.db });
    // A client already working from the address: its key is in the process's cache.
    expect((await call(seen.apiKey, address)).status).toBe(200);

    for (let n = 0; n < 3; n++) expect(await call(unknownKey(), address)).toMatchObject({ status: 401, code: 'auth.invalid_key' });
    const refused = await call(unknownKey(), address);
    expect(refused).toMatchObject({ status: 429, code: 'auth.too_many_failures' });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);

    // The key already looked up is still served from that address; a key that would need
    // a lookup waits like the rest (the documented trade-off).
    expect((await call(seen.apiKey, address)).status).toBe(200);
    expect(await call(fresh.apiKey, address)).toMatchObject({ status: 429, code: 'auth.too_many_failures' });
    // No key, or a malformed one, costs no lookup: still the plain 401.
    expect(await call(undefined, address)).toMatchObject({ status: 401, code: 'auth.missing_key' });
    expect(await call('not-a-key', address)).toMatchObject({ status: 401, code: 'auth.invalid_key' });

    // Other addresses are not affected.
    expect((await call(fresh.apiKey, neighbour)).status).toBe(200);
    expect(await call(unknownKey(), neighbour)).toMatchObject({ status: 401, code: 'auth.invalid_key' });
  });

  it('never charges successful requests', async () => {
    const org = await createTestOrganization({ db: server.db });
    const busy = `203.0.113.${10 + i}`;
    for (let n = 0; n < 10; n++) expect((await call(org.apiKey, busy)).status).toBe(200);
    for (let n = 0; n < 3; n++) expect((await call(unknownKey(), busy)).status).toBe(401);
    expect((await call(unknownKey(), busy)).status).toBe(429);
  });
});
