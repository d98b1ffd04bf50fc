// Issue #13, items 9–12: reads replayed as public clients of the vendor API make them (plain
// REST calls with x-api-key, workspace_id in the query on GET and in the body otherwise) and
// read the answers the way those clients do.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

const { server, org } = useTestServer();
const ws = () => org.workspaceId;
const get = (path: string, query: Record<string, string> = {}) => server.rest('GET', path, { key: org.apiKey, query: { workspace_id: ws(), ...query } });
const send = (method: string, path: string, body: Record<string, unknown>) => server.rest(method, path, { key: org.apiKey, body: { workspace_id: ws(), ...body } });
const base = () => ({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws() });

describe('GET /analytics/campaign/stats read as per-campaign statistics (item 9)', () => {
  let alpha: { id: string };
  let beta: { id: string };
  beforeAll(async () => {
    const steps = [{ variations: [{ label: 'A' }] }];
    alpha = await createTestCampaign({ ...base(), name: 'Stats alpha', status: 'ACTIVE', steps });
    beta = await createTestCampaign({ ...base(), name: 'Stats beta', status: 'ACTIVE', steps });
    // Newest campaign first: beta, then alpha.
    await server.db.prisma.campaign.update({ where: { id: alpha.id }, data: { createdAt: new Date('2026-01-01T00:00:00Z') } });
    const variationOf = (c: any) => c.variations[1].A as string;
    const sends: [any, string, string, { opened?: boolean; replied?: boolean }][] = [
      [alpha, 'a1@stats.test', '2026-04-01T09:00:00Z', { opened: true, replied: true }],
      [alpha, 'a2@stats.test', '2026-04-02T09:00:00Z', { opened: true }],
      [beta, 'b1@stats.test', '2026-04-02T10:00:00Z', {}],
    ];
    for (const [campaign, email, at, flags] of sends) {
      const lead = await createTestLead({ ...base(), campaignId: campaign.id, email, label: flags.replied ? 'INTERESTED' : null });
      await recordTestSend({
        ...base(),
        campaignId: campaign.id,
        leadId: lead.id,
        step: 1,
        variationId: variationOf(campaign),
        variationLabel: 'A',
        sentAt: new Date(at),
        openedAt: flags.opened ? new Date(at) : null,
        repliedAt: flags.replied ? new Date(at) : null,
      });
    }
  });

  it('without campaign_id: every value of data is one campaign\'s figures (a client iterates data.values() and reads sent_count)', async () => {
    const r = await get('/analytics/campaign/stats', { start_date: '2026-04-01', end_date: '2026-04-03' });
    expect(r.status).toBe(200);
    // The client: for stat in resp.json()["data"].values(): total += stat.get("sent_count", 0)
    const values = Object.values(r.body.data) as Record<string, unknown>[];
    expect(values.map((v) => [v['camp_name'], v['sent_count']])).toEqual([
      ['Stats beta', 1],
      ['Stats alpha', 2],
    ]);
    expect(values.reduce((total, v) => total + (v['sent_count'] as number), 0)).toBe(3);
    expect(r.body.data[alpha.id]).toEqual({
      campaign_id: alpha.id,
      camp_name: 'Stats alpha',
      sent_count: 2,
      replied_count: 1,
      bounced_count: 0,
      positive_reply_count: 1,
      opened_count: 2,
      unique_opened_count: 2,
      lead_contacted_count: 2,
    });
    // The daily breakdown sits beside data, not in it.
    expect(r.body.daily.map((d: any) => [d.date, d.sent_count])).toEqual([
      ['2026-04-01', 1],
      ['2026-04-02', 2],
      ['2026-04-03', 0],
    ]);
  });

  it('with campaign_id: the one campaign, and its days', async () => {
    const r = await get('/analytics/campaign/stats', { campaign_id: beta.id, start_date: '2026-04-01', end_date: '2026-04-02' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data)).toEqual([beta.id]);
    expect(r.body.data[beta.id]).toMatchObject({ camp_name: 'Stats beta', sent_count: 1, lead_contacted_count: 1, replied_count: 0 });
    expect(r.body.daily.map((d: any) => d.sent_count)).toEqual([0, 1]);
    const unknown = await get('/analytics/campaign/stats', { campaign_id: 'f'.repeat(24), start_date: '2026-04-01', end_date: '2026-04-02' });
    expect(unknown.status).toBe(404);
  });
});

describe('campaign reads answer the schedule in the vendor\'s read shape (item 10)', () => {
  it('a schedule written in the write shape reads back as day names, from_time / to_time and tz, not the client\'s Mon–Fri 10–17 fallback', async () => {
    const created = await send('POST', '/campaign/add/campaign', { camp_name: 'Tokyo weekends' });
    expect(created.status).toBe(200);
    const campaignId = created.body.id;
    const patched = await send('PATCH', '/campaign/update/campaign', {
      campaign_id: campaignId,
      schedules: [
        {
          daily_limit: 30,
          daily_limit_new_lead: 12,
          start_date: '2026-09-07',
          days: { '2': true, '4': true, '6': true },
          timezone: 'Asia/Tokyo',
          timing: { from: '08:15', to: '18:45' },
        },
      ],
    });
    expect(patched.status).toBe(200);

    const listed = await get('/campaign/list-all', { campaign_id: campaignId });
    expect(listed.status).toBe(200);
    const schedule = listed.body[0].schedule;
    // The client's reading: anything it cannot read falls back to Mon–Fri, 10:00–17:00, its own zone.
    const read = {
      days: Array.isArray(schedule?.days) ? schedule.days : ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      from: typeof schedule?.from_time === 'string' ? schedule.from_time : '10:00',
      to: typeof schedule?.to_time === 'string' ? schedule.to_time : '17:00',
      tz: schedule?.tz ?? schedule?.timezone ?? 'UTC',
    };
    expect(read).toEqual({ days: ['Tuesday', 'Thursday', 'Saturday'], from: '08:15', to: '18:45', tz: 'Asia/Tokyo' });
    expect(schedule).toMatchObject({ timezone: 'Asia/Tokyo', daily_limit: 30, daily_limit_new_lead: 12 });
    expect(schedule).not.toHaveProperty('timing');

    // A client that edits what it read sends the read shape back: accepted, and nothing changes.
    const { start_date: _start, end_date: _end, ...readBack } = schedule;
    const again = await send('PATCH', '/campaign/update/campaign', { campaign_id: campaignId, schedules: [{ ...readBack, days: [...readBack.days, 'Monday'] }] });
    expect(again.status).toBe(200);
    const relisted = (await get('/campaign/list-all', { campaign_id: campaignId })).body[0].schedule;
    expect(relisted).toEqual({ ...schedule, days: ['Monday', 'Tuesday', 'Thursday', 'Saturday'] });
    const wrong = await send('PATCH', '/campaign/update/campaign', { campaign_id: campaignId, schedules: [{ ...readBack, days: ['Funday'] }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('schedules.0.days.0');
  });
});

describe('lead custom variables under both names (item 11)', () => {
  let campaignId: string;
  beforeAll(async () => {
    campaignId = (await createTestCampaign({ ...base(), name: 'Variables' })).id;
  });

  it('a lead added with custom_x keys and custom_variables reads back with each variable as x and as custom_x', async () => {
    const added = await send('POST', '/lead/add', {
      campaign_id: campaignId,
      leads: [{ email: 'vars@client.test', first_name: 'Vee', custom_one_line: 'Saw your talk', custom_variables: { tier: 'gold' } }],
    });
    expect(added.status).toBe(200);
    expect(added.body.leads_uploaded).toBe(1);

    const [lead] = (await get('/lead/get', { email: 'vars@client.test' })).body;
    // One client reads lead["custom_one_line"], another lead["one_line"].
    expect([lead.custom_one_line, lead.one_line, lead.custom_tier, lead.tier, lead.first_name]).toEqual(['Saw your talk', 'Saw your talk', 'gold', 'gold', 'Vee']);
    expect(lead).not.toHaveProperty('custom_custom_one_line');

    const page = await get('/lead/workspace-leads', { campaign_id: campaignId, limit: '100' });
    expect(page.status).toBe(200);
    const listed = page.body.find((l: any) => l.email === 'vars@client.test');
    expect([listed.custom_one_line, listed.one_line, listed.custom_tier, listed.tier]).toEqual(['Saw your talk', 'Saw your talk', 'gold', 'gold']);
  });

  it('an update naming a variable custom_x changes x; given both names, the plain one wins', async () => {
    await send('POST', '/lead/add', { campaign_id: campaignId, leads: [{ email: 'upd@client.test', region: 'EU' }] });
    const updated = await send('POST', '/lead/data/update', { email: 'upd@client.test', variables: { custom_region: 'Nordics', custom_seats: '12', seats: '15' } });
    expect(updated.status).toBe(200);
    const [lead] = (await get('/lead/get', { email: 'upd@client.test' })).body;
    expect([lead.region, lead.custom_region, lead.seats, lead.custom_seats]).toEqual(['Nordics', 'Nordics', '15', '15']);
  });
});

describe('0/1 flags are numbers on the wire (item 12)', () => {
  it('unibox e-mails carry is_unread 1, then 0 once the thread is read', async () => {
    const mailbox = await createTestMailbox({ ...base(), email: 'flags@sender.test' });
    const campaign = await createTestCampaign({ ...base(), status: 'ACTIVE' });
    const lead = await createTestLead({ ...base(), campaignId: campaign.id, email: 'flags@lead.test' });
    const threadId = newId();
    const at = new Date(Date.now() - 60_000);
    await server.db.prisma.uniboxThread.create({ data: { id: threadId, workspaceId: ws(), emailAccountId: mailbox.id, leadId: lead.id, campaignId: campaign.id, subject: 'Hi', isUnread: true, lastMessageAt: at } });
    const id = newId();
    await server.db.prisma.uniboxMessage.create({
      data: {
        id, workspaceId: ws(), threadId, emailAccountId: mailbox.id, leadId: lead.id, campaignId: campaign.id, direction: 'IN', folder: 'INBOX', messageId: `${id}@lead.test`,
        fromAddress: 'flags@lead.test', fromJson: [{ address: 'flags@lead.test', name: '' }], toJson: [{ address: 'flags@sender.test', name: '' }],
        subject: 'Re: Hi', textBody: 'Yes', isUnread: true, receivedAt: at,
      },
    });
    // The client: unread = [e for e in data if e["is_unread"] == 1]
    const unread = await get('/unibox/emails', { lead: 'flags@lead.test' });
    expect(unread.body.data.map((e: any) => e.is_unread)).toEqual([1]);
    expect((await send('POST', `/unibox/threads/${threadId}/mark-as-read`, {})).status).toBe(200);
    const read = await get('/unibox/emails', { lead: 'flags@lead.test' });
    expect(read.body.data.map((e: any) => e.is_unread)).toEqual([0]);
  });

  it('lead labels carry is_system and is_ai_label as 0/1; campaign e-mails is_text as 0/1', async () => {
    const labels = (await get('/workspace-settings/lead-labels')).body;
    expect(labels.find((l: any) => l.key === 'INTERESTED')).toMatchObject({ is_system: 1, is_ai_label: 0 });
    const added = await send('POST', '/workspace-settings/lead-labels/add', { name: 'Call later', sentiment: 'NEUTRAL' });
    expect(added.body).toMatchObject({ key: 'CALL_LATER', is_system: 0, is_ai_label: 0 });

    const campaign = await createTestCampaign({ ...base(), status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const lead = await createTestLead({ ...base(), campaignId: campaign.id, email: 'text@lead.test' });
    await recordTestSend({ ...base(), campaignId: campaign.id, leadId: lead.id, step: 1, variationId: (campaign.variations as any)[1].A, variationLabel: 'A', sentAt: new Date('2026-04-01T09:00:00Z'), isText: true });
    const emails = (await get('/unibox/campaign-emails', { lead: 'text@lead.test' })).body;
    expect(emails.data.map((e: any) => e.is_text)).toEqual([1]);
  });
});
