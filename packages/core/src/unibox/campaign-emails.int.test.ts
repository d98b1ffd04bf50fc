import { describe, expect, it } from 'vitest';
import {
  createTestCampaign,
  createTestLead,
  createTestMailbox,
  createTestTenant,
  expectDomainError,
  recordTestSend,
  useTestDatabase,
} from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';

const db = useTestDatabase();

async function scenario() {
  const { org, ctx, base } = await createTestTenant({ db });
  const mailbox = await createTestMailbox({ ...base, email: 'sender@out.test' });
  const parent = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }, { variations: [{ label: 'A' }, { label: 'B' }] }] });
  const subseq = await createTestCampaign({ ...base, parentId: parent.id, steps: [{ variations: [{ label: 'A' }] }] });
  const other = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }] });
  const pv = parent.variations as Record<number, Record<string, string>>;
  const parentLead = await createTestLead({ ...base, campaignId: parent.id, email: 'Jane.Doe@Example.com' });
  const subseqLead = await createTestLead({ ...base, campaignId: subseq.id, email: 'jane.doe@example.com' });
  const otherLead = await createTestLead({ ...base, campaignId: other.id, email: 'someone@else.com' });
  const sends = [
    await recordTestSend({ ...base, campaignId: parent.id, leadId: parentLead.id, emailAccountId: mailbox.id, step: 1, variationId: pv[1]!.A!, variationLabel: 'A', sentAt: new Date('2026-03-01T09:00:00.123Z') }),
    await recordTestSend({ ...base, campaignId: parent.id, leadId: parentLead.id, emailAccountId: mailbox.id, step: 2, variationId: pv[2]!.B!, variationLabel: 'B', sentAt: new Date('2026-03-04T09:00:00Z'), isText: true }),
    await recordTestSend({ ...base, campaignId: subseq.id, parentCampaignId: parent.id, leadId: subseqLead.id, emailAccountId: mailbox.id, step: 1, variationId: (subseq.variations as any)[1].A, variationLabel: 'A', sentAt: new Date('2026-03-06T09:00:00Z') }),
    await recordTestSend({ ...base, campaignId: other.id, leadId: otherLead.id, step: 1, variationId: (other.variations as any)[1].A, variationLabel: 'A', sentAt: new Date('2026-03-07T09:00:00Z') }),
  ];
  return { org, ctx, parent, subseq, other, parentLead, subseqLead, sends };
}

describe('campaign emails of a lead', () => {
  it('without a campaign: the lead\'s parent and subsequence sends in one list, newest first, matched case-insensitively', async () => {
    const s = await scenario();
    const out = await executeOperation({ op: operations.unibox.campaignEmails, ctx: s.ctx, input: { workspace_id: s.org.workspaceId, lead: ' JANE.doe@example.COM ' } });
    expect(out.page_trail).toBe('');
    expect(out.data.map((e) => [e.campaign_id, e.parent_camp_id, e.current_step, e.variation, e.is_text])).toEqual([
      [s.subseq.id, s.parent.id, 1, 'A', 0],
      [s.parent.id, '', 2, 'B', 1],
      [s.parent.id, '', 1, 'A', 0],
    ]);
    const first = out.data[2]!;
    expect(first).toEqual({
      id: s.sends[0]!.id,
      organization_id: s.org.organizationId,
      workspace_id: s.org.workspaceId,
      lead_id: s.parentLead.id,
      lead: 'Jane.Doe@Example.com',
      eaccount: 'sender@out.test',
      campaign_id: s.parent.id,
      parent_camp_id: '',
      current_step: 1,
      variation: 'A',
      sent_on: '2026-03-01T09:00:00.123Z',
      message_id: `<${s.sends[0]!.messageId}>`,
      subject: 'Subject 1A',
      body: '<p>Body 1A</p>',
      is_text: 0,
    });
  });

  it('with a parent campaign id: only that campaign; with a subsequence id: only the subsequence', async () => {
    const s = await scenario();
    const byParent = await executeOperation({ op: operations.unibox.campaignEmails, ctx: s.ctx, input: { workspace_id: s.org.workspaceId, lead: 'jane.doe@example.com', campaign_id: s.parent.id } });
    expect(byParent.data.map((e) => e.id)).toEqual([s.sends[1]!.id, s.sends[0]!.id]);
    const bySubseq = await executeOperation({ op: operations.unibox.campaignEmails, ctx: s.ctx, input: { workspace_id: s.org.workspaceId, lead: 'jane.doe@example.com', campaign_id: s.subseq.id } });
    expect(bySubseq.data.map((e) => [e.id, e.parent_camp_id])).toEqual([[s.sends[2]!.id, s.parent.id]]);
    const elsewhere = await executeOperation({ op: operations.unibox.campaignEmails, ctx: s.ctx, input: { workspace_id: s.org.workspaceId, lead: 'jane.doe@example.com', campaign_id: s.other.id } });
    expect(elsewhere.data).toEqual([]);
  });

  it('pages with an opaque keyset page_trail until it is empty', async () => {
    const s = await scenario();
    const base = { db: db.prisma, organizationId: s.org.organizationId, workspaceId: s.org.workspaceId };
    const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'many@example.com' });
    const sameTime = new Date('2026-04-01T10:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      // Three share one timestamp: the id breaks the tie, so none is skipped or repeated.
      const sentAt = i < 3 ? sameTime : new Date(sameTime.getTime() + i * 60_000);
      ids.push((await recordTestSend({ ...base, campaignId: campaign.id, leadId: lead.id, step: 1, variationId: (campaign.variations as any)[1].A, variationLabel: 'A', sentAt })).id);
    }
    const seen: string[] = [];
    let trail: string | undefined;
    let pages = 0;
    do {
      const page = await executeOperation({ op: operations.unibox.campaignEmails, ctx: s.ctx, input: { workspace_id: s.org.workspaceId, lead: 'many@example.com', limit: 3, ...(trail ? { page_trail: trail } : {}) } });
      seen.push(...page.data.map((e) => e.id));
      trail = page.page_trail;
      pages++;
      expect(page.data.length).toBeLessThanOrEqual(3);
    } while (trail);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    const expected = ids.map((id, i) => ({ id, t: i < 3 ? 0 : i })).sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1)).map((x) => x.id);
    expect(seen).toEqual(expected);
  });

  it('refuses a limit below 1, a forged page_trail, a missing lead and a foreign campaign', async () => {
    const s = await scenario();
    const other = await scenario();
    const run = (input: Record<string, unknown>) => executeOperation({ op: operations.unibox.campaignEmails, ctx: s.ctx, input: { workspace_id: s.org.workspaceId, lead: 'jane.doe@example.com', ...input } });
    expect((await expectDomainError(run({ limit: 0 }), 'invalid')).message).toBe('limit must be at least 1');
    expect((await run({ limit: 5000 })).data.length).toBeGreaterThan(0);
    expect((await expectDomainError(run({ page_trail: 'bm9wZQ' }), 'invalid')).message).toBe('page_trail is not a page_trail returned by this API');
    expect((await expectDomainError(run({ lead: undefined }), 'invalid')).fieldErrors[0]!.field).toBe('lead');
    await expectDomainError(run({ campaign_id: other.parent.id }), 'invalid', 'campaign.not_found');
    expect((await run({ lead: 'nobody@example.com' })).data).toEqual([]);
  });
});
