// The kept campaign counters (campaign-counters.queries.ts, maintained by the triggers of
// migration 20261125015921_campaign_counters) against the same figures recomputed from every
// lead and send, after each kind of change, before and after a fold.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestCampaign, createTestLead, recordTestSend, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { campaignTestSetup } from './campaign.test-helpers';
import { CAMPAIGN_COUNTERS_SQL, FOLD_AFTER_PENDING, foldCampaignCounters, readCampaignCounters, type CampaignCounterRow } from './campaign-counters.queries';

const db = useTestDatabase();

const NOW = new Date('2026-05-10T15:00:00Z');
const clock = { now: () => NOW };

/** Every kept counter recomputed from the campaign's leads and sends. */
const RECOMPUTED_SQL = `
  SELECT (SELECT count(*) FROM leads WHERE campaign_id = $1)::int AS lead_count,
         (SELECT count(*) FROM leads WHERE campaign_id = $1 AND is_completed)::int AS completed_lead_count,
         (SELECT count(*) FROM leads WHERE campaign_id = $1 AND (is_completed OR status = 'COMPLETED'))::int AS finished_lead_count,
         count(s.id)::int AS sent_count,
         count(s.opened_at)::int AS opened_count,
         count(s.bounced_at)::int AS bounced_count,
         count(DISTINCT s.lead_id)::int AS contacted_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.opened_at IS NOT NULL)::int AS unique_opened_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL)::int AS replied_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.bounced_at IS NOT NULL)::int AS bounced_lead_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.unsubscribed_at IS NOT NULL)::int AS unsubscribed_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'POSITIVE')::int AS positive_reply_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'NEGATIVE')::int AS negative_reply_count,
         count(DISTINCT s.lead_id) FILTER (WHERE s.replied_at IS NOT NULL AND ll.sentiment = 'NEUTRAL')::int AS neutral_reply_count
    FROM sent_emails s
    JOIN leads l ON l.id = s.lead_id
    LEFT JOIN lead_labels ll ON ll.workspace_id = l.workspace_id AND ll.key = l.label
   WHERE s.campaign_id = $1`;

async function recomputed(campaignId: string): Promise<CampaignCounterRow> {
  const [row] = await db.prisma.$queryRawUnsafe<Omit<CampaignCounterRow, 'campaign_id'>[]>(RECOMPUTED_SQL, campaignId);
  return { campaign_id: campaignId, ...row! };
}

async function kept(workspaceId: string, campaignId: string): Promise<CampaignCounterRow> {
  return (await readCampaignCounters({ db: db.prisma, workspaceId, campaignIds: [campaignId] })).get(campaignId)!;
}

/** The kept counters equal the recomputed ones, with the deltas pending and once folded. */
async function expectExact(workspaceId: string, campaignId: string, expected?: Partial<CampaignCounterRow>) {
  const truth = await recomputed(campaignId);
  if (expected) expect(truth).toMatchObject(expected);
  expect(await kept(workspaceId, campaignId)).toEqual(truth);
  await foldCampaignCounters({ db: db.prisma });
  expect(await kept(workspaceId, campaignId)).toEqual(truth);
}

async function setup() {
  const s = await campaignTestSetup({ db, clock });
  const c = await createTestCampaign({ ...s.base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }, { variations: [{ label: 'A' }] }] });
  const v = c.variations as Record<number, Record<string, string>>;
  const send = (leadId: string, step: number, sentAt: string, extra: { openedAt?: string; repliedAt?: string } = {}) =>
    recordTestSend({
      ...s.base,
      campaignId: c.id,
      leadId,
      step,
      variationId: v[step]!['A']!,
      variationLabel: 'A',
      sentAt: new Date(sentAt),
      openedAt: extra.openedAt ? new Date(extra.openedAt) : null,
      repliedAt: extra.repliedAt ? new Date(extra.repliedAt) : null,
    });
  return { ...s, c, send };
}

describe('campaign counters', () => {
  it('follow every kind of change to leads and sends', async () => {
    const { c, send, org, ws, ctx } = await setup();
    const W = org.workspaceId;
    await expectExact(W, c.id, { lead_count: 0, sent_count: 0 });

    // Leads added: one by one, and in bulk through the upload operation.
    const pos = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: W, campaignId: c.id, email: 'pos@x.test', label: 'INTERESTED' });
    const neg = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: W, campaignId: c.id, email: 'neg@x.test', label: 'NOT_INTERESTED' });
    const plain = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: W, campaignId: c.id, email: 'plain@x.test' });
    await executeOperation({
      op: operations.lead.add,
      ctx,
      input: { ...ws, campaign_id: c.id, leads: Array.from({ length: 30 }, (_, i) => ({ email: `bulk${i}@x.test` })) },
    });
    await expectExact(W, c.id, { lead_count: 33, sent_count: 0 });

    // Sends recorded: two to pos, one each to neg and plain.
    const p1 = await send(pos.id, 1, '2026-05-01T09:00:00Z');
    const p2 = await send(pos.id, 2, '2026-05-04T09:00:00Z');
    const n1 = await send(neg.id, 1, '2026-05-01T09:00:00Z');
    const q1 = await send(plain.id, 1, '2026-05-02T09:00:00Z');
    await expectExact(W, c.id, { sent_count: 4, contacted_count: 3 });

    // Opens: two sends of one lead count it once; clearing one of them keeps it opened.
    await db.prisma.sentEmail.update({ where: { id: p1.id }, data: { openedAt: new Date('2026-05-01T10:00:00Z') } });
    await db.prisma.sentEmail.update({ where: { id: p2.id }, data: { openedAt: new Date('2026-05-04T10:00:00Z') } });
    await expectExact(W, c.id, { opened_count: 2, unique_opened_count: 1 });
    await db.prisma.sentEmail.update({ where: { id: p1.id }, data: { openedAt: null } });
    await expectExact(W, c.id, { opened_count: 1, unique_opened_count: 1 });

    // Replies, by the current label's sentiment; a bounce; an unsubscribe.
    await db.prisma.sentEmail.updateMany({ where: { id: { in: [p2.id, n1.id, q1.id] } }, data: { repliedAt: new Date('2026-05-05T10:00:00Z') } });
    await expectExact(W, c.id, { replied_count: 3, positive_reply_count: 1, negative_reply_count: 1, neutral_reply_count: 0 });
    await db.prisma.sentEmail.update({ where: { id: p1.id }, data: { bouncedAt: new Date('2026-05-01T09:01:00Z') } });
    await db.prisma.sentEmail.update({ where: { id: q1.id }, data: { unsubscribedAt: new Date('2026-05-02T10:00:00Z') } });
    await expectExact(W, c.id, { bounced_count: 1, bounced_lead_count: 1, unsubscribed_count: 1 });

    // Label changes of replied leads move them between sentiments; so does a label's sentiment.
    await db.prisma.lead.update({ where: { id: plain.id }, data: { label: 'OUT_OF_OFFICE' } });
    await db.prisma.lead.update({ where: { id: neg.id }, data: { label: 'INTERESTED' } });
    await expectExact(W, c.id, { positive_reply_count: 2, negative_reply_count: 0, neutral_reply_count: 1 });
    await db.prisma.lead.update({ where: { id: pos.id }, data: { label: null } });
    await expectExact(W, c.id, { positive_reply_count: 1 });
    await db.prisma.leadLabel.updateMany({ where: { workspaceId: W, key: 'OUT_OF_OFFICE' }, data: { sentiment: 'POSITIVE' } });
    await expectExact(W, c.id, { positive_reply_count: 2, neutral_reply_count: 0 });

    // Completion and status, one by one and in bulk.
    await db.prisma.lead.update({ where: { id: pos.id }, data: { isCompleted: true } });
    await db.prisma.lead.updateMany({ where: { campaignId: c.id, email: { startsWith: 'bulk1' } }, data: { status: 'COMPLETED' } });
    await expectExact(W, c.id, { completed_lead_count: 1 });
    await db.prisma.lead.updateMany({ where: { campaignId: c.id }, data: { isCompleted: false } });
    await expectExact(W, c.id, { completed_lead_count: 0 });

    // Every send in one statement.
    await db.prisma.sentEmail.updateMany({ where: { campaignId: c.id }, data: { openedAt: new Date('2026-05-06T10:00:00Z') } });
    await expectExact(W, c.id, { opened_count: 4, unique_opened_count: 3 });

    // A send deleted on its own; then a labelled, replied lead deleted through the operation (its sends go with it).
    await db.prisma.sentEmail.delete({ where: { id: q1.id } });
    await expectExact(W, c.id, { sent_count: 3, contacted_count: 2, unsubscribed_count: 0 });
    await executeOperation({ op: operations.lead.delete, ctx, input: { ...ws, campaign_id: c.id, delete_list: ['neg@x.test', 'bulk3@x.test'] } });
    await expectExact(W, c.id, { lead_count: 31, sent_count: 2, contacted_count: 1, replied_count: 1, positive_reply_count: 0 });

    // A deleted campaign leaves no counter rows.
    await executeOperation({ op: operations.campaign.delete, ctx, input: { ...ws, campaign_id: c.id, is_archive: false } });
    const left = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT ((SELECT count(*) FROM campaign_counters WHERE campaign_id = $1) + (SELECT count(*) FROM campaign_counter_deltas WHERE campaign_id = $1))::int AS n`,
      c.id,
    );
    expect(left[0]!.n).toBe(0);
  });

  it('list-all answers the same before and after a fold, and a read folds once many deltas wait', async () => {
    const { c, send, org, run } = await setup();
    const W = org.workspaceId;
    const lead = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: W, campaignId: c.id, email: 'a@x.test', label: 'INTERESTED' });
    const s1 = await send(lead.id, 1, '2026-05-10T09:00:00Z', { openedAt: '2026-05-10T10:00:00Z', repliedAt: '2026-05-10T11:00:00Z' });
    const before = await run('listAll', { campaign_id: c.id });
    await foldCampaignCounters({ db: db.prisma });
    expect(await run('listAll', { campaign_id: c.id })).toEqual(before);
    expect(before[0]).toMatchObject({ lead_count: 1, sent_count: 1, unique_opened_count: 1, positive_reply_count: 1, email_sent_today: 1, open_rate: 100 });

    // Many pending deltas (each statement adds its own): the next read folds them.
    const pending = () => db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM campaign_counter_deltas WHERE campaign_id = $1`, c.id);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO campaign_counter_deltas (campaign_id, workspace_id, opened_count) SELECT $1, $2, 0 FROM generate_series(1, $3::int)`,
      c.id,
      W,
      FOLD_AFTER_PENDING + 1,
    );
    await db.prisma.sentEmail.update({ where: { id: s1.id }, data: { openedAt: null } });
    expect((await pending())[0]!.n).toBe(FOLD_AFTER_PENDING + 2);
    const [after] = await run('listAll', { campaign_id: c.id });
    expect(after).toMatchObject({ opened_count: 0, unique_opened_count: 0 });
    expect((await pending())[0]!.n).toBe(0);
    await expectExact(W, c.id, { opened_count: 0 });
  });

  it('count a lead once when its sends and opens are written concurrently', async () => {
    const { c, org, base } = await setup();
    const W = org.workspaceId;
    const lead = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: W, campaignId: c.id, email: 'c@x.test', label: 'INTERESTED' });
    const variationId = (c.variations as Record<number, Record<string, string>>)[1]!['A']!;
    // Each transaction writes, then stays open a moment: without the per-lead lock each trigger
    // would see only its own send and count the lead again.
    const sends = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        db.prisma.$transaction(async (tx) => {
          const sent = await recordTestSend({ ...base, db: tx as unknown as typeof db.prisma, campaignId: c.id, leadId: lead.id, step: 1, variationId, variationLabel: 'A', sentAt: new Date(`2026-05-0${i + 1}T09:00:00Z`) });
          await new Promise((r) => setTimeout(r, 30));
          return sent;
        }),
      ),
    );
    await expectExact(W, c.id, { sent_count: 6, contacted_count: 1 });
    await Promise.all(
      sends.map((s) =>
        db.prisma.$transaction(async (tx) => {
          await tx.sentEmail.update({ where: { id: s.id }, data: { openedAt: NOW, repliedAt: NOW } });
          await new Promise((r) => setTimeout(r, 30));
        }),
      ),
    );
    await expectExact(W, c.id, { opened_count: 6, unique_opened_count: 1, replied_count: 1, positive_reply_count: 1 });
    await Promise.all(sends.map((s) => db.prisma.sentEmail.delete({ where: { id: s.id } })));
    await expectExact(W, c.id, { sent_count: 0, contacted_count: 0, replied_count: 0, positive_reply_count: 0 });
  });

  it('are backfilled by the migration from the existing leads and sends', async () => {
    const { c, send, org } = await setup();
    const W = org.workspaceId;
    const a = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: W, campaignId: c.id, email: 'a@x.test', label: 'NOT_INTERESTED' });
    const b = await createTestLead({ db: db.prisma, organizationId: org.organizationId, workspaceId: W, campaignId: c.id, email: 'b@x.test' });
    await send(a.id, 1, '2026-05-01T09:00:00Z', { openedAt: '2026-05-01T10:00:00Z', repliedAt: '2026-05-01T11:00:00Z' });
    await send(a.id, 2, '2026-05-03T09:00:00Z', { openedAt: '2026-05-03T10:00:00Z' });
    await send(b.id, 1, '2026-05-01T09:00:00Z');
    await db.prisma.lead.update({ where: { id: b.id }, data: { status: 'COMPLETED' } });
    const truth = await recomputed(c.id);
    const migration = readFileSync(new URL('../../../../prisma/migrations/20261125015921_campaign_counters/migration.sql', import.meta.url), 'utf8');
    const backfill = migration.slice(migration.indexOf('-- Backfill'));
    // In a transaction rolled back at the end: empty the counters, run the migration's backfill, read.
    const rolledBack = new Error('rolled back');
    let backfilled: CampaignCounterRow | undefined;
    await db.prisma
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe('DELETE FROM campaign_counter_deltas');
        await tx.$executeRawUnsafe('DELETE FROM campaign_counters');
        await tx.$executeRawUnsafe(backfill);
        const [row] = await tx.$queryRawUnsafe<(CampaignCounterRow & { pending: number })[]>(CAMPAIGN_COUNTERS_SQL, W, [c.id]);
        const { pending: _pending, ...counters } = row!;
        backfilled = counters;
        throw rolledBack;
      }, { timeout: 60_000 })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    expect(backfilled).toEqual(truth);
    expect(truth).toMatchObject({ lead_count: 2, finished_lead_count: 1, sent_count: 3, unique_opened_count: 1, negative_reply_count: 1 });
  });
});
