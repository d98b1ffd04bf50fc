import { describe, expect, it } from 'vitest';
import { createTestCampaign, createTestMailbox, createTestTenant, expectDomainError, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';

const db = useTestDatabase();

const setup = () => createTestTenant({ db });

describe('tags', () => {
  it('creates a tag, normalising colour and name, and lists it with live counts', async () => {
    const { org, ctx, ws } = await setup();
    const created = await executeOperation({ op: operations.tag.create, ctx, input: { workspace_id: ws, name: '  Hot Leads ', color: '#a1b' } });
    expect(created).toEqual({ status: 'success', tag_id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const row = await db.prisma.tag.findUniqueOrThrow({ where: { id: created.tag_id } });
    expect([row.name, row.nameNormalized, row.color, row.description]).toEqual(['Hot Leads', 'hot leads', '#AA11BB', '']);

    const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: ws };
    const campaign = await createTestCampaign(base);
    const mailbox = await createTestMailbox({ ...base, email: `tagged-${ws}@example.com` });
    await db.prisma.campaignTag.create({ data: { campaignId: campaign.id, tagId: created.tag_id } });
    await db.prisma.emailAccountTag.create({ data: { emailAccountId: mailbox.id, tagId: created.tag_id } });

    const listed = await executeOperation({ op: operations.tag.list, ctx, input: { workspace_id: ws } });
    expect(listed).toEqual([
      { _id: created.tag_id, name: 'Hot Leads', color: '#AA11BB', description: '', status: 'ACTIVE', ea_count: 1, camp_count: 1 },
    ]);

    const deleted = await executeOperation({ op: operations.tag.delete, ctx, input: { workspace_id: ws, ids: [created.tag_id] } });
    expect(deleted).toEqual({ status: 'success', deleted_count: 1 });
    expect(await db.prisma.campaignTag.count({ where: { tagId: created.tag_id } })).toBe(0);
    expect(await db.prisma.emailAccountTag.count({ where: { tagId: created.tag_id } })).toBe(0);
    expect(await db.prisma.campaign.count({ where: { id: campaign.id } })).toBe(1);
  });

  it('refuses a duplicate name regardless of case, on create and on rename', async () => {
    const { ctx, ws } = await setup();
    await executeOperation({ op: operations.tag.create, ctx, input: { workspace_id: ws, name: 'VIP', color: '#000000' } });
    await expectDomainError(
      executeOperation({ op: operations.tag.create, ctx, input: { workspace_id: ws, name: ' vip ', color: '#FFFFFF' } }),
      'conflict',
      'tag.duplicate_name',
    );
    const other = await executeOperation({ op: operations.tag.create, ctx, input: { workspace_id: ws, name: 'Cold', color: '#FFFFFF' } });
    await expectDomainError(
      executeOperation({ op: operations.tag.update, ctx, input: { workspace_id: ws, tag_id: other.tag_id, name: 'Vip' } }),
      'conflict',
      'tag.duplicate_name',
    );
    // Renaming a tag to another case of its own name is allowed.
    await executeOperation({ op: operations.tag.update, ctx, input: { workspace_id: ws, tag_id: other.tag_id, name: 'COLD', description: 'd' } });
    const row = await db.prisma.tag.findUniqueOrThrow({ where: { id: other.tag_id } });
    expect([row.name, row.color, row.description]).toEqual(['COLD', '#FFFFFF', 'd']);
    // The same name in another workspace is fine.
    const elsewhere = await setup();
    await executeOperation({ op: operations.tag.create, ctx: elsewhere.ctx, input: { workspace_id: elsewhere.ws, name: 'VIP', color: '#000' } });
  });

  it('validates fields and names them', async () => {
    const { ctx, ws } = await setup();
    const color = await expectDomainError(executeOperation({ op: operations.tag.create, ctx, input: { workspace_id: ws, name: 'x', color: 'red' } }), 'invalid');
    expect(color.fieldErrors).toEqual([{ field: 'color', message: 'must be a hex colour like #A1B2C3' }]);
    const name = await expectDomainError(executeOperation({ op: operations.tag.create, ctx, input: { workspace_id: ws, color: '#fff' } }), 'invalid');
    expect(name.fieldErrors).toEqual([{ field: 'name', message: 'is required' }]);
    const ids = await expectDomainError(executeOperation({ op: operations.tag.delete, ctx, input: { workspace_id: ws, ids: ['nope'] } }), 'invalid');
    expect(ids.fieldErrors[0]?.field).toBe('ids.0');
    await expectDomainError(
      executeOperation({ op: operations.tag.update, ctx, input: { workspace_id: ws, tag_id: 'ffffffffffffffffffffffff', name: 'x' } }),
      'not_found',
      'tag.not_found',
    );
  });

  it('pages to the end, oldest first', async () => {
    const { ctx, ws } = await setup();
    const names = Array.from({ length: 5 }, (_, i) => `tag-${i}`);
    for (const name of names) await executeOperation({ op: operations.tag.create, ctx, input: { workspace_id: ws, name, color: '#123456' } });
    const seen: string[] = [];
    for (let skip = 0; ; skip += 2) {
      const page = await executeOperation({ op: operations.tag.list, ctx, input: { workspace_id: ws, skip, limit: 2 } });
      seen.push(...page.map((t) => t.name));
      if (page.length < 2) break;
    }
    expect(seen).toEqual(names);
  });

  it('never reaches another organization\'s tags', async () => {
    const mine = await setup();
    const theirs = await setup();
    const their = await executeOperation({ op: operations.tag.create, ctx: theirs.ctx, input: { workspace_id: theirs.ws, name: 'Theirs', color: '#000' } });
    await expectDomainError(executeOperation({ op: operations.tag.list, ctx: mine.ctx, input: { workspace_id: theirs.ws } }), 'forbidden');
    // Their tag id against my workspace: not found / nothing deleted, and their tag stays.
    await expectDomainError(
      executeOperation({ op: operations.tag.update, ctx: mine.ctx, input: { workspace_id: mine.ws, tag_id: their.tag_id, name: 'Mine' } }),
      'not_found',
    );
    const deleted = await executeOperation({ op: operations.tag.delete, ctx: mine.ctx, input: { workspace_id: mine.ws, ids: [their.tag_id] } });
    expect(deleted.deleted_count).toBe(0);
    expect((await db.prisma.tag.findUniqueOrThrow({ where: { id: their.tag_id } })).name).toBe('Theirs');
  });
});
