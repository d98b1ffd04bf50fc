// Email-stats of the workspace, of one mailbox and per mailbox in bulk, against sends, opens,
// replies, bounces and out-of-office answers recorded as the engine records them.
import { describe, expect, it } from 'vitest';
import { newId, type PrismaClient } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestTenant, expectDomainError, recordTestSend, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { emailAccountOperations as ops } from './index';

const db = useTestDatabase();

/** An e-mail received by `mailboxId` in answer to a send, as reply ingestion stores it. */
async function received(prisma: PrismaClient, options: { workspaceId: string; mailboxId: string; sentEmailId: string; classification: string; at: string }) {
  const threadId = newId();
  await prisma.uniboxThread.create({ data: { id: threadId, workspaceId: options.workspaceId, emailAccountId: options.mailboxId, lastMessageAt: new Date(options.at) } });
  await prisma.uniboxMessage.create({
    data: {
      id: newId(),
      workspaceId: options.workspaceId,
      threadId,
      emailAccountId: options.mailboxId,
      sentEmailId: options.sentEmailId,
      direction: 'IN',
      messageId: `${newId()}@lead.test`,
      fromAddress: 'lead@x.test',
      classification: options.classification,
      receivedAt: new Date(options.at),
    },
  });
}

async function fixture() {
  const tenant = await createTestTenant({ db });
  const { base } = tenant;
  const box = await createTestMailbox({ ...base, email: 'a@out.test' });
  const otherBox = await createTestMailbox({ ...base, email: 'b@out.test' });
  const idleBox = await createTestMailbox({ ...base, email: 'c@out.test' });
  const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }] });
  const variationId = campaign.variations[1]!['A']!;
  const l1 = await createTestLead({ ...base, campaignId: campaign.id, email: 'l1@x.test', label: 'INTERESTED' });
  const l2 = await createTestLead({ ...base, campaignId: campaign.id, email: 'l2@x.test' });
  const l3 = await createTestLead({ ...base, campaignId: campaign.id, email: 'l3@x.test' });
  await db.prisma.lead.update({ where: { id: l2.id }, data: { isCompleted: true } });
  const send = (leadId: string, sentAt: string, extra: { openedAt?: Date; repliedAt?: Date; emailAccountId?: string } = {}) =>
    recordTestSend({ ...base, campaignId: campaign.id, leadId, step: 1, variationId, variationLabel: 'A', sentAt: new Date(sentAt), emailAccountId: box.id, ...extra });
  await send(l1.id, '2026-03-01T10:00:00Z', { openedAt: new Date('2026-03-01T11:00:00Z'), repliedAt: new Date('2026-03-02T09:00:00Z') });
  await send(l1.id, '2026-03-03T23:59:59Z');
  const toL2 = await send(l2.id, '2026-03-03T00:00:00Z', { openedAt: new Date('2026-03-03T01:00:00Z') });
  // l2 is away: its auto-reply is an out-of-office answer, not a reply.
  await received(db.prisma, { workspaceId: tenant.ws, mailboxId: box.id, sentEmailId: toL2.id, classification: 'OUT_OF_OFFICE', at: '2026-03-03T00:00:30Z' });
  const bounced = await send(l3.id, '2026-03-03T12:00:00Z');
  await db.prisma.sentEmail.update({ where: { id: bounced.id }, data: { bouncedAt: new Date('2026-03-03T12:00:05Z') } });
  // Outside the range (one of them answered out of office), and from another mailbox.
  const later = await send(l3.id, '2026-03-04T00:00:00Z');
  await received(db.prisma, { workspaceId: tenant.ws, mailboxId: box.id, sentEmailId: later.id, classification: 'OUT_OF_OFFICE', at: '2026-03-04T01:00:00Z' });
  await send(l3.id, '2026-02-28T23:59:59Z');
  const fromOther = await send(l3.id, '2026-03-02T12:00:00Z', { emailAccountId: otherBox.id });
  await received(db.prisma, { workspaceId: tenant.ws, mailboxId: otherBox.id, sentEmailId: fromOther.id, classification: 'OUT_OF_OFFICE', at: '2026-03-02T13:00:00Z' });
  return { ...tenant, box, otherBox, idleBox };
}

const zeroDay = (label: string, date: string) => ({
  label,
  date,
  total_sent_count: 0,
  total_reply_count: 0,
  total_ooo_reply_count: 0,
  total_open_count: 0,
  total_bounce_count: 0,
  total_contacted_count: 0,
  total_completed_count: 0,
  total_pos_reply_count: 0,
});

// The mailbox `a@out.test` over 2026-03-01..03.
const BOX_CHART = [
  { ...zeroDay('Mar 01', '2026-03-01'), total_sent_count: 1, total_reply_count: 1, total_open_count: 1, total_contacted_count: 1, total_pos_reply_count: 1 },
  zeroDay('Mar 02', '2026-03-02'),
  { ...zeroDay('Mar 03', '2026-03-03'), total_sent_count: 3, total_ooo_reply_count: 1, total_open_count: 1, total_bounce_count: 1, total_contacted_count: 3, total_completed_count: 1 },
];
const BOX_HEADER = {
  total_sent_count: 4,
  total_reply_count: 1,
  total_ooo_reply_count: 1,
  total_open_count: 2,
  total_bounce_count: 1,
  total_contacted_count: 3,
  total_completed_count: 1,
  total_pos_reply_count: 1,
  bounce_rate: 25,
  open_rate: 66.67,
  reply_rate: 33.33,
  reply_rate_with_ooo: 66.67,
  pos_reply_rate: 33.33,
};

describe('email-stats', () => {
  it('counts per day and in the header every vendor figure, out-of-office answers apart from replies', async () => {
    const { ctx, ws, box } = await fixture();
    const stats = await executeOperation({ op: ops.emailStats, ctx, input: { workspace_id: ws, start_date: '2026-03-01', end_date: '2026-03-03', email_acc_id: box.id } });
    expect(stats.chart).toEqual(BOX_CHART);
    expect(stats.header).toEqual(BOX_HEADER);

    const whole = await executeOperation({ op: ops.emailStats, ctx, input: { workspace_id: ws, start_date: '2026-03-02', end_date: '2026-03-02' } });
    expect(whole.chart).toEqual([{ ...zeroDay('Mar 02', '2026-03-02'), total_sent_count: 1, total_ooo_reply_count: 1, total_contacted_count: 1 }]);
    expect(whole.header).toMatchObject({ total_contacted_count: 1, total_ooo_reply_count: 1, reply_rate: 0, reply_rate_with_ooo: 100 });
  });

  it('refuses a range over 90 days or reversed, naming end_date', async () => {
    const { ctx, ws } = await createTestTenant({ db });
    // 2026-04-01 is 90 days after 2026-01-01; a day more is refused.
    const widest = await executeOperation({ op: ops.emailStats, ctx, input: { workspace_id: ws, start_date: '2026-01-01', end_date: '2026-04-01' } });
    expect(widest.chart).toHaveLength(91);
    expect(widest.chart[90]).toEqual(zeroDay('Apr 01', '2026-04-01'));
    const long = await expectDomainError(executeOperation({ op: ops.emailStats, ctx, input: { workspace_id: ws, start_date: '2026-01-01', end_date: '2026-04-02' } }), 'invalid');
    expect(long.fieldErrors).toEqual([{ field: 'end_date', message: 'must be at most 90 days after start_date' }]);
    const reversed = await expectDomainError(executeOperation({ op: ops.emailStats, ctx, input: { workspace_id: ws, start_date: '2026-03-02', end_date: '2026-03-01' } }), 'invalid');
    expect(reversed.fieldErrors[0]!.field).toBe('end_date');
  });
});

describe('email-stats in bulk', () => {
  it('answers each mailbox as email-stats does for it, a page at a time', async () => {
    const { ctx, ws, box, otherBox, idleBox } = await fixture();
    const range = { workspace_id: ws, start_date: '2026-03-01', end_date: '2026-03-03' };
    const first = await executeOperation({ op: ops.emailStatsBulk, ctx, input: { ...range, page: '1', limit: '2' } });
    expect({ ...first, accounts: first.accounts.map((a) => a.email_acc_id) }).toEqual({ page: 1, limit: 2, total_accounts: 3, has_more: true, accounts: [box.id, otherBox.id] });
    expect(first.accounts[0]).toEqual({ email_acc_id: box.id, email: 'a@out.test', header: BOX_HEADER, chart: BOX_CHART });
    for (const account of first.accounts) {
      const single = await executeOperation({ op: ops.emailStats, ctx, input: { ...range, email_acc_id: account.email_acc_id } });
      expect({ header: account.header, chart: account.chart }).toEqual(single);
    }
    expect(first.accounts[1]!.header).toMatchObject({ total_sent_count: 1, total_ooo_reply_count: 1, reply_rate_with_ooo: 100 });

    const second = await executeOperation({ op: ops.emailStatsBulk, ctx, input: { ...range, page: '2', limit: '2', include_chart: 'false' } });
    expect(second).toMatchObject({ page: 2, limit: 2, total_accounts: 3, has_more: false });
    expect(second.accounts).toEqual([{ email_acc_id: idleBox.id, email: 'c@out.test', header: expect.objectContaining({ total_sent_count: 0, bounce_rate: 0 }), chart: [] }]);
    const beyond = await executeOperation({ op: ops.emailStatsBulk, ctx, input: { ...range, page: '3', limit: '2' } });
    expect([beyond.accounts, beyond.has_more]).toEqual([[], false]);
  });

  it('reads the mailboxes of email_acc_ids, leaving out other workspaces\' ids; a larger limit is read as 100', async () => {
    const { ctx, ws, box, idleBox } = await fixture();
    const foreign = await fixture();
    const bulk = await executeOperation({
      op: ops.emailStatsBulk,
      ctx,
      input: { workspace_id: ws, start_date: '2026-03-03', end_date: '2026-03-03', email_acc_ids: `${idleBox.id}, ${foreign.box.id},${box.id}`, limit: '500' },
    });
    expect(bulk).toMatchObject({ page: 1, limit: 100, total_accounts: 2, has_more: false });
    expect(bulk.accounts.map((a) => [a.email, a.header.total_sent_count, a.chart.length])).toEqual([
      ['a@out.test', 3, 1],
      ['c@out.test', 0, 1],
    ]);
  });

  it('refuses more than 100 ids, a malformed id and a range over 90 days, naming the field', async () => {
    const { ctx, ws } = await createTestTenant({ db });
    const range = { workspace_id: ws, start_date: '2026-01-01', end_date: '2026-01-31' };
    const ids = Array.from({ length: 101 }, () => newId());
    const tooMany = await expectDomainError(executeOperation({ op: ops.emailStatsBulk, ctx, input: { ...range, email_acc_ids: ids.join(',') } }), 'invalid');
    expect(tooMany.fieldErrors).toEqual([{ field: 'email_acc_ids', message: 'must hold at most 100 ids' }]);
    expect((await executeOperation({ op: ops.emailStatsBulk, ctx, input: { ...range, email_acc_ids: ids.slice(0, 100).join(',') } })).total_accounts).toBe(0);
    const malformed = await expectDomainError(executeOperation({ op: ops.emailStatsBulk, ctx, input: { ...range, email_acc_ids: `${ids[0]},nope` } }), 'invalid');
    expect(malformed.fieldErrors[0]!.field).toMatch(/^email_acc_ids/);
    const long = await expectDomainError(executeOperation({ op: ops.emailStatsBulk, ctx, input: { ...range, end_date: '2026-04-02' } }), 'invalid');
    expect(long.fieldErrors[0]!.field).toBe('end_date');
    const missing = await expectDomainError(executeOperation({ op: ops.emailStatsBulk, ctx, input: { workspace_id: ws, end_date: '2026-01-31' } }), 'invalid');
    expect(missing.fieldErrors[0]!.field).toBe('start_date');
  });
});
