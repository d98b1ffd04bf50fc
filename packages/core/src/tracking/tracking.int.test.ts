import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import {
  createTestCampaign,
  createTestLead,
  createTestOrganization,
  createTestTenant,
  recordTestSend,
  testServiceDeps,
  useTestDatabase,
} from '../testing/index';
import type { Clock } from '../shared/ports';
import { trackingToken } from './tracking-token';
import { describeUnsubscribe, maskEmail, recordOpen, unsubscribeByToken } from './tracking.service';

const db = useTestDatabase();

const SENT_AT = new Date('2026-03-02T09:00:00.000Z');
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

/** A clock the test moves by hand. */
function manualClock(start: Date): Clock & { set(at: Date | number): void } {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    set: (at) => {
      now = new Date(typeof at === 'number' ? SENT_AT.getTime() + at : at);
    },
  };
}

async function setup() {
  const clock = manualClock(SENT_AT);
  const { org, deps, base } = await createTestTenant({ db, clock });
  const campaign = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }, { variations: [{ label: 'A' }] }] });
  /** A lead of `campaignId` (default: the campaign above) with one send of step 1. */
  async function leadWithSend(email: string, campaignId = campaign.id, variationId = campaign.variations[1]!['A']!) {
    const lead = await createTestLead({ ...base, campaignId, email });
    // Something is due to the lead, as the scheduler leaves it after a send.
    await db.prisma.lead.update({ where: { id: lead.id }, data: { status: 'CONTACTED', currentStep: 1, nextSendAt: new Date('2026-03-04T09:00:00Z') } });
    const send = await recordTestSend({ ...base, campaignId, leadId: lead.id, step: 1, variationId, variationLabel: 'A', sentAt: SENT_AT });
    return { leadId: lead.id, sendId: send.id };
  }
  const token = (purpose: 'open' | 'unsubscribe', sendId: string) => trackingToken({ secrets: deps.secrets, purpose, sendId });
  return { org, ws: org.workspaceId, base, clock, deps, campaign, leadWithSend, token };
}

const opensOf = (sentEmailId: string) => db.prisma.emailEvent.findMany({ where: { sentEmailId, type: 'OPEN' }, orderBy: { occurredAt: 'asc' } });

describe('recordOpen', () => {
  it('records a human open and sets opened_at once, at the first human open', async () => {
    const { clock, deps, leadWithSend, token } = await setup();
    const { sendId, leadId } = await leadWithSend('reader@open.test');
    clock.set(60_000);
    expect(await recordOpen({ deps, token: token('open', sendId), userAgent: CHROME, ip: '203.0.113.7' })).toBe('recorded');
    clock.set(3_600_000);
    expect(await recordOpen({ deps, token: token('open', sendId), userAgent: CHROME, ip: '203.0.113.8' })).toBe('recorded');

    const send = await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } });
    expect(send.openedAt).toEqual(new Date(SENT_AT.getTime() + 60_000));
    const events = await opensOf(sendId);
    expect(events.map((e) => [e.isMachine, e.leadId, e.campaignId, e.occurredAt.getTime() - SENT_AT.getTime()])).toEqual([
      [false, leadId, send.campaignId, 60_000],
      [false, leadId, send.campaignId, 3_600_000],
    ]);
    expect(events[0]!.data).toEqual({ user_agent: CHROME, ip: '203.0.113.7', reason: null });
  });

  it('records machine opens (too soon, image proxy, no user agent) without setting opened_at', async () => {
    const { clock, deps, leadWithSend, token } = await setup();
    const { sendId } = await leadWithSend('scanned@open.test');
    clock.set(2_000);
    expect(await recordOpen({ deps, token: token('open', sendId), userAgent: CHROME, ip: '198.51.100.1' })).toBe('recorded');
    clock.set(120_000);
    expect(await recordOpen({ deps, token: token('open', sendId), userAgent: GMAIL_PROXY, ip: '66.249.84.1' })).toBe('recorded');
    expect(await recordOpen({ deps, token: token('open', sendId), userAgent: undefined, ip: null })).toBe('recorded');

    expect((await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } })).openedAt).toBeNull();
    const events = await opensOf(sendId);
    expect(events.map((e) => [e.isMachine, (e.data as { reason: string }).reason])).toEqual([
      [true, 'too_soon'],
      [true, 'proxy'],
      [true, 'no_user_agent'],
    ]);
    expect(events[2]!.data).toEqual({ user_agent: null, ip: null, reason: 'no_user_agent' });

    // A later human open is still the first human one.
    clock.set(600_000);
    await recordOpen({ deps, token: token('open', sendId), userAgent: CHROME, ip: '203.0.113.9' });
    expect((await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } })).openedAt).toEqual(new Date(SENT_AT.getTime() + 600_000));
  });

  it('ignores forged, malformed and wrong-purpose tokens and sends that no longer exist, recording nothing', async () => {
    const { clock, deps, leadWithSend, token } = await setup();
    const { sendId } = await leadWithSend('forged@open.test');
    clock.set(60_000);
    const valid = token('open', sendId);
    const forged = `${sendId}.${'A'.repeat(22)}`;
    const otherKey = trackingToken({ secrets: testServiceDeps({ db }).secrets, purpose: 'open', sendId });
    for (const bad of [forged, otherKey, token('unsubscribe', sendId), '', 'x', `${valid}.gif`, `${valid}x`, valid.toUpperCase(), 'a'.repeat(10_000)]) {
      expect(await recordOpen({ deps, token: bad, userAgent: CHROME, ip: '203.0.113.7' }), bad.slice(0, 40)).toBe('ignored');
    }
    // A genuine token of a send that was deleted (with its lead).
    const gone = await leadWithSend('gone@open.test');
    const goneToken = token('open', gone.sendId);
    await db.prisma.lead.delete({ where: { id: gone.leadId } });
    expect(await recordOpen({ deps, token: goneToken, userAgent: CHROME, ip: null })).toBe('ignored');

    expect(await opensOf(sendId)).toEqual([]);
    expect((await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } })).openedAt).toBeNull();
  });

  it('cuts a huge user agent before storing it', async () => {
    const { clock, deps, leadWithSend, token } = await setup();
    const { sendId } = await leadWithSend('long-ua@open.test');
    clock.set(60_000);
    await recordOpen({ deps, token: token('open', sendId), userAgent: `Mozilla/5.0 ${'x'.repeat(5_000)}`, ip: null });
    const [event] = await opensOf(sendId);
    expect((event!.data as { user_agent: string }).user_agent).toHaveLength(512);
  });
});

describe('unsubscribeByToken', () => {
  it('unsubscribes the lead, blocklists the address and stops its unfinished leads in other campaigns of the workspace', async () => {
    const { org, ws, base, clock, deps, campaign, leadWithSend, token } = await setup();
    const { sendId, leadId } = await leadWithSend('Jane.Doe@Example.com');
    // The lead holds a claim on its next step (a worker is mid-send).
    await db.prisma.lead.update({ where: { id: leadId }, data: { claimedAt: SENT_AT } });
    // The same address in two other campaigns: one still running, one that replied (finished).
    const other = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const running = await leadWithSend('jane.doe@example.com', other.id, other.variations[1]!['A']!);
    const notYetContacted = await createTestCampaign({ ...base, status: 'DRAFT' });
    const fresh = await createTestLead({ ...base, campaignId: notYetContacted.id, email: 'JANE.DOE@example.com' });
    const third = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const replied = await leadWithSend('jane.doe@example.com', third.id, third.variations[1]!['A']!);
    await db.prisma.lead.update({ where: { id: replied.leadId }, data: { status: 'REPLIED', isCompleted: true, nextSendAt: null } });
    // Someone else in the campaign, and the same address in another organization.
    const bystander = await leadWithSend('john@example.com');
    const otherOrg = await createTestOrganization({ db });
    const otherCampaign = await createTestCampaign({ db: db.prisma, organizationId: otherOrg.organizationId, workspaceId: otherOrg.workspaceId, status: 'ACTIVE' });
    const elsewhere = await createTestLead({ db: db.prisma, organizationId: otherOrg.organizationId, workspaceId: otherOrg.workspaceId, campaignId: otherCampaign.id, email: 'jane.doe@example.com' });

    clock.set(86_400_000);
    const now = clock.now();
    expect(await unsubscribeByToken({ deps, token: token('unsubscribe', sendId) })).toEqual({ status: 'unsubscribed', email: 'Jane.Doe@Example.com' });

    const send = await db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } });
    expect(send.unsubscribedAt).toEqual(now);
    const unsubscribeEvents = await db.prisma.emailEvent.findMany({ where: { sentEmailId: sendId, type: 'UNSUBSCRIBE' } });
    expect(unsubscribeEvents.map((e) => [e.leadId, e.campaignId, e.isMachine, e.occurredAt])).toEqual([[leadId, campaign.id, false, now]]);

    const lead = await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect(lead).toMatchObject({ status: 'UNSUBSCRIBED', isCompleted: true, nextSendAt: null, claimedAt: null, statusReason: 'unsubscribed by the recipient' });
    for (const id of [running.leadId, fresh.id]) {
      expect(await db.prisma.lead.findUniqueOrThrow({ where: { id } })).toMatchObject({
        status: 'UNSUBSCRIBED',
        isCompleted: true,
        nextSendAt: null,
        claimedAt: null,
        statusReason: 'unsubscribed by the recipient from another campaign',
      });
    }
    // A finished lead keeps its status; other addresses and organizations are untouched.
    expect(await db.prisma.lead.findUniqueOrThrow({ where: { id: replied.leadId } })).toMatchObject({ status: 'REPLIED', statusReason: null });
    expect(await db.prisma.lead.findUniqueOrThrow({ where: { id: bystander.leadId } })).toMatchObject({ status: 'CONTACTED', nextSendAt: expect.any(Date) });
    expect(await db.prisma.lead.findUniqueOrThrow({ where: { id: elsewhere.id } })).toMatchObject({ status: 'NOT_CONTACTED' });

    const blocklist = await db.prisma.blocklistEntry.findMany({ where: { workspaceId: ws } });
    expect(blocklist.map((b) => [b.value, b.isDomain, b.createdByLabel])).toEqual([['jane.doe@example.com', false, 'UNSUBSCRIBE']]);
    expect(await db.prisma.blocklistEntry.count({ where: { workspaceId: otherOrg.workspaceId } })).toBe(0);

    const leadEvents = await db.prisma.leadEvent.findMany({ where: { workspaceId: ws, type: 'UNSUBSCRIBED' } });
    expect(leadEvents.map((e) => [e.leadId, e.data]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual(
      [
        [leadId, { sent_email_id: sendId }],
        [running.leadId, { sent_email_id: sendId, via_lead_id: leadId }],
        [fresh.id, { sent_email_id: sendId, via_lead_id: leadId }],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(org.organizationId).toBeTruthy();
  });

  it('answers already_unsubscribed on a second call, and through another campaign\'s link, changing nothing', async () => {
    const { ws, base, clock, deps, leadWithSend, token } = await setup();
    const { sendId, leadId } = await leadWithSend('twice@example.com');
    const other = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const sibling = await leadWithSend('twice@example.com', other.id, other.variations[1]!['A']!);
    clock.set(60_000);
    expect((await unsubscribeByToken({ deps, token: token('unsubscribe', sendId) })).status).toBe('unsubscribed');
    const snapshot = async () => ({
      sends: await db.prisma.sentEmail.findMany({ where: { workspaceId: ws }, orderBy: { id: 'asc' } }),
      leads: await db.prisma.lead.findMany({ where: { workspaceId: ws }, orderBy: { id: 'asc' } }),
      emailEvents: await db.prisma.emailEvent.count({ where: { workspaceId: ws } }),
      leadEvents: await db.prisma.leadEvent.count({ where: { workspaceId: ws } }),
      blocklist: await db.prisma.blocklistEntry.findMany({ where: { workspaceId: ws } }),
    });
    const before = await snapshot();
    clock.set(120_000);
    expect(await unsubscribeByToken({ deps, token: token('unsubscribe', sendId) })).toEqual({ status: 'already_unsubscribed', email: 'twice@example.com' });
    // The sibling was stopped with the address: its own link answers the same.
    expect(await unsubscribeByToken({ deps, token: token('unsubscribe', sibling.sendId) })).toEqual({ status: 'already_unsubscribed', email: 'twice@example.com' });
    expect(await snapshot()).toEqual(before);
    expect(leadId).not.toBe(sibling.leadId);
  });

  it('unsubscribes a finished lead through its own link, keeping an existing blocklist entry', async () => {
    const { ws, clock, deps, leadWithSend, token } = await setup();
    const { sendId, leadId } = await leadWithSend('done@example.com');
    await db.prisma.lead.update({ where: { id: leadId }, data: { status: 'REPLIED', isCompleted: true, nextSendAt: null } });
    await db.prisma.blocklistEntry.create({ data: { id: newId(), workspaceId: ws, value: 'done@example.com', isDomain: false, createdByLabel: 'API' } });
    clock.set(60_000);
    expect((await unsubscribeByToken({ deps, token: token('unsubscribe', sendId) })).status).toBe('unsubscribed');
    expect(await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).toMatchObject({ status: 'UNSUBSCRIBED' });
    const blocklist = await db.prisma.blocklistEntry.findMany({ where: { workspaceId: ws } });
    expect(blocklist.map((b) => [b.value, b.createdByLabel])).toEqual([['done@example.com', 'API']]);
  });

  it('is invalid for forged, malformed and open-purpose tokens and for deleted sends, changing nothing', async () => {
    const { ws, deps, leadWithSend, token } = await setup();
    const { sendId, leadId } = await leadWithSend('safe@example.com');
    for (const bad of [`${sendId}.${'A'.repeat(22)}`, token('open', sendId), '', 'nonsense', `${token('unsubscribe', sendId)}/`]) {
      expect(await unsubscribeByToken({ deps, token: bad })).toEqual({ status: 'invalid' });
      expect(await describeUnsubscribe({ deps, token: bad })).toEqual({ valid: false });
    }
    const gone = await leadWithSend('gone@example.com');
    const goneToken = token('unsubscribe', gone.sendId);
    await db.prisma.lead.delete({ where: { id: gone.leadId } });
    expect(await unsubscribeByToken({ deps, token: goneToken })).toEqual({ status: 'invalid' });
    expect(await describeUnsubscribe({ deps, token: goneToken })).toEqual({ valid: false });

    expect(await db.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).toMatchObject({ status: 'CONTACTED' });
    expect(await db.prisma.blocklistEntry.count({ where: { workspaceId: ws } })).toBe(0);
    expect(await db.prisma.emailEvent.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it('gives exactly one unsubscribed answer to concurrent calls, also across two campaigns\' links', async () => {
    const { ws, base, clock, deps, leadWithSend, token } = await setup();
    const a = await leadWithSend('race@example.com');
    const other = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const b = await leadWithSend('race@example.com', other.id, other.variations[1]!['A']!);
    clock.set(60_000);
    const tokens = [a, b, a, b, a, b].map((s) => token('unsubscribe', s.sendId));
    const results = await Promise.all(tokens.map((t) => unsubscribeByToken({ deps, token: t })));
    expect(results.filter((r) => r.status === 'unsubscribed')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'already_unsubscribed')).toHaveLength(5);
    expect(await db.prisma.blocklistEntry.count({ where: { workspaceId: ws } })).toBe(1);
    expect(await db.prisma.emailEvent.count({ where: { workspaceId: ws, type: 'UNSUBSCRIBE' } })).toBe(1);
    expect(await db.prisma.leadEvent.count({ where: { workspaceId: ws, type: 'UNSUBSCRIBED' } })).toBe(2);
    expect(await db.prisma.lead.count({ where: { workspaceId: ws, status: 'UNSUBSCRIBED' } })).toBe(2);
  });
});

describe('describeUnsubscribe', () => {
  it('shows the masked address and whether it is unsubscribed already, changing nothing', async () => {
    const { ws, clock, deps, leadWithSend, token } = await setup();
    const { sendId } = await leadWithSend('John.Smith@Example.com');
    const t = token('unsubscribe', sendId);
    expect(await describeUnsubscribe({ deps, token: t })).toEqual({ valid: true, maskedEmail: 'J***@Example.com', alreadyUnsubscribed: false });
    expect(await db.prisma.blocklistEntry.count({ where: { workspaceId: ws } })).toBe(0);
    clock.set(60_000);
    await unsubscribeByToken({ deps, token: t });
    expect(await describeUnsubscribe({ deps, token: t })).toEqual({ valid: true, maskedEmail: 'J***@Example.com', alreadyUnsubscribed: true });
  });

  it('masks all but the first character of the local part', () => {
    expect(maskEmail('john@example.com')).toBe('j***@example.com');
    expect(maskEmail('j@example.com')).toBe('j***@example.com');
    expect(maskEmail('"a@b"@example.com')).toBe('"***@example.com');
    expect(maskEmail('élodie@exemple.fr')).toBe('é***@exemple.fr');
    expect(maskEmail('no-at-sign')).toBe('n***');
  });
});
