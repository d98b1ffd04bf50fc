// The set-up the gateway's integration test files share: the real app on a loopback port for the
// whole file, an organization to call it as, and a second one whose workspace that key must not reach.
import { afterAll, beforeAll } from 'vitest';
import { createTestOrganization, lateValue, type TestOrganization } from '@outreach/core/testing';
import { startTestServer, type TestServer } from './test-server';

export type TestServerOptions = NonNullable<Parameters<typeof startTestServer>[0]>;

/**
 * Starts the app before the file's tests (beforeAll) and closes it after them (afterAll).
 * `options` may be a function, read when the hook runs, for settings that an earlier beforeAll
 * provides (a DNS server's address). `org` and `foreign` are two fresh organizations.
 */
export function useTestServer(options: TestServerOptions | (() => TestServerOptions) = {}) {
  const server = lateValue<TestServer>('the test server');
  const org = lateValue<TestOrganization>('the test organization');
  const foreign = lateValue<TestOrganization>('the foreign test organization');
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(typeof options === 'function' ? options() : options);
    server.set(started);
    org.set(await createTestOrganization({ db: started.db }));
    foreign.set(await createTestOrganization({ db: started.db }));
  });
  afterAll(() => started?.close());
  return { server: server.value, org: org.value, foreign: foreign.value };
}

/** Adds a workspace over REST (`POST /workspaces/add`) with `key`, and answers its id. */
export async function addWorkspace(server: TestServer, key: string, name: string): Promise<string> {
  const created = await server.rest('POST', '/workspaces/add', { key, body: { workspace_name: name } });
  if (created.status !== 200) throw new Error(`POST /workspaces/add answered ${created.status}`);
  return created.body._id;
}
