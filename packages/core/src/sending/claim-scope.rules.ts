/**
 * What a claim locks, pure: which campaigns and which mailboxes, from today's counts read
 * without locks. Locking only what a tick can use keeps a claim's work proportional to its
 * sends, and lets a second worker take the next campaigns instead of waiting or finding
 * everything held (SKIP LOCKED).
 */
import type { CampaignRow, LeadRow, MailboxState } from './scheduler.queries';

/**
 * A mailbox as the claim first reads it: its state (no credentials), its sends recorded today,
 * and whether claims made earlier are still being sent from it (busy: CLAIM_MAILBOXES_SQL).
 */
export type CountedMailbox = MailboxState & { counted_today: number; busy: boolean };

/** An open campaign's state: its sends recorded today, whether a lead is due, when it last sent. */
export interface CampaignState {
  id: string;
  last_lead_sent_at: Date | null;
  counted_today: number;
  has_due: boolean;
}

export interface ClaimScope {
  /** Mailboxes that may send now by the recorded counts: ACTIVE, limit above 0, gap over, not busy, sends left. */
  open: Set<string>;
  /** Mailboxes at their daily limit by the recorded sends alone (claims in flight only add to them). */
  spent: string[];
  /** Campaigns worth locking, in order: a lead due, sends left, an open mailbox; least recently sent first. */
  candidates: string[];
  /** How many of them to lock: enough to cover about twice the tick's sends in open mailboxes. */
  take: number;
  /** The open mailboxes of the first `take` candidates. */
  reach: Set<string>;
}

export function claimScope(options: {
  now: Date;
  maxSends: number;
  campaigns: ReadonlyMap<string, CampaignRow>;
  campaignState: readonly CampaignState[];
  mailboxes: readonly CountedMailbox[];
}): ClaimScope {
  const nowMs = options.now.getTime();
  const usable = (m: MailboxState) => m.status === 'ACTIVE' && m.daily_limit > 0;
  const open = new Set(
    options.mailboxes
      .filter((m) => usable(m) && !m.busy && (!m.next_send_allowed_at || new Date(m.next_send_allowed_at).getTime() <= nowMs) && m.counted_today < m.daily_limit)
      .map((m) => m.id),
  );
  const spent = options.mailboxes.filter((m) => usable(m) && m.counted_today >= m.daily_limit).map((m) => m.id);
  const lastSent = (c: CampaignState) => (c.last_lead_sent_at ? new Date(c.last_lead_sent_at).getTime() : 0);
  const candidates = options.campaignState
    .filter((c) => {
      const row = options.campaigns.get(c.id);
      return row !== undefined && c.has_due && c.counted_today < row.daily_limit && row.mailbox_ids.some((id) => open.has(id));
    })
    .sort((a, b) => lastSent(a) - lastSent(b) || (a.id < b.id ? -1 : 1))
    .map((c) => c.id);
  const reach = new Set<string>();
  let take = 0;
  for (const id of candidates) {
    if (reach.size >= 2 * options.maxSends) break;
    take += 1;
    for (const m of options.campaigns.get(id)!.mailbox_ids) if (open.has(m)) reach.add(m);
  }
  return { open, spent, candidates, take, reach };
}

/**
 * The mailboxes these due leads can use, to lock: a follow-up's own (sticky) when open, and for
 * each campaign's first steps as many of its other open mailboxes as it has first steps, least
 * used today first (the choice among them is pickMailbox's, under the lock).
 */
export function mailboxesForLeads(options: {
  leads: readonly LeadRow[];
  campaigns: ReadonlyMap<string, CampaignRow>;
  open: ReadonlySet<string>;
  mailboxes: ReadonlyMap<string, CountedMailbox>;
}): string[] {
  const { open } = options;
  const needed = new Set<string>();
  const firstSteps = new Map<string, number>();
  for (const lead of options.leads) {
    const row = options.campaigns.get(lead.campaign_id)!;
    const own = lead.email_account_id && row.mailbox_ids.includes(lead.email_account_id) ? lead.email_account_id : null;
    if (own) {
      if (open.has(own)) needed.add(own);
    } else firstSteps.set(row.id, (firstSteps.get(row.id) ?? 0) + 1);
  }
  const sentToday = (id: string) => options.mailboxes.get(id)?.counted_today ?? 0;
  for (const [campaignId, n] of firstSteps) {
    const choice = options.campaigns
      .get(campaignId)!
      .mailbox_ids.filter((id) => open.has(id) && !needed.has(id))
      .sort((a, b) => sentToday(a) - sentToday(b) || (a < b ? -1 : 1))
      .slice(0, n);
    for (const id of choice) needed.add(id);
  }
  return [...needed];
}
