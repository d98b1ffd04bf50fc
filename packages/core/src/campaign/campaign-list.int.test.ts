import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, expectDomainError, recordTestSend, useTestDatabase } from '../testing/index';
import { campaignTestSetup } from './campaign.test-helpers';

const db = useTestDatabase();

const NOW = new Date('2026-05-10T15:00:00Z');
const clock = { now: () => NOW };

/** A campaign with leads and sends whose every counter differs from the others. */
async function seeded() {
  const s = await campaignTestSetup({ db, clock });
  const c = await createTestCampaign({ ...s.base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }, { label: 'B' }] }, { variations: [{ label: 'A' }] }] });
  const v = c.variations as Record<number, Record<string, string>>;
  // Labels: INTERESTED positive, NOT_INTERESTED negative, OUT_OF_OFFICE neutral (system labels of every workspace).
  const [pos, neg, neu, quiet, bounce, never] = await Promise.all([
    createTestLead({ ...s.base, campaignId: c.id, email: 'pos@x.test', label: 'INTERESTED' }),
    createTestLead({ ...s.base, campaignId: c.id, email: 'neg@x.test', label: 'NOT_INTERESTED' }),
    createTestLead({ ...s.base, campaignId: c.id, email: 'neu@x.test', label: 'OUT_OF_OFFICE' }),
    createTestLead({ ...s.base, campaignId: c.id, email: 'quiet@x.test' }),
    createTestLead({ ...s.base, campaignId: c.id, email: 'bounce@x.test' }),
    createTestLead({ ...s.base, campaignId: c.id, email: 'never@x.test' }),
  ]);
  await db.prisma.lead.updateMany({ where: { id: { in: [quiet!.id, pos!.id] } }, data: { isCompleted: true } });
  const send = (leadId: string, step: number, label: string, sentAt: string, extra: { openedAt?: string; repliedAt?: string } = {}) =>
    recordTestSend({
      ...s.base,
      campaignId: c.id,
      leadId,
      step,
      variationId: v[step]![label]!,
      variationLabel: label,
      sentAt: new Date(sentAt),
      openedAt: extra.openedAt ? new Date(extra.openedAt) : null,
      repliedAt: extra.repliedAt ? new Date(extra.repliedAt) : null,
    });
  // pos: two sends, both opened, replied on the second.
  await send(pos!.id, 1, 'A', '2026-05-01T09:00:00Z', { openedAt: '2026-05-01T10:00:00Z' });
  await send(pos!.id, 2, 'A', '2026-05-03T09:00:00Z', { openedAt: '2026-05-03T10:00:00Z', repliedAt: '2026-05-03T11:00:00Z' });
  await send(neg!.id, 1, 'B', '2026-05-01T09:00:00Z', { openedAt: '2026-05-02T10:00:00Z', repliedAt: '2026-05-02T11:00:00Z' });
  await send(neu!.id, 1, 'A', '2026-05-10T08:00:00Z', { repliedAt: '2026-05-10T09:00:00Z' });
  await send(quiet!.id, 1, 'B', '2026-05-10T01:00:00Z');
  const bounced = await send(bounce!.id, 1, 'A', '2026-05-09T23:59:00Z');
  await db.prisma.sentEmail.update({ where: { id: bounced.id }, data: { bouncedAt: new Date('2026-05-10T00:01:00Z') } });
  const unsub = await send(quiet!.id, 2, 'A', '2026-05-10T02:00:00Z');
  await db.prisma.sentEmail.update({ where: { id: unsub.id }, data: { unsubscribedAt: new Date('2026-05-10T03:00:00Z') } });
  void never;
  return { ...s, c };
}

describe('list-all', () => {
  it('answers full campaign objects with counters computed from leads and sends', async () => {
    const { run, c, org } = await seeded();
    const mailbox = await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, email: 'Sender@out.test' });
    await db.prisma.campaign.update({ where: { id: c.id }, data: { lastLeadSentAt: new Date('2026-05-10T08:00:00Z'), emailAccounts: { create: { emailAccountId: mailbox.id } } } });
    const [obj] = await run('listAll', {});
    expect(obj).toEqual({
      id: c.id,
      camp_name: expect.any(String),
      parent_camp_id: '',
      campaign_type: 'parent',
      organization_id: org.organizationId,
      workspace_id: org.workspaceId,
      status: 'ACTIVE',
      tags: [],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      modified_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      email_accounts: ['Sender@out.test'],
      daily_limit: 100,
      interval_limit_in_min: 10,
      send_as_txt: false,
      is_emailopened_tracking: true,
      is_unsubscribed_link: true,
      stop_on_lead_replied: true,
      is_pause_on_bouncerate: false,
      bounce_rate_limit: 5,
      paused_reason: null,
      paused_at: null,
      schedule: null,
      first_wait_time: 0,
      camp_st_date: null,
      camp_end_date: null,
      events: [],
      sequences: [
        {
          step: 1,
          wait_time: 2,
          variations: [
            { variation: 'A', name: null, subject: 'Step 1 A', body: '<p>Body 1 A</p>' },
            { variation: 'B', name: null, subject: 'Step 1 B', body: '<p>Body 1 B</p>' },
          ],
        },
        { step: 2, wait_time: 2, variations: [{ variation: 'A', name: null, subject: 'Step 2 A', body: '<p>Body 2 A</p>' }] },
      ],
      lead_count: 6,
      completed_lead_count: 2,
      lead_contacted_count: 5,
      sent_count: 7,
      opened_count: 3,
      unique_opened_count: 2,
      replied_count: 3,
      bounced_count: 1,
      unsubscribed_count: 1,
      positive_reply_count: 1,
      negative_reply_count: 1,
      neutral_reply_count: 1,
      email_sent_today: 3,
      open_rate: 40,
      replied_rate: 60,
    });
  });

  it('gives zero counters, subsequence events and filters by id, status and type', async () => {
    const s = await campaignTestSetup({ db });
    const parent = await createTestCampaign({ ...s.base, status: 'PAUSED' });
    const sub = await s.run('addSubsequence', {
      parent_camp_id: parent.id,
      name: 'Sub',
      events: [{ name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_INTERESTED'] }, { name: 'LEAD_REPLY_CONTENT', include_text: 'price, demo', exclude_text: 'no' }, { name: 'LEAD_REPLY_ALL' }],
    });
    const [subObj] = await s.run('listAll', { campaign_id: sub.id });
    expect(subObj).toMatchObject({
      campaign_type: 'subseq',
      parent_camp_id: parent.id,
      status: 'DRAFT',
      events: [
        { name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_INTERESTED'] },
        { name: 'LEAD_REPLY_CONTENT', include_text: 'price, demo', exclude_text: 'no' },
        { name: 'LEAD_REPLY_ALL' },
      ],
      lead_count: 0,
      sent_count: 0,
      open_rate: 0,
      replied_rate: 0,
    });
    expect(subObj!.events[2]).toEqual({ name: 'LEAD_REPLY_ALL' });
    const ids = async (input: Record<string, unknown>) => (await s.run('listAll', input)).map((c) => c.id);
    expect(await ids({ campaign_type: 'parent' })).toEqual([parent.id]);
    expect(await ids({ campaign_type: 'subseq' })).toEqual([sub.id]);
    expect(await ids({ parent_camp_id: parent.id })).toEqual([sub.id]);
    expect(await ids({ parent_camp_id: sub.id })).toEqual([]);
    expect(await ids({ status: 'PAUSED' })).toEqual([parent.id]);
    expect(await ids({ status: 'ACTIVE' })).toEqual([]);
    expect(await ids({})).toEqual([sub.id, parent.id]);
    expect((await expectDomainError(s.run('listAll', { status: 'RUNNING' }), 'invalid')).fieldErrors[0]!.field).toBe('status');
    expect((await expectDomainError(s.run('listAll', { limit: 0 }), 'invalid')).fieldErrors[0]!.field).toBe('limit');
    // A limit above 1,000 is read as 1,000, not refused.
    expect(await ids({ limit: 5000 })).toEqual([sub.id, parent.id]);
  });

  it('pages to the end with skip and limit, newest first, and never shows another workspace', async () => {
    const s = await campaignTestSetup({ db });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = newId();
      await db.prisma.campaign.create({ data: { id, organizationId: s.org.organizationId, workspaceId: s.org.workspaceId, name: `C${i}`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)) } });
      created.push(id);
    }
    const other = await campaignTestSetup({ db });
    await createTestCampaign({ ...other.base });
    const seen: string[] = [];
    for (let skip = 0; ; skip += 2) {
      const page = await s.run('listAll', { skip: String(skip), limit: '2' });
      seen.push(...page.map((c) => c.id));
      if (page.length < 2) break;
    }
    expect(seen).toEqual([...created].reverse());
    const list = await s.run('list', { skip: 3, limit: 10 });
    expect(list.map((c) => c.name)).toEqual(['C1', 'C0']);
  });

  it('sorts by name or last change in either direction and filters by a piece of the name', async () => {
    const s = await campaignTestSetup({ db });
    const names = ['beta launch', 'Alpha outreach', 'gamma Launch'];
    for (const [i, name] of names.entries()) {
      await db.prisma.campaign.create({ data: { id: newId(), organizationId: s.org.organizationId, workspaceId: s.org.workspaceId, name, createdAt: new Date(Date.UTC(2026, 0, 1 + i)), updatedAt: new Date(Date.UTC(2026, 2, 3 - i)) } });
    }
    const other = await campaignTestSetup({ db });
    await createTestCampaign({ ...other.base, name: 'Launch elsewhere' });
    const order = async (input: Record<string, unknown>) => (await s.run('listAll', input)).map((c) => c.camp_name);
    expect(await order({})).toEqual(['gamma Launch', 'Alpha outreach', 'beta launch']);
    expect(await order({ sort: 'camp_name', direction: 'asc' })).toEqual(['Alpha outreach', 'beta launch', 'gamma Launch']);
    expect(await order({ sort: 'modified_at', direction: 'desc' })).toEqual(['beta launch', 'Alpha outreach', 'gamma Launch']);
    expect(await order({ name: 'LAUNCH', sort: 'created_at', direction: 'asc' })).toEqual(['beta launch', 'gamma Launch']);
    const bad = await expectDomainError(s.run('listAll', { sort: 'status' }), 'invalid');
    expect(bad.fieldErrors).toEqual([{ field: 'sort', message: 'must be created_at, modified_at, camp_name' }]);
  });
});

describe('list (deprecated)', () => {
  it('answers id, status, name, tag names and last send/reply timestamps', async () => {
    const s = await campaignTestSetup({ db });
    const c = await createTestCampaign({ ...s.base, name: 'Listed', status: 'COMPLETED' });
    const tagId = newId();
    await db.prisma.tag.create({ data: { id: tagId, workspaceId: s.org.workspaceId, name: 'Warm', nameNormalized: 'warm' } });
    await db.prisma.campaign.update({ where: { id: c.id }, data: { lastLeadSentAt: new Date('2026-04-01T10:00:00Z'), tags: { create: { tagId } } } });
    expect(await s.run('list', {})).toEqual([{ id: c.id, status: 'COMPLETED', name: 'Listed', tags: ['Warm'], last_lead_sent: '2026-04-01T10:00:00.000Z', last_lead_replied: null }]);
  });
});

describe('stats/all', () => {
  it('totals the workspace\'s sends in the range (inclusive UTC days) and its leads', async () => {
    const s = await seeded();
    const all = await s.run('statsAll', { start_date: '2026-05-01' });
    expect(all).toEqual({
      lead_count: 6,
      contacted_count: 5,
      sent_count: 7,
      unique_opened_count: 2,
      replied_count: 3,
      bounced_count: 1,
      unsubscribed_count: 1,
      positive_reply_count: 1,
      open_rate: 40,
      reply_rate: 60,
      bounce_rate: 14.29,
    });
    // Only 2026-05-01..03: pos (2 sends) and neg (1 send).
    expect(await s.run('statsAll', { start_date: '2026-05-01', end_date: '2026-05-03' })).toEqual({
      lead_count: 6,
      contacted_count: 2,
      sent_count: 3,
      unique_opened_count: 2,
      replied_count: 2,
      bounced_count: 0,
      unsubscribed_count: 0,
      positive_reply_count: 1,
      open_rate: 100,
      reply_rate: 100,
      bounce_rate: 0,
    });
    expect((await s.run('statsAll', { start_date: '2026-06-01' })).sent_count).toBe(0);
    expect((await expectDomainError(s.run('statsAll', {}), 'invalid')).fieldErrors[0]!.field).toBe('start_date');
    expect((await expectDomainError(s.run('statsAll', { start_date: '2026-05-02', end_date: '2026-05-01' }), 'invalid')).fieldErrors[0]!.field).toBe('end_date');
    const other = await campaignTestSetup({ db });
    expect((await other.run('statsAll', { start_date: '2026-05-01' })).sent_count).toBe(0);
  });
});
