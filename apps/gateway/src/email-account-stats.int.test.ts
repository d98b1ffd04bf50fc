// Issue #13 items 6–8: mailbox reads and statistics as the clients of the vendor API call and
// read them (account list and status, email-stats, email-stats/bulk), over REST, with the bulk
// statistics also over tRPC and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import type { Clock } from '@outreach/core';
import { createTestCampaign, createTestLead, createTestMailbox, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

const { server, org } = useTestServer();
// The server's clock, fixed: "today" is 2026-03-10 (UTC, the workspace's zone).
const NOW = new Date('2026-03-10T15:00:00Z');
let systemClock: Clock;
let ws: string;
let key: string;
let box: { id: string };
let quiet: { id: string };

beforeAll(async () => {
  systemClock = server.deps.service.ports.clock;
  server.deps.service.ports.clock = { now: () => new Date(NOW) };
  ws = org.workspaceId;
  key = org.apiKey;
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws };
  box = await createTestMailbox({ ...base, email: 'sender@out.test' });
  quiet = await createTestMailbox({ ...base, email: 'quiet@out.test' });
  const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }] });
  const send = async (email: string, sentAt: string, extra: { repliedAt?: string; bouncedAt?: string; openedAt?: string; label?: string } = {}) => {
    const lead = await createTestLead({ ...base, campaignId: campaign.id, email, ...(extra.label ? { label: extra.label } : {}) });
    const sent = await recordTestSend({
      ...base,
      campaignId: campaign.id,
      leadId: lead.id,
      emailAccountId: box.id,
      step: 1,
      variationId: campaign.variations[1]!['A']!,
      variationLabel: 'A',
      sentAt: new Date(sentAt),
      repliedAt: extra.repliedAt ? new Date(extra.repliedAt) : null,
      openedAt: extra.openedAt ? new Date(extra.openedAt) : null,
    });
    if (extra.bouncedAt) await server.db.prisma.sentEmail.update({ where: { id: sent.id }, data: { bouncedAt: new Date(extra.bouncedAt) } });
    return sent;
  };
  // Today: 3 sends, one replied (by a positive lead), one bounced at once; an out-of-office answer to the third.
  await send('yes@lead.test', '2026-03-10T08:00:00Z', { repliedAt: '2026-03-10T09:00:00Z', openedAt: '2026-03-10T08:30:00Z', label: 'INTERESTED' });
  await send('gone@lead.test', '2026-03-10T08:05:00Z', { bouncedAt: '2026-03-10T08:05:00Z' });
  const away = await send('away@lead.test', '2026-03-10T08:10:00Z');
  const threadId = newId();
  await server.db.prisma.uniboxThread.create({ data: { id: threadId, workspaceId: ws, emailAccountId: box.id, lastMessageAt: new Date('2026-03-10T08:11:00Z') } });
  await server.db.prisma.uniboxMessage.create({
    data: {
      id: newId(),
      workspaceId: ws,
      threadId,
      emailAccountId: box.id,
      sentEmailId: away.id,
      direction: 'IN',
      messageId: `${newId()}@lead.test`,
      fromAddress: 'away@lead.test',
      classification: 'OUT_OF_OFFICE',
      receivedAt: new Date('2026-03-10T08:11:00Z'),
    },
  });
  // Yesterday: one more.
  await send('later@lead.test', '2026-03-09T10:00:00Z');
});
afterAll(() => {
  if (systemClock) server.deps.service.ports.clock = systemClock;
});

describe('item 6: email accounts as clients read them', () => {
  it('GET /account/list: every account has `id` and `_id`, and payload.analytics carries the engine\'s figures', async () => {
    // A sync job: pages of 100 with skip, reads `a.id ?? a._id` and the analytics objects.
    const res = await server.rest('GET', '/account/list', { key, query: { workspace_id: ws, skip: '0', limit: '100' } });
    expect(res.status).toBe(200);
    const rows = (res.body.accounts as any[]).map((a) => {
      const analytics = a.payload?.analytics ?? {};
      const h = analytics.health_scores ?? {};
      return {
        plusvibe_id: a.id,
        same_id: a.id === a._id,
        email: a.email,
        emails_sent_today: analytics.daily_counters?.email_sent_today ?? null,
        warmup_emails_sent_today: analytics.daily_counters?.warmup_email_sent_today ?? null,
        overall_warmup_health: h['7d_overall_warmup_health'] ?? null,
        bounce_rate_3d: h['3d_bounce_rate'] === -1 ? null : h['3d_bounce_rate'],
        reply_rate_7d: analytics.reply_rates?.['7d_replyrate'] ?? null,
      };
    });
    expect(rows).toEqual([
      // 4 sends in 3 days, 1 bounced (25 %: the most, 70 points, off the health), 1 replied.
      { plusvibe_id: box.id, same_id: true, email: 'sender@out.test', emails_sent_today: 3, warmup_emails_sent_today: 0, overall_warmup_health: 30, bounce_rate_3d: 25, reply_rate_7d: 25 },
      { plusvibe_id: quiet.id, same_id: true, email: 'quiet@out.test', emails_sent_today: 0, warmup_emails_sent_today: 0, overall_warmup_health: 100, bounce_rate_3d: null, reply_rate_7d: -1 },
    ]);
    expect(res.body.accounts[0].payload.analytics.daily_counters).toEqual({ email_sent_today: 3, email_replied_today: 0, email_bounced_today: 1, warmup_email_sent_today: 0 });
    expect(res.body.accounts[0].payload.analytics.reply_rates).toEqual({ '7d_replyrate': 25, '7d_ooo_replyrate': 25 });
  });

  it('GET /account/status answers { status, warmup_status, account }', async () => {
    const res = await server.rest('GET', '/account/status', { key, query: { workspace_id: ws, email: 'SENDER@out.test' } });
    expect(res.status).toBe(200);
    const { account, status, warmup_status } = res.body;
    expect({ account, status, warmup_status }).toEqual({ account: 'sender@out.test', status: 'ACTIVE', warmup_status: 'INACTIVE' });
  });
});

describe('item 7: GET /account/email-stats', () => {
  it('answers every vendor header field and chart rows with label, date and the total_* names', async () => {
    // A dashboard job: one day, the header's counts.
    const day = await server.rest('GET', '/account/email-stats', { key, query: { workspace_id: ws, start_date: '2026-03-10', end_date: '2026-03-10' } });
    expect(day.status).toBe(200);
    expect(day.body.header).toEqual({
      total_sent_count: 3,
      total_reply_count: 1,
      total_ooo_reply_count: 1,
      total_open_count: 1,
      total_bounce_count: 1,
      total_contacted_count: 3,
      total_completed_count: 0,
      total_pos_reply_count: 1,
      bounce_rate: 33.33,
      open_rate: 33.33,
      reply_rate: 33.33,
      reply_rate_with_ooo: 66.67,
      pos_reply_rate: 33.33,
    });
    // A backfill job: per mailbox, the daily chart.
    const chart = await server.rest('GET', '/account/email-stats', { key, query: { workspace_id: ws, email_acc_id: box.id, start_date: '2026-03-09', end_date: '2026-03-10' } });
    const rows = (chart.body.chart as any[]).map((r) => ({ date: r.date.slice(0, 10), label: r.label, sent: r.total_sent_count, replies: r.total_reply_count, ooo: r.total_ooo_reply_count, bounces: r.total_bounce_count, contacted: r.total_contacted_count }));
    expect(rows).toEqual([
      { date: '2026-03-09', label: 'Mar 09', sent: 1, replies: 0, ooo: 0, bounces: 0, contacted: 1 },
      { date: '2026-03-10', label: 'Mar 10', sent: 3, replies: 1, ooo: 1, bounces: 1, contacted: 3 },
    ]);
    expect(Object.keys(chart.body.chart[0]).sort()).toEqual(
      ['label', 'date', 'total_sent_count', 'total_reply_count', 'total_ooo_reply_count', 'total_open_count', 'total_bounce_count', 'total_contacted_count', 'total_completed_count', 'total_pos_reply_count'].sort(),
    );
    const tooLong = await server.rest('GET', '/account/email-stats', { key, query: { workspace_id: ws, start_date: '2026-01-01', end_date: '2026-04-02' } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ field: 'end_date', message: 'must be at most 90 days after start_date' }]);
  });
});

describe('item 8: GET /account/email-stats/bulk', () => {
  it('pages every mailbox with its header and daily chart (an n8n job: page, limit=100, include_chart=true)', async () => {
    const res = await server.rest('GET', '/account/email-stats/bulk', {
      key,
      query: { workspace_id: ws, start_date: '2026-03-09', end_date: '2026-03-10', page: '1', limit: '100', include_chart: 'true' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['accounts', 'has_more', 'limit', 'page', 'total_accounts']);
    expect(res.body).toMatchObject({ page: 1, limit: 100, total_accounts: 2, has_more: false });
    expect(res.body.accounts.map((a: any) => [a.email_acc_id, a.email, a.header.total_sent_count, a.header.reply_rate_with_ooo, a.chart.map((d: any) => d.total_sent_count)])).toEqual([
      [box.id, 'sender@out.test', 4, 50, [1, 3]],
      [quiet.id, 'quiet@out.test', 0, 0, [0, 0]],
    ]);
    const single = await server.rest('GET', '/account/email-stats', { key, query: { workspace_id: ws, email_acc_id: box.id, start_date: '2026-03-09', end_date: '2026-03-10' } });
    expect({ header: res.body.accounts[0].header, chart: res.body.accounts[0].chart }).toEqual(single.body);
  });

  it('reads the given ids without charts (a client chunking 100 ids, include_chart=false), and pages with has_more', async () => {
    const res = await server.rest('GET', '/account/email-stats/bulk', {
      key,
      query: { workspace_id: ws, start_date: '2026-03-10', end_date: '2026-03-10', email_acc_ids: [quiet.id, box.id].join(','), include_chart: 'false', limit: '100' },
    });
    expect(res.status).toBe(200);
    expect(res.body.accounts.map((a: any) => [a.email, a.header.total_bounce_count, a.chart])).toEqual([
      ['sender@out.test', 1, []],
      ['quiet@out.test', 0, []],
    ]);
    const first = await server.rest('GET', '/account/email-stats/bulk', { key, query: { workspace_id: ws, start_date: '2026-03-10', end_date: '2026-03-10', limit: '1' } });
    expect([first.body.total_accounts, first.body.has_more, first.body.accounts.map((a: any) => a.email)]).toEqual([2, true, ['sender@out.test']]);
    const second = await server.rest('GET', '/account/email-stats/bulk', { key, query: { workspace_id: ws, start_date: '2026-03-10', end_date: '2026-03-10', limit: '1', page: '2' } });
    expect([second.body.has_more, second.body.accounts.map((a: any) => a.email)]).toEqual([false, ['quiet@out.test']]);
  });

  it('answers 400 naming the field for more than 100 ids, a malformed id, more than 90 days, and 403 for another organization', async () => {
    const ids = Array.from({ length: 101 }, () => newId()).join(',');
    const range = { workspace_id: ws, start_date: '2026-03-01', end_date: '2026-03-10' };
    const tooMany = await server.rest('GET', '/account/email-stats/bulk', { key, query: { ...range, email_acc_ids: ids } });
    expect([tooMany.status, tooMany.body.errors]).toEqual([400, [{ field: 'email_acc_ids', message: 'must hold at most 100 ids' }]]);
    const malformed = await server.rest('GET', '/account/email-stats/bulk', { key, query: { ...range, email_acc_ids: `${box.id},nope` } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].field).toBe('email_acc_ids.1');
    const tooLong = await server.rest('GET', '/account/email-stats/bulk', { key, query: { ...range, start_date: '2025-12-01' } });
    expect([tooLong.status, tooLong.body.errors[0].field]).toEqual([400, 'end_date']);
    const badFlag = await server.rest('GET', '/account/email-stats/bulk', { key, query: { ...range, include_chart: 'maybe' } });
    expect([badFlag.status, badFlag.body.errors[0].field]).toEqual([400, 'include_chart']);
    const other = await server.rest('GET', '/account/email-stats/bulk', { key, query: { ...range, workspace_id: newId() } });
    expect(other.status).toBe(403);
  });

  it('is the same operation over tRPC', async () => {
    const viaTrpc = await server.trpc(key).emailAccount.emailStatsBulk.query({ workspace_id: ws, start_date: '2026-03-10', end_date: '2026-03-10', email_acc_ids: [box.id], include_chart: false });
    expect(viaTrpc).toMatchObject({ total_accounts: 1, accounts: [{ email_acc_id: box.id, header: { total_sent_count: 3, total_ooo_reply_count: 1 }, chart: [] }] });
  });
});
