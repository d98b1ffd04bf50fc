import { describe, expect, it } from 'vitest';
import type { CampaignRow, LeadRow, MailboxRow } from './scheduler.queries';
import { MAILBOX_DOWN_RETRY_MS, type SendDecision, type SendDecisionInput, decideSend, freeInPickOrder, retryAt } from './send-decision.rules';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const AFTER_CAMPAIGN_DAY = new Date('2026-03-03T08:00:00.000Z');
const AFTER_MAILBOX_DAY = new Date('2026-03-03T09:00:00.000Z');

const variation = (id: string, label: string, extra: Partial<CampaignRow['steps'][number]['variations'][number]> = {}) => ({
  id,
  label,
  subject: `Subject ${label}`,
  body: `Hi {{first_name}}, ${label}`,
  is_active: true,
  is_deleted: false,
  ...extra,
});

const campaign = (extra: Partial<CampaignRow> = {}): CampaignRow => ({
  id: 'c1',
  organization_id: 'o1',
  workspace_id: 'w1',
  parent_id: null,
  type: 'parent',
  name: 'Campaign',
  daily_limit: 100,
  daily_limit_new_lead: null,
  send_as_txt: false,
  open_tracking: false,
  unsubscribe_link: false,
  stop_on_lead_replied: true,
  pause_on_bounce_rate: false,
  bounce_rate_limit: 5,
  schedule: null,
  start_date: null,
  end_date: null,
  workspace_timezone: 'UTC',
  unsubscribe_text: null,
  additional_fields: {},
  email_sent_webhook: false,
  mailbox_ids: ['m1', 'm2'],
  steps: [
    { step: 1, wait_time: 0, variations: [variation('v1', 'A'), variation('v2', 'B')] },
    { step: 2, wait_time: 3, variations: [variation('v3', 'A', { subject: '' })] },
  ],
  ...extra,
});

const mailbox = (id: string, extra: Partial<MailboxRow> = {}): MailboxRow => ({
  id,
  workspace_id: 'w1',
  email: `${id}@sender.example`,
  first_name: 'Sam',
  last_name: 'Sender',
  status: 'ACTIVE',
  daily_limit: 30,
  sending_gap: 10,
  next_send_allowed_at: null,
  smtp_host: 'smtp.sender.example',
  smtp_port: 587,
  smtp_username: id,
  smtp_password_enc: 'enc',
  signature: '',
  reply_to: null,
  updated_at: new Date('2026-01-01T00:00:00.000Z'),
  auth_type: 'PASSWORD',
  ...extra,
});

const lead = (extra: Partial<LeadRow> = {}): LeadRow => ({
  id: 'l1',
  campaign_id: 'c1',
  workspace_id: 'w1',
  current_step: 0,
  status: 'NOT_CONTACTED',
  is_completed: false,
  email_account_id: null,
  email: 'ada@lead.example',
  email_normalized: 'ada@lead.example',
  first_name: 'Ada',
  last_name: null,
  company_name: null,
  company_website: null,
  job_title: null,
  phone_number: null,
  address_line: null,
  city: null,
  state: null,
  country: null,
  country_code: null,
  network_person_url: null,
  network_company_url: null,
  custom_variables: null,
  pending_send_id: null,
  pending_variation_id: null,
  send_attempts: 0,
  claimed_at: null,
  pending_data_at: null,
  source_lead_id: null,
  next_send_at: NOW,
  blocked: false,
  ...extra,
});

// The claim reads every open mailbox's state and the full rows of those it holds: here the
// same rows unless a test gives its own senders.
const input = (extra: Partial<Omit<SendDecisionInput, 'mailboxes'>> & { mailboxes?: Map<string, MailboxRow> } = {}): SendDecisionInput => {
  const given: Omit<SendDecisionInput, 'freeInOrder' | 'campaignMailboxes'> = {
    now: NOW,
    lead: lead(),
    campaign: campaign(),
    campaignLeft: { total: 10, fresh: Infinity },
    mailboxes: new Map([
      ['m1', mailbox('m1')],
      ['m2', mailbox('m2')],
    ]),
    senders: extra.mailboxes ?? new Map([
      ['m1', mailbox('m1')],
      ['m2', mailbox('m2')],
    ]),
    free: new Set(['m1', 'm2']),
    used: new Set(),
    mailboxLeft: new Map([
      ['m1', 30],
      ['m2', 30],
    ]),
    variationCounts: new Map(),
    thread: [],
    additionalFields: new Map(),
    afterCampaignDay: () => AFTER_CAMPAIGN_DAY,
    afterMailboxDay: () => AFTER_MAILBOX_DAY,
    newSendId: () => 'send-new',
    trackingLinks: (sendId) => ({ pixelUrl: `https://t.example/o/${sendId}.gif`, unsubscribeUrl: `https://t.example/u/${sendId}` }),
    ...extra,
  };
  // As the claim derives them: the free mailboxes ordered once, the campaign's as a set.
  return {
    ...given,
    freeInOrder: extra.freeInOrder ?? freeInPickOrder(given),
    campaignMailboxes: extra.campaignMailboxes ?? new Set(given.campaign.mailbox_ids),
  };
};

function sent(decision: SendDecision): Extract<SendDecision, { kind: 'send' }> {
  if (decision.kind !== 'send') throw new Error(`expected a send, got ${JSON.stringify(decision)}`);
  return decision;
}

describe('decideSend: stop', () => {
  it('stops a lead no longer sendable with its own status and no reason', () => {
    expect(decideSend(input({ lead: lead({ status: 'UNSUBSCRIBED' }) }))).toEqual({ kind: 'stop', status: 'UNSUBSCRIBED', reason: null });
    expect(decideSend(input({ lead: lead({ status: 'CONTACTED', is_completed: true }) }))).toEqual({ kind: 'stop', status: 'CONTACTED', reason: null });
  });

  it('stops a replied lead when the campaign stops on replies, and sends to it otherwise', () => {
    const replied = lead({ status: 'REPLIED', current_step: 1, email_account_id: 'm1' });
    expect(decideSend(input({ lead: replied }))).toEqual({ kind: 'stop', status: 'REPLIED', reason: null });
    expect(decideSend(input({ lead: replied, campaign: campaign({ stop_on_lead_replied: false }) })).kind).toBe('send');
  });

  it('skips a blocklisted lead', () => {
    expect(decideSend(input({ lead: lead({ blocked: true }) }))).toEqual({ kind: 'stop', status: 'SKIPPED', reason: 'the address or its domain is on the blocklist' });
  });

  it('completes a lead past its last step (a replied one stays REPLIED)', () => {
    expect(decideSend(input({ lead: lead({ current_step: 2, status: 'CONTACTED' }) }))).toEqual({ kind: 'stop', status: 'COMPLETED', reason: null });
    const replied = lead({ current_step: 2, status: 'REPLIED' });
    expect(decideSend(input({ lead: replied, campaign: campaign({ stop_on_lead_replied: false }) }))).toEqual({ kind: 'stop', status: 'REPLIED', reason: null });
  });

  it('skips a lead whose step has no active variation', () => {
    const steps = [{ step: 1, wait_time: 0, variations: [variation('v1', 'A', { is_active: false }), variation('v2', 'B', { is_deleted: true })] }];
    expect(decideSend(input({ campaign: campaign({ steps }) }))).toEqual({ kind: 'stop', status: 'SKIPPED', reason: 'step 1 has no active variation' });
  });

  it('skips a lead the template cannot be filled for, naming what is missing', () => {
    const steps = [{ step: 1, wait_time: 0, variations: [variation('v1', 'A', { body: 'Hi {{nickname}}' })] }];
    const decision = decideSend(input({ campaign: campaign({ steps }) }));
    expect(decision.kind).toBe('stop');
    expect(decision).toMatchObject({ status: 'SKIPPED' });
    expect((decision as { reason: string }).reason).toContain('nickname');
  });
});

describe('decideSend: later and wait', () => {
  it('leaves the lead for the next window after the campaign day when its daily limit is reached', () => {
    expect(decideSend(input({ campaignLeft: { total: 0, fresh: Infinity } }))).toEqual({ kind: 'later', at: AFTER_CAMPAIGN_DAY, emailAccountId: null });
  });

  it('leaves a new lead for later when the new-lead limit is reached, not a follow-up', () => {
    const left = { total: 5, fresh: 0 };
    expect(decideSend(input({ campaignLeft: left }))).toEqual({ kind: 'later', at: AFTER_CAMPAIGN_DAY, emailAccountId: null });
    expect(decideSend(input({ campaignLeft: left, lead: lead({ current_step: 1, status: 'CONTACTED', email_account_id: 'm1' }) })).kind).toBe('send');
  });

  it('leaves the lead for the mailboxes’ next day when every usable mailbox is at its limit', () => {
    const decision = decideSend(input({ free: new Set(), mailboxLeft: new Map([['m1', 0], ['m2', 0]]) }));
    expect(decision).toEqual({ kind: 'later', at: AFTER_MAILBOX_DAY, emailAccountId: null });
  });

  it('looks again in an hour when no mailbox is usable (disconnected, paused)', () => {
    const mailboxes = new Map([
      ['m1', mailbox('m1', { status: 'DISCONNECTED' })],
      ['m2', mailbox('m2', { status: 'PAUSED' })],
    ]);
    expect(decideSend(input({ mailboxes, free: new Set() }))).toEqual({ kind: 'later', at: new Date(NOW.getTime() + MAILBOX_DOWN_RETRY_MS), emailAccountId: null });
  });

  it('waits for the end of the gap of a follow-up’s own mailbox, keeping that mailbox', () => {
    const gapEnd = new Date(NOW.getTime() + 7 * 60_000);
    const mailboxes = new Map([
      ['m1', mailbox('m1', { next_send_allowed_at: gapEnd })],
      ['m2', mailbox('m2')],
    ]);
    const followUp = lead({ current_step: 1, status: 'CONTACTED', email_account_id: 'm1' });
    const decision = decideSend(input({ lead: followUp, mailboxes, free: new Set(['m2']), mailboxLeft: new Map([['m2', 30]]) }));
    expect(decision).toEqual({ kind: 'later', at: gapEnd, emailAccountId: 'm1' });
  });

  it('keeps the lead due (wait) when its mailbox was just used by this claim', () => {
    expect(decideSend(input({ used: new Set(['m1', 'm2']) }))).toEqual({ kind: 'wait' });
  });
});

describe('decideSend: mailbox', () => {
  it('gives a new lead the least used free mailbox, ties by id', () => {
    expect(sent(decideSend(input())).claim.mailbox.id).toBe('m1');
    const mailboxLeft = new Map([
      ['m1', 20],
      ['m2', 25],
    ]);
    expect(sent(decideSend(input({ mailboxLeft }))).claim.mailbox.id).toBe('m2');
    expect(sent(decideSend(input({ used: new Set(['m1']) }))).claim.mailbox.id).toBe('m2');
  });

  it('keeps a follow-up on its own mailbox even when another is less used', () => {
    const followUp = lead({ current_step: 1, status: 'CONTACTED', email_account_id: 'm2' });
    const mailboxLeft = new Map([
      ['m1', 30],
      ['m2', 1],
    ]);
    expect(sent(decideSend(input({ lead: followUp, mailboxLeft }))).claim.mailbox.id).toBe('m2');
  });

  it('a lead whose mailbox left the campaign picks again', () => {
    const moved = lead({ current_step: 1, status: 'CONTACTED', email_account_id: 'gone' });
    expect(sent(decideSend(input({ lead: moved }))).claim.mailbox.id).toBe('m1');
  });

  it('a slot taken: the gap of the mailbox starts; new lead flagged', () => {
    const decision = sent(decideSend(input()));
    expect(decision.isNew).toBe(true);
    expect(decision.gapUntil).not.toBeNull();
    expect(decision.gapUntil!.getTime()).toBeGreaterThan(NOW.getTime());
  });
});

describe('decideSend: sending ahead', () => {
  const SECOND = 1000;
  const ahead = (readyAt: [string, number][], extra: { untilMs?: number; closesAt?: number } = {}) => ({
    until: new Date(NOW.getTime() + (extra.untilMs ?? 120 * SECOND)),
    readyAt: new Map(readyAt.map(([id, after]) => [id, NOW.getTime() + after])),
    within: (at: Date) => extra.closesAt === undefined || at.getTime() < NOW.getTime() + extra.closesAt,
  });
  const used = new Set(['m1', 'm2']);

  it('gives a used mailbox another send when its pause ends, the one free soonest first; its next pause starts there', () => {
    const decision = sent(decideSend(input({ used, ahead: ahead([['m1', 40 * SECOND], ['m2', 25 * SECOND]]) })));
    expect(decision.claim.mailbox.id).toBe('m2');
    expect(decision.claim.sendAt).toEqual(new Date(NOW.getTime() + 25 * SECOND));
    expect(decision.claim.claimedAt).toEqual(NOW);
    // The pause after it (a 10-minute gap, −15% to +25%) counts from its own time, not the claim's.
    expect(decision.gapUntil!.getTime()).toBeGreaterThanOrEqual(decision.claim.sendAt.getTime() + 8.5 * 60 * SECOND);
    expect(decision.gapUntil!.getTime()).toBeLessThan(decision.claim.sendAt.getTime() + 12.5 * 60 * SECOND);
    // The follow-up's wait counts from the send too.
    expect(decision.claim.nextDueAt).toEqual(new Date(decision.claim.sendAt.getTime() + 3 * 86_400_000));
  });

  it('an unused free mailbox goes first, at once', () => {
    const decision = sent(decideSend(input({ used: new Set(['m1']), ahead: ahead([['m1', 5 * SECOND]]) })));
    expect(decision.claim.mailbox.id).toBe('m2');
    expect(decision.claim.sendAt).toEqual(NOW);
  });

  it('not past the horizon, nor after the window closes, nor from a mailbox at its daily limit', () => {
    expect(decideSend(input({ used, ahead: ahead([['m1', 130 * SECOND], ['m2', 121 * SECOND]]) }))).toEqual({ kind: 'wait' });
    expect(decideSend(input({ used, ahead: ahead([['m1', 30 * SECOND], ['m2', 40 * SECOND]], { closesAt: 30 * SECOND }) }))).toEqual({ kind: 'wait' });
    const mailboxLeft = new Map([
      ['m1', 0],
      ['m2', 30],
    ]);
    expect(sent(decideSend(input({ used, mailboxLeft, ahead: ahead([['m1', 10 * SECOND], ['m2', 50 * SECOND]]) }))).claim.mailbox.id).toBe('m2');
  });

  it("keeps a follow-up on its own mailbox, after that mailbox's pause", () => {
    const followUp = lead({ current_step: 1, status: 'CONTACTED', email_account_id: 'm2' });
    const decision = sent(decideSend(input({ lead: followUp, used, ahead: ahead([['m1', 5 * SECOND], ['m2', 50 * SECOND]]) })));
    expect(decision.claim.mailbox.id).toBe('m2');
    expect(decision.claim.sendAt).toEqual(new Date(NOW.getTime() + 50 * SECOND));
  });

  it('without it, a mailbox sends once a claim', () => {
    expect(decideSend(input({ used }))).toEqual({ kind: 'wait' });
    expect(sent(decideSend(input())).claim.sendAt).toEqual(NOW);
  });
});

describe('decideSend: unconfirmed earlier attempt', () => {
  it('records from the mailbox that sent it, needing no free mailbox nor limit, taking no slot', () => {
    const dataAt = new Date(NOW.getTime() - 60_000);
    const interrupted = lead({ pending_send_id: 's-old', pending_variation_id: 'v2', email_account_id: 'm2', pending_data_at: dataAt, claimed_at: dataAt });
    const decision = sent(decideSend(input({ lead: interrupted, free: new Set(), campaignLeft: { total: 0, fresh: 0 } })));
    expect(decision.claim.mailbox.id).toBe('m2');
    expect(decision.claim.sendId).toBe('s-old');
    expect(decision.claim.dataStartedAt).toEqual(dataAt);
    expect(decision.claim.takenOver).toBe(true);
    expect(decision.gapUntil).toBeNull();
    expect(decision.keptVariation).toBe(true);
    expect(decision.claim.variationId).toBe('v2');
  });

  it('is recorded only from a mailbox whose full row the claim read (a sender): without it the lead waits its turn', () => {
    const dataAt = new Date(NOW.getTime() - 60_000);
    const interrupted = lead({ pending_send_id: 's-old', pending_variation_id: 'v2', email_account_id: 'm2', pending_data_at: dataAt, claimed_at: dataAt });
    const senders = new Map([['m1', mailbox('m1')]]);
    expect(decideSend(input({ lead: interrupted, senders, free: new Set(['m1']) }))).toEqual({ kind: 'wait' });
  });
});

describe('decideSend: variation', () => {
  it('splits evenly: the least assigned active variation, ties by label', () => {
    expect(sent(decideSend(input())).claim.variationId).toBe('v1');
    expect(sent(decideSend(input({ variationCounts: new Map([['v1', 3], ['v2', 2]]) }))).claim.variationId).toBe('v2');
    expect(sent(decideSend(input({ variationCounts: new Map([['v1', 2], ['v2', 2]]) }))).keptVariation).toBe(false);
  });

  it('a retry keeps its own variation while it is usable', () => {
    const retry = lead({ pending_send_id: 's1', pending_variation_id: 'v2', claimed_at: NOW });
    const decision = sent(decideSend(input({ lead: retry, variationCounts: new Map([['v1', 0], ['v2', 9]]) })));
    expect(decision.claim.variationId).toBe('v2');
    expect(decision.keptVariation).toBe(true);
    expect(decision.claim.sendId).toBe('s1');
  });

  it('a retry whose variation was deactivated picks again', () => {
    const steps = [{ step: 1, wait_time: 0, variations: [variation('v1', 'A'), variation('v2', 'B', { is_active: false })] }];
    const retry = lead({ pending_send_id: 's1', pending_variation_id: 'v2' });
    const decision = sent(decideSend(input({ lead: retry, campaign: campaign({ steps }) })));
    expect(decision.claim.variationId).toBe('v1');
    expect(decision.keptVariation).toBe(false);
  });
});

describe('decideSend: compose', () => {
  it('composes from the variation, the merge fields and the sender, with a new send id', () => {
    const decision = sent(decideSend(input()));
    const { claim } = decision;
    expect(claim).toMatchObject({
      sendId: 'send-new',
      organizationId: 'o1',
      workspaceId: 'w1',
      campaignId: 'c1',
      campaignName: 'Campaign',
      parentCampaignId: null,
      leadId: 'l1',
      leadEmail: 'ada@lead.example',
      step: 1,
      variationLabel: 'A',
      attempts: 0,
      takenOver: false,
      claimedAt: NOW,
      dataStartedAt: null,
      nextDueAt: new Date(NOW.getTime() + 3 * 86_400_000),
    });
    expect(claim.mailbox).toMatchObject({ id: 'm1', email: 'm1@sender.example', version: '2026-01-01T00:00:00.000Z', smtpHost: 'smtp.sender.example' });
    expect(claim.message).toMatchObject({ from: { name: 'Sam Sender', address: 'm1@sender.example' }, to: 'ada@lead.example', subject: 'Subject A', messageId: 'send-new@sender.example' });
    expect(claim.message.html).toContain('Hi Ada, A');
    expect(claim.message.text).toContain('Hi Ada, A');
  });

  it('a follow-up threads on the lead’s history (its parent lead’s first) with Re: of the last subject', () => {
    const followUp = lead({ current_step: 1, status: 'CONTACTED', email_account_id: 'm1' });
    const thread = [
      { message_id: 'a@x.example', subject: 'First' },
      { message_id: 'b@x.example', subject: 'Second' },
    ];
    const { claim } = sent(decideSend(input({ lead: followUp, thread })));
    expect(claim.step).toBe(2);
    expect(claim.nextDueAt).toBeNull();
    expect(claim.message.subject).toBe('Re: Second');
    expect(claim.message.inReplyTo).toBe('<b@x.example>');
    expect(claim.message.references).toBe('<a@x.example> <b@x.example>');
  });

  it('adds the open pixel and the unsubscribe link when the campaign asks for them, with the workspace text', () => {
    const { claim } = sent(decideSend(input({ campaign: campaign({ open_tracking: true, unsubscribe_link: true, unsubscribe_text: ' Opt out ' }) })));
    expect(claim.message.html).toContain('https://t.example/o/send-new.gif');
    expect(claim.message.html).toContain('https://t.example/u/send-new');
    expect(claim.message.html).toContain('Opt out');
  });

  it('sends no pixel in a plain-text campaign', () => {
    const { claim } = sent(decideSend(input({ campaign: campaign({ open_tracking: true, send_as_txt: true }) })));
    expect(claim.message.html).toBeNull();
    expect(claim.message.text).not.toContain('t.example/o/');
  });

  it('a subsequence send names its parent campaign', () => {
    const { claim } = sent(decideSend(input({ campaign: campaign({ type: 'subseq', parent_id: 'p1' }) })));
    expect(claim.parentCampaignId).toBe('p1');
  });

  it('merges workspace fields with their defaults, and lead custom variables over them', () => {
    const steps = [{ step: 1, wait_time: 0, variations: [variation('v1', 'A', { body: '{{industry}} {{region}}' })] }];
    const { claim } = sent(
      decideSend(input({ campaign: campaign({ steps }), lead: lead({ custom_variables: { region: 'Nordics' } }), additionalFields: new Map([['industry', 'SaaS'], ['region', 'EU']]) })),
    );
    expect(claim.message.text).toContain('SaaS Nordics');
  });

  it('fills a custom variable written as {{custom_<name>}} too (the name lead reads answer it under)', () => {
    const steps = [{ step: 1, wait_time: 0, variations: [variation('v1', 'A', { body: '{{custom_one_line}} / {{one_line}}' })] }];
    const { claim } = sent(decideSend(input({ campaign: campaign({ steps }), lead: lead({ custom_variables: { one_line: 'Saw your talk' } }) })));
    expect(claim.message.text).toContain('Saw your talk / Saw your talk');
  });
});

describe('retryAt', () => {
  const base = { now: NOW, afterMailboxDay: () => AFTER_MAILBOX_DAY, mailboxes: new Map([['m1', mailbox('m1')]]), followUp: false };

  it('null when a usable mailbox is only busy: the lead keeps its turn', () => {
    expect(retryAt({ ...base, mailboxIds: ['m1'], mailboxLeft: new Map([['m1', 3]]) })).toBeNull();
  });

  it('a mailbox with a daily limit of 0 is not usable', () => {
    expect(retryAt({ ...base, mailboxes: new Map([['m1', mailbox('m1', { daily_limit: 0 })]]), mailboxIds: ['m1'], mailboxLeft: new Map() })).toEqual(
      new Date(NOW.getTime() + MAILBOX_DOWN_RETRY_MS),
    );
  });
});
