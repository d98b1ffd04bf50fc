// Webhook targets over REST: private addresses and credentials in the URL are refused when added.
import { describe, expect, it } from 'vitest';
import { createTestOrganization } from '@outreach/core/testing';
import type { TestServer } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server: strict } = useTestServer({ env: { ALLOW_PRIVATE_TARGETS: 'false' } });
const { server: lenient } = useTestServer();

async function addHook(server: TestServer, url: string) {
  const org = await createTestOrganization({ db: server.db });
  const response = await server.rest('POST', '/hook/add', {
    key: org.apiKey,
    body: { workspace_id: org.workspaceId, url, camp_ids: ['ALL'], event_types: ['EMAIL_SENT'] },
  });
  const listed = await server.rest('GET', '/hook/list', { key: org.apiKey, query: { workspace_id: org.workspaceId } });
  return { ...response, hooks: listed.body.hooks as { url: string }[] };
}

describe('POST /hook/add targets', () => {
  it('answers 400 naming url for private, loopback and link-local targets unless ALLOW_PRIVATE_TARGETS', async () => {
    for (const url of ['http://127.0.0.1:9000/in', 'http://localhost:9000/in', 'http://169.254.169.254/latest/meta-data', 'http://192.168.0.10/in', 'http://[::1]/in']) {
      const refused = await addHook(strict, url);
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors[0], url).toMatchObject({ field: 'url', message: expect.stringContaining('private, loopback, link-local or reserved') });
      expect(refused.hooks).toEqual([]);
    }
    const unresolvable = await addHook(strict, 'https://no-such-host.invalid/in');
    expect(unresolvable.status).toBe(400);
    expect(unresolvable.body.errors[0]).toMatchObject({ field: 'url', message: expect.stringContaining('cannot be resolved') });

    const publicTarget = await addHook(strict, 'https://93.184.216.34/in');
    expect(publicTarget.status).toBe(200);
    expect(publicTarget.hooks.map((h) => h.url)).toEqual(['https://93.184.216.34/in']);

    const allowed = await addHook(lenient, 'http://localhost:9000/in');
    expect(allowed.status).toBe(200);
    expect(allowed.hooks.map((h) => h.url)).toEqual(['http://localhost:9000/in']);
  });

  it('answers 400 naming url for a username or password in the URL, and stores nothing', async () => {
    for (const server of [strict, lenient]) {
      const refused = await addHook(server, 'https://user:pa55@93.184.216.34/in');
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'url', message: 'must not contain a username or password; use the secret' }]);
      expect(refused.hooks).toEqual([]);
      expect(JSON.stringify(refused.body)).not.toContain('pa55');
    }
  });
});
