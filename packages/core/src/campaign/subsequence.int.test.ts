import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestMailbox, createTestTenant, expectDomainError, testCtx, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { createAuthenticator, issueApiKey } from '../auth/index';

const db = useTestDatabase();

async function setup() {
  const { org, deps, ctx, base } = await createTestTenant({ db });
  const parent = await createTestCampaign({ ...base, status: 'ACTIVE' });
  const create = (input: Record<string, unknown>) => executeOperation({ op: operations.campaign.addSubsequence, ctx, input: { name: 'Follow-up', parent_camp_id: parent.id, ...input } });
  return { org, deps, ctx, base, parent, create };
}

describe('POST /campaign/add/subsequence', () => {
  it('creates a draft subsequence with its four kinds of trigger stored for enrolment, inheriting sending settings', async () => {
    const { create, parent, org, base } = await setup();
    const mailbox = await createTestMailbox({ ...base, email: 'm@out.test' });
    await db.prisma.campaign.update({
      where: { id: parent.id },
      data: { dailyLimit: 77, sendAsText: true, schedule: { timezone: 'Europe/Oslo' }, emailAccounts: { create: { emailAccountId: mailbox.id } } },
    });
    const r = await create({
      workspace_id: org.workspaceId,
      events: [
        { name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_INTERESTED', 'LEAD_MARKED_AS_MEETING_BOOKED'] },
        { name: 'LEAD_REPLY_CONTENT', include_text: ' pricing, demo ,, ', exclude_text: 'unsubscribe' },
        { name: 'LEAD_REPLY_ALL' },
        { name: 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY' },
      ],
    });
    expect(r.status).toBe('success');
    const sub = await db.prisma.campaign.findUniqueOrThrow({
      where: { id: r.id },
      include: { triggers: { orderBy: { position: 'asc' } }, emailAccounts: true },
    });
    expect(sub).toMatchObject({ type: 'subseq', status: 'DRAFT', parentId: parent.id, workspaceId: org.workspaceId, name: 'Follow-up', dailyLimit: 77, sendAsText: true, schedule: { timezone: 'Europe/Oslo' } });
    expect(sub.emailAccounts.map((a) => a.emailAccountId)).toEqual([mailbox.id]);
    expect(sub.triggers.map((t) => [t.event, t.labels, t.includeText, t.excludeText, t.parentCampaignId])).toEqual([
      ['LEAD_LABEL_UPDATED', ['INTERESTED', 'MEETING_BOOKED'], [], [], parent.id],
      ['LEAD_REPLY_CONTENT', [], ['pricing', 'demo'], ['unsubscribe'], parent.id],
      ['LEAD_REPLY_ALL', [], [], [], parent.id],
      ['LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY', [], [], [], parent.id],
    ]);
  });

  it('takes the parent\'s workspace when workspace_id is omitted', async () => {
    const { create, org } = await setup();
    const r = await create({ events: [{ name: 'LEAD_REPLY_ALL' }] });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: r.id } })).workspaceId).toBe(org.workspaceId);
  });

  it('names the event index and field of each violation', async () => {
    const { create } = await setup();
    const fields = async (events: unknown) => (await expectDomainError(create({ events }), 'invalid')).fieldErrors.map((f) => f.field);
    expect(await fields([])).toEqual(['events']);
    expect(await fields([{ name: 'LEAD_REPLY_ALL' }, { name: 'SOMETHING' }])).toEqual(['events.1.name']);
    expect(await fields([{ name: 'LEAD_LABEL_UPDATED' }])).toEqual(['events.0.val']);
    expect(await fields([{ name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_INTERESTED', 'INTERESTED'] }])).toEqual(['events.0.val.1']);
    expect(await fields([{ name: 'LEAD_REPLY_CONTENT', include_text: ' , ' }])).toEqual(['events.0.include_text']);
    expect(await fields([{ name: 'LEAD_REPLY_ALL', include_text: 'x' }])).toEqual(['events.0.include_text']);
    const unknownLabel = await expectDomainError(create({ events: [{ name: 'LEAD_REPLY_ALL' }, { name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_NO_SUCH_LABEL'] }] }), 'invalid', 'campaign.unknown_label');
    expect(unknownLabel.fieldErrors).toEqual([{ field: 'events.1.val.0', message: 'names no lead label of this workspace (LEAD_MARKED_AS_NO_SUCH_LABEL)' }]);
    expect((await expectDomainError(create({ name: '', events: [{ name: 'LEAD_REPLY_ALL' }] }), 'invalid')).fieldErrors[0]!.field).toBe('name');
  });

  it('refuses a subsequence as parent, and another organization\'s or an unreachable workspace\'s campaign', async () => {
    const { create, parent, org, deps } = await setup();
    const sub = await create({ events: [{ name: 'LEAD_REPLY_ALL' }] });
    await expectDomainError(create({ parent_camp_id: sub.id, events: [{ name: 'LEAD_REPLY_ALL' }] }), 'invalid', 'campaign.not_a_parent');
    const other = await setup();
    await expectDomainError(create({ parent_camp_id: other.parent.id, events: [{ name: 'LEAD_REPLY_ALL' }] }), 'invalid', 'campaign.not_found');
    await expectDomainError(create({ workspace_id: other.org.workspaceId, events: [{ name: 'LEAD_REPLY_ALL' }] }), 'forbidden');
    // A key limited to another workspace of the same organization cannot reach the parent's workspace.
    const second = await db.prisma.workspace.create({ data: { id: newId(), organizationId: org.organizationId, name: 'other' } });
    const key = await issueApiKey({ db: db.prisma, organizationId: org.organizationId, workspaceId: second.id });
    const limited = testCtx({ deps, actor: await createAuthenticator({ db: db.prisma }).authenticate(key.apiKey) });
    await expectDomainError(
      executeOperation({ op: operations.campaign.addSubsequence, ctx: limited, input: { name: 'x', parent_camp_id: parent.id, events: [{ name: 'LEAD_REPLY_ALL' }] } }),
      'forbidden',
    );
    expect(await db.prisma.campaign.count({ where: { parentId: parent.id } })).toBe(1);
  });
});
