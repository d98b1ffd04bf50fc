import { describe, expect, it } from 'vitest';
import { createTestTenant, expectDomainError, testCtx, testServiceDeps, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import type { Actor } from '../shared/context';

const db = useTestDatabase();

async function setup() {
  const { org, ctx, ws } = await createTestTenant({ db });
  const run = {
    list: () => executeOperation({ op: operations.additionalField.list, ctx, input: { workspace_id: ws } }),
    create: (input: Record<string, unknown>) => executeOperation({ op: operations.additionalField.create, ctx, input: { workspace_id: ws, ...input } }),
    update: (input: Record<string, unknown>) => executeOperation({ op: operations.additionalField.update, ctx, input: { workspace_id: ws, ...input } }),
    delete: (names: unknown) => executeOperation({ op: operations.additionalField.delete, ctx, input: { workspace_id: ws, names } }),
  };
  return { org, ctx, run };
}

describe('additional fields', () => {
  it('creates fields with normalized names and lists them in creation order', async () => {
    const { run } = await setup();
    expect(await run.list()).toEqual([]);
    expect(await run.create({ name: '  Deal   size ', default_value: '0' })).toEqual({ status: 'success', name: 'Deal_size' });
    expect(await run.create({ name: 'Region' })).toEqual({ status: 'success', name: 'Region' });
    expect(await run.create({ name: 'Budget' })).toEqual({ status: 'success', name: 'Budget' });
    expect(await run.list()).toEqual([
      { name: 'Deal_size', default_value: '0' },
      { name: 'Region', default_value: '' },
      { name: 'Budget', default_value: '' },
    ]);
  });

  it('refuses bad names and built-in lead fields (400 on name) and duplicates in any case (409)', async () => {
    const { run } = await setup();
    const bad = async (name: unknown) => (await expectDomainError(run.create({ name }), 'invalid')).fieldErrors.map((f) => f.field);
    expect(await bad('1st touch')).toEqual(['name']);
    expect(await bad('deal-size')).toEqual(['name']);
    expect(await bad('x'.repeat(65))).toEqual(['name']);
    expect(await bad('First Name')).toEqual(['name']);
    expect(await bad('COMPANY_WEBSITE')).toEqual(['name']);
    expect(await bad(undefined)).toEqual(['name']);
    expect((await expectDomainError(run.create({ name: 'ok', default_value: 'x'.repeat(1001) }), 'invalid')).fieldErrors[0]?.field).toBe('default_value');
    await run.create({ name: 'Deal size' });
    await expectDomainError(run.create({ name: 'deal_size' }), 'conflict', 'additional_field.duplicate');
    await expectDomainError(run.create({ name: 'Deal size' }), 'conflict', 'additional_field.duplicate');
    expect(await run.list()).toEqual([{ name: 'Deal_size', default_value: '' }]);
  });

  it('updates a default value by name, 404 for an unknown name, and never renames', async () => {
    const { run } = await setup();
    await run.create({ name: 'Deal size', default_value: '0' });
    expect(await run.update({ name: 'deal size', default_value: '100' })).toEqual({ status: 'success' });
    expect(await run.list()).toEqual([{ name: 'Deal_size', default_value: '100' }]);
    await expectDomainError(run.update({ name: 'Nope', default_value: 'x' }), 'not_found', 'additional_field.not_found');
    expect((await expectDomainError(run.update({ name: 'Deal_size' }), 'invalid')).fieldErrors).toEqual([{ field: 'default_value', message: 'is required' }]);
  });

  it('deletes by name, counting only what existed', async () => {
    const { run, org } = await setup();
    await run.create({ name: 'A' });
    await run.create({ name: 'B' });
    await run.create({ name: 'C' });
    expect(await run.delete(['a', 'C', 'missing'])).toEqual({ status: 'success', deleted_count: 2 });
    expect(await run.list()).toEqual([{ name: 'B', default_value: '' }]);
    expect((await expectDomainError(run.delete([]), 'invalid')).fieldErrors[0]?.field).toBe('names');
    // Another organization's same-named field is untouched by our deletes.
    const other = await setup();
    await other.run.create({ name: 'B' });
    await run.delete(['B']);
    expect(await other.run.list()).toEqual([{ name: 'B', default_value: '' }]);
    expect(await db.prisma.additionalField.count({ where: { workspaceId: org.workspaceId } })).toBe(0);
  });

  it('refuses client keys on writes', async () => {
    const { org } = await setup();
    const clientActor: Actor = { ...org.actor, workspaceIds: [org.workspaceId], clientGrants: { [org.workspaceId]: { permissions: [], hideLabels: [] } } };
    const client = testCtx({ deps: testServiceDeps({ db }), actor: clientActor });
    await expectDomainError(
      executeOperation({ op: operations.additionalField.create, ctx: client, input: { workspace_id: org.workspaceId, name: 'X' } }),
      'forbidden',
      'auth.organization_key_required',
    );
    expect(await executeOperation({ op: operations.additionalField.list, ctx: client, input: { workspace_id: org.workspaceId } })).toEqual([]);
  });
});
