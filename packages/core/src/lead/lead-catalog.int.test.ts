import { describe, expect, it } from 'vitest';
import {
  createTestCampaign,
  createTestLead,
  createTestMailbox,
  createTestTenant,
  expectDomainError,
  recordTestSend,
  testCtx,
  testServiceDeps,
  useTestDatabase,
} from '../testing/index';
import type { Actor, Ctx } from '../shared/context';
import { executeOperation, type Operation } from '../shared/operation';
import { operations } from '../operations';
import { leadPageTrail } from './lead.rules';

const db = useTestDatabase();

async function setup(options: { leadAllowance?: number } = {}) {
  const { org, ctx, ws, base } = await createTestTenant({ db, leadAllowance: options.leadAllowance });
  const run = <K extends keyof typeof operations.lead>(key: K, input: Record<string, unknown>, as: Ctx = ctx) =>
    executeOperation({ op: operations.lead[key] as Operation, ctx: as, input: { workspace_id: ws, ...input } }) as Promise<any>;
  return { org, ctx, ws, base, run };
}

const leadCount = async (organizationId: string) => (await db.prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).leadCount;

describe('lead object and GET /lead/get', () => {
  it('answers every vendor field, the aliases and the custom variables, with send figures', async () => {
    const { base, run } = await setup();
    const campaign = await createTestCampaign({ ...base, name: 'Spring', steps: [{ variations: [{ label: 'A' }] }, { variations: [{ label: 'A' }] }] });
    const mailbox = await createTestMailbox({ ...base, email: 'sender@outreach.test' });
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'Ann@Example.com', label: 'INTERESTED', firstName: 'Ann' });
    await db.prisma.lead.update({
      where: { id: lead.id },
      data: {
        emailAccountId: mailbox.id,
        networkPersonUrl: 'https://net.example/ann',
        currentStep: 2,
        customVariables: { tier: 'gold', status: 'forged', email: 'forged@x.com' },
      },
    });
    const v = campaign.variations as Record<number, Record<string, string>>;
    const sent = new Date('2026-05-02T08:00:00Z');
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 1, variationId: v[1]!.A!, variationLabel: 'A', sentAt: sent, openedAt: sent, repliedAt: sent });
    await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 2, variationId: v[2]!.A!, variationLabel: 'A', sentAt: sent, openedAt: sent });
    const [got, ...rest] = await run('get', { email: 'ANN@example.com' });
    expect(rest).toEqual([]);
    const stored = await db.prisma.lead.findUniqueOrThrow({ where: { id: lead.id } });
    expect(got).toEqual({
      _id: lead.id,
      organization_id: base.organizationId,
      campaign_id: campaign.id,
      workspace_id: base.workspaceId,
      is_completed: false,
      current_step: 2,
      status: 'NOT_CONTACTED',
      label: 'INTERESTED',
      email_account_id: mailbox.id,
      email_acc_name: 'sender@outreach.test',
      camp_name: 'Spring',
      created_at: stored.createdAt.toISOString(),
      modified_at: stored.updatedAt.toISOString(),
      last_sent_at: null,
      sent_step: 2,
      total_steps: 2,
      replied_count: 1,
      opened_count: 2,
      bounce_msg: null,
      email: 'Ann@Example.com',
      first_name: 'Ann',
      last_name: null,
      notes: null,
      address_line: null,
      city: null,
      state: null,
      country: null,
      country_code: null,
      phone_number: null,
      company_name: null,
      company_website: null,
      job_title: null,
      network_person_url: 'https://net.example/ann',
      network_company_url: null,
      linkedin_person_url: 'https://net.example/ann',
      linkedin_company_url: null,
      tier: 'gold',
      // Every custom variable also under the vendor's prefixed name; a variable named like a
      // built-in key (status, email) is readable only that way, never over the built-in.
      custom_tier: 'gold',
      custom_status: 'forged',
      custom_email: 'forged@x.com',
    });
  });

  it('finds the address in every campaign, newest first, narrowed by campaign_id and paged', async () => {
    const { base, run } = await setup();
    const first = await createTestCampaign({ ...base });
    const second = await createTestCampaign({ ...base });
    const a = await createTestLead({ ...base, campaignId: first.id, email: 'bo@example.com' });
    await db.prisma.lead.update({ where: { id: a.id }, data: { createdAt: new Date('2026-01-01T00:00:00Z') } });
    const b = await createTestLead({ ...base, campaignId: second.id, email: 'BO@example.com' });
    await createTestLead({ ...base, campaignId: first.id, email: 'other@example.com' });
    expect((await run('get', { email: 'bo@example.com' })).map((l: any) => l._id)).toEqual([b.id, a.id]);
    expect((await run('get', { email: 'bo@example.com', campaign_id: first.id })).map((l: any) => l._id)).toEqual([a.id]);
    expect((await run('get', { email: 'bo@example.com', skip: '1', limit: '1' })).map((l: any) => l._id)).toEqual([a.id]);
    expect(await run('get', { email: 'nobody@example.com' })).toEqual([]);
  });

  it('never answers another organization\'s leads or campaigns', async () => {
    const mine = await setup();
    const theirs = await setup();
    const foreignCampaign = await createTestCampaign({ ...theirs.base });
    await createTestLead({ ...theirs.base, campaignId: foreignCampaign.id, email: 'shared@example.com' });
    expect(await mine.run('get', { email: 'shared@example.com' })).toEqual([]);
    await expectDomainError(mine.run('get', { email: 'shared@example.com', campaign_id: foreignCampaign.id }), 'invalid', 'campaign.not_found');
    await expectDomainError(mine.run('workspaceLeads', { workspace_id: theirs.ws }), 'forbidden');
    expect(await mine.run('workspaceLeads', {})).toEqual([]);
    await expectDomainError(mine.run('updateData', { email: 'shared@example.com', label: null }), 'not_found');
    expect((await mine.run('delete', { delete_list: ['shared@example.com'] })).deleted).toBe(0);
    expect(await db.prisma.lead.count({ where: { campaignId: foreignCampaign.id } })).toBe(1);
  });
});

describe('GET /lead/workspace-leads', () => {
  async function seeded() {
    const s = await setup();
    const one = await createTestCampaign({ ...s.base });
    const two = await createTestCampaign({ ...s.base });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const lead = await createTestLead({ ...s.base, campaignId: i < 4 ? one.id : two.id, email: `lead${i}@example.com`, label: i % 2 ? 'INTERESTED' : null });
      // Distinct creation times, one tie (5 and 6) to exercise the id tie-break; modified in the reverse order.
      const created = new Date(Date.UTC(2026, 0, 1 + Math.min(i, 5)));
      await db.prisma.lead.update({ where: { id: lead.id }, data: { createdAt: created, status: i === 0 ? 'REPLIED' : 'NOT_CONTACTED' } });
      ids.push(lead.id);
    }
    for (const [i, id] of [...ids].reverse().entries()) {
      await db.prisma.$executeRawUnsafe('UPDATE leads SET updated_at = $2::timestamptz WHERE id = $1', id, new Date(Date.UTC(2026, 2, 1 + i)).toISOString());
    }
    return { ...s, one, two, ids };
  }
  const idsOf = (leads: any[]) => leads.map((l) => l._id);

  it('sorts by created_at desc by default, and by modified_at or asc on request', async () => {
    const { run, ids } = await seeded();
    // 5 and 6 share a creation time: the larger id comes first in desc order.
    const expectedDesc = [...ids].reverse();
    if (ids[5]! > ids[6]!) [expectedDesc[0], expectedDesc[1]] = [expectedDesc[1]!, expectedDesc[0]!];
    expect(idsOf(await run('workspaceLeads', {}))).toEqual(expectedDesc);
    expect(idsOf(await run('workspaceLeads', { direction: 'asc' }))).toEqual([...expectedDesc].reverse());
    expect(idsOf(await run('workspaceLeads', { sort: 'modified_at' }))).toEqual(ids);
    expect(idsOf(await run('workspaceLeads', { sort: 'modified_at', direction: 'asc' }))).toEqual([...ids].reverse());
  });

  it('filters by campaign, status, label and address prefix', async () => {
    const { run, ids, two } = await seeded();
    expect(idsOf(await run('workspaceLeads', { campaign_id: two.id, direction: 'asc', sort: 'modified_at' })).sort()).toEqual(ids.slice(4).sort());
    expect(idsOf(await run('workspaceLeads', { status: 'REPLIED' }))).toEqual([ids[0]]);
    expect(idsOf(await run('workspaceLeads', { label: 'INTERESTED', sort: 'modified_at' }))).toEqual([ids[1], ids[3], ids[5]]);
    expect(idsOf(await run('workspaceLeads', { email: 'LEAD3@' }))).toEqual([ids[3]]);
    // LIKE wildcards in the prefix are literal.
    expect(await run('workspaceLeads', { email: 'lead_' })).toEqual([]);
    await expectDomainError(run('workspaceLeads', { status: 'LOST' }), 'invalid');
    await expectDomainError(run('workspaceLeads', { sort: 'email' }), 'invalid');
  });

  it('pages to the end with page and limit, and with page_trail', async () => {
    const { run } = await seeded();
    const all = idsOf(await run('workspaceLeads', { sort: 'modified_at' }));
    const paged: string[] = [];
    for (let page = 1; page <= 4; page++) paged.push(...idsOf(await run('workspaceLeads', { sort: 'modified_at', page: String(page), limit: '3' })));
    expect(paged).toEqual(all);
    expect(await run('workspaceLeads', { page: 4, limit: 3 })).toEqual([]);

    for (const direction of ['desc', 'asc'] as const) {
      const full = idsOf(await run('workspaceLeads', { direction }));
      const walked: string[] = [];
      let trail: string | undefined;
      for (let i = 0; i < 5; i++) {
        const page = await run('workspaceLeads', { direction, limit: 2, ...(trail ? { page_trail: trail } : {}) });
        if (!page.length) break;
        walked.push(...idsOf(page));
        trail = leadPageTrail({ lead: page[page.length - 1], sort: 'created_at', direction });
      }
      expect(walked).toEqual(full);
    }
    const page = await run('workspaceLeads', { limit: 2 });
    const trail = leadPageTrail({ lead: page[1], sort: 'created_at', direction: 'desc' });
    await expectDomainError(run('workspaceLeads', { page_trail: trail, direction: 'asc' }), 'invalid');
    await expectDomainError(run('workspaceLeads', { page_trail: 'garbage' }), 'invalid');
  });
});

describe('GET /lead/count/lead-status', () => {
  it('counts all 8 statuses in order, zeros included, per workspace or campaign', async () => {
    const { base, run } = await setup();
    const one = await createTestCampaign({ ...base });
    const two = await createTestCampaign({ ...base });
    const a = await createTestLead({ ...base, campaignId: one.id, email: 'a@example.com' });
    await createTestLead({ ...base, campaignId: one.id, email: 'b@example.com' });
    await createTestLead({ ...base, campaignId: two.id, email: 'c@example.com' });
    await db.prisma.lead.update({ where: { id: a.id }, data: { status: 'BOUNCED' } });
    const zeros = { NOT_CONTACTED: 0, CONTACTED: 0, COMPLETED: 0, REPLIED: 0, RESCHEDULED: 0, UNSUBSCRIBED: 0, BOUNCED: 0, SKIPPED: 0 };
    const asList = (counts: Record<string, number>) => Object.entries(counts).map(([status, count]) => ({ status, count }));
    expect(await run('countByStatus', {})).toEqual(asList({ ...zeros, NOT_CONTACTED: 2, BOUNCED: 1 }));
    expect(await run('countByStatus', { campaign_id: two.id })).toEqual(asList({ ...zeros, NOT_CONTACTED: 1 }));
  });
});

describe('POST /lead/data/update', () => {
  it('sets lead fields, merges custom variables, and logs label changes with from/to', async () => {
    const { base, run } = await setup();
    const one = await createTestCampaign({ ...base });
    const two = await createTestCampaign({ ...base });
    const a = await createTestLead({ ...base, campaignId: one.id, email: 'x@example.com', label: 'INTERESTED' });
    const b = await createTestLead({ ...base, campaignId: two.id, email: 'x@example.com' });
    await db.prisma.lead.update({ where: { id: a.id }, data: { customVariables: { keep: '1', tier: 'silver' } } });
    const r = await run('updateData', { email: 'X@example.com', variables: { first_name: ' Xena ', linkedin_company_url: 'https://net.example/acme', tier: 'gold' }, label: 'MEETING_BOOKED' });
    expect(r).toEqual({ status: 'success', updated: 2 });
    const la = await db.prisma.lead.findUniqueOrThrow({ where: { id: a.id } });
    expect([la.firstName, la.networkCompanyUrl, la.label, la.customVariables]).toEqual(['Xena', 'https://net.example/acme', 'MEETING_BOOKED', { keep: '1', tier: 'gold' }]);
    const events = await db.prisma.leadEvent.findMany({ where: { leadId: { in: [a.id, b.id] } }, orderBy: { leadId: 'asc' } });
    expect(events.map((e) => [e.leadId, e.campaignId, e.type, e.data]).sort()).toEqual(
      [
        [a.id, one.id, 'LABEL_CHANGED', { from: 'INTERESTED', to: 'MEETING_BOOKED' }],
        [b.id, two.id, 'LABEL_CHANGED', { from: null, to: 'MEETING_BOOKED' }],
      ].sort(),
    );
    // Same label again in one campaign: no change, no event; clearing logs to: null.
    expect(await run('updateData', { email: 'x@example.com', campaign_id: one.id, label: 'MEETING_BOOKED' })).toEqual({ status: 'success', updated: 1 });
    expect(await db.prisma.leadEvent.count({ where: { leadId: a.id } })).toBe(1);
    await run('updateData', { email: 'x@example.com', campaign_id: one.id, label: '' });
    expect((await db.prisma.leadEvent.findMany({ where: { leadId: a.id } })).map((e) => e.data)).toContainEqual({ from: 'MEETING_BOOKED', to: null });
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: a.id } })).label).toBeNull();
    // Variables alone write no event.
    await run('updateData', { email: 'x@example.com', variables: { city: 'Oslo' } });
    expect(await db.prisma.leadEvent.count({ where: { leadId: { in: [a.id, b.id] } } })).toBe(3);
  });

  it('refuses an empty request, unknown labels, read-only variables and unknown addresses', async () => {
    const { base, run } = await setup();
    const one = await createTestCampaign({ ...base });
    await createTestLead({ ...base, campaignId: one.id, email: 'x@example.com' });
    const none = await expectDomainError(run('updateData', { email: 'x@example.com' }), 'invalid');
    expect(none.fieldErrors[0]?.field).toBe('variables');
    const label = await expectDomainError(run('updateData', { email: 'x@example.com', label: 'NO_SUCH' }), 'invalid');
    expect(label.fieldErrors[0]?.field).toBe('label');
    const ro = await expectDomainError(run('updateData', { email: 'x@example.com', variables: { status: 'REPLIED', email: 'y@example.com' } }), 'invalid');
    expect(ro.fieldErrors.map((f) => f.field).sort()).toEqual(['variables.email', 'variables.status']);
    await expectDomainError(run('updateData', { email: 'nobody@example.com', variables: { city: 'Oslo' } }), 'not_found');
  });
});

describe('labels hidden from a client key', () => {
  it('reads null, filters to nothing, and cannot be set', async () => {
    const { base, run, ws, org } = await setup();
    const one = await createTestCampaign({ ...base });
    const lead = await createTestLead({ ...base, campaignId: one.id, email: 'x@example.com', label: 'INTERESTED' });
    const actor: Actor = {
      organizationId: org.organizationId,
      apiKeyId: 'x',
      workspaceIds: [ws],
      clientGrants: { [ws]: { permissions: ['CAMPAIGN_LIST', 'CAMPAIGN_EDIT'], hideLabels: ['INTERESTED'] } },
    };
    const client = testCtx({ deps: testServiceDeps({ db }), actor });
    expect((await run('get', { email: 'x@example.com' }, client))[0].label).toBeNull();
    expect((await run('get', { email: 'x@example.com' }))[0].label).toBe('INTERESTED');
    expect(await run('workspaceLeads', { label: 'INTERESTED' }, client)).toEqual([]);
    expect(idsOfLeads(await run('workspaceLeads', { label: 'INTERESTED' }))).toEqual([lead.id]);
    expect((await run('workspaceLeads', {}, client))[0].label).toBeNull();
    await expectDomainError(run('updateData', { email: 'x@example.com', label: 'INTERESTED' }, client), 'invalid');
    await expectDomainError(run('delete', { delete_list: ['x@example.com'] }, client), 'forbidden');
  });
});
const idsOfLeads = (leads: any[]) => leads.map((l) => l._id);

describe('POST /lead/update/status', () => {
  it('completes a lead, and refuses other statuses and unknown leads', async () => {
    const { base, run } = await setup();
    const one = await createTestCampaign({ ...base });
    const lead = await createTestLead({ ...base, campaignId: one.id, email: 'x@example.com' });
    await db.prisma.lead.update({ where: { id: lead.id }, data: { nextSendAt: new Date(), status: 'CONTACTED' } });
    const bad = await expectDomainError(run('updateStatus', { campaign_id: one.id, email: 'x@example.com', new_status: 'REPLIED' }), 'invalid');
    expect(bad.fieldErrors[0]?.field).toBe('new_status');
    await expectDomainError(run('updateStatus', { campaign_id: one.id, email: 'y@example.com', new_status: 'COMPLETED' }), 'not_found');
    const other = await createTestCampaign({ ...base });
    await expectDomainError(run('updateStatus', { campaign_id: other.id, email: 'x@example.com', new_status: 'COMPLETED' }), 'not_found');
    expect(await run('updateStatus', { campaign_id: one.id, email: 'X@example.com', new_status: 'COMPLETED' })).toEqual({ status: 'success' });
    const stored = await db.prisma.lead.findUniqueOrThrow({ where: { id: lead.id } });
    expect([stored.status, stored.isCompleted, stored.nextSendAt]).toEqual(['COMPLETED', true, null]);
  });
});

describe('POST /lead/delete', () => {
  it('deletes from one campaign or all, and gives the room back to the organization', async () => {
    const { base, run, org } = await setup();
    const one = await createTestCampaign({ ...base });
    const two = await createTestCampaign({ ...base });
    for (const c of [one, two]) {
      await createTestLead({ ...base, campaignId: c.id, email: 'a@example.com' });
      await createTestLead({ ...base, campaignId: c.id, email: 'b@example.com' });
    }
    expect(await leadCount(org.organizationId)).toBe(4);
    expect(await run('delete', { campaign_id: one.id, delete_list: ['A@example.com', 'nobody@example.com'] })).toEqual({ status: 'success', deleted: 1 });
    expect(await leadCount(org.organizationId)).toBe(3);
    expect(await run('delete', { delete_list: ['a@example.com', 'b@example.com', 'b@example.com'] })).toEqual({ status: 'success', deleted: 3 });
    expect(await leadCount(org.organizationId)).toBe(0);
    expect(await db.prisma.lead.count({ where: { workspaceId: base.workspaceId } })).toBe(0);
    await expectDomainError(run('delete', { delete_list: [] }), 'invalid');
  });
});

describe('POST /lead/add-lead-in-subseq', () => {
  async function withSubsequence(options: { leadAllowance?: number } = {}) {
    const s = await setup(options);
    const parent = await createTestCampaign({ ...s.base, status: 'ACTIVE' });
    const sub = await createTestCampaign({ ...s.base, parentId: parent.id });
    const mailbox = await createTestMailbox({ ...s.base, email: 'sender@outreach.test' });
    const leads = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      const lead = await createTestLead({ ...s.base, campaignId: parent.id, email, label: 'INTERESTED', firstName: email[0]!.toUpperCase() });
      await db.prisma.lead.update({
        where: { id: lead.id },
        data: { emailAccountId: mailbox.id, city: 'Oslo', customVariables: { tier: 'gold' }, status: 'REPLIED', nextSendAt: new Date(), currentStep: 1 },
      });
      leads.push(lead.id);
    }
    return { ...s, parent, sub, mailbox, leads };
  }

  it('copies the parent leads, skips duplicates, stops the parent sequence and counts the leads', async () => {
    const { run, sub, leads, mailbox, org } = await withSubsequence();
    expect(await run('addToSubsequence', { subseq_id: sub.id, parent_lead_ids: [leads[0], leads[1], leads[0]] })).toEqual({ status: 'success', inserted: 2, overflowed: 0 });
    const copied = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: sub.id, sourceLeadId: leads[0] } });
    expect(copied).toMatchObject({
      email: 'a@example.com',
      firstName: 'A',
      city: 'Oslo',
      label: 'INTERESTED',
      emailAccountId: mailbox.id,
      status: 'NOT_CONTACTED',
      currentStep: 0,
      customVariables: { tier: 'gold' },
    });
    const stopped = await db.prisma.lead.findUniqueOrThrow({ where: { id: leads[0]! } });
    expect([stopped.status, stopped.isCompleted, stopped.nextSendAt]).toEqual(['REPLIED', true, null]);
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: leads[2]! } })).isCompleted).toBe(false);
    expect(await leadCount(org.organizationId)).toBe(5);
    expect(await run('addToSubsequence', { subseq_id: sub.id, parent_lead_ids: leads })).toEqual({ status: 'success', inserted: 1, overflowed: 0 });
    expect(await db.prisma.lead.count({ where: { campaignId: sub.id } })).toBe(3);
    expect(await leadCount(org.organizationId)).toBe(6);
  });

  it('refuses a non-subsequence, leads of other campaigns and of other organizations', async () => {
    const { run, parent, sub, leads, base } = await withSubsequence();
    const notSub = await expectDomainError(run('addToSubsequence', { subseq_id: parent.id, parent_lead_ids: leads }), 'invalid');
    expect(notSub.fieldErrors[0]?.field).toBe('subseq_id');
    const elsewhere = await createTestCampaign({ ...base });
    const stranger = await createTestLead({ ...base, campaignId: elsewhere.id, email: 'z@example.com' });
    const theirs = await setup();
    const theirCampaign = await createTestCampaign({ ...theirs.base });
    const foreign = await createTestLead({ ...theirs.base, campaignId: theirCampaign.id, email: 'f@example.com' });
    const err = await expectDomainError(run('addToSubsequence', { subseq_id: sub.id, parent_lead_ids: [leads[0], stranger.id, foreign.id] }), 'invalid');
    expect(err.fieldErrors.map((f) => f.field)).toEqual(['parent_lead_ids.1', 'parent_lead_ids.2']);
    expect(await db.prisma.lead.count({ where: { campaignId: sub.id } })).toBe(0);
    await expectDomainError(theirs.run('addToSubsequence', { subseq_id: sub.id, parent_lead_ids: [leads[0]] }), 'invalid');
  });

  it('never enrols a lead that bounced or unsubscribed', async () => {
    const { run, sub, leads } = await withSubsequence();
    await db.prisma.lead.update({ where: { id: leads[1]! }, data: { status: 'UNSUBSCRIBED' } });
    await db.prisma.lead.update({ where: { id: leads[2]! }, data: { status: 'BOUNCED' } });
    expect(await run('addToSubsequence', { subseq_id: sub.id, parent_lead_ids: leads })).toEqual({ status: 'success', inserted: 1, overflowed: 0 });
    expect((await db.prisma.lead.findMany({ where: { campaignId: sub.id } })).map((l) => l.sourceLeadId)).toEqual([leads[0]]);
    expect((await db.prisma.lead.findUniqueOrThrow({ where: { id: leads[1]! } })).isCompleted).toBe(false);
  });

  it('adds only up to the allowance and reports the rest as overflowed', async () => {
    const { run, sub, leads, org } = await withSubsequence({ leadAllowance: 4 });
    expect(await run('addToSubsequence', { subseq_id: sub.id, parent_lead_ids: leads })).toEqual({ status: 'success', inserted: 1, overflowed: 2 });
    expect(await leadCount(org.organizationId)).toBe(4);
    const enrolled = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: sub.id } });
    expect(enrolled.sourceLeadId).toBe(leads[0]);
    // Only the enrolled parent lead stops; the overflowed ones keep running.
    expect((await db.prisma.lead.findMany({ where: { id: { in: leads } }, orderBy: { emailNormalized: 'asc' } })).map((l) => l.isCompleted)).toEqual([true, false, false]);
  });
});
