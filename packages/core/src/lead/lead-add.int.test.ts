import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestTenant, expectDomainError, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';

const db = useTestDatabase();

async function setup(options: { leadAllowance?: number; defaultLeadAllowance?: number } = {}) {
  const { org, ctx, base } = await createTestTenant({ db, leadAllowance: options.leadAllowance, defaultLeadAllowance: options.defaultLeadAllowance });
  const campaign = await createTestCampaign({ ...base, status: 'ACTIVE' });
  const add = (input: Record<string, unknown>) =>
    executeOperation({ op: operations.lead.add, ctx, input: { workspace_id: org.workspaceId, campaign_id: campaign.id, ...input } });
  return { org, ctx, base, campaign, add };
}

function addsUp(r: { total_sent: number; leads_uploaded: number; duplicate_email_count: number; already_in_campaign: number; invalid_email_count: number; skipped: number; overflowed_lead_count: number }) {
  expect(r.leads_uploaded + r.duplicate_email_count + r.already_in_campaign + r.invalid_email_count + r.skipped + r.overflowed_lead_count).toBe(r.total_sent);
}

const emailsIn = async (campaignId: string) =>
  (await db.prisma.lead.findMany({ where: { campaignId }, orderBy: { emailNormalized: 'asc' }, select: { emailNormalized: true } })).map((l) => l.emailNormalized);

describe('POST /lead/add', () => {
  it('adds leads with their fields and custom variables, and reports every count', async () => {
    const { add, campaign, org } = await setup();
    const r = await add({
      leads: [
        { email: ' Ann@Example.com', first_name: 'Ann', company_name: 'Acme', industry: 'SaaS', custom_variables: { tier: 'gold' } },
        { email: 'ann@example.com' },
        { email: 'broken@' },
        { email: 'bob@example.com', network_person_url: 'https://network.example/in/bob' },
      ],
    });
    expect(r).toEqual({
      status: 'success',
      total_sent: 4,
      leads_uploaded: 2,
      duplicate_email_count: 1,
      already_in_campaign: 0,
      invalid_email_count: 1,
      skipped: 0,
      remaining_in_plan: 1_000_000 - 2,
      overflowed_lead_count: 0,
    });
    const ann = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: campaign.id, emailNormalized: 'ann@example.com' } });
    expect(ann).toMatchObject({ email: 'Ann@Example.com', firstName: 'Ann', companyName: 'Acme', status: 'NOT_CONTACTED', organizationId: org.organizationId });
    expect(ann.customVariables).toEqual({ industry: 'SaaS', tier: 'gold' });
    const upload = await db.prisma.leadUpload.findFirstOrThrow({ where: { campaignId: campaign.id } });
    expect(upload).toMatchObject({ totalSent: 4, leadsUploaded: 2, crmSync: false });
    expect(ann.uploadId).toBe(upload.id);
  });

  it('counts leads already in the campaign, or updates them with is_overwrite', async () => {
    const { add, campaign, org } = await setup();
    await add({ leads: [{ email: 'a@example.com', first_name: 'Old', city: 'Oslo', custom_variables: { x: '1' } }] });
    const again = await add({ leads: [{ email: 'A@example.com', first_name: 'New' }, { email: 'b@example.com' }] });
    expect([again.leads_uploaded, again.already_in_campaign]).toEqual([1, 1]);
    const a1 = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: campaign.id, emailNormalized: 'a@example.com' } });
    expect(a1.firstName).toBe('Old');
    const over = await add({ is_overwrite: true, leads: [{ email: 'a@example.com', first_name: 'New', custom_variables: { y: '2' } }] });
    expect([over.leads_uploaded, over.already_in_campaign]).toEqual([1, 0]);
    addsUp(over);
    const a2 = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: campaign.id, emailNormalized: 'a@example.com' } });
    expect([a2.firstName, a2.city, a2.customVariables]).toEqual(['New', 'Oslo', { x: '1', y: '2' }]);
    expect(await emailsIn(campaign.id)).toEqual(['a@example.com', 'b@example.com']);
    // New and existing leads in one overwriting upload: each counted once.
    const mixed = await add({ is_overwrite: true, leads: [{ email: 'b@example.com', city: 'Bergen' }, { email: 'c@example.com', city: 'Cork' }, { email: 'd@example.com' }] });
    expect([mixed.leads_uploaded, mixed.already_in_campaign]).toEqual([3, 0]);
    addsUp(mixed);
    const cities = await db.prisma.lead.findMany({ where: { campaignId: campaign.id }, orderBy: { emailNormalized: 'asc' }, select: { city: true } });
    expect(cities.map((c) => c.city)).toEqual(['Oslo', 'Bergen', 'Cork', null]);
    // With the allowance nearly spent, the bounded form counts the same way.
    await db.prisma.organization.update({ where: { id: org.organizationId }, data: { leadAllowance: 5 } });
    const bounded = await add({ is_overwrite: true, leads: [{ email: 'a@example.com', city: 'Aalborg' }, { email: 'e@example.com' }, { email: 'f@example.com' }] });
    expect([bounded.leads_uploaded, bounded.already_in_campaign, bounded.overflowed_lead_count, bounded.remaining_in_plan]).toEqual([2, 0, 1, 0]);
    addsUp(bounded);
  });

  it('skips blocklisted addresses and domains', async () => {
    const { add, campaign, org } = await setup();
    await db.prisma.blocklistEntry.createMany({
      data: [
        { id: newId(), workspaceId: org.workspaceId, value: 'blocked@example.com', isDomain: false },
        { id: newId(), workspaceId: org.workspaceId, value: 'competitor.io', isDomain: true },
      ],
    });
    const r = await add({ leads: [{ email: 'Blocked@Example.com' }, { email: 'ceo@competitor.io' }, { email: 'ok@example.com' }, { email: 'x@sub.competitor.io' }] });
    expect([r.leads_uploaded, r.skipped]).toEqual([2, 2]);
    expect(await emailsIn(campaign.id)).toEqual(['ok@example.com', 'x@sub.competitor.io']);
  });

  it('applies the skip flags against the workspace\'s other campaigns by their status', async () => {
    const { add, base, campaign } = await setup();
    for (const status of ['ACTIVE', 'PAUSED', 'COMPLETED'] as const) {
      const other = await createTestCampaign({ ...base, status });
      await createTestLead({ ...base, campaignId: other.id, email: `${status.toLowerCase()}@example.com` });
    }
    const leads = [{ email: 'active@example.com' }, { email: 'paused@example.com' }, { email: 'completed@example.com' }, { email: 'fresh@example.com' }];
    const activeOnly = await add({ leads, skip_lead_for_active_only_camp: true });
    expect([activeOnly.leads_uploaded, activeOnly.skipped]).toEqual([3, 1]);
    await db.prisma.lead.deleteMany({ where: { campaignId: campaign.id } });
    const activeOrPaused = await add({ leads, skip_lead_in_active_pause_camp: true });
    expect([activeOrPaused.leads_uploaded, activeOrPaused.skipped]).toEqual([2, 2]);
    await db.prisma.lead.deleteMany({ where: { campaignId: campaign.id } });
    const anywhere = await add({ leads, skip_if_in_workspace: 'true' });
    expect([anywhere.leads_uploaded, anywhere.skipped]).toEqual([1, 3]);
    expect(await emailsIn(campaign.id)).toEqual(['fresh@example.com']);
    const none = await add({ leads });
    expect([none.leads_uploaded, none.already_in_campaign, none.skipped]).toEqual([3, 1, 0]);
  });

  it('stops at the organization\'s lead allowance, in request order, across workspaces', async () => {
    const { add, campaign, org } = await setup({ leadAllowance: 5 });
    const first = await add({ leads: [1, 2, 3].map((i) => ({ email: `l${i}@example.com` })) });
    expect([first.leads_uploaded, first.remaining_in_plan, first.overflowed_lead_count]).toEqual([3, 2, 0]);
    const second = await add({ leads: [4, 5, 6, 7].map((i) => ({ email: `l${i}@example.com` })).concat([{ email: 'l1@example.com' }]) });
    expect(second).toMatchObject({ leads_uploaded: 2, already_in_campaign: 1, overflowed_lead_count: 2, remaining_in_plan: 0 });
    addsUp(second);
    expect(await emailsIn(campaign.id)).toEqual(['l1@example.com', 'l2@example.com', 'l3@example.com', 'l4@example.com', 'l5@example.com']);
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount).toBe(5);
    // The default allowance applies when the organization has none of its own.
    const byDefault = await setup({ defaultLeadAllowance: 1 });
    expect(await byDefault.add({ leads: [{ email: 'a@example.com' }, { email: 'b@example.com' }] })).toMatchObject({ leads_uploaded: 1, overflowed_lead_count: 1, remaining_in_plan: 0 });
  });

  it('resumes a completed campaign only when a lead was added', async () => {
    const { add, campaign } = await setup();
    await db.prisma.campaign.update({ where: { id: campaign.id }, data: { status: 'COMPLETED' } });
    await add({ leads: [{ email: 'bad' }], resume_camp_if_completed: true });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe('COMPLETED');
    await add({ leads: [{ email: 'good@example.com' }] });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe('COMPLETED');
    await add({ leads: [{ email: 'also@example.com' }], resume_camp_if_completed: true });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe('ACTIVE');
  });

  it('adds 10,000 leads in one request; refuses 10,001, bad custom variables and foreign campaigns, writing nothing', async () => {
    const { add, campaign, base } = await setup();
    const big = Array.from({ length: 10_000 }, (_, i) => ({ email: `lead${i}@bulk.example.com`, first_name: `L${i}` }));
    const r = await add({ leads: big });
    expect(r.leads_uploaded).toBe(10_000);
    expect(await db.prisma.lead.count({ where: { campaignId: campaign.id } })).toBe(10_000);

    const tooMany = await expectDomainError(add({ leads: [...big, { email: 'one@more.com' }] }), 'invalid');
    expect(tooMany.fieldErrors[0]).toEqual({ field: 'leads', message: 'must contain at most 10000 leads per request' });
    const badVar = await expectDomainError(add({ leads: [{ email: 'x@example.com', custom_variables: { n: 5 } }] }), 'invalid');
    expect(badVar.fieldErrors[0]!.field).toBe('leads.0.custom_variables.n');
    await expectDomainError(add({ leads: [] }), 'invalid');
    const otherOrg = await setup();
    await expectDomainError(add({ campaign_id: otherOrg.campaign.id, leads: [{ email: 'y@example.com' }] }), 'invalid', 'campaign.not_found');
    const subseq = await createTestCampaign({ ...base, parentId: campaign.id });
    await expectDomainError(add({ campaign_id: subseq.id, leads: [{ email: 'y@example.com' }] }), 'invalid', 'campaign.is_subsequence');
    expect(await db.prisma.lead.count({ where: { campaignId: { in: [campaign.id, otherOrg.campaign.id, subseq.id] } } })).toBe(10_000);
  });

  it('leaves nothing behind when the transaction fails midway', async () => {
    const { org, ctx, campaign } = await setup();
    // A campaign whose row vanishes between validation and insert makes the insert fail on its foreign key.
    const failing = {
      ...ctx,
      db: new Proxy(ctx.db, {
        get(target, prop, receiver) {
          if (prop !== '$transaction') return Reflect.get(target, prop, receiver);
          return (fn: (tx: unknown) => Promise<unknown>, opts: unknown) =>
            target.$transaction(async (tx) => {
              const result = await fn(tx);
              throw Object.assign(new Error('simulated failure after the insert'), { result });
            }, opts as never);
        },
      }),
    };
    await expect(
      executeOperation({ op: operations.lead.add, ctx: failing, input: { workspace_id: org.workspaceId, campaign_id: campaign.id, leads: [{ email: 'ghost@example.com' }] } }),
    ).rejects.toThrow('simulated failure');
    expect(await db.prisma.lead.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount).toBe(0);
    expect(await db.prisma.leadUpload.count({ where: { campaignId: campaign.id } })).toBe(0);
  });
});
