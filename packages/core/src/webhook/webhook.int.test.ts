import { beforeAll, describe, expect, it } from 'vitest';
import { newId, type Database } from '@outreach/db';
import { createTestCampaign, createTestOrganization, expectDomainError, testCtx, testDatabase, testServiceDeps } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});

async function setup(options: { allowPrivateTargets?: boolean } = {}) {
  const org = await createTestOrganization({ db });
  const ctx = testCtx({ deps: testServiceDeps({ db, allowPrivateTargets: options.allowPrivateTargets }), actor: org.actor });
  const campaign = await createTestCampaign({ db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId });
  return { org, ctx, ws: org.workspaceId, campaignId: campaign.id };
}

describe('webhooks', () => {
  it('adds a webhook with an encrypted secret and lists it in the vendor shape', async () => {
    const { org, ctx, ws, campaignId } = await setup();
    const added = await executeOperation({
      op: operations.webhook.add,
      ctx,
      input: {
        workspace_id: ws,
        url: 'https://hooks.example.com/in',
        camp_ids: [campaignId.toUpperCase(), campaignId],
        event_types: ['ALL_EMAIL_REPLIES', 'LEAD_MARKED_AS_INTERESTED', 'ALL_EMAIL_REPLIES'],
        name: 'CRM',
        secret: 's3cret',
        ignore_ooo: 1,
      },
    });
    expect(added).toEqual({ status: 'success', _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const row = await db.prisma.webhook.findUniqueOrThrow({ where: { id: added._id } });
    expect(row.secretEnc).not.toContain('s3cret');
    expect(ctx.secrets.decrypt(row.secretEnc!)).toBe('s3cret');

    await executeOperation({
      op: operations.webhook.add,
      ctx,
      input: { workspace_id: ws, url: 'http://localhost:8080/x', camp_ids: ['ALL'], event_types: ['SYSTEM_ALERT'] },
    });
    const listed = await executeOperation({ op: operations.webhook.list, ctx, input: { workspace_id: ws } });
    expect(listed.hooks).toHaveLength(2);
    expect(listed.hooks[0]).toEqual({
      _id: added._id,
      workspace_id: ws,
      org_id: org.organizationId,
      url: 'https://hooks.example.com/in',
      name: 'CRM',
      secret: 's3cret',
      camp_ids: [campaignId],
      evt_types: ['ALL_EMAIL_REPLIES', 'LEAD_MARKED_AS_INTERESTED'],
      status: 'ACTIVE',
      ignore_ooo: 1,
      ignore_automatic: 0,
      created_at: expect.stringMatching(/Z$/),
      modified_at: expect.stringMatching(/Z$/),
      last_run: null,
      last_resp: null,
    });
    expect(listed.hooks[1]).toMatchObject({ secret: '', camp_ids: ['ALL'], evt_types: ['SYSTEM_ALERT'], name: '', ignore_ooo: 0 });

    const deleted = await executeOperation({ op: operations.webhook.delete, ctx, input: { workspace_id: ws, ids: [added._id, 'ffffffffffffffffffffffff'] } });
    expect(deleted).toEqual({ status: 'success', deleted_count: 1 });
    expect((await executeOperation({ op: operations.webhook.list, ctx, input: { workspace_id: ws } })).hooks).toHaveLength(1);
  });

  it('rejects bad fields, naming them, and writes nothing', async () => {
    const { ctx, ws, campaignId } = await setup();
    const base = { workspace_id: ws, url: 'https://x.example.com', camp_ids: ['ALL'], event_types: ['EMAIL_SENT'] };
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://x.example.com' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ event_types: [] }, 'event_types'],
      [{ event_types: ['EMAIL_SENT', 'NOPE'] }, 'event_types.1'],
      [{ event_types: ['LEAD_MARKED_AS_NO_SUCH_LABEL'] }, 'event_types.0'],
      [{ event_types: ['email_sent'] }, 'event_types.0'],
      [{ camp_ids: [campaignId, 'ffffffffffffffffffffffff'] }, 'camp_ids.1'],
      [{ camp_ids: ['bogus'] }, 'camp_ids.0'],
      [{ camp_ids: [campaignId, 'ALL'] }, 'camp_ids.0'],
      [{ camp_ids: [] }, 'camp_ids'],
      [{ ignore_ooo: 2 }, 'ignore_ooo'],
    ];
    for (const [patch, field] of cases) {
      const error = await expectDomainError(executeOperation({ op: operations.webhook.add, ctx, input: { ...base, ...patch } }), 'invalid');
      expect(error.fieldErrors[0]?.field, JSON.stringify(patch)).toBe(field);
    }
    expect(await db.prisma.webhook.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it('accepts LEAD_MARKED_AS_ for a custom label of the workspace only', async () => {
    const mine = await setup();
    const theirs = await setup();
    await db.prisma.leadLabel.create({ data: { id: newId(), workspaceId: theirs.ws, key: 'HOT_PROSPECT', name: 'Hot', sentiment: 'POSITIVE' } });
    const input = { url: 'https://x.example.com', camp_ids: ['ALL'], event_types: ['LEAD_MARKED_AS_HOT_PROSPECT'] };
    await expectDomainError(executeOperation({ op: operations.webhook.add, ctx: mine.ctx, input: { ...input, workspace_id: mine.ws } }), 'invalid');
    await executeOperation({ op: operations.webhook.add, ctx: theirs.ctx, input: { ...input, workspace_id: theirs.ws } });
  });

  it('keeps organizations apart', async () => {
    const mine = await setup();
    const theirs = await setup();
    const their = await executeOperation({
      op: operations.webhook.add,
      ctx: theirs.ctx,
      input: { workspace_id: theirs.ws, url: 'https://theirs.example.com', camp_ids: ['ALL'], event_types: ['EMAIL_SENT'], secret: 'theirs' },
    });
    await expectDomainError(executeOperation({ op: operations.webhook.list, ctx: mine.ctx, input: { workspace_id: theirs.ws } }), 'forbidden');
    // Their campaign is not a campaign of my workspace.
    const campaign = await expectDomainError(
      executeOperation({
        op: operations.webhook.add,
        ctx: mine.ctx,
        input: { workspace_id: mine.ws, url: 'https://x.example.com', camp_ids: [theirs.campaignId], event_types: ['EMAIL_SENT'] },
      }),
      'invalid',
    );
    expect(campaign.fieldErrors[0]?.field).toBe('camp_ids.0');
    const deleted = await executeOperation({ op: operations.webhook.delete, ctx: mine.ctx, input: { workspace_id: mine.ws, ids: [their._id] } });
    expect(deleted.deleted_count).toBe(0);
    expect(await db.prisma.webhook.count({ where: { id: their._id } })).toBe(1);
  });

  it('refuses private, loopback and link-local targets when they are not allowed, naming url', async () => {
    const { ctx, ws } = await setup({ allowPrivateTargets: false });
    const add = (url: string) => executeOperation({ op: operations.webhook.add, ctx, input: { workspace_id: ws, url, camp_ids: ['ALL'], event_types: ['EMAIL_SENT'] } });
    const refused = [
      'http://127.0.0.1:8080/in',
      'http://localhost:8080/in',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/in',
      'https://192.168.1.20/in',
      'http://[::1]/in',
      'http://[fe80::1]/in',
      'http://[::ffff:127.0.0.1]/in',
      'http://0x7f.0.0.1/in',
    ];
    for (const url of refused) {
      const error = await expectDomainError(add(url), 'invalid');
      expect(error.fieldErrors[0], url).toMatchObject({ field: 'url', message: expect.stringMatching(/private, loopback, link-local or reserved/) });
    }
    // localhost is named with the address it resolved to.
    const byName = await expectDomainError(add('http://localhost:8080/in'), 'invalid');
    expect(byName.message).toMatch(/^url .*localhost \((127\.0\.0\.1|::1)\)/);

    const unresolvable = await expectDomainError(add('https://no-such-host.invalid/in'), 'invalid');
    expect(unresolvable.fieldErrors[0]).toMatchObject({ field: 'url', message: expect.stringContaining('cannot be resolved') });
    expect(unresolvable.message).toContain('no-such-host.invalid');
    expect(await db.prisma.webhook.count({ where: { workspaceId: ws } })).toBe(0);

    // A public address is accepted.
    await add('https://93.184.216.34/in');
    expect(await db.prisma.webhook.count({ where: { workspaceId: ws } })).toBe(1);
  });

  it('accepts private targets when they are allowed', async () => {
    const { ctx, ws } = await setup({ allowPrivateTargets: true });
    for (const url of ['http://127.0.0.1:8080/in', 'http://localhost:8080/in', 'http://10.0.0.5/in', 'http://[::1]/in']) {
      await executeOperation({ op: operations.webhook.add, ctx, input: { workspace_id: ws, url, camp_ids: ['ALL'], event_types: ['EMAIL_SENT'] } });
    }
    expect(await db.prisma.webhook.count({ where: { workspaceId: ws } })).toBe(4);
  });

  it('refuses a username or password in the URL, naming url, and stores nothing', async () => {
    for (const allowPrivateTargets of [true, false]) {
      const { ctx, ws } = await setup({ allowPrivateTargets });
      for (const url of ['https://user:pass@93.184.216.34/in', 'https://user@93.184.216.34/in', 'https://:pass@93.184.216.34/in']) {
        const error = await expectDomainError(
          executeOperation({ op: operations.webhook.add, ctx, input: { workspace_id: ws, url, camp_ids: ['ALL'], event_types: ['EMAIL_SENT'] } }),
          'invalid',
        );
        expect(error.fieldErrors, url).toEqual([{ field: 'url', message: 'must not contain a username or password; use the secret' }]);
      }
      expect(await db.prisma.webhook.count({ where: { workspaceId: ws } })).toBe(0);
    }
  });
  it('never lists credentials of a URL stored before they were refused (REST and the delivery keep the stored URL)', async () => {
    const { org, ctx, ws } = await setup();
    const id = newId();
    await db.prisma.webhook.create({
      data: { id, workspaceId: ws, organizationId: org.organizationId, url: 'https://bob:hunter2@hooks.example.com/in', name: 'legacy', campIds: ['ALL'], eventTypes: ['EMAIL_SENT'] },
    });
    const listed = await executeOperation({ op: operations.webhook.list, ctx, input: { workspace_id: ws } });
    const hook = listed.hooks.find((h) => h._id === id)!;
    expect(hook.url).toBe('https://hooks.example.com/in');
    expect(JSON.stringify(listed)).not.toContain('hunter2');
  });
});
