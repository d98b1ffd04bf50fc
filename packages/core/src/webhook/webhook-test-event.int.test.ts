// The test event (`webhook.test`): queued for one webhook whatever it subscribes to, POSTed by the
// real delivery round to a receiver on 127.0.0.1, and its outcome shown in the webhook's list entry.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@outreach/db';
import { createTestOrganization, expectDomainError, testCtx, testDatabase, testServiceDeps } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { deliverDueWebhooks } from './webhook-delivery.service';

let db: Database;
let receiver: Server;
let port = 0;
const received: { path: string; body: string }[] = [];

beforeAll(async () => {
  db = await testDatabase();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(req.url === '/broken' ? 500 : 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function setup() {
  const org = await createTestOrganization({ db });
  const deps = testServiceDeps({ db });
  const ctx = testCtx({ deps, actor: org.actor });
  const add = (path: string) =>
    executeOperation({
      op: operations.webhook.add,
      ctx,
      input: { workspace_id: org.workspaceId, url: `http://127.0.0.1:${port}${path}`, camp_ids: ['ALL'], event_types: ['BOUNCED_EMAIL'], name: 'CRM' },
    }).then((r) => r._id);
  const list = () => executeOperation({ op: operations.webhook.list, ctx, input: { workspace_id: org.workspaceId } }).then((r) => r.hooks);
  return { org, deps, ctx, add, list };
}

describe('webhook test event', () => {
  it('is POSTed to the webhook, whatever it subscribes to, and its answer becomes the last response', async () => {
    const { org, deps, ctx, add, list } = await setup();
    const path = `/ok-${org.workspaceId}`;
    const id = await add(path);
    expect((await list())[0]).toMatchObject({ last_run: null, last_resp: null });

    const queued = await executeOperation({ op: operations.webhook.test, ctx, input: { workspace_id: org.workspaceId, id } });
    expect(queued.delivery_id).toMatch(/^[0-9a-f]{24}$/);
    const round = await deliverDueWebhooks({ deps, workspaceIds: [org.workspaceId] });
    expect(round.delivered).toBe(1);

    const got = received.filter((r) => r.path === path);
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ webhook_id: id, webhook_name: 'CRM', webhook_event: 'WEBHOOK_TEST', workspace_id: org.workspaceId });
    const [hook] = await list();
    expect(hook!.last_run).not.toBeNull();
    expect(hook!.last_resp).toMatch(/200/);
  });

  it('records a failing receiver in the last response', async () => {
    const { org, deps, ctx, add, list } = await setup();
    const id = await add('/broken');
    await executeOperation({ op: operations.webhook.test, ctx, input: { workspace_id: org.workspaceId, id } });
    await deliverDueWebhooks({ deps, workspaceIds: [org.workspaceId] });
    expect((await list())[0]!.last_resp).toMatch(/500/);
  });

  it("refuses another workspace's webhook (404) and a disabled one (400 naming id)", async () => {
    const mine = await setup();
    const other = await setup();
    const theirs = await other.add('/theirs');
    await expectDomainError(
      executeOperation({ op: operations.webhook.test, ctx: mine.ctx, input: { workspace_id: mine.org.workspaceId, id: theirs } }),
      'not_found',
      'webhook.not_found',
    );
    const id = await mine.add('/disabled');
    await db.prisma.webhook.update({ where: { id }, data: { status: 'DISABLED' } });
    const refused = await expectDomainError(
      executeOperation({ op: operations.webhook.test, ctx: mine.ctx, input: { workspace_id: mine.org.workspaceId, id } }),
      'invalid',
    );
    expect(refused.fieldErrors?.map((f) => f.field)).toEqual(['id']);
    expect(await db.prisma.webhookDelivery.count({ where: { webhookId: id } })).toBe(0);
  });
});
