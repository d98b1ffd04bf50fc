import { describe, expect, it } from 'vitest';
import { createTestOrganization, createTestTenant, expectDomainError, testCtx, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { createAuthenticator, issueApiKey } from '../auth/index';

const db = useTestDatabase();

async function setup() {
  const { org, deps, ctx } = await createTestTenant({ db });
  const newWorkspace = async (name: string) => (await executeOperation({ op: operations.workspace.create, ctx, input: { workspace_name: name } }))._id;
  return { org, deps, ctx, newWorkspace };
}

describe('copying workspace settings', () => {
  it('copies settings, time zone, custom labels (upsert by key) and fields (upsert by name) to every target', async () => {
    const { org, ctx, newWorkspace } = await setup();
    const source = org.workspaceId;
    const a = await newWorkspace('A');
    const b = await newWorkspace('B');
    await executeOperation({
      op: operations.workspaceSettings.update,
      ctx,
      input: { workspace_id: source, timezone: 'America/New_York', tracking_domain: 'track.example.com', dkim_selectors: ['s1'], default_daily_limit: 50 },
    });
    await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: source, name: 'Hot', sentiment: 'POSITIVE', icon: 'fire' } });
    await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: source, name: 'Cold', sentiment: 'NEGATIVE' } });
    await executeOperation({ op: operations.additionalField.create, ctx, input: { workspace_id: source, name: 'Deal size', default_value: '10' } });
    await executeOperation({ op: operations.additionalField.create, ctx, input: { workspace_id: source, name: 'Region', default_value: 'EU' } });
    // Target A already has a HOT label (other sentiment), a deal_size field (other case), and extras of its own.
    await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: a, name: 'hot', sentiment: 'NEUTRAL' } });
    await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: a, name: 'Own label', sentiment: 'NEUTRAL' } });
    await executeOperation({ op: operations.additionalField.create, ctx, input: { workspace_id: a, name: 'deal_size', default_value: 'old' } });
    await executeOperation({ op: operations.additionalField.create, ctx, input: { workspace_id: a, name: 'Own', default_value: 'mine' } });

    const copied = await executeOperation({ op: operations.workspace.copySettings, ctx, input: { workspace_id: source, to_workspace_ids: [a, b, a] } });
    expect(copied).toEqual({ status: 'success', copied: 2 });

    const sourceSettings = await executeOperation({ op: operations.workspaceSettings.get, ctx, input: { workspace_id: source } });
    for (const [target, name] of [[a, 'A'], [b, 'B']] as const) {
      const settings = await executeOperation({ op: operations.workspaceSettings.get, ctx, input: { workspace_id: target } });
      expect(settings).toEqual({ ...sourceSettings, workspace_id: target, name });
    }
    const labelsOf = async (ws: string) =>
      (await executeOperation({ op: operations.leadLabel.list, ctx, input: { workspace_id: ws } })).slice(8).map((l) => [l.key, l.name, l.sentiment, l.icon, l.is_system]);
    expect(await labelsOf(a)).toEqual([
      ['HOT', 'Hot', 'POSITIVE', 'fire', 0],
      ['OWN_LABEL', 'Own label', 'NEUTRAL', '', 0],
      ['COLD', 'Cold', 'NEGATIVE', '', 0],
    ]);
    expect(await labelsOf(b)).toEqual([
      ['HOT', 'Hot', 'POSITIVE', 'fire', 0],
      ['COLD', 'Cold', 'NEGATIVE', '', 0],
    ]);
    expect(await db.prisma.leadLabel.count({ where: { workspaceId: b, isSystem: true } })).toBe(8);
    expect(await executeOperation({ op: operations.additionalField.list, ctx, input: { workspace_id: a } })).toEqual([
      { name: 'deal_size', default_value: '10' },
      { name: 'Own', default_value: 'mine' },
      { name: 'Region', default_value: 'EU' },
    ]);
    expect(await executeOperation({ op: operations.additionalField.list, ctx, input: { workspace_id: b } })).toEqual([
      { name: 'Deal_size', default_value: '10' },
      { name: 'Region', default_value: 'EU' },
    ]);
    // Copying again changes nothing more (upserts, no duplicates).
    await executeOperation({ op: operations.workspace.copySettings, ctx, input: { workspace_id: source, to_workspace_ids: [b] } });
    expect(await db.prisma.additionalField.count({ where: { workspaceId: b } })).toBe(2);
    expect(await db.prisma.leadLabel.count({ where: { workspaceId: b } })).toBe(10);
  });

  it('refuses another organization\'s workspace (403) and the source itself (400), writing nothing', async () => {
    const { org, ctx, newWorkspace } = await setup();
    const mine = await newWorkspace('Mine');
    const theirs = await createTestOrganization({ db });
    await executeOperation({ op: operations.workspaceSettings.update, ctx, input: { workspace_id: org.workspaceId, timezone: 'Asia/Tokyo' } });
    await expectDomainError(
      executeOperation({ op: operations.workspace.copySettings, ctx, input: { workspace_id: org.workspaceId, to_workspace_ids: [mine, theirs.workspaceId] } }),
      'forbidden',
      'auth.workspace_forbidden',
    );
    const self = await expectDomainError(
      executeOperation({ op: operations.workspace.copySettings, ctx, input: { workspace_id: org.workspaceId, to_workspace_ids: [mine, org.workspaceId] } }),
      'invalid',
    );
    expect(self.fieldErrors).toEqual([{ field: 'to_workspace_ids.1', message: 'must not be the source workspace' }]);
    const tooMany = await expectDomainError(
      executeOperation({ op: operations.workspace.copySettings, ctx, input: { workspace_id: org.workspaceId, to_workspace_ids: [] } }),
      'invalid',
    );
    expect(tooMany.fieldErrors[0]?.field).toBe('to_workspace_ids');
    const rows = await db.prisma.workspace.findMany({ where: { id: { in: [mine, theirs.workspaceId] } }, select: { timezone: true } });
    expect(rows.map((r) => r.timezone)).toEqual(['UTC', 'UTC']);
  });

  it('a workspace-limited key cannot copy to a workspace it does not reach', async () => {
    const { org, deps, newWorkspace } = await setup();
    const other = await newWorkspace('Other');
    const limitedKey = await issueApiKey({ db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId });
    const actor = await createAuthenticator({ db: db.prisma }).authenticate(limitedKey.apiKey);
    await expectDomainError(
      executeOperation({ op: operations.workspace.copySettings, ctx: testCtx({ deps, actor }), input: { workspace_id: org.workspaceId, to_workspace_ids: [other] } }),
      'forbidden',
    );
  });
});
