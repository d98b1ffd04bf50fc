import { describe, expect, it } from 'vitest';
import { createTestOrganization, createTestTenant, expectDomainError, testCtx, testServiceDeps, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { dkimSelectorsFor } from '../account/index';
import type { Actor } from '../shared/context';

const db = useTestDatabase();

const setup = () => createTestTenant({ db });

describe('workspace settings', () => {
  it('answers the defaults for a workspace that never stored any', async () => {
    const { org, ctx } = await setup();
    expect(await executeOperation({ op: operations.workspaceSettings.get, ctx, input: { workspace_id: org.workspaceId } })).toEqual({
      workspace_id: org.workspaceId,
      name: 'Default workspace',
      timezone: 'UTC',
      tracking_domain: '',
      dkim_selectors: [],
      unsubscribe_text: "If you'd rather not hear from me, let me know.",
      default_daily_limit: 30,
      default_sending_gap: 10,
    });
  });

  it('falls back to the default for a stored value of the wrong shape, and keeps others\' keys on update', async () => {
    const { org, ctx } = await setup();
    await db.prisma.workspace.update({
      where: { id: org.workspaceId },
      data: { settings: { default_daily_limit: 'lots', tracking_domain: 7, other_domain_key: { keep: true } } },
    });
    const got = await executeOperation({ op: operations.workspaceSettings.get, ctx, input: { workspace_id: org.workspaceId } });
    expect([got.default_daily_limit, got.tracking_domain]).toEqual([30, '']);
    await executeOperation({ op: operations.workspaceSettings.update, ctx, input: { workspace_id: org.workspaceId, default_sending_gap: 0 } });
    const row = await db.prisma.workspace.findUniqueOrThrow({ where: { id: org.workspaceId } });
    expect(row.settings).toEqual({ default_daily_limit: 'lots', tracking_domain: 7, other_domain_key: { keep: true }, default_sending_gap: 0 });
  });

  it('updates the given settings only and answers the full object; DKIM selectors reach the vitals check', async () => {
    const { org, ctx } = await setup();
    const updated = await executeOperation({
      op: operations.workspaceSettings.update,
      ctx,
      input: {
        workspace_id: org.workspaceId,
        name: '  Renamed ',
        timezone: 'Europe/Paris',
        tracking_domain: ' Track.Example.COM ',
        dkim_selectors: ['S1', 'google', 's1'],
        default_daily_limit: 10_000,
      },
    });
    expect(updated).toEqual({
      workspace_id: org.workspaceId,
      name: 'Renamed',
      timezone: 'Europe/Paris',
      tracking_domain: 'track.example.com',
      dkim_selectors: ['s1', 'google'],
      unsubscribe_text: "If you'd rather not hear from me, let me know.",
      default_daily_limit: 10_000,
      default_sending_gap: 10,
    });
    const second = await executeOperation({
      op: operations.workspaceSettings.update,
      ctx,
      input: { workspace_id: org.workspaceId, unsubscribe_text: 'Reply stop.', tracking_domain: '' },
    });
    expect(second).toMatchObject({ name: 'Renamed', timezone: 'Europe/Paris', tracking_domain: '', unsubscribe_text: 'Reply stop.', dkim_selectors: ['s1', 'google'] });
    expect(await executeOperation({ op: operations.workspaceSettings.get, ctx, input: { workspace_id: org.workspaceId } })).toEqual(second);
    const row = await db.prisma.workspace.findUniqueOrThrow({ where: { id: org.workspaceId } });
    expect(row.timezone).toBe('Europe/Paris');
    expect(dkimSelectorsFor(row.settings)).toContain('s1');
  });

  it('rejects invalid values and unknown keys, naming each field, and writes nothing', async () => {
    const { org, ctx } = await setup();
    const update = (input: Record<string, unknown>) =>
      expectDomainError(executeOperation({ op: operations.workspaceSettings.update, ctx, input: { workspace_id: org.workspaceId, ...input } }), 'invalid');
    const fieldsOf = async (input: Record<string, unknown>) => (await update(input)).fieldErrors.map((f) => f.field);
    expect(await fieldsOf({ timezone: 'Mars/Olympus' })).toEqual(['timezone']);
    expect(await fieldsOf({ tracking_domain: 'not a host' })).toEqual(['tracking_domain']);
    expect(await fieldsOf({ tracking_domain: 'localhost' })).toEqual(['tracking_domain']);
    expect(await fieldsOf({ dkim_selectors: ['ok', 'bad selector'] })).toEqual(['dkim_selectors.1']);
    expect(await fieldsOf({ dkim_selectors: Array.from({ length: 21 }, (_, i) => `s${i}`) })).toEqual(['dkim_selectors']);
    expect(await fieldsOf({ unsubscribe_text: 'x'.repeat(501) })).toEqual(['unsubscribe_text']);
    expect(await fieldsOf({ default_daily_limit: 10_001 })).toEqual(['default_daily_limit']);
    expect(await fieldsOf({ default_daily_limit: null })).toEqual(['default_daily_limit']);
    expect(await fieldsOf({ default_sending_gap: -1 })).toEqual(['default_sending_gap']);
    expect(await fieldsOf({ default_sending_gap: 1.5 })).toEqual(['default_sending_gap']);
    const unknown = await update({ daily_limit: 5 });
    expect(unknown.fieldErrors).toEqual([{ field: '(body)', message: 'has unknown field(s): daily_limit' }]);
    const row = await db.prisma.workspace.findUniqueOrThrow({ where: { id: org.workspaceId } });
    expect([row.settings, row.timezone]).toEqual([{}, 'UTC']);
  });

  it('accepts UTC and refuses client keys and foreign workspaces', async () => {
    const { org, ctx } = await setup();
    const theirs = await createTestOrganization({ db });
    await expectDomainError(
      executeOperation({ op: operations.workspaceSettings.update, ctx, input: { workspace_id: theirs.workspaceId, timezone: 'UTC' } }),
      'forbidden',
      'auth.workspace_forbidden',
    );
    const clientActor: Actor = {
      ...org.actor,
      workspaceIds: [org.workspaceId],
      clientGrants: { [org.workspaceId]: { permissions: ['CAMPAIGN_LIST'], hideLabels: [] } },
    };
    const client = testCtx({ deps: testServiceDeps({ db }), actor: clientActor });
    await expectDomainError(
      executeOperation({ op: operations.workspaceSettings.update, ctx: client, input: { workspace_id: org.workspaceId, timezone: 'UTC' } }),
      'forbidden',
      'auth.organization_key_required',
    );
    // Reading is allowed to any key that reaches the workspace.
    expect((await executeOperation({ op: operations.workspaceSettings.get, ctx: client, input: { workspace_id: org.workspaceId } })).timezone).toBe('UTC');
    const utc = await executeOperation({ op: operations.workspaceSettings.update, ctx, input: { workspace_id: org.workspaceId, timezone: 'UTC' } });
    expect(utc.timezone).toBe('UTC');
  });
});
