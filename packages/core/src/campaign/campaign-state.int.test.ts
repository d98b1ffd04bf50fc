import { describe, expect, it } from 'vitest';
import { createTestCampaign, createTestMailbox, expectDomainError, useTestDatabase } from '../testing/index';
import { campaignTestSetup } from './campaign.test-helpers';

const db = useTestDatabase();

const SCHEDULE = { days: { '1': true, '2': true }, timezone: 'Europe/Paris', timing: { from: '09:00', to: '17:00' } };

/** A campaign with everything launching needs. */
async function launchable() {
  const s = await campaignTestSetup({ db });
  const created = await s.run('create', { camp_name: 'Ready' });
  await createTestMailbox({ ...s.base, email: 'sender@out.test' });
  await s.run('update', {
    campaign_id: created.id,
    email_accounts: ['Sender@out.test'],
    schedules: SCHEDULE,
    sequences: [{ step: 1, wait_time: 0, variations: [{ variation: 'A', subject: 'Hi', body: 'Hello' }] }],
  });
  return { ...s, id: created.id };
}

const statusOf = async (id: string) => (await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).status;

describe('launch and pause', () => {
  it('walks DRAFT → ACTIVE → PAUSED → ACTIVE → (COMPLETED) → ACTIVE → ARCHIVED', async () => {
    const { run, id } = await launchable();
    expect(await run('launch', { campaign_id: id })).toEqual({ status: 'success', campaign_id: id, campaign_status: 'ACTIVE' });
    expect(await statusOf(id)).toBe('ACTIVE');
    expect(await run('pause', { campaign_id: id })).toEqual({ status: 'success', campaign_id: id, campaign_status: 'PAUSED' });
    expect(await statusOf(id)).toBe('PAUSED');
    expect((await run('launch', { campaign_id: id })).campaign_status).toBe('ACTIVE');
    // The engine completes campaigns; a completed one resumes on launch.
    await db.prisma.campaign.update({ where: { id }, data: { status: 'COMPLETED' } });
    expect((await run('launch', { campaign_id: id })).campaign_status).toBe('ACTIVE');
    expect(await run('delete', { campaign_id: id, is_archive: 'yes', is_save_lead_data: 'no' })).toEqual({ status: 'success' });
    expect(await statusOf(id)).toBe('ARCHIVED');
  });

  it('refuses launching an ACTIVE or ARCHIVED campaign and pausing a non-ACTIVE one with 409 naming the status', async () => {
    const { run, id } = await launchable();
    const notActive = await expectDomainError(run('pause', { campaign_id: id }), 'conflict', 'campaign.invalid_transition');
    expect(notActive.message).toBe('campaign is DRAFT; only an ACTIVE campaign can be paused');
    await run('launch', { campaign_id: id });
    expect((await expectDomainError(run('launch', { campaign_id: id }), 'conflict', 'campaign.invalid_transition')).message).toBe('campaign is already ACTIVE');
    await run('pause', { campaign_id: id });
    expect((await expectDomainError(run('pause', { campaign_id: id }), 'conflict', 'campaign.invalid_transition')).message).toContain('campaign is PAUSED');
    await run('delete', { campaign_id: id, is_archive: 'yes' });
    expect((await expectDomainError(run('launch', { campaign_id: id }), 'conflict', 'campaign.invalid_transition')).message).toContain('ARCHIVED');
    expect((await expectDomainError(run('pause', { campaign_id: id }), 'conflict', 'campaign.invalid_transition')).message).toContain('campaign is ARCHIVED');
    expect(await statusOf(id)).toBe('ARCHIVED');
  });

  it('names everything a launch lacks, and leaves the campaign a draft', async () => {
    const { run } = await campaignTestSetup({ db });
    const { id } = await run('create', { camp_name: 'Empty' });
    const error = await expectDomainError(run('launch', { campaign_id: id }), 'precondition_failed', 'campaign.not_launchable');
    expect(error.fieldErrors.map((f) => f.field)).toEqual(['sequences', 'email_accounts', 'schedules']);
    expect(error.message).toContain('email_accounts needs at least one email account');
    expect(await statusOf(id)).toBe('DRAFT');
  });

  it('does not count inactive, deleted or empty variations as sendable', async () => {
    const s = await campaignTestSetup({ db });
    const c = await createTestCampaign({
      ...s.base,
      steps: [{ variations: [{ label: 'A', isActive: false }, { label: 'B', isDeleted: true }, { label: 'C', subject: '' }, { label: 'D', body: '' }] }],
    });
    const mailbox = await createTestMailbox({ ...s.base, email: 'm@out.test' });
    await db.prisma.campaign.update({ where: { id: c.id }, data: { schedule: SCHEDULE, emailAccounts: { create: { emailAccountId: mailbox.id } } } });
    const error = await expectDomainError(s.run('launch', { campaign_id: c.id }), 'precondition_failed');
    expect(error.fieldErrors).toEqual([{ field: 'sequences', message: 'needs at least one step with an active variation that has a subject and a body' }]);
    await db.prisma.variation.updateMany({ where: { campaignId: c.id, label: 'A' }, data: { isActive: true } });
    expect((await s.run('launch', { campaign_id: c.id })).campaign_status).toBe('ACTIVE');
  });

  it('serialises concurrent launches: exactly one succeeds', async () => {
    const { run, id } = await launchable();
    const results = await Promise.allSettled([run('launch', { campaign_id: id }), run('launch', { campaign_id: id }), run('launch', { campaign_id: id })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['campaign.invalid_transition', 'campaign.invalid_transition']);
  });

  it('answers 404 for another organization\'s campaign and changes nothing', async () => {
    const mine = await launchable();
    const other = await campaignTestSetup({ db });
    await expectDomainError(other.run('launch', { campaign_id: mine.id }), 'not_found', 'campaign.not_found');
    await expectDomainError(other.run('pause', { campaign_id: mine.id }), 'not_found', 'campaign.not_found');
    await expectDomainError(other.run('delete', { campaign_id: mine.id, is_archive: 'no' }), 'not_found', 'campaign.not_found');
    expect(await statusOf(mine.id)).toBe('DRAFT');
    // Naming the other organization's workspace is refused before anything runs.
    await expectDomainError(other.run('launch', { workspace_id: mine.org.workspaceId, campaign_id: mine.id }), 'forbidden');
  });
});
