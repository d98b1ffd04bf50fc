// The date-ranged statistics read from the kept day statistics (campaign_day_stats, maintained by
// the triggers of migration 20261125053811_campaign_day_stats) against the statements that
// recompute them from the sends: every field, over many ranges, after each kind of change, with
// the deltas pending and once folded.
import { describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead, createTestTenant, recordTestSend, useTestDatabase } from '../testing/index';
import { allCampaignStats, foldCampaignDayStats } from '../campaign/index';
import { utcDayEnd, utcDayStart } from '../shared/time';
import { campaignRangeStats, workspacePerformance, workspaceSummary } from './analytics.queries';
import { CAMPAIGN_DAILY_SQL, CAMPAIGN_RANGE_STATS_SQL, WORKSPACE_PERFORMANCE_SQL, WORKSPACE_STATS_SQL, WORKSPACE_SUMMARY_SQL } from './analytics-recompute.test-helpers';

const db = useTestDatabase();

const NOW = new Date('2026-05-20T12:00:00Z');

/** Ranges that start and end inside, before and after the sends' days, one day long included. */
const RANGES: [string, string][] = [
  ['2026-05-01', '2026-05-14'],
  ['2026-05-03', '2026-05-03'],
  ['2026-05-04', '2026-05-09'],
  ['2026-04-01', '2026-05-02'],
  ['2026-05-06', '2026-06-30'],
  ['2026-05-07', '2026-05-08'],
];

/** Every date-ranged figure of the workspace, kept and recomputed, for every range. */
async function expectSame(workspaceId: string, campaignIds: string[]) {
  for (const [firstDay, lastDay] of RANGES) {
    const from = utcDayStart(firstDay);
    const to = utcDayEnd(lastDay);
    for (const campaignId of [null, ...campaignIds]) {
      const kept = await campaignRangeStats({ db: db.prisma, workspaceId, campaignId, firstDay, lastDay });
      expect(kept.rows).toEqual(await db.prisma.$queryRawUnsafe(CAMPAIGN_RANGE_STATS_SQL, workspaceId, campaignId, from, to));
      expect(kept.daily).toEqual(await db.prisma.$queryRawUnsafe(CAMPAIGN_DAILY_SQL, workspaceId, campaignId, firstDay, lastDay, from, to));
    }
    expect(await workspaceSummary({ db: db.prisma, workspaceId, firstDay, lastDay })).toEqual(
      (await db.prisma.$queryRawUnsafe<unknown[]>(WORKSPACE_SUMMARY_SQL, workspaceId, from, to))[0],
    );
    expect(await workspacePerformance({ db: db.prisma, workspaceId, firstDay, lastDay })).toEqual(
      await db.prisma.$queryRawUnsafe(WORKSPACE_PERFORMANCE_SQL, workspaceId, from, to),
    );
    expect(await allCampaignStats({ db: db.prisma, workspaceId, firstDay, lastDay })).toEqual(
      (await db.prisma.$queryRawUnsafe<unknown[]>(WORKSPACE_STATS_SQL, workspaceId, from, to))[0],
    );
  }
  // stats/all without end_date: every day from the start on.
  expect(await allCampaignStats({ db: db.prisma, workspaceId, firstDay: '2026-05-05', lastDay: '9999-12-30' })).toEqual(
    (await db.prisma.$queryRawUnsafe<unknown[]>(WORKSPACE_STATS_SQL, workspaceId, utcDayStart('2026-05-05'), new Date('9999-12-31T00:00:00.000Z')))[0],
  );
}

/** The same with the deltas pending, then folded. */
async function expectExact(workspaceId: string, campaignIds: string[]) {
  await expectSame(workspaceId, campaignIds);
  await foldCampaignDayStats({ db: db.prisma });
  await expectSame(workspaceId, campaignIds);
}

describe('campaign day statistics', () => {
  it('answer every date-ranged figure as the recomputation does, through sends, events, label changes and deletes', async () => {
    const { org } = await createTestTenant({ db, clock: { now: () => NOW } });
    const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const W = org.workspaceId;
    const steps = [{ variations: [{ label: 'A' }] }, { variations: [{ label: 'A' }] }];
    const alpha = await createTestCampaign({ ...base, name: 'Alpha', status: 'ACTIVE', steps });
    const beta = await createTestCampaign({ ...base, name: 'Beta', status: 'PAUSED', steps });
    const sub = await createTestCampaign({ ...base, name: 'Alpha', status: 'ACTIVE', parentId: alpha.id, steps });
    const campaigns = [alpha, beta, sub];
    const labels = ['INTERESTED', 'NOT_INTERESTED', null, 'MEETING_BOOKED', null, 'OUT_OF_OFFICE'];
    const leads = [];
    for (let i = 0; i < 12; i++) {
      const c = campaigns[i % 3]!;
      leads.push({ c, lead: await createTestLead({ ...base, campaignId: c.id, email: `l${i}@x.test`, label: labels[i % labels.length] ?? null }) });
    }
    // Sends on several days (some at the edges of a UTC day), several per lead and per day.
    const sends: { id: string; i: number }[] = [];
    for (let i = 0; i < leads.length; i++) {
      const { c, lead } = leads[i]!;
      for (let k = 0; k < 1 + (i % 4); k++) {
        const day = 1 + ((i * 3 + k * (2 + (i % 3))) % 13);
        const time = k % 2 === 0 ? 'T00:00:00.000Z' : 'T23:59:59.999Z';
        const sentAt = new Date(`2026-05-${String(day).padStart(2, '0')}${time}`);
        const sent = await recordTestSend({
          ...base,
          campaignId: c.id,
          leadId: lead.id,
          step: 1 + (k % 2),
          variationId: c.variations[1 + (k % 2)]!['A']!,
          variationLabel: 'A',
          sentAt,
          openedAt: (i + k) % 3 === 0 ? sentAt : null,
          repliedAt: (i + k) % 4 === 1 ? sentAt : null,
        });
        sends.push({ id: sent.id, i });
      }
    }
    // A lead of Alpha also sent to by Beta: counted once in the workspace, once in each campaign.
    await recordTestSend({
      ...base,
      campaignId: beta.id,
      leadId: leads[0]!.lead.id,
      step: 1,
      variationId: beta.variations[1]!['A']!,
      variationLabel: 'A',
      sentAt: new Date('2026-05-08T10:00:00Z'),
      repliedAt: new Date('2026-05-08T11:00:00Z'),
    });
    const ids = campaigns.map((c) => c.id);
    await expectExact(W, ids);

    // Events on single sends and on many in one statement; one cleared.
    await db.prisma.sentEmail.update({ where: { id: sends[1]!.id }, data: { bouncedAt: NOW } });
    await db.prisma.sentEmail.update({ where: { id: sends[2]!.id }, data: { unsubscribedAt: NOW, repliedAt: NOW } });
    await db.prisma.sentEmail.updateMany({ where: { id: { in: sends.filter((s) => s.i % 2 === 0).map((s) => s.id) } }, data: { openedAt: NOW } });
    await db.prisma.sentEmail.update({ where: { id: sends[3]!.id }, data: { openedAt: null, repliedAt: null } });
    await expectSame(W, ids);

    // Label changes of replied leads, and a label's sentiment.
    await db.prisma.lead.update({ where: { id: leads[1]!.lead.id }, data: { label: 'INTERESTED' } });
    await db.prisma.lead.update({ where: { id: leads[0]!.lead.id }, data: { label: null } });
    await db.prisma.lead.updateMany({ where: { id: { in: [leads[2]!.lead.id, leads[4]!.lead.id] } }, data: { label: 'MEETING_BOOKED' } });
    await db.prisma.leadLabel.updateMany({ where: { workspaceId: W, key: 'OUT_OF_OFFICE' }, data: { sentiment: 'POSITIVE' } });
    await expectExact(W, ids);

    // A send moved to another day; sends deleted; labelled leads deleted with their sends.
    await db.prisma.sentEmail.update({ where: { id: sends[5]!.id }, data: { sentAt: new Date('2026-05-02T12:00:00Z') } });
    await db.prisma.sentEmail.deleteMany({ where: { id: { in: [sends[6]!.id, sends[7]!.id] } } });
    await db.prisma.lead.deleteMany({ where: { id: { in: [leads[1]!.lead.id, leads[3]!.lead.id, leads[0]!.lead.id] } } });
    await expectExact(W, ids);

    // A deleted campaign leaves no rows of its own; the workspace's rows follow its sends.
    await db.prisma.campaign.delete({ where: { id: beta.id } });
    await expectExact(W, [alpha.id, sub.id]);
    const left = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT ((SELECT count(*) FROM campaign_day_stats WHERE campaign_id = $1) + (SELECT count(*) FROM campaign_day_stat_deltas WHERE campaign_id = $1))::int AS n`,
      beta.id,
    );
    expect(left[0]!.n).toBe(0);
  });

  it('count a lead once per range when its sends and opens are written concurrently', async () => {
    const { org } = await createTestTenant({ db, clock: { now: () => NOW } });
    const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const c = await createTestCampaign({ ...base, name: 'C', status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...base, campaignId: c.id, email: 'c@x.test', label: 'INTERESTED' });
    // Each transaction writes, then stays open a moment: without the per-lead lock each trigger
    // would see only its own send and take its day for the lead's first.
    const sends = await Promise.all(
      [3, 7, 5, 9, 4, 8].map((day) =>
        db.prisma.$transaction(async (tx) => {
          const sent = await recordTestSend({ ...base, db: tx as unknown as typeof db.prisma, campaignId: c.id, leadId: lead.id, step: 1, variationId: c.variations[1]!['A']!, variationLabel: 'A', sentAt: new Date(`2026-05-0${day}T09:00:00Z`) });
          await new Promise((r) => setTimeout(r, 30));
          return sent;
        }),
      ),
    );
    await expectExact(org.workspaceId, [c.id]);
    await Promise.all(
      sends.map((sent) =>
        db.prisma.$transaction(async (tx) => {
          await tx.sentEmail.update({ where: { id: sent.id }, data: { openedAt: NOW, repliedAt: NOW } });
          await new Promise((r) => setTimeout(r, 30));
        }),
      ),
    );
    await expectExact(org.workspaceId, [c.id]);
    expect((await workspaceSummary({ db: db.prisma, workspaceId: org.workspaceId, firstDay: '2026-05-04', lastDay: '2026-05-08' })).replied).toBe(1);
  });
});
