import { describe, expect, it } from 'vitest';
import { createTestTenant, expectDomainError, testCtx, testServiceDeps, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { normalizeBlocklistEntry } from './blocklist.rules';

const db = useTestDatabase();

const setup = () => createTestTenant({ db });

describe('blocklist entry normalisation', () => {
  it('lower-cases, trims and strips a leading @ or *@ from domains', () => {
    expect(normalizeBlocklistEntry('  John@Example.COM ')).toEqual({ value: 'john@example.com', isDomain: false });
    expect(normalizeBlocklistEntry('@Example.com')).toEqual({ value: 'example.com', isDomain: true });
    expect(normalizeBlocklistEntry('*@sub.example.co.uk')).toEqual({ value: 'sub.example.co.uk', isDomain: true });
    expect(normalizeBlocklistEntry('example')).toBeNull();
    expect(normalizeBlocklistEntry('a@b@example.com')).toBeNull();
    expect(normalizeBlocklistEntry('@')).toBeNull();
    expect(normalizeBlocklistEntry('exa mple.com')).toBeNull();
  });
});

describe('blocklist operations', () => {
  it('adds entries once, counting those already blocked, and lists them newest first', async () => {
    const { ctx, ws } = await setup();
    const first = await executeOperation({
      op: operations.blocklist.addEntries,
      ctx,
      input: { workspace_id: ws, entries: ['John@Example.com', 'john@example.com ', '@Spam.io'] },
    });
    expect(first).toEqual({ status: 'success', entries_added: 2, already_in_blocklist: 0 });
    const second = await executeOperation({
      op: operations.blocklist.addEntries,
      ctx,
      input: { workspace_id: ws, entries: ['*@spam.io', 'new@other.org'] },
    });
    expect(second).toEqual({ status: 'success', entries_added: 1, already_in_blocklist: 1 });

    const rows = await db.prisma.blocklistEntry.findMany({ where: { workspaceId: ws }, orderBy: { value: 'asc' } });
    expect(rows.map((r) => [r.value, r.isDomain, r.createdByLabel])).toEqual([
      ['john@example.com', false, 'API'],
      ['new@other.org', false, 'API'],
      ['spam.io', true, 'API'],
    ]);

    const listed = await executeOperation({ op: operations.blocklist.list, ctx, input: { workspace_id: ws } });
    expect(Object.keys(listed)).toEqual(['0', '1', '2']);
    expect(listed['0']).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      workspace_id: ws,
      value: 'new@other.org',
      created_by_label: 'API',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('pages to the end with skip and limit, never repeating an entry', async () => {
    const { ctx, ws } = await setup();
    const entries = Array.from({ length: 7 }, (_, i) => `user${i}@page.test`);
    for (const entry of entries) {
      // One request each so that created_at orders them.
      await executeOperation({ op: operations.blocklist.addEntries, ctx, input: { workspace_id: ws, entries: [entry] } });
    }
    const seen: string[] = [];
    for (let skip = 0; ; skip += 3) {
      const page = await executeOperation({ op: operations.blocklist.list, ctx, input: { workspace_id: ws, skip: String(skip), limit: '3' } });
      const values = Object.values(page).map((e) => e.value);
      seen.push(...values);
      if (values.length < 3) break;
    }
    expect(seen).toEqual([...entries].reverse());
    expect(await executeOperation({ op: operations.blocklist.list, ctx, input: { workspace_id: ws, skip: 50 } })).toEqual({});
  });

  it('finds entries containing a text, whatever its case', async () => {
    const { ctx, ws } = await setup();
    await executeOperation({ op: operations.blocklist.addEntries, ctx, input: { workspace_id: ws, entries: ['ceo@rival.com', '@Rival.io', 'friend@partner.org', '100%_sure@odd.test'] } });
    const found = async (search: string) => Object.values(await executeOperation({ op: operations.blocklist.list, ctx, input: { workspace_id: ws, search } })).map((e) => e.value).sort();
    expect(await found('RIVAL')).toEqual(['ceo@rival.com', 'rival.io']);
    expect(await found('%_')).toEqual(['100%_sure@odd.test']);
    expect(await found('nobody')).toEqual([]);
  });

  it('deletes normalised entries and ignores unknown ones', async () => {
    const { ctx, ws } = await setup();
    await executeOperation({ op: operations.blocklist.addEntries, ctx, input: { workspace_id: ws, entries: ['a@x.com', 'x.com', 'b@x.com'] } });
    const deleted = await executeOperation({
      op: operations.blocklist.deleteEntries,
      ctx,
      input: { workspace_id: ws, entries: ['A@X.com', '@x.com', 'nobody@x.com'] },
    });
    expect(deleted).toEqual({ status: 'success', entries_deleted: 2 });
    expect((await db.prisma.blocklistEntry.findMany({ where: { workspaceId: ws } })).map((r) => r.value)).toEqual(['b@x.com']);
  });

  it('rejects invalid entries naming the index and writes nothing', async () => {
    const { ctx, ws } = await setup();
    const error = await expectDomainError(
      executeOperation({ op: operations.blocklist.addEntries, ctx, input: { workspace_id: ws, entries: ['ok@x.com', 'not an email'] } }),
      'invalid',
    );
    expect(error.fieldErrors).toEqual([{ field: 'entries.1', message: 'must be an email address or a domain' }]);
    const empty = await expectDomainError(executeOperation({ op: operations.blocklist.addEntries, ctx, input: { workspace_id: ws, entries: [] } }), 'invalid');
    expect(empty.fieldErrors[0]?.field).toBe('entries');
    const tooMany = await expectDomainError(
      executeOperation({ op: operations.blocklist.addEntries, ctx, input: { workspace_id: ws, entries: Array.from({ length: 1001 }, (_, i) => `u${i}@x.com`) } }),
      'invalid',
    );
    expect(tooMany.fieldErrors[0]?.field).toBe('entries');
    const missing = await expectDomainError(executeOperation({ op: operations.blocklist.list, ctx, input: {} }), 'invalid');
    expect(missing.fieldErrors[0]?.field).toBe('workspace_id');
    expect(await db.prisma.blocklistEntry.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it('keeps organizations apart', async () => {
    const mine = await setup();
    const theirs = await setup();
    await executeOperation({ op: operations.blocklist.addEntries, ctx: theirs.ctx, input: { workspace_id: theirs.ws, entries: ['secret@theirs.com'] } });
    await expectDomainError(executeOperation({ op: operations.blocklist.list, ctx: mine.ctx, input: { workspace_id: theirs.ws } }), 'forbidden');
    await expectDomainError(
      executeOperation({ op: operations.blocklist.deleteEntries, ctx: mine.ctx, input: { workspace_id: theirs.ws, entries: ['secret@theirs.com'] } }),
      'forbidden',
    );
    // The same value in my workspace is mine alone.
    const added = await executeOperation({ op: operations.blocklist.addEntries, ctx: mine.ctx, input: { workspace_id: mine.ws, entries: ['secret@theirs.com'] } });
    expect(added.entries_added).toBe(1);
    expect(await db.prisma.blocklistEntry.count({ where: { workspaceId: theirs.ws } })).toBe(1);
  });

  it('holds client keys to their blocklist permissions', async () => {
    const { org, ws } = await setup();
    const ctx = testCtx({
      deps: testServiceDeps({ db }),
      actor: { ...org.actor, workspaceIds: [ws], clientGrants: { [ws]: { permissions: ['BLOCKLIST_LIST'], hideLabels: [] } } },
    });
    await executeOperation({ op: operations.blocklist.list, ctx, input: { workspace_id: ws } });
    await expectDomainError(
      executeOperation({ op: operations.blocklist.addEntries, ctx, input: { workspace_id: ws, entries: ['a@b.com'] } }),
      'forbidden',
      'auth.permission_denied',
    );
  });
});
