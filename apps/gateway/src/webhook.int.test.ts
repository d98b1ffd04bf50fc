// Webhooks: targets over REST (private addresses and credentials in the URL are refused when added),
// and adding, listing and deleting through REST, tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCampaign, createTestOrganization } from '@outreach/core/testing';
import type { TestServer } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server: strict } = useTestServer({ env: { ALLOW_PRIVATE_TARGETS: 'false' } });
const { server: lenient, org } = useTestServer();

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

describe('webhooks', () => {
  // The default server (private targets allowed), as this round trip was written against.
  const server = lenient;
  let ws: string;

  beforeAll(() => {
    ws = org.workspaceId;
  });

  it('adds, lists and deletes over REST; tRPC and GraphQL agree without exposing the secret', async () => {
    const campaign = await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws });
    const added = await server.rest('POST', '/hook/add', {
      key: org.apiKey,
      body: { workspace_id: ws, url: 'https://hooks.example.com/a', camp_ids: [campaign.id], event_types: ['BOUNCED_EMAIL', 'LEAD_MARKED_AS_MEETING_BOOKED'], secret: 'shh', ignore_automatic: 1 },
    });
    expect(added.status).toBe(200);
    const hookId = added.body._id;
    const listed = await server.rest('GET', '/hook/list', { key: org.apiKey, query: { workspace_id: ws } });
    expect(listed.body.hooks).toEqual([
      expect.objectContaining({ _id: hookId, secret: 'shh', camp_ids: [campaign.id], evt_types: ['BOUNCED_EMAIL', 'LEAD_MARKED_AS_MEETING_BOOKED'], ignore_ooo: 0, ignore_automatic: 1, status: 'ACTIVE' }),
    ]);
    expect(await server.trpc(org.apiKey).webhook.list.query({ workspace_id: ws })).toEqual(listed.body);
    const badCampaign = await server.rest('POST', '/hook/add', {
      key: org.apiKey,
      body: { workspace_id: ws, url: 'https://hooks.example.com/a', camp_ids: ['ffffffffffffffffffffffff'], event_types: ['EMAIL_SENT'] },
    });
    expect(badCampaign.status).toBe(400);
    expect(badCampaign.body.errors[0].field).toBe('camp_ids.0');

    const gqlAdd = await server.graphql(
      `mutation($ws: ID!) { addWebhook(workspaceId: $ws, url: "http://example.org/h", campaignIds: ["ALL"], eventTypes: ["EMAIL_SENT"], ignoreOoo: true) { id hasSecret campaignIds ignoreOoo status } }`,
      { key: org.apiKey, variables: { ws } },
    );
    expect(gqlAdd.body.data.addWebhook).toEqual({ id: expect.any(String), hasSecret: false, campaignIds: ['ALL'], ignoreOoo: true, status: 'ACTIVE' });
    const gqlList = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { webhooks { id url hasSecret } } }`, { key: org.apiKey, variables: { ws } });
    expect(gqlList.body.data.workspace.webhooks).toEqual([
      { id: hookId, url: 'https://hooks.example.com/a', hasSecret: true },
      { id: gqlAdd.body.data.addWebhook.id, url: 'http://example.org/h', hasSecret: false },
    ]);
    expect(JSON.stringify(gqlList.body)).not.toContain('shh');

    const trpcDeleted = await server.trpc(org.apiKey).webhook.delete.mutate({ workspace_id: ws, ids: [gqlAdd.body.data.addWebhook.id] });
    expect(trpcDeleted.deleted_count).toBe(1);
    const deleted = await server.rest('DELETE', '/hook/del', { key: org.apiKey, body: { workspace_id: ws, ids: [hookId] } });
    expect(deleted.body).toEqual({ status: 'success', deleted_count: 1 });
  });
});
