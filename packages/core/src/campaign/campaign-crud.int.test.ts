import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, expectDomainError, recordTestSend, useTestDatabase } from '../testing/index';
import { campaignTestSetup } from './campaign.test-helpers';

const db = useTestDatabase();

const SCHEDULE = { days: { '1': true, '5': true }, timezone: 'America/New_York', timing: { from: '08:30', to: '16:00' } };
/** SCHEDULE as reads answer it (the vendor's read shape). */
const SCHEDULE_READ = { days: ['Monday', 'Friday'], from_time: '08:30', to_time: '16:00', tz: 'America/New_York', timezone: 'America/New_York' };
const fieldsOf = (e: { fieldErrors: { field: string }[] }) => e.fieldErrors.map((f) => f.field);

describe('create, names, status, accounts', () => {
  it('creates a DRAFT parent with schema defaults and answers each read with its shape', async () => {
    const { run, org } = await campaignTestSetup({ db });
    const created = await run('create', { camp_name: '  Q3 outreach ' });
    expect(created).toEqual({ status: 'success', id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const row = await db.prisma.campaign.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ name: 'Q3 outreach', status: 'DRAFT', type: 'parent', parentId: null, organizationId: org.organizationId, dailyLimit: 100, schedule: null });
    expect(await run('getName', { campaign_id: created.id })).toEqual({ campaign_id: created.id, campaign_name: 'Q3 outreach' });
    expect(await run('getStatus', { campaign_id: created.id })).toEqual({ campaign_id: created.id, status: 'DRAFT' });
    expect(await run('getAccounts', { campaign_id: created.id })).toEqual([]);
    expect(await run('setName', { campaign_id: created.id, name: 'Renamed' })).toEqual({ status: 'success' });
    expect((await run('getName', { campaign_id: created.id })).campaign_name).toBe('Renamed');
  });

  it('validates names', async () => {
    const { run } = await campaignTestSetup({ db });
    expect(fieldsOf(await expectDomainError(run('create', {}), 'invalid'))).toEqual(['camp_name']);
    expect(fieldsOf(await expectDomainError(run('create', { camp_name: '   ' }), 'invalid'))).toEqual(['camp_name']);
    expect(fieldsOf(await expectDomainError(run('create', { camp_name: 'x'.repeat(201) }), 'invalid'))).toEqual(['camp_name']);
  });

  it('never answers another organization\'s campaign: 404 on every read and write', async () => {
    const mine = await campaignTestSetup({ db });
    const { id } = await mine.run('create', { camp_name: 'Secret' });
    const other = await campaignTestSetup({ db });
    for (const [key, extra] of [
      ['getName', {}],
      ['getStatus', {}],
      ['getAccounts', {}],
      ['setName', { name: 'Stolen' }],
      ['update', { camp_name: 'Stolen' }],
      ['duplicate', { camp_name: 'Copy' }],
      ['setSchedules', { start_date: '2026-01-01', schedules: [SCHEDULE] }],
    ] as const) {
      const error = await expectDomainError(other.run(key, { campaign_id: id, ...extra }), 'not_found', 'campaign.not_found');
      expect(error.message).not.toContain('Secret');
    }
    expect(await other.run('listAll', { campaign_id: id })).toEqual([]);
    expect((await mine.run('getName', { campaign_id: id })).campaign_name).toBe('Secret');
  });
});

describe('update', () => {
  it('changes settings, schedule and mailboxes and answers id, name, status, updated_at', async () => {
    const s = await campaignTestSetup({ db });
    const { id } = await s.run('create', { camp_name: 'Settings' });
    await createTestMailbox({ ...s.base, email: 'b@out.test' });
    await createTestMailbox({ ...s.base, email: 'a@out.test' });
    const before = await db.prisma.campaign.findUniqueOrThrow({ where: { id } });
    const r = await s.run('update', {
      campaign_id: id,
      camp_name: 'Settings 2',
      daily_limit: 40,
      interval_limit_in_min: 15,
      send_as_txt: true,
      is_emailopened_tracking: false,
      is_unsubscribed_link: false,
      stop_on_lead_replied: false,
      is_pause_on_bouncerate: true,
      bounce_rate_limit: 7.5,
      email_accounts: ['B@out.test', 'a@out.test'],
      schedules: [{ ...SCHEDULE, daily_limit_new_lead: 10, start_date: '2026-06-01', end_date: '2026-06-30' }],
    });
    expect(r).toEqual({ id, camp_name: 'Settings 2', status: 'DRAFT', updated_at: expect.any(String) });
    expect(new Date(r.updated_at).getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    const [obj] = await s.run('listAll', { campaign_id: id });
    expect(obj).toMatchObject({
      camp_name: 'Settings 2',
      daily_limit: 40,
      interval_limit_in_min: 15,
      send_as_txt: true,
      is_emailopened_tracking: false,
      is_unsubscribed_link: false,
      stop_on_lead_replied: false,
      is_pause_on_bouncerate: true,
      bounce_rate_limit: 7.5,
      email_accounts: ['a@out.test', 'b@out.test'],
      schedule: { ...SCHEDULE_READ, daily_limit: 40, daily_limit_new_lead: 10, start_date: '2026-06-01', end_date: '2026-06-30' },
      camp_st_date: '2026-06-01',
      camp_end_date: '2026-06-30',
    });
    expect(await s.run('getAccounts', { campaign_id: id })).toEqual(['a@out.test', 'b@out.test']);
    // Replacing the mailboxes drops the ones not listed.
    await s.run('update', { campaign_id: id, email_accounts: ['a@out.test'] });
    expect(await s.run('getAccounts', { campaign_id: id })).toEqual(['a@out.test']);
  });

  it('refuses unknown mailboxes, bad schedules, bad sequences and first_wait_time on a parent, naming fields', async () => {
    const s = await campaignTestSetup({ db });
    const { id } = await s.run('create', { camp_name: 'Strict' });
    await createTestMailbox({ ...s.base, email: 'a@out.test' });
    const foreign = await campaignTestSetup({ db });
    await createTestMailbox({ ...foreign.base, email: 'theirs@out.test' });
    const unknown = await expectDomainError(s.run('update', { campaign_id: id, email_accounts: ['a@out.test', 'theirs@out.test'] }), 'invalid', 'campaign.unknown_email_account');
    expect(fieldsOf(unknown)).toEqual(['email_accounts.1']);
    expect(fieldsOf(await expectDomainError(s.run('update', { campaign_id: id, schedules: { ...SCHEDULE, timezone: 'Mars/Olympus' } }), 'invalid'))).toEqual(['schedules.timezone']);
    expect(fieldsOf(await expectDomainError(s.run('update', { campaign_id: id, schedules: { ...SCHEDULE, days: { '1': false } } }), 'invalid'))).toEqual(['schedules.days']);
    expect(fieldsOf(await expectDomainError(s.run('update', { campaign_id: id, schedules: { ...SCHEDULE, timing: { from: '17:00', to: '09:00' } } }), 'invalid'))).toEqual(['schedules.timing.to']);
    expect(fieldsOf(await expectDomainError(s.run('update', { campaign_id: id, bounce_rate_limit: 101 }), 'invalid'))).toEqual(['bounce_rate_limit']);
    const gap = await expectDomainError(
      s.run('update', { campaign_id: id, sequences: [{ step: 1, variations: [{ variation: 'A', subject: 's', body: 'b' }] }, { step: 3, variations: [{ variation: 'A', subject: 's', body: 'b' }] }] }),
      'invalid',
      'campaign.invalid_sequence',
    );
    expect(fieldsOf(gap)).toEqual(['sequences.1.step']);
    const dup = await expectDomainError(s.run('update', { campaign_id: id, sequences: [{ step: 1, variations: [{ variation: 'A', subject: 's', body: 'b' }, { variation: 'A', subject: 't', body: 'c' }] }] }), 'invalid');
    expect(fieldsOf(dup)).toEqual(['sequences.0.variations.1.variation']);
    expect(fieldsOf(await expectDomainError(s.run('update', { campaign_id: id, first_wait_time: 2 }), 'invalid'))).toEqual(['first_wait_time']);
    expect(await db.prisma.sequenceStep.count({ where: { campaignId: id } })).toBe(0);
  });

  it('sets first_wait_time on a subsequence', async () => {
    const s = await campaignTestSetup({ db });
    const parent = await createTestCampaign({ ...s.base });
    const sub = await createTestCampaign({ ...s.base, parentId: parent.id });
    await s.run('update', { campaign_id: sub.id, first_wait_time: 3 });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: sub.id } })).firstWaitTime).toBe(3);
  });

  it('replaces the sequence, keeping variations with sends as deleted with their statistics', async () => {
    const s = await campaignTestSetup({ db });
    const c = await createTestCampaign({ ...s.base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }, { label: 'B' }] }, { variations: [{ label: 'A' }] }, { variations: [{ label: 'A' }] }] });
    const v = c.variations as Record<number, Record<string, string>>;
    const lead = await createTestLead({ ...s.base, campaignId: c.id, email: 'l@x.test' });
    await recordTestSend({ ...s.base, campaignId: c.id, leadId: lead.id, step: 1, variationId: v[1]!.B!, variationLabel: 'B', sentAt: new Date('2026-03-01T10:00:00Z'), openedAt: new Date('2026-03-01T11:00:00Z') });
    await recordTestSend({ ...s.base, campaignId: c.id, leadId: lead.id, step: 3, variationId: v[3]!.A!, variationLabel: 'A', sentAt: new Date('2026-03-03T10:00:00Z') });

    await s.run('update', {
      campaign_id: c.id,
      sequences: [
        { step: 2, wait_time: 4, variations: [{ variation: 'A', subject: 'New 2A', body: 'b' }] },
        { step: 1, wait_time: 0, variations: [{ variation: 'A', name: 'Opener', subject: 'New 1A', body: 'b' }, { variation: 'C', subject: '1C', body: 'c' }] },
      ],
    });
    const variations = await db.prisma.variation.findMany({ where: { campaignId: c.id }, include: { step: true }, orderBy: [{ step: { step: 'asc' } }, { label: 'asc' }] });
    expect(variations.map((x) => [x.step.step, x.label, x.subject, x.isDeleted, x.isActive])).toEqual([
      [1, 'A', 'New 1A', false, true],
      [1, 'B', 'Step 1 B', true, false],
      [1, 'C', '1C', false, true],
      [2, 'A', 'New 2A', false, true],
      [3, 'A', 'Step 3 A', true, false],
    ]);
    // Updated in place: same rows for (1, A) and (2, A).
    expect(variations.find((x) => x.step.step === 1 && x.label === 'A')!.id).toBe(v[1]!.A);
    expect(variations.find((x) => x.step.step === 2 && x.label === 'A')!.id).toBe(v[2]!.A);
    expect((await db.prisma.sequenceStep.findMany({ where: { campaignId: c.id }, orderBy: { step: 'asc' } })).map((st) => [st.step, st.waitTime])).toEqual([[1, 0], [2, 4], [3, 2]]);

    const [obj] = await s.run('listAll', { campaign_id: c.id });
    expect(obj!.sequences).toEqual([
      { step: 1, wait_time: 0, variations: [{ variation: 'A', name: 'Opener', subject: 'New 1A', body: 'b' }, { variation: 'C', name: null, subject: '1C', body: 'c' }] },
      { step: 2, wait_time: 4, variations: [{ variation: 'A', name: null, subject: 'New 2A', body: 'b' }] },
    ]);
    const stats = await s.run('variationStats', { campaign_id: c.id });
    expect(stats).toEqual([
      {
        step: 1,
        variations: [
          expect.objectContaining({ variation: 'A', sent: 0, is_del: false }),
          expect.objectContaining({ variation: 'B', sent: 1, open: 1, is_del: true, is_active: false }),
          expect.objectContaining({ variation: 'C', sent: 0, is_del: false }),
        ],
      },
      { step: 2, variations: [expect.objectContaining({ variation: 'A', sent: 0 })] },
      { step: 3, variations: [expect.objectContaining({ variation: 'A', sent: 1, is_del: true })] },
    ]);

    // Bringing a deleted label back revives the same row; a step without sends left out is removed.
    await s.run('update', { campaign_id: c.id, sequences: [{ step: 1, variations: [{ variation: 'B', subject: 'Back', body: 'b' }] }] });
    const after = await db.prisma.variation.findMany({ where: { campaignId: c.id }, include: { step: true } });
    expect(after.find((x) => x.id === v[1]!.B)).toMatchObject({ isDeleted: false, isActive: true, subject: 'Back' });
    expect(after.map((x) => `${x.step.step}${x.label}`).sort()).toEqual(['1B', '3A']);
    expect((await db.prisma.sequenceStep.findMany({ where: { campaignId: c.id } })).map((st) => st.step).sort()).toEqual([1, 3]);
  });

  it('refuses changes to an archived campaign', async () => {
    const s = await campaignTestSetup({ db });
    const { id } = await s.run('create', { camp_name: 'Old' });
    await s.run('delete', { campaign_id: id, is_archive: 'yes' });
    await expectDomainError(s.run('update', { campaign_id: id, daily_limit: 5 }), 'conflict', 'campaign.archived');
    await expectDomainError(s.run('setSchedules', { campaign_id: id, start_date: '2026-01-01', schedules: [SCHEDULE] }), 'conflict', 'campaign.archived');
  });
});

describe('set schedules (deprecated)', () => {
  it('stores the one schedule and the dates', async () => {
    const s = await campaignTestSetup({ db });
    const { id } = await s.run('create', { camp_name: 'Sched' });
    expect(await s.run('setSchedules', { campaign_id: id, start_date: '2026-07-01', end_date: '2026-07-31', schedules: [{ name: 'Weekdays', ...SCHEDULE }] })).toEqual({ status: 'success' });
    const [obj] = await s.run('listAll', { campaign_id: id });
    expect(obj).toMatchObject({ schedule: { ...SCHEDULE_READ, start_date: '2026-07-01', end_date: '2026-07-31' }, camp_st_date: '2026-07-01', camp_end_date: '2026-07-31' });
  });

  it('validates days, zone, timing, dates and the number of schedules', async () => {
    const s = await campaignTestSetup({ db });
    const { id } = await s.run('create', { camp_name: 'Sched' });
    const fields = async (input: Record<string, unknown>) =>
      fieldsOf(await expectDomainError(s.run('setSchedules', { campaign_id: id, start_date: '2026-07-01', schedules: [SCHEDULE], ...input }), 'invalid'));
    expect(await fields({ schedules: [] })).toEqual(['schedules']);
    expect(await fields({ schedules: [SCHEDULE, SCHEDULE] })).toEqual(['schedules']);
    expect(await fields({ schedules: [{ ...SCHEDULE, days: { '8': true } }] })).toEqual(['schedules.0.days.8']);
    expect(await fields({ schedules: [{ ...SCHEDULE, days: { '1': false, '2': false } }] })).toEqual(['schedules.0.days']);
    expect(await fields({ schedules: [{ ...SCHEDULE, timezone: 'Nowhere/City' }] })).toEqual(['schedules.0.timezone']);
    expect(await fields({ schedules: [{ ...SCHEDULE, timing: { from: '9:00', to: '17:00' } }] })).toEqual(['schedules.0.timing.from']);
    expect(await fields({ schedules: [{ ...SCHEDULE, timing: { from: '10:00', to: '10:00' } }] })).toEqual(['schedules.0.timing.to']);
    expect(await fields({ start_date: '2026-02-30' })).toEqual(['start_date']);
    expect(await fields({ end_date: '2026-06-30' })).toEqual(['end_date']);
  });
});

describe('delete and archive', () => {
  it('archives keeping everything; "yes" to save lead data archives instead of deleting', async () => {
    const s = await campaignTestSetup({ db });
    for (const flags of [{ is_archive: 'yes', is_save_lead_data: 'no' }, { is_archive: 'no', is_save_lead_data: 'yes' }]) {
      const c = await createTestCampaign({ ...s.base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
      await createTestLead({ ...s.base, campaignId: c.id, email: 'keep@x.test' });
      expect(await s.run('delete', { campaign_id: c.id, ...flags })).toEqual({ status: 'success' });
      expect(await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ status: 'ARCHIVED' });
      expect(await db.prisma.lead.count({ where: { campaignId: c.id } })).toBe(1);
    }
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: s.org.organizationId } })).leadCount).toBe(2);
  });

  it('deletes the campaign, its subsequences, leads and sends, decrementing the organization\'s lead count', async () => {
    const s = await campaignTestSetup({ db });
    const keep = await createTestCampaign({ ...s.base });
    await createTestLead({ ...s.base, campaignId: keep.id, email: 'stays@x.test' });
    const c = await createTestCampaign({ ...s.base, steps: [{ variations: [{ label: 'A' }] }] });
    const sub = await createTestCampaign({ ...s.base, parentId: c.id });
    const l1 = await createTestLead({ ...s.base, campaignId: c.id, email: 'a@x.test' });
    await createTestLead({ ...s.base, campaignId: c.id, email: 'b@x.test' });
    await createTestLead({ ...s.base, campaignId: sub.id, email: 'a@x.test' });
    await recordTestSend({ ...s.base, campaignId: c.id, leadId: l1.id, step: 1, variationId: (c.variations as Record<number, Record<string, string>>)[1]!.A!, variationLabel: 'A', sentAt: new Date() });
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: s.org.organizationId } })).leadCount).toBe(4);
    expect(await s.run('delete', { campaign_id: c.id, is_archive: 'no', is_save_lead_data: 'no' })).toEqual({ status: 'success' });
    expect(await db.prisma.campaign.count({ where: { id: { in: [c.id, sub.id] } } })).toBe(0);
    expect(await db.prisma.sentEmail.count({ where: { campaignId: c.id } })).toBe(0);
    expect(await db.prisma.lead.count({ where: { workspaceId: s.org.workspaceId } })).toBe(1);
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: s.org.organizationId } })).leadCount).toBe(1);
    await expectDomainError(s.run('getStatus', { campaign_id: c.id }), 'not_found', 'campaign.not_found');
    expect(fieldsOf(await expectDomainError(s.run('delete', { campaign_id: keep.id, is_archive: 'maybe' }), 'invalid'))).toEqual(['is_archive']);
  });
});

describe('duplicate', () => {
  it('copies settings, tags, mailboxes and the live sequence into a draft, without leads or sends', async () => {
    const s = await campaignTestSetup({ db });
    const c = await createTestCampaign({ ...s.base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A', name: 'N' }, { label: 'B', isDeleted: true }] }, { waitTime: 5, variations: [{ label: 'A' }] }] });
    const mailbox = await createTestMailbox({ ...s.base, email: 'dup@out.test' });
    const tagId = newId();
    await db.prisma.tag.create({ data: { id: tagId, workspaceId: s.org.workspaceId, name: 'Hot', nameNormalized: 'hot' } });
    await db.prisma.campaign.update({
      where: { id: c.id },
      data: { dailyLimit: 12, sendAsText: true, schedule: SCHEDULE, tags: { create: { tagId } }, emailAccounts: { create: { emailAccountId: mailbox.id } } },
    });
    await createTestLead({ ...s.base, campaignId: c.id, email: 'lead@x.test' });
    const sub = await s.run('addSubsequence', { parent_camp_id: c.id, name: 'Sub', events: [{ name: 'LEAD_REPLY_CONTENT', include_text: 'price' }] });

    const plain = await s.run('duplicate', { campaign_id: c.id, camp_name: 'Copy' });
    expect(plain).toEqual({ status: 'success', id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const [orig] = await s.run('listAll', { campaign_id: c.id });
    const [copy] = await s.run('listAll', { campaign_id: plain.id });
    const { id: _a, camp_name: _b, status: _c, created_at: _d, modified_at: _e, lead_count: _f, ...same } = orig!;
    expect(copy).toMatchObject({ ...same, id: plain.id, camp_name: 'Copy', status: 'DRAFT', lead_count: 0, tags: ['Hot'], email_accounts: ['dup@out.test'] });
    expect(copy!.sequences.map((st) => st.variations.map((v) => v.variation))).toEqual([['A'], ['A']]);
    expect(await db.prisma.campaign.count({ where: { parentId: plain.id } })).toBe(0);

    const deep = await s.run('duplicate', { campaign_id: c.id, camp_name: 'Deep', duplicate_subsequences: 'yes' });
    const subs = await s.run('listAll', { campaign_type: 'subseq' });
    const subCopy = subs.find((x) => x.parent_camp_id === deep.id);
    expect(subCopy).toMatchObject({ camp_name: 'Sub', status: 'DRAFT', events: [{ name: 'LEAD_REPLY_CONTENT', include_text: 'price' }] });
    expect(await db.prisma.subsequenceTrigger.count({ where: { parentCampaignId: deep.id } })).toBe(1);
    expect(subs.find((x) => x.id === sub.id)!.parent_camp_id).toBe(c.id);
  });
});

describe('bulk tags', () => {
  it('assigns and unassigns, counting only real changes, and checks ids and tag belong to the workspace', async () => {
    const s = await campaignTestSetup({ db });
    const a = await createTestCampaign({ ...s.base });
    const b = await createTestCampaign({ ...s.base });
    const tagId = newId();
    await db.prisma.tag.create({ data: { id: tagId, workspaceId: s.org.workspaceId, name: 'VIP', nameNormalized: 'vip' } });
    expect(await s.run('bulkAssignTags', { ids: [a.id], tag_id: tagId, action: 'ASSIGN' })).toEqual({ status: 'success', updated_count: 1 });
    expect(await s.run('bulkAssignTags', { ids: [a.id, b.id, b.id], tag_id: tagId, action: 'ASSIGN' })).toEqual({ status: 'success', updated_count: 1 });
    expect((await s.run('list', {})).map((c) => c.tags)).toEqual([['VIP'], ['VIP']]);
    expect(await s.run('bulkAssignTags', { ids: [a.id, b.id], tag_id: tagId, action: 'UNASSIGN' })).toEqual({ status: 'success', updated_count: 2 });

    const other = await campaignTestSetup({ db });
    const theirs = await createTestCampaign({ ...other.base });
    const bad = await expectDomainError(s.run('bulkAssignTags', { ids: [a.id, theirs.id], tag_id: tagId, action: 'ASSIGN' }), 'invalid', 'campaign.not_found');
    expect(fieldsOf(bad)).toEqual(['ids.1']);
    expect(await db.prisma.campaignTag.count({ where: { tagId } })).toBe(0);
    expect(fieldsOf(await expectDomainError(other.run('bulkAssignTags', { ids: [theirs.id], tag_id: tagId, action: 'ASSIGN' }), 'invalid', 'tag.not_found'))).toEqual(['tag_id']);
    expect(fieldsOf(await expectDomainError(s.run('bulkAssignTags', { ids: [a.id], tag_id: tagId, action: 'TOGGLE' }), 'invalid'))).toEqual(['action']);
  });
});
