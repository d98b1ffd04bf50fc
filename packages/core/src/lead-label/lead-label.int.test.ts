import { describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead, createTestTenant, expectDomainError, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';

const db = useTestDatabase();

const setup = () => createTestTenant({ db });

describe('adding lead labels', () => {
  it('answers the new label with its derived key and lists it after the system labels', async () => {
    const { org, ctx } = await setup();
    const added = await executeOperation({
      op: operations.leadLabel.add,
      ctx,
      input: { workspace_id: org.workspaceId, name: ' Demo scheduled! ', sentiment: 'POSITIVE', icon: 'calendar' },
    });
    expect(added).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), key: 'DEMO_SCHEDULED', name: 'Demo scheduled!', sentiment: 'POSITIVE', icon: 'calendar', is_system: 0, is_ai_label: 0 });
    const noIcon = await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: org.workspaceId, name: 'Later', sentiment: 'NEUTRAL' } });
    expect(noIcon.icon).toBe('');
    const listed = await executeOperation({ op: operations.leadLabel.list, ctx, input: { workspace_id: org.workspaceId } });
    expect(listed.slice(8)).toEqual([added, noIcon]);
  });

  it('refuses a key equal to a system or custom label, or the reserved IN_SEQUENCE, with 409 label.duplicate', async () => {
    const { org, ctx } = await setup();
    const add = (name: string) => executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: org.workspaceId, name, sentiment: 'NEUTRAL' } });
    await expectDomainError(add('interested'), 'conflict', 'label.duplicate');
    await add('Hot lead');
    await expectDomainError(add('hot-lead'), 'conflict', 'label.duplicate');
    await expectDomainError(add('In sequence'), 'conflict', 'label.duplicate');
    // Another workspace may use the same key.
    const other = await setup();
    await executeOperation({ op: operations.leadLabel.add, ctx: other.ctx, input: { workspace_id: other.org.workspaceId, name: 'Hot lead', sentiment: 'NEUTRAL' } });
    expect(await db.prisma.leadLabel.count({ where: { workspaceId: org.workspaceId, isSystem: false } })).toBe(1);
  });

  it('validates name, sentiment and icon, naming the field', async () => {
    const { org, ctx } = await setup();
    const add = async (input: Record<string, unknown>) =>
      (await expectDomainError(executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: org.workspaceId, sentiment: 'NEUTRAL', name: 'x', ...input } }), 'invalid')).fieldErrors;
    expect(await add({ name: undefined })).toEqual([{ field: 'name', message: 'is required' }]);
    expect(await add({ name: '   ' })).toEqual([{ field: 'name', message: 'must not be empty' }]);
    expect(await add({ name: 'x'.repeat(51) })).toEqual([{ field: 'name', message: 'must be at most 50 characters' }]);
    expect(await add({ name: '!!!' })).toEqual([{ field: 'name', message: 'must contain a letter or a digit' }]);
    expect(await add({ sentiment: 'HAPPY' })).toEqual([{ field: 'sentiment', message: 'must be POSITIVE, NEGATIVE or NEUTRAL' }]);
    expect((await add({ icon: 5 }))[0]?.field).toBe('icon');
  });
});

describe('deleting lead labels', () => {
  it('deletes custom labels, clears them from the workspace\'s leads, and ignores unknown ids', async () => {
    const { org, ctx } = await setup();
    const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const campaign = await createTestCampaign(base);
    const hot = await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: org.workspaceId, name: 'Hot', sentiment: 'POSITIVE' } });
    const warm = await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: org.workspaceId, name: 'Warm', sentiment: 'POSITIVE' } });
    const hotLead = await createTestLead({ ...base, campaignId: campaign.id, email: 'hot@example.com', label: 'HOT' });
    const keptLead = await createTestLead({ ...base, campaignId: campaign.id, email: 'int@example.com', label: 'INTERESTED' });
    const warmLead = await createTestLead({ ...base, campaignId: campaign.id, email: 'warm@example.com', label: 'WARM' });
    // A lead of another workspace carrying the same key keeps it.
    const other = await setup();
    const otherBase = { db: db.prisma, organizationId: other.org.organizationId, workspaceId: other.org.workspaceId };
    const otherLead = await createTestLead({ ...otherBase, campaignId: (await createTestCampaign(otherBase)).id, email: 'x@example.com', label: 'HOT' });

    const deleted = await executeOperation({
      op: operations.leadLabel.delete,
      ctx,
      input: { workspace_id: org.workspaceId, ids: [hot.id, 'ffffffffffffffffffffffff'] },
    });
    expect(deleted).toEqual({ deleted_count: 1 });
    const labels = await db.prisma.lead.findMany({ where: { id: { in: [hotLead.id, keptLead.id, warmLead.id, otherLead.id] } }, select: { id: true, label: true } });
    expect(Object.fromEntries(labels.map((l) => [l.id, l.label]))).toEqual({ [hotLead.id]: null, [keptLead.id]: 'INTERESTED', [warmLead.id]: 'WARM', [otherLead.id]: 'HOT' });
    const listed = await executeOperation({ op: operations.leadLabel.list, ctx, input: { workspace_id: org.workspaceId } });
    expect(listed.map((l) => l.key).slice(8)).toEqual([warm.key]);
    expect(await executeOperation({ op: operations.leadLabel.delete, ctx, input: { workspace_id: org.workspaceId, ids: [hot.id] } })).toEqual({ deleted_count: 0 });
  });

  it('refuses system labels naming ids.<i>, deleting nothing', async () => {
    const { org, ctx } = await setup();
    const custom = await executeOperation({ op: operations.leadLabel.add, ctx, input: { workspace_id: org.workspaceId, name: 'Mine', sentiment: 'NEUTRAL' } });
    const interested = await db.prisma.leadLabel.findFirstOrThrow({ where: { workspaceId: org.workspaceId, key: 'INTERESTED' } });
    const error = await expectDomainError(
      executeOperation({ op: operations.leadLabel.delete, ctx, input: { workspace_id: org.workspaceId, ids: [custom.id, interested.id] } }),
      'invalid',
      'label.system_label',
    );
    expect(error.fieldErrors).toEqual([{ field: 'ids.1', message: 'is a system label, which cannot be deleted' }]);
    expect(await db.prisma.leadLabel.count({ where: { workspaceId: org.workspaceId } })).toBe(9);
    const empty = await expectDomainError(executeOperation({ op: operations.leadLabel.delete, ctx, input: { workspace_id: org.workspaceId, ids: [] } }), 'invalid');
    expect(empty.fieldErrors[0]?.field).toBe('ids');
  });

  it('does not reach another workspace\'s labels', async () => {
    const { ctx } = await setup();
    const other = await setup();
    const theirs = await executeOperation({ op: operations.leadLabel.add, ctx: other.ctx, input: { workspace_id: other.org.workspaceId, name: 'Theirs', sentiment: 'NEUTRAL' } });
    await expectDomainError(
      executeOperation({ op: operations.leadLabel.delete, ctx, input: { workspace_id: other.org.workspaceId, ids: [theirs.id] } }),
      'forbidden',
    );
    expect(await db.prisma.leadLabel.count({ where: { id: theirs.id } })).toBe(1);
  });
});
