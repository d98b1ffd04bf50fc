import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestCampaign,
  createTestLead,
  createTestOrganization,
  createTestTenant,
  expectDomainError,
  recordTestSend,
  useTestDatabase,
} from '../testing/index';
import { executeOperation, type Operation } from '../shared/operation';
import type { Ctx } from '../shared/context';
import { analyticsOperations as ops } from './index';

const db = useTestDatabase();

const at = (iso: string) => new Date(iso);
const NOW = at('2026-03-06T12:00:00.000Z');

type Org = Awaited<ReturnType<typeof createTestOrganization>>;

/**
 * A workspace with known sends (see each test for the figures they add up to):
 * Alpha (ACTIVE) has leads L1 (positive label, two opened sends, one replied), L2
 * (negative label, opened and replied, plus a send before the range), L3 (two bounced
 * sends), L4 (completed flag; opened and unsubscribed), L5 (status COMPLETED, never
 * sent to) and L6 (sent to the day after the range); Beta (PAUSED) has M1 (positive,
 * opened and replied) and M2 (sent only).
 */
async function seed(org: Org) {
  const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
  const steps = [{ variations: [{ label: 'A' }] }];
  const alpha = await createTestCampaign({ ...base, name: 'Alpha', status: 'ACTIVE', steps });
  const beta = await createTestCampaign({ ...base, name: 'Beta', status: 'PAUSED', steps });
  const lead = (campaignId: string, name: string, label: string | null = null) =>
    createTestLead({ ...base, campaignId, email: `${name}-${org.workspaceId}@example.com`, label });
  const send = async (campaign: typeof alpha, leadId: string, sentAt: string, extra: { opened?: boolean; replied?: boolean; bounced?: boolean; unsubscribed?: boolean } = {}) => {
    const sent = await recordTestSend({
      ...base,
      campaignId: campaign.id,
      leadId,
      step: 1,
      variationId: campaign.variations[1]!['A']!,
      variationLabel: 'A',
      sentAt: at(sentAt),
      openedAt: extra.opened ? at(sentAt) : null,
      repliedAt: extra.replied ? at(sentAt) : null,
    });
    if (extra.bounced || extra.unsubscribed) {
      await db.prisma.sentEmail.update({
        where: { id: sent.id },
        data: { bouncedAt: extra.bounced ? at(sentAt) : null, unsubscribedAt: extra.unsubscribed ? at(sentAt) : null },
      });
    }
  };
  const l1 = await lead(alpha.id, 'l1', 'INTERESTED');
  const l2 = await lead(alpha.id, 'l2', 'NOT_INTERESTED');
  const l3 = await lead(alpha.id, 'l3');
  const l4 = await lead(alpha.id, 'l4');
  const l5 = await lead(alpha.id, 'l5');
  const l6 = await lead(alpha.id, 'l6');
  await db.prisma.lead.update({ where: { id: l4.id }, data: { isCompleted: true } });
  await db.prisma.lead.update({ where: { id: l5.id }, data: { status: 'COMPLETED' } });
  await send(alpha, l1.id, '2026-03-02T10:00:00.000Z', { opened: true, replied: true });
  await send(alpha, l1.id, '2026-03-04T10:00:00.000Z', { opened: true });
  await send(alpha, l2.id, '2026-03-02T11:00:00.000Z', { opened: true, replied: true });
  await send(alpha, l2.id, '2026-02-20T09:00:00.000Z');
  await send(alpha, l3.id, '2026-03-03T08:00:00.000Z', { bounced: true });
  await send(alpha, l3.id, '2026-03-04T23:59:59.999Z', { bounced: true });
  await send(alpha, l4.id, '2026-03-05T00:00:00.000Z', { opened: true, unsubscribed: true });
  await send(alpha, l6.id, '2026-03-06T00:00:00.000Z');
  const m1 = await lead(beta.id, 'm1', 'MEETING_BOOKED');
  const m2 = await lead(beta.id, 'm2');
  await send(beta, m1.id, '2026-03-03T12:00:00.000Z', { opened: true, replied: true });
  await send(beta, m2.id, '2026-03-03T13:00:00.000Z');
  return { alpha, beta, base };
}

async function setup() {
  const { org, ctx } = await createTestTenant({ db, clock: { now: () => NOW } });
  const seeded = await seed(org);
  // Another organization with sends on the same days: none of it may show.
  const other = await createTestOrganization({ db });
  const otherSeeded = await seed(other);
  return { org, ctx, ws: org.workspaceId, ...seeded, other, otherAlpha: otherSeeded.alpha };
}

const run = <K extends keyof typeof ops>(ctx: Ctx, key: K, input: Record<string, unknown>) =>
  executeOperation({ op: ops[key] as Operation, ctx, input }) as Promise<any>;

describe('campaign analytics', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    s = await setup();
  });

  it('summarises a campaign over its whole life, counting leads once however many sends they have', async () => {
    expect(await run(s.ctx, 'campaignSummary', { workspace_id: s.ws, campaign_id: s.alpha.id })).toEqual({
      campaign_name: 'Alpha',
      completed: 2, // L4 by flag, L5 by status
      contacted: 5, // L1, L2, L3, L4, L6
      leads_who_read: 3, // L1 (two opened sends), L2, L4
      leads_who_replied: 2,
      bounced: 1, // L3, two bounced sends
      unsubscribed: 1,
      positive_reply_count: 1, // L1; L2 replied with a negative label
      total_sent_emails: 8,
    });
    expect(await run(s.ctx, 'campaignSummary', { workspace_id: s.ws, campaign_id: s.beta.id })).toEqual({
      campaign_name: 'Beta',
      completed: 0,
      contacted: 2,
      leads_who_read: 1,
      leads_who_replied: 1,
      bounced: 0,
      unsubscribed: 0,
      positive_reply_count: 1,
      total_sent_emails: 2,
    });
  });

  it('answers zeros for a campaign without leads or sends', async () => {
    const empty = await createTestCampaign({ ...s.base, name: 'Empty' });
    expect(await run(s.ctx, 'campaignSummary', { workspace_id: s.ws, campaign_id: empty.id })).toEqual({
      campaign_name: 'Empty',
      completed: 0,
      contacted: 0,
      leads_who_read: 0,
      leads_who_replied: 0,
      bounced: 0,
      unsubscribed: 0,
      positive_reply_count: 0,
      total_sent_emails: 0,
    });
  });

  // Alpha over 03-01..03-05: six sends (L2's of 02-20 and L6's of 03-06 are outside).
  const ALPHA_RANGE = {
    camp_name: 'Alpha',
    sent_count: 6,
    replied_count: 2, // L1, L2 (leads)
    bounced_count: 2, // L3's two sends
    positive_reply_count: 1, // L1; L2's label is negative
    opened_count: 4, // sends: L1 twice, L2, L4
    unique_opened_count: 3, // L1, L2, L4
    lead_contacted_count: 4, // L1, L2, L3, L4
  };

  it('answers one campaign\'s figures over the range in data, keyed by its id, and its days in daily', async () => {
    const stats = await run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.alpha.id, start_date: '2026-03-01', end_date: '2026-03-05' });
    const zero = { sent_count: 0, opened_count: 0, replied_count: 0, bounced_count: 0, unsubscribed_count: 0 };
    expect(stats).toEqual({
      start_date: '2026-03-01',
      end_date: '2026-03-05',
      data: { [s.alpha.id]: { campaign_id: s.alpha.id, ...ALPHA_RANGE } },
      daily: [
        { date: '2026-03-01', ...zero },
        { date: '2026-03-02', ...zero, sent_count: 2, opened_count: 2, replied_count: 2 },
        { date: '2026-03-03', ...zero, sent_count: 1, bounced_count: 1 },
        // 23:59:59.999 is still the 4th; 00:00 of the 6th is not in the range.
        { date: '2026-03-04', ...zero, sent_count: 2, opened_count: 1, bounced_count: 1 },
        { date: '2026-03-05', ...zero, sent_count: 1, opened_count: 1, unsubscribed_count: 1 },
      ],
    });
  });

  it('answers every campaign of the workspace when campaign_id is omitted, those without sends with zeros, in one daily series', async () => {
    const empty = await createTestCampaign({ ...s.base, name: 'Quiet' });
    const stats = await run(s.ctx, 'campaignStats', { workspace_id: s.ws, start_date: '2026-03-01', end_date: '2026-03-05' });
    const zeros = { sent_count: 0, replied_count: 0, bounced_count: 0, positive_reply_count: 0, opened_count: 0, unique_opened_count: 0, lead_contacted_count: 0 };
    // Every value of data is a campaign's figures (a client iterates data.values()); the other organization's campaigns are not there.
    expect(Object.values(stats.data).every((v: any) => typeof v.sent_count === 'number')).toBe(true);
    expect(stats.data[s.alpha.id]).toEqual({ campaign_id: s.alpha.id, ...ALPHA_RANGE });
    expect(stats.data[s.beta.id]).toEqual({
      campaign_id: s.beta.id,
      camp_name: 'Beta',
      sent_count: 2,
      replied_count: 1,
      bounced_count: 0,
      positive_reply_count: 1,
      opened_count: 1,
      unique_opened_count: 1,
      lead_contacted_count: 2,
    });
    expect(stats.data[empty.id]).toEqual({ campaign_id: empty.id, camp_name: 'Quiet', ...zeros });
    expect(stats.data[s.otherAlpha.id]).toBeUndefined();
    const workspaceCampaigns = await db.prisma.campaign.count({ where: { workspaceId: s.ws } });
    expect(Object.keys(stats.data)).toHaveLength(workspaceCampaigns);
    // The days sum Alpha's and Beta's sends (Beta's two on 03-03).
    expect(stats.daily.map((d: any) => [d.date, d.sent_count, d.opened_count, d.replied_count, d.bounced_count, d.unsubscribed_count])).toEqual([
      ['2026-03-01', 0, 0, 0, 0, 0],
      ['2026-03-02', 2, 2, 2, 0, 0],
      ['2026-03-03', 3, 1, 1, 1, 0],
      ['2026-03-04', 2, 1, 0, 1, 0],
      ['2026-03-05', 1, 1, 0, 0, 1],
    ]);
  });

  it('ends the daily range today (UTC) when end_date is omitted', async () => {
    const stats = await run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.alpha.id, start_date: '2026-03-05' });
    expect(stats.end_date).toBe('2026-03-06');
    expect(stats.data[s.alpha.id].sent_count).toBe(2);
    expect(stats.daily.map((d: { date: string; sent_count: number }) => [d.date, d.sent_count])).toEqual([
      ['2026-03-05', 1],
      ['2026-03-06', 1],
    ]);
  });

  it('refuses backwards and over-long ranges', async () => {
    const refused = await expectDomainError(
      run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.alpha.id, start_date: '2026-03-05', end_date: '2026-03-04' }),
      'invalid',
      'analytics.invalid_range',
    );
    expect(refused.fieldErrors[0]?.field).toBe('start_date');
    // Omitted end_date is today: a start in the future is after it.
    await expectDomainError(run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.alpha.id, start_date: '2026-03-07' }), 'invalid', 'analytics.invalid_range');
    const tooLong = await expectDomainError(
      run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.alpha.id, start_date: '2025-03-01', end_date: '2026-03-02' }),
      'invalid',
      'analytics.range_too_long',
    );
    expect(tooLong.fieldErrors[0]?.field).toBe('end_date');
    const year = await run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.alpha.id, start_date: '2025-03-02', end_date: '2026-03-02' });
    expect(year.daily).toHaveLength(366);
    const malformed = await expectDomainError(run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.alpha.id, start_date: '2026-02-30' }), 'invalid');
    expect(malformed.fieldErrors[0]?.field).toBe('start_date');
  });

  it('answers 404 for another organization\'s campaign and 403 for its workspace, never its data', async () => {
    await expectDomainError(run(s.ctx, 'campaignSummary', { workspace_id: s.ws, campaign_id: s.otherAlpha.id }), 'not_found', 'campaign.not_found');
    await expectDomainError(
      run(s.ctx, 'campaignStats', { workspace_id: s.ws, campaign_id: s.otherAlpha.id, start_date: '2026-03-01', end_date: '2026-03-05' }),
      'not_found',
      'campaign.not_found',
    );
    await expectDomainError(run(s.ctx, 'campaignSummary', { workspace_id: s.ws, campaign_id: 'f'.repeat(24) }), 'not_found', 'campaign.not_found');
    await expectDomainError(run(s.ctx, 'campaignSummary', { workspace_id: s.other.workspaceId, campaign_id: s.otherAlpha.id }), 'forbidden');
    await expectDomainError(run(s.ctx, 'workspaceSummary', { workspace_id: s.other.workspaceId, start_date: '2026-03-01', end_date: '2026-03-05' }), 'forbidden');
  });
});

describe('campaign count', () => {
  it('counts campaigns (not subsequences) by status, bounded by creation day', async () => {
    const { org, ctx } = await createTestTenant({ db });
    const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const active = await createTestCampaign({ ...base, status: 'ACTIVE' });
    const paused = await createTestCampaign({ ...base, status: 'PAUSED' });
    await createTestCampaign({ ...base, status: 'DRAFT' });
    await createTestCampaign({ ...base, status: 'DRAFT' });
    await createTestCampaign({ ...base, status: 'COMPLETED' });
    await createTestCampaign({ ...base, status: 'ARCHIVED' });
    await createTestCampaign({ ...base, status: 'ACTIVE', parentId: active.id });
    await db.prisma.campaign.update({ where: { id: active.id }, data: { createdAt: at('2026-01-10T23:59:59.999Z') } });
    await db.prisma.campaign.update({ where: { id: paused.id }, data: { createdAt: at('2026-02-01T00:00:00.000Z') } });
    const ws = org.workspaceId;

    expect(await run(ctx, 'campaignCount', { workspace_id: ws })).toEqual({ total: 6, active: 1, paused: 1, completed: 1, archived: 1, draft: 2 });
    const zero = { total: 0, active: 0, paused: 0, completed: 0, archived: 0, draft: 0 };
    expect(await run(ctx, 'campaignCount', { workspace_id: ws, start_date: '2026-01-10', end_date: '2026-01-10' })).toEqual({ ...zero, total: 1, active: 1 });
    expect(await run(ctx, 'campaignCount', { workspace_id: ws, start_date: '2026-01-11', end_date: '2026-02-01' })).toEqual({ ...zero, total: 1, paused: 1 });
    expect(await run(ctx, 'campaignCount', { workspace_id: ws, end_date: '2026-02-01' })).toEqual({ ...zero, total: 2, active: 1, paused: 1 });
    expect(await run(ctx, 'campaignCount', { workspace_id: ws, start_date: '2026-01-11', end_date: '2026-01-31' })).toEqual(zero);
    // Creation-time filter spans are not limited: years are fine.
    expect((await run(ctx, 'campaignCount', { workspace_id: ws, start_date: '2020-01-01', end_date: '2026-01-31' })).total).toBe(1);
    const refused = await expectDomainError(run(ctx, 'campaignCount', { workspace_id: ws, start_date: '2026-02-02', end_date: '2026-02-01' }), 'invalid');
    expect(refused.fieldErrors[0]?.field).toBe('start_date');
  });
});

describe('workspace analytics', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    s = await setup();
  });
  const range = { start_date: '2026-03-01', end_date: '2026-03-05' };

  it('summarises the sends of the range', async () => {
    // In range: Alpha's sends but the one of 02-20 and the one of 03-06, and both of Beta.
    expect(await run(s.ctx, 'workspaceSummary', { workspace_id: s.ws, ...range })).toEqual({
      total_sent: 8,
      contacted: 6, // L1, L2, L3, L4, M1, M2
      opened: 4, // L1, L2, L4, M1
      replied: 3, // L1, L2, M1
      positive_replies: 2, // L1, M1
      bounced: 2, // L3's two bounced sends
      unsubscribed: 1,
      open_rate: 66.67,
      reply_rate: 50,
      bounce_rate: 25,
      active_campaigns: 1,
    });
  });

  it('answers zeros and zero rates for a range without sends', async () => {
    expect(await run(s.ctx, 'workspaceSummary', { workspace_id: s.ws, start_date: '2026-04-01', end_date: '2026-04-30' })).toEqual({
      total_sent: 0,
      contacted: 0,
      opened: 0,
      replied: 0,
      positive_replies: 0,
      bounced: 0,
      unsubscribed: 0,
      open_rate: 0,
      reply_rate: 0,
      bounce_rate: 0,
      active_campaigns: 1,
    });
    expect(await run(s.ctx, 'workspacePerformance', { workspace_id: s.ws, start_date: '2026-04-01', end_date: '2026-04-30' })).toEqual([]);
  });

  it('reports each campaign with sends in the range, busiest first', async () => {
    expect(await run(s.ctx, 'workspacePerformance', { workspace_id: s.ws, ...range })).toEqual([
      {
        campaign_id: s.alpha.id,
        campaign_name: 'Alpha',
        status: 'ACTIVE',
        sent: 6,
        contacted: 4,
        opened: 3,
        replied: 2,
        positive_replies: 1,
        bounced: 2,
        open_rate: 75,
        reply_rate: 50,
      },
      {
        campaign_id: s.beta.id,
        campaign_name: 'Beta',
        status: 'PAUSED',
        sent: 2,
        contacted: 2,
        opened: 1,
        replied: 1,
        positive_replies: 1,
        bounced: 0,
        open_rate: 50,
        reply_rate: 50,
      },
    ]);
    // The 03-06 send alone: Alpha with one send to L6.
    const nextDay = await run(s.ctx, 'workspacePerformance', { workspace_id: s.ws, start_date: '2026-03-06', end_date: '2026-03-06' });
    expect(nextDay.map((r: { campaign_name: string; sent: number }) => [r.campaign_name, r.sent])).toEqual([['Alpha', 1]]);
  });

  it('orders campaigns with as many sends by name', async () => {
    const { org, ctx } = await createTestTenant({ db });
    const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    for (const name of ['Zeta', 'Eta']) {
      const c = await createTestCampaign({ ...base, name, steps: [{ variations: [{ label: 'A' }] }] });
      const l = await createTestLead({ ...base, campaignId: c.id, email: `${name}-${org.workspaceId}@example.com` });
      await recordTestSend({ ...base, campaignId: c.id, leadId: l.id, step: 1, variationId: c.variations[1]!['A']!, variationLabel: 'A', sentAt: at('2026-03-02T00:00:00Z') });
    }
    const rows = await run(ctx, 'workspacePerformance', { workspace_id: org.workspaceId, ...range });
    expect(rows.map((r: { campaign_name: string }) => r.campaign_name)).toEqual(['Eta', 'Zeta']);
  });

  it('refuses backwards and over-long ranges', async () => {
    for (const key of ['workspaceSummary', 'workspacePerformance'] as const) {
      const backwards = await expectDomainError(run(s.ctx, key, { workspace_id: s.ws, start_date: '2026-03-05', end_date: '2026-03-01' }), 'invalid', 'analytics.invalid_range');
      expect(backwards.fieldErrors[0]?.field).toBe('start_date');
      await expectDomainError(run(s.ctx, key, { workspace_id: s.ws, start_date: '2024-01-01', end_date: '2025-01-01' }), 'invalid', 'analytics.range_too_long');
      const missing = await expectDomainError(run(s.ctx, key, { workspace_id: s.ws, start_date: '2026-03-01' }), 'invalid', 'request.invalid');
      expect(missing.fieldErrors[0]?.field).toBe('end_date');
    }
  });
});
