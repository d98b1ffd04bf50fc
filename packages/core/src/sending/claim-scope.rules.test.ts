import { describe, expect, it } from 'vitest';
import { claimScope, mailboxesForLeads, type CountedMailbox } from './claim-scope.rules';
import type { CampaignRow, LeadRow } from './scheduler.queries';

const now = new Date('2026-03-04T12:00:00Z');
const mailbox = (id: string, over: Partial<CountedMailbox> = {}): CountedMailbox =>
  ({ id, status: 'ACTIVE', daily_limit: 10, next_send_allowed_at: null, counted_today: 0, busy: false, ...over }) as CountedMailbox;
const campaign = (id: string, mailboxIds: string[], dailyLimit = 100): CampaignRow => ({ id, mailbox_ids: mailboxIds, daily_limit: dailyLimit }) as CampaignRow;
const lead = (id: string, campaignId: string, emailAccountId: string | null = null): LeadRow => ({ id, campaign_id: campaignId, email_account_id: emailAccountId }) as LeadRow;

describe('claimScope', () => {
  it('takes the campaigns that sent least recently, only as many as cover twice the sends, and skips those with nothing to send or no mailbox free', () => {
    const mailboxes = Array.from({ length: 8 }, (_, i) => mailbox(`m${i}`));
    mailboxes.push(
      mailbox('gap', { next_send_allowed_at: new Date('2026-03-04T12:05:00Z') }),
      mailbox('full', { counted_today: 10 }),
      mailbox('off', { status: 'PAUSED' }),
      // Its gap is over, but an earlier claim is still sending from it.
      mailbox('busy', { next_send_allowed_at: new Date('2026-03-04T11:55:00Z'), busy: true }),
    );
    const campaigns = new Map([
      ['a', campaign('a', ['m0', 'm1'])],
      ['b', campaign('b', ['m2', 'm3'])],
      ['c', campaign('c', ['m4', 'm5'])],
      ['d', campaign('d', ['m6', 'm7'])],
      ['idle', campaign('idle', ['m0'])],
      ['limit', campaign('limit', ['m1'], 5)],
      ['blocked', campaign('blocked', ['gap', 'full', 'off', 'busy'])],
    ]);
    const state = (id: string, lastSent: string | null, over: { has_due?: boolean; counted_today?: number } = {}) => ({
      id,
      last_lead_sent_at: lastSent ? new Date(lastSent) : null,
      counted_today: over.counted_today ?? 0,
      has_due: over.has_due ?? true,
    });
    const scope = claimScope({
      now,
      maxSends: 2,
      campaigns,
      mailboxes,
      campaignState: [
        state('a', '2026-03-04T11:00:00Z'),
        state('b', null),
        state('c', '2026-03-04T10:00:00Z'),
        state('d', '2026-03-04T11:30:00Z'),
        state('idle', null, { has_due: false }),
        state('limit', null, { counted_today: 5 }),
        state('blocked', null),
      ],
    });
    expect(scope.candidates).toEqual(['b', 'c', 'a', 'd']);
    expect(scope.take).toBe(2);
    expect([...scope.reach].sort()).toEqual(['m2', 'm3', 'm4', 'm5']);
    expect(scope.open.has('gap') || scope.open.has('full') || scope.open.has('off') || scope.open.has('busy')).toBe(false);
    expect(scope.spent).toEqual(['full']);
  });
});

describe('mailboxesForLeads', () => {
  it("locks a follow-up's own mailbox and, for first steps, as many of the campaign's other open mailboxes, least used first", () => {
    const campaigns = new Map([['a', campaign('a', ['m1', 'm2', 'm3', 'm4', 'closed'])]]);
    const counted = new Map(
      [mailbox('m1', { counted_today: 5 }), mailbox('m2', { counted_today: 1 }), mailbox('m3', { counted_today: 3 }), mailbox('m4', { counted_today: 0 }), mailbox('closed')].map((m) => [m.id, m]),
    );
    const open = new Set(['m1', 'm2', 'm3', 'm4']);
    const ids = mailboxesForLeads({ leads: [lead('f', 'a', 'm1'), lead('g', 'a', 'closed'), lead('n1', 'a'), lead('n2', 'a')], campaigns, open, mailboxes: counted });
    expect(ids).toEqual(['m1', 'm4', 'm2']);
  });
});
