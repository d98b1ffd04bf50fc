import { describe, expect, it } from 'vitest';
import {
  createTestCampaign,
  createTestLead,
  createTestOrganization,
  createTestTenant,
  expectDomainError,
  recordTestSend,
  useTestDatabase,
} from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { OPEN_RANGE, variationCounts } from './variation-stats.queries';

const db = useTestDatabase();

const day = (d: string, time = '12:00:00') => new Date(`${d}T${time}.000Z`);

async function scenario(options: { openTracking?: boolean } = {}) {
  const { org, ctx, base } = await createTestTenant({ db });
  const campaign = await createTestCampaign({
    ...base,
    openTracking: options.openTracking ?? true,
    steps: [
      { variations: [{ label: 'B', name: 'Short' }, { label: 'A' }, { label: 'C', isDeleted: true, isActive: false }, { label: 'D', isDeleted: true }] },
      { variations: [{ label: 'A', isActive: false }] },
    ],
  });
  const v = campaign.variations as Record<number, Record<string, string>>;
  const lead = async (email: string, label: string | null = null) =>
    (await createTestLead({ ...base, campaignId: campaign.id, email, label })).id;
  const interested = await lead('pos@example.com', 'INTERESTED');
  const negative = await lead('neg@example.com', 'NOT_INTERESTED');
  const plain = await lead('plain@example.com');
  const send = (leadId: string, step: number, label: string, sentAt: Date, extra: { openedAt?: Date; repliedAt?: Date } = {}) =>
    recordTestSend({ ...base, campaignId: campaign.id, leadId, step, variationId: v[step]![label]!, variationLabel: label, sentAt, ...extra });
  // Step 1 A: 3 sends (Jan 10, 15, 20); one opened, two replied (one by a positive lead).
  await send(interested, 1, 'A', day('2026-01-10'), { openedAt: day('2026-01-11'), repliedAt: day('2026-01-12') });
  await send(negative, 1, 'A', day('2026-01-15', '00:00:00'), { repliedAt: day('2026-01-25') });
  await send(plain, 1, 'A', day('2026-01-20', '23:59:59'));
  // Step 1 B: one send on Jan 15, opened.
  await send(plain, 1, 'B', day('2026-01-15', '23:59:59'), { openedAt: day('2026-01-16') });
  // Step 1 C (deleted): one send on Feb 1, replied by the positive lead. D (deleted) never sent.
  await send(interested, 1, 'C', day('2026-02-01'), { repliedAt: day('2026-02-02') });
  // Step 2 A: one send.
  await send(negative, 2, 'A', day('2026-01-18'));
  return { org, ctx, campaign };
}

describe('variation stats', () => {
  it('counts all time: per step in step order, variations in label order, deleted ones only with sends', async () => {
    const { ctx, org, campaign } = await scenario();
    const stats = await executeOperation({ op: operations.campaign.variationStats, ctx, input: { workspace_id: org.workspaceId, campaign_id: campaign.id } });
    expect(stats).toEqual([
      {
        step: 1,
        variations: [
          { variation: 'A', sent: 3, open: 1, reply: 2, pos_reply: 1, name: '-', is_active: true, is_del: false },
          { variation: 'B', sent: 1, open: 1, reply: 0, pos_reply: 0, name: 'Short', is_active: true, is_del: false },
          { variation: 'C', sent: 1, open: 0, reply: 1, pos_reply: 1, name: '-', is_active: false, is_del: true },
        ],
      },
      { step: 2, variations: [{ variation: 'A', sent: 1, open: 0, reply: 0, pos_reply: 0, name: '-', is_active: false, is_del: false }] },
    ]);
  });

  it('counts only sends inside an inclusive UTC range, attributing opens and replies to their send', async () => {
    const { ctx, org, campaign } = await scenario();
    const run = (range: { start_date?: string; end_date?: string }) =>
      executeOperation({ op: operations.campaign.variationStats, ctx, input: { workspace_id: org.workspaceId, campaign_id: campaign.id, ...range } });
    const both = await run({ start_date: '2026-01-15', end_date: '2026-01-20' });
    // Jan 15 00:00:00 and Jan 20 23:59:59 are inside; the reply on Jan 25 counts because its send (Jan 15) is.
    expect(both[0]!.variations.map((x) => [x.variation, x.sent, x.open, x.reply])).toEqual([
      ['A', 2, 0, 1],
      ['B', 1, 1, 0],
    ]);
    expect(both[1]!.variations.map((x) => x.sent)).toEqual([1]);
    // Only a start: from that day on (C's February send appears).
    const from = await run({ start_date: '2026-01-16' });
    expect(from[0]!.variations.map((x) => [x.variation, x.sent])).toEqual([
      ['A', 1],
      ['B', 0],
      ['C', 1],
    ]);
    // Only an end: up to that day.
    const until = await run({ end_date: '2026-01-10' });
    expect(until[0]!.variations.map((x) => [x.variation, x.sent, x.pos_reply])).toEqual([
      ['A', 1, 1],
      ['B', 0, 0],
    ]);
  });

  it('reports open as 0 when open tracking is off for the campaign', async () => {
    const { ctx, org, campaign } = await scenario({ openTracking: false });
    const stats = await executeOperation({ op: operations.campaign.variationStats, ctx, input: { workspace_id: org.workspaceId, campaign_id: campaign.id } });
    expect(stats.flatMap((s) => s.variations.map((v) => v.open))).toEqual([0, 0, 0, 0]);
    expect(stats[0]!.variations[0]!.sent).toBe(3);
  });

  it('refuses bad dates, a reversed range, and unknown or foreign campaigns and workspaces with invalid', async () => {
    const { ctx, org, campaign } = await scenario();
    const other = await createTestOrganization({ db });
    const run = (input: Record<string, unknown>) =>
      executeOperation({ op: operations.campaign.variationStats, ctx, input: { workspace_id: org.workspaceId, campaign_id: campaign.id, ...input } });
    expect((await expectDomainError(run({ start_date: '2026-1-5' }), 'invalid')).message).toBe('start_date must be a date in YYYY-MM-DD format');
    expect((await expectDomainError(run({ end_date: '2026-02-30' }), 'invalid')).message).toBe('end_date is not a real calendar date');
    expect((await expectDomainError(run({ start_date: '2026-02-02', end_date: '2026-02-01' }), 'invalid')).message).toBe('start_date must not be after end_date');
    await expectDomainError(run({ campaign_id: 'ffffffffffffffffffffffff' }), 'invalid', 'campaign.not_found');
    await expectDomainError(run({ workspace_id: other.workspaceId }), 'invalid', 'campaign.invalid_workspace');
    await expectDomainError(run({ campaign_id: 'not-an-id' }), 'invalid');
    await expectDomainError(run({ workspace_id: undefined }), 'invalid');
  });

  it('counts a campaign\'s sends only for its own workspace, whatever the caller checked before', async () => {
    const { org, campaign } = await scenario();
    const other = await createTestOrganization({ db });
    const counts = (workspaceId: string) => variationCounts({ db: db.prisma, campaignId: campaign.id, workspaceId, from: OPEN_RANGE.from, to: OPEN_RANGE.to });
    const own = await counts(org.workspaceId);
    expect(own.reduce((n, c) => n + c.sent, 0)).toBe(6);
    expect(own.reduce((n, c) => n + c.pos_reply, 0)).toBe(2);
    expect(await counts(other.workspaceId)).toEqual([]);
  });
});
