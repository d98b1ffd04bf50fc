/**
 * The sending engine: each tick claims the sends that may happen now under every limit,
 * delivers them through the mailboxes' SMTP servers, and records what happened.
 *
 * Claiming reads the open campaigns and their mailboxes' state (no credentials) with today's
 * counts (kept per day by triggers: docs/database.md, "Daily send counts"), then, in one short
 * transaction, locks only what this tick can use, with SKIP LOCKED (another worker takes what
 * this one does not hold): the campaigns that sent least recently among those with a lead due,
 * enough to cover about twice the tick's sends; their due leads (the partial index
 * leads_due_idx); and the mailboxes those leads can use, whose full rows (sender, SMTP login)
 * come with their locks. Today's counts are read again under the locks, exactly, and every
 * decision is written at once. So a tick's work grows with its sends, not with the day's sends
 * or the number of mailboxes and campaigns beyond one read of each. A claimed lead's
 * next_send_at moves to the end of a lease: a worker that dies between claim and record
 * hands the lead back when the lease ends, and the retry reuses the claim's send id, so
 * an e-mail sent again carries the same Message-ID (a receiver, or our own IMAP ingestion,
 * sees the duplicate for what it is). Whether it is sent again depends on how far the dead
 * worker got: see send-delivery.service.ts (the DATA mark, at-least-once before the end of
 * the body, at-most-once from it on).
 *
 * What is decided for each due lead (stop, later, which mailbox and variation, the composed
 * e-mail) is the pure send-decision.rules.ts; this file reads, locks, counts and writes.
 *
 * Nothing here reads the wall clock: `now` comes from ports.clock, so tests can run a
 * campaign over simulated days.
 */
import { newId } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { untilClock } from '../shared/ports';
import { trackingLinks } from '../tracking/index';
import { type CampaignSchedule, dayBounds, isWithinWindow, nextWindowStart, validateSchedule } from './schedule.rules';
import {
  ACTIVE_CAMPAIGNS_SQL,
  APPLY_CLAIM_SQL,
  CAMPAIGN_MAILBOXES_SQL,
  CAMPAIGN_STATE_SQL,
  CLAIM_MAILBOXES_SQL,
  DUE_LEADS_SQL,
  FINISH_TICK_SQL,
  LOCK_CAMPAIGNS_SQL,
  LOCK_MAILBOXES_SQL,
  RELEASE_CLAIMS_SQL,
  THREAD_HISTORY_SQL,
} from './scheduler.queries';
import type { CampaignRow, LeadRow, MailboxRow } from './scheduler.queries';
import { type ClaimedSend, decideSend, freeInPickOrder, type SendAhead } from './send-decision.rules';
import { type CampaignState, claimScope, type CountedMailbox, mailboxesForLeads } from './claim-scope.rules';
import { createDataMarker, deliverClaim, type DeliveryResult } from './send-delivery.service';
import { createSendRecorder } from './send-record.service';

/** How long a claim holds a lead before another worker may take it over. */
export const CLAIM_LEASE_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
/** The mean pause after a send of a mailbox with no gap (0–60 s): how many sends a claim sending ahead may give each mailbox. */
const MEAN_ZERO_GAP_PAUSE_MS = 30_000;

interface CampaignPlan {
  row: CampaignRow;
  /** Its mailbox_ids as a set. */
  mailboxSet: ReadonlySet<string>;
  schedule: CampaignSchedule;
  /** Start of today in the campaign's zone (daily limits). */
  dayStart: Date;
  /** Start of today in the workspace's zone (mailbox limits). */
  mailboxDayStart: Date;
  /** The first sending window after the campaign's day (its daily limit is reached). */
  afterCampaignDay: () => Date;
  /** The first sending window after the mailboxes' day (their daily limits are reached). */
  afterMailboxDay: () => Date;
  /** How far ahead this campaign's sends may be given (the claim's horizon, no later than the end of either day); null: no sending ahead. */
  ahead: Omit<SendAhead, 'readyAt'> | null;
}

export interface ClaimResult {
  claims: ClaimedSend[];
  /** Leads stopped without a send (blocklisted, missing variables, no usable variation, finished). */
  stopped: number;
  /** Due leads left for later (their mailbox busy or at its limit, the new-lead limit reached). */
  deferred: number;
  /** Active campaigns inside their sending window. */
  openCampaigns: number;
  /** When each mailbox given sends may be given more (the pause after its last send here ends), ms on the clock. */
  readyAt: ReadonlyMap<string, number>;
}

// --- helpers ------------------------------------------------------------------------------

/** `fn`'s value, computed on the first call only. */
function once<T>(fn: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: fn() }).v;
}


interface LeadUpdate {
  id: string;
  next_send_at: string | null;
  claimed_at: string | null;
  email_account_id: string | null;
  pending_send_id: string | null;
  pending_variation_id: string | null;
  status: string;
  status_reason: string | null;
  is_completed: boolean;
}

const unchanged = (lead: LeadRow): LeadUpdate => ({
  id: lead.id,
  next_send_at: null,
  claimed_at: null,
  email_account_id: lead.email_account_id,
  pending_send_id: lead.pending_send_id,
  pending_variation_id: lead.pending_variation_id,
  status: lead.status,
  status_reason: null,
  is_completed: lead.is_completed,
});

// --- claim ---------------------------------------------------------------------------------

/**
 * Decides and claims the sends that may happen at `now`, at most `maxSends`, and at most
 * one per mailbox (its sending gap starts with the send); with `aheadMs`, a mailbox also takes
 * the sends that may follow within that time, each when the pause after the one before ends
 * (ClaimedSend.sendAt). Commits before returning; the caller delivers each claim with
 * deliverClaim, a mailbox's claims one after another (deliverTick).
 */
export async function claimDueSends(options: {
  deps: ServiceDeps;
  now: Date;
  maxSends: number;
  workspaceIds?: string[];
  /** How long a claim holds its lead before another worker may take it over (from its send time); CLAIM_LEASE_MS when absent. */
  leaseMs?: number;
  /** How far ahead a mailbox's later sends may be claimed (0 when absent: one send per mailbox). */
  aheadMs?: number;
  /**
   * Mailboxes whose claims still held are the caller's own, sent one after another before any it
   * claims now (the sending worker's lanes about to run out: mailbox-lanes.service.ts): not busy
   * (HELD_CLAIMS) for this claim. Every other mailbox with a claim held is.
   */
  ownMailboxes?: readonly string[];
}): Promise<ClaimResult> {
  const { deps, now, maxSends } = options;
  const leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
  const aheadMs = Math.max(0, options.aheadMs ?? 0);
  const nowIso = now.toISOString();
  const own = options.ownMailboxes ?? [];
  const db = deps.db;

  const campaignRows = await db.$queryRawUnsafe<CampaignRow[]>(ACTIVE_CAMPAIGNS_SQL, options.workspaceIds ?? null);
  // Zone arithmetic goes through Intl and costs microseconds a call; every campaign of a
  // zone shares its day, so each zone's is worked out once a claim.
  const days = new Map<string, { start: Date; next: Date }>();
  const dayIn = (timezone: string) => {
    let bounds = days.get(timezone);
    if (!bounds) days.set(timezone, (bounds = dayBounds({ timezone, at: now })));
    return bounds;
  };
  const plans = new Map<string, CampaignPlan>();
  for (const row of campaignRows) {
    if (!row.schedule) continue;
    const schedule: CampaignSchedule = { ...row.schedule, startDate: row.start_date, endDate: row.end_date };
    if (validateSchedule(schedule).length) {
      deps.log.warn({ campaignId: row.id }, 'campaign schedule is unusable; nothing is sent for it');
      continue;
    }
    if (!isWithinWindow({ schedule, at: now })) continue;
    if (!row.mailbox_ids.length || !row.steps.length) continue;
    plans.set(row.id, {
      row,
      mailboxSet: new Set(row.mailbox_ids),
      schedule,
      dayStart: dayIn(schedule.timezone).start,
      mailboxDayStart: dayIn(row.workspace_timezone).start,
      afterCampaignDay: once(() => nextWindowStart({ schedule, after: dayIn(schedule.timezone).next }) ?? new Date(now.getTime() + DAY_MS)),
      afterMailboxDay: once(() => nextWindowStart({ schedule, after: dayIn(row.workspace_timezone).next }) ?? new Date(now.getTime() + DAY_MS)),
      // Daily counts are per day: a send given ahead stays in the day it was counted in (both zones').
      ahead: aheadMs
        ? {
            until: new Date(Math.min(now.getTime() + aheadMs, dayIn(schedule.timezone).next.getTime() - 1, dayIn(row.workspace_timezone).next.getTime() - 1)),
            within: (at: Date) => isWithinWindow({ schedule, at }),
          }
        : null,
    });
  }
  if (!plans.size) return { claims: [], stopped: 0, deferred: 0, openCampaigns: 0, readyAt: new Map() };

  const mailboxIds = [...new Set([...plans.values()].flatMap((p) => p.row.mailbox_ids))];
  // A mailbox's day is its workspace's day: every campaign of a workspace agrees on it.
  // As ISO text, made once per zone's day (not once per mailbox: 5,000 mailboxes made 5,000 strings a claim).
  const isoOf = new Map<Date, string>();
  const iso = (at: Date) => {
    let text = isoOf.get(at);
    if (text === undefined) isoOf.set(at, (text = at.toISOString()));
    return text;
  };
  const mailboxDayStart = new Map<string, string>();
  for (const plan of plans.values()) {
    const day = iso(plan.mailboxDayStart);
    for (const id of plan.row.mailbox_ids) mailboxDayStart.set(id, day);
  }
  const mailboxDays = (ids: string[]) => ids.map((id) => mailboxDayStart.get(id) ?? nowIso);
  const campaignDays = (ids: string[]) => ids.map((id) => iso(plans.get(id)!.dayStart));
  const planIds = [...plans.keys()];
  const [mailboxRows, campaignState] = await Promise.all([
    db.$queryRawUnsafe<CountedMailbox[]>(CLAIM_MAILBOXES_SQL, mailboxIds, mailboxDays(mailboxIds), nowIso, own),
    db.$queryRawUnsafe<CampaignState[]>(CAMPAIGN_STATE_SQL, planIds, campaignDays(planIds), nowIso),
  ]);
  const mailboxes = new Map(mailboxRows.map((m) => [m.id, m]));
  // The workspace's additional fields come with each of its campaigns: one map per workspace.
  const additional = new Map<string, Map<string, string>>();
  for (const plan of plans.values()) {
    if (!additional.has(plan.row.workspace_id)) additional.set(plan.row.workspace_id, new Map(Object.entries(plan.row.additional_fields)));
  }

  // What this claim locks: the campaigns that sent least recently among those with a lead due,
  // enough to cover about twice the tick's sends (another worker locks the next ones), and
  // later only the mailboxes their due leads can use.
  const campaigns = new Map([...plans].map(([id, p]) => [id, p.row]));
  const { open, spent, candidates, take, reach } = claimScope({ now, maxSends, campaigns, campaignState, mailboxes: mailboxRows });
  if (!take) return { claims: [], stopped: 0, deferred: 0, openCampaigns: plans.size, readyAt: new Map() };

  return db.$transaction(async (tx) => {
    // The lock also turns JIT off for the rest of this transaction and brings each campaign's
    // variation counts (LOCK_CAMPAIGNS_SQL).
    const counted = await tx.$queryRawUnsafe<{ id: string; today: number; new_today: number; variation_counts: Record<string, number> }[]>(
      LOCK_CAMPAIGNS_SQL,
      candidates,
      campaignDays(candidates),
      take,
    );
    const campaignLeft = new Map<string, { total: number; fresh: number }>();
    // Variation counts as this claim goes, starting from what is stored.
    const variationCounts = new Map<string, number>();
    for (const c of counted) {
      for (const [id, n] of Object.entries(c.variation_counts)) variationCounts.set(id, n);
      const row = plans.get(c.id)!.row;
      campaignLeft.set(c.id, {
        total: Math.max(0, row.daily_limit - c.today),
        fresh: row.daily_limit_new_lead === null ? Infinity : Math.max(0, row.daily_limit_new_lead - c.new_today),
      });
    }

    // How many due leads to read per campaign: its sends left today, no more than two per
    // send its open mailboxes may take (one each, or, sending ahead, as many as a mailbox with no
    // gap sends on average within the horizon, at most what fills the tick), and its share of
    // about twice what this tick can send, since campaigns that share mailboxes share their sends.
    const perMailbox = aheadMs ? Math.max(1, Math.min(Math.ceil(maxSends / Math.max(1, reach.size)), 1 + Math.floor(aheadMs / MEAN_ZERO_GAP_PAUSE_MS))) : 1;
    const freeOf = new Map([...campaignLeft.keys()].map((id) => [id, plans.get(id)!.row.mailbox_ids.filter((m) => open.has(m)).length]));
    const sharesTotal = [...freeOf.values()].reduce((a, b) => a + b, 0);
    const budget = 2 * Math.min(maxSends, reach.size * perMailbox);
    const wanted: { id: string; n: number }[] = [];
    for (const [id, left] of campaignLeft) {
      const freeHere = freeOf.get(id)!;
      const share = Math.max(2, Math.ceil((budget * freeHere) / Math.max(1, sharesTotal)));
      const n = Math.min(left.total, freeHere * perMailbox * 2, share);
      if (n > 0 && freeHere > 0) wanted.push({ id, n });
    }
    if (!wanted.length) return { claims: [], stopped: 0, deferred: 0, openCampaigns: plans.size, readyAt: new Map() };

    const leads = await tx.$queryRawUnsafe<LeadRow[]>(DUE_LEADS_SQL, wanted.map((w) => w.id), wanted.map((w) => w.n), nowIso);
    // Oldest due first across campaigns, so campaigns sharing a mailbox take turns.
    leads.sort((a, b) => new Date(a.next_send_at).getTime() - new Date(b.next_send_at).getTime() || (a.id < b.id ? -1 : 1));

    // The mailboxes these leads can use, locked and counted exactly.
    const neededIds = mailboxesForLeads({ leads, campaigns, open, mailboxes });
    const held = neededIds.length
      ? await tx.$queryRawUnsafe<(MailboxRow & { today: number })[]>(LOCK_MAILBOXES_SQL, neededIds, mailboxDays(neededIds), nowIso, own)
      : [];
    const mailboxLeft = new Map<string, number>(spent.map((id) => [id, 0]));
    for (const m of held) mailboxLeft.set(m.id, Math.max(0, m.daily_limit - m.today));
    // The rows a send may go from: the held mailboxes' (the lock returned them), and, rarely,
    // the mailbox of a lead whose earlier attempt's outcome is unknown (recorded from it
    // without sending, so it need not be held).
    const senders = new Map<string, MailboxRow>(held.map((m) => [m.id, m]));
    const unconfirmedIds = [
      ...new Set(
        leads
          .filter((l) => l.pending_data_at !== null && l.pending_send_id !== null && l.email_account_id !== null)
          .map((l) => l.email_account_id!)
          .filter((id) => mailboxes.has(id) && !senders.has(id)),
      ),
    ];
    if (unconfirmedIds.length) {
      for (const m of await tx.$queryRawUnsafe<MailboxRow[]>(CAMPAIGN_MAILBOXES_SQL, unconfirmedIds)) senders.set(m.id, m);
    }
    // Free mailboxes this worker now holds, with sends left today.
    const free = new Set(held.filter((m) => mailboxLeft.get(m.id)! > 0).map((m) => m.id));
    const freeInOrder = freeInPickOrder({ now, free, mailboxes, mailboxLeft });
    const history = new Map<string, { message_id: string; subject: string }[]>();
    const followUps = leads.filter((l) => l.current_step > 0 || l.source_lead_id);
    if (followUps.length) {
      const ids = [...new Set(followUps.flatMap((l) => (l.source_lead_id ? [l.source_lead_id, l.id] : [l.id])))];
      const rows = await tx.$queryRawUnsafe<{ lead_id: string; message_id: string; subject: string }[]>(THREAD_HISTORY_SQL, ids);
      for (const r of rows) history.set(r.lead_id, [...(history.get(r.lead_id) ?? []), r]);
    }

    const updates: LeadUpdate[] = [];
    /** When each mailbox given a send may send again (its last send's pause ends), ms. */
    const readyAt = new Map<string, number>();
    const assigned = new Map<string, number>();
    const events: { id: string; workspace_id: string; lead_id: string; campaign_id: string; type: string; data: unknown }[] = [];
    const claims: ClaimedSend[] = [];
    const used = new Set<string>();
    let stopped = 0;
    let deferred = 0;
    let waiting = 0;

    const stop = (lead: LeadRow, status: string, reason: string | null) => {
      stopped += 1;
      updates.push({ ...unchanged(lead), status, status_reason: reason, is_completed: true, pending_send_id: null, pending_variation_id: null });
      if (status !== lead.status) {
        events.push({ id: newId(now.getTime()), workspace_id: lead.workspace_id, lead_id: lead.id, campaign_id: lead.campaign_id, type: 'STATUS_CHANGED', data: { from: lead.status, to: status, reason } });
      }
    };
    const later = (lead: LeadRow, at: Date, emailAccountId = lead.email_account_id) => {
      deferred += 1;
      updates.push({ ...unchanged(lead), next_send_at: at.toISOString(), email_account_id: emailAccountId, status_reason: null });
    };

    for (const lead of leads) {
      const plan = plans.get(lead.campaign_id)!;
      const left = campaignLeft.get(plan.row.id)!;
      const decision = decideSend({
        now,
        lead,
        campaign: plan.row,
        campaignLeft: left,
        mailboxes,
        senders,
        free,
        freeInOrder,
        campaignMailboxes: plan.mailboxSet,
        used,
        ahead: plan.ahead ? { ...plan.ahead, readyAt } : undefined,
        mailboxLeft,
        variationCounts,
        thread: [...(lead.source_lead_id ? (history.get(lead.source_lead_id) ?? []) : []), ...(history.get(lead.id) ?? [])],
        additionalFields: additional.get(plan.row.workspace_id) ?? new Map(),
        afterCampaignDay: plan.afterCampaignDay,
        afterMailboxDay: plan.afterMailboxDay,
        newSendId: () => newId(now.getTime()),
        trackingLinks: (sendId) => trackingLinks({ secrets: deps.secrets, publicUrl: deps.settings.publicUrl, sendId }),
      });
      if (decision.kind === 'stop') {
        stop(lead, decision.status, decision.reason);
        continue;
      }
      if (decision.kind === 'later') {
        later(lead, decision.at, decision.emailAccountId);
        continue;
      }
      if (decision.kind === 'wait') {
        waiting += 1;
        continue;
      }

      const { claim } = decision;
      const mailboxId = claim.mailbox.id;
      if (decision.gapUntil) {
        used.add(mailboxId);
        left.total -= 1;
        if (decision.isNew) left.fresh -= 1;
        mailboxLeft.set(mailboxId, (mailboxLeft.get(mailboxId) ?? 1) - 1);
        readyAt.set(mailboxId, decision.gapUntil.getTime());
      }
      if (!decision.keptVariation) {
        variationCounts.set(claim.variationId, (variationCounts.get(claim.variationId) ?? 0) + 1);
        assigned.set(claim.variationId, (assigned.get(claim.variationId) ?? 0) + 1);
      }
      updates.push({
        ...unchanged(lead),
        next_send_at: new Date(claim.sendAt.getTime() + leaseMs).toISOString(),
        claimed_at: nowIso,
        email_account_id: mailboxId,
        pending_send_id: claim.sendId,
        pending_variation_id: claim.variationId,
        status_reason: null,
      });
      claims.push(claim);
      if (claims.length >= maxSends) break;
    }

    // Leads read but not reached (the batch filled up) are untouched: still due.
    const gaps = [...readyAt].map(([id, at]) => ({ id, at: new Date(at).toISOString() }));
    if (updates.length || gaps.length) {
      await tx.$queryRawUnsafe(
        APPLY_CLAIM_SQL,
        JSON.stringify(updates),
        JSON.stringify(gaps),
        JSON.stringify([...assigned].map(([id, n]) => ({ id, n }))),
        JSON.stringify(events),
        nowIso,
      );
    }
    for (const claim of claims) {
      if (claim.takenOver && !claim.dataStartedAt) deps.log.warn({ leadId: claim.leadId, messageId: claim.message.messageId }, 'retrying a send whose worker stopped before recording it');
    }
    return { claims, stopped, deferred: deferred + waiting, openCampaigns: plans.size, readyAt };
  });
}
