/**
 * The sending engine: each tick claims the sends that may happen now under every limit,
 * delivers them through the mailboxes' SMTP servers, and records what happened.
 *
 * Claiming is one short transaction: the campaigns and free mailboxes it decides for are
 * locked with SKIP LOCKED (another worker takes what this one does not hold), today's
 * counts are read under those locks, the due leads are read from the partial index
 * leads_due_idx and locked, and every decision is written at once. A claimed lead's
 * next_send_at moves to the end of a lease: a worker that dies between claim and record
 * hands the lead back when the lease ends, and the retry reuses the claim's send id, so
 * the e-mail goes out again with the same Message-ID (a receiver, or our own IMAP
 * ingestion, sees the duplicate for what it is).
 *
 * Nothing here reads the wall clock: `now` comes from ports.clock, so tests can run a
 * campaign over simulated days.
 */
import { newId, type Tx } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { domainOf, type OutgoingMessage, type SendOutcome } from '../shared/mail-sender';
import { trackingLinks } from '../tracking/tracking-token';
import { emitWebhookEvent } from '../webhook/webhook-outbox.service';
import { leadsForEvents } from '../lead/label-change.service';
import { bouncedEmailFields, emailSentFields, systemAlertFields, type PayloadLead } from '../webhook/webhook-payload.rules';
import { compose, type ComposeResult } from './compose.rules';
import { type CampaignSchedule, dayBounds, isWithinWindow, nextWindowStart, validateSchedule } from './schedule.rules';
import { MAX_SEND_ATTEMPTS, pickLeastAssignedVariation, pickMailbox, retryDelayMs, sendingGapWithJitter } from './pacing.rules';
import {
  ACTIVE_CAMPAIGNS_SQL,
  ADDITIONAL_FIELDS_SQL,
  APPLY_CLAIM_SQL,
  CAMPAIGN_MAILBOXES_SQL,
  COMPLETE_CAMPAIGNS_SQL,
  DUE_LEADS_SQL,
  LOCK_AND_COUNT_SQL,
  MARK_CAMPAIGNS_SENT_SQL,
  RECENT_BOUNCES_SQL,
  RECORD_SENT_SQL,
  THREAD_HISTORY_SQL,
} from './scheduler.queries';
import { COPY_CAMPAIGN_SENDS_SQL, LEAD_THREAD_SQL } from '../unibox/unibox.queries';

/** How long a claim holds a lead before another worker may take it over. */
export const CLAIM_LEASE_MS = 5 * 60_000;
/** A lead whose mailbox is disconnected or paused is looked at again after this. */
const MAILBOX_DOWN_RETRY_MS = 60 * 60_000;
/** A lead whose mailbox is busy (another worker holds it) is looked at again after this. */
const BUSY_RETRY_MS = 30_000;
/** Bounce protection judges a campaign only once it has this many sends. */
export const BOUNCE_RATE_MIN_SENDS = 10;
const DAY_MS = 86_400_000;

// --- what a tick reads ------------------------------------------------------------------

interface VariationRow {
  id: string;
  label: string;
  subject: string;
  body: string;
  is_active: boolean;
  is_deleted: boolean;
}

interface CampaignRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  parent_id: string | null;
  type: 'parent' | 'subseq';
  name: string;
  daily_limit: number;
  daily_limit_new_lead: number | null;
  send_as_txt: boolean;
  open_tracking: boolean;
  unsubscribe_link: boolean;
  stop_on_lead_replied: boolean;
  pause_on_bounce_rate: boolean;
  bounce_rate_limit: number;
  schedule: { days: CampaignSchedule['days']; timezone: string; timing: CampaignSchedule['timing'] } | null;
  start_date: string | null;
  end_date: string | null;
  workspace_timezone: string;
  unsubscribe_text: string | null;
  mailbox_ids: string[];
  steps: { step: number; wait_time: number; variations: VariationRow[] }[];
}

interface MailboxRow {
  id: string;
  workspace_id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: string;
  daily_limit: number;
  sending_gap: number;
  next_send_allowed_at: Date | null;
  smtp_host: string;
  smtp_port: number;
  smtp_username: string;
  smtp_password_enc: string;
  signature: string;
  reply_to: string | null;
  updated_at: Date;
}

interface LeadRow {
  id: string;
  campaign_id: string;
  workspace_id: string;
  current_step: number;
  status: string;
  is_completed: boolean;
  email_account_id: string | null;
  email: string;
  email_normalized: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  company_website: string | null;
  job_title: string | null;
  phone_number: string | null;
  address_line: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  country_code: string | null;
  network_person_url: string | null;
  network_company_url: string | null;
  custom_variables: Record<string, unknown> | null;
  pending_send_id: string | null;
  pending_variation_id: string | null;
  send_attempts: number;
  claimed_at: Date | null;
  source_lead_id: string | null;
  next_send_at: Date;
  blocked: boolean;
}

interface CampaignPlan {
  row: CampaignRow;
  schedule: CampaignSchedule;
  /** Start of today in the campaign's zone (daily limits). */
  dayStart: Date;
  /** Start of today in the workspace's zone (mailbox limits). */
  mailboxDayStart: Date;
  /** The first sending window after the campaign's day (its daily limit is reached). */
  afterCampaignDay: () => Date;
  /** The first sending window after the mailboxes' day (their daily limits are reached). */
  afterMailboxDay: () => Date;
}

/** One e-mail a worker has claimed and must deliver, then record. */
export interface ClaimedSend {
  sendId: string;
  organizationId: string;
  workspaceId: string;
  campaignId: string;
  campaignName: string;
  parentCampaignId: string | null;
  leadId: string;
  leadEmail: string;
  step: number;
  variationId: string;
  variationLabel: string;
  /** Due time of the next step once this one is sent; null when this is the last step. */
  nextDueAt: Date | null;
  /** Send attempts that already failed (4xx) at this step. */
  attempts: number;
  /** A claim taken over from a worker whose lease ran out (the e-mail may already be out). */
  takenOver: boolean;
  mailbox: { id: string; email: string; version: string; smtpHost: string; smtpPort: number; smtpUsername: string; smtpPasswordEnc: string };
  message: OutgoingMessage;
}

export interface ClaimResult {
  claims: ClaimedSend[];
  /** Leads stopped without a send (blocklisted, missing variables, no usable variation, finished). */
  stopped: number;
  /** Due leads left for later (their mailbox busy or at its limit, the new-lead limit reached). */
  deferred: number;
  /** Active campaigns inside their sending window. */
  openCampaigns: number;
}

// --- helpers ------------------------------------------------------------------------------

/** `fn`'s value, computed on the first call only. */
function once<T>(fn: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: fn() }).v;
}


function leadVariables(options: { lead: LeadRow; mailbox: MailboxRow; additional: Map<string, string> }): Record<string, string | null | undefined> {
  const { lead, mailbox } = options;
  const vars: Record<string, string | null | undefined> = {};
  for (const [name, value] of options.additional) vars[name] = value;
  for (const [name, value] of Object.entries(lead.custom_variables ?? {})) {
    if (value !== null && value !== undefined) {
      // A plain key even when it is named __proto__.
      Object.defineProperty(vars, name, { value: String(value), enumerable: true, writable: true, configurable: true });
    }
  }
  Object.assign(vars, {
    email: lead.email,
    first_name: lead.first_name,
    last_name: lead.last_name,
    company_name: lead.company_name,
    company_website: lead.company_website,
    website: lead.company_website,
    job_title: lead.job_title,
    phone_number: lead.phone_number,
    phone: lead.phone_number,
    address_line: lead.address_line,
    city: lead.city,
    state: lead.state,
    country: lead.country,
    country_code: lead.country_code,
    network_person_url: lead.network_person_url,
    network_company_url: lead.network_company_url,
    sender_email: mailbox.email,
    sender_first_name: mailbox.first_name,
    sender_last_name: mailbox.last_name,
    sender_name: `${mailbox.first_name} ${mailbox.last_name}`.trim(),
    signature: mailbox.signature,
  });
  return vars;
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
 * one per mailbox (its sending gap starts with the claim). Commits before returning; the
 * caller delivers each claim with deliverClaim.
 */
export async function claimDueSends(options: { deps: ServiceDeps; now: Date; maxSends: number; workspaceIds?: string[] }): Promise<ClaimResult> {
  const { deps, now, maxSends } = options;
  const nowIso = now.toISOString();
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
      schedule,
      dayStart: dayIn(schedule.timezone).start,
      mailboxDayStart: dayIn(row.workspace_timezone).start,
      afterCampaignDay: once(() => nextWindowStart({ schedule, after: dayIn(schedule.timezone).next }) ?? new Date(now.getTime() + DAY_MS)),
      afterMailboxDay: once(() => nextWindowStart({ schedule, after: dayIn(row.workspace_timezone).next }) ?? new Date(now.getTime() + DAY_MS)),
    });
  }
  if (!plans.size) return { claims: [], stopped: 0, deferred: 0, openCampaigns: 0 };

  const mailboxIds = [...new Set([...plans.values()].flatMap((p) => p.row.mailbox_ids))];
  const workspaceIds = [...new Set([...plans.values()].map((p) => p.row.workspace_id))];
  const [mailboxRows, fieldRows] = await Promise.all([
    db.$queryRawUnsafe<MailboxRow[]>(CAMPAIGN_MAILBOXES_SQL, mailboxIds),
    db.$queryRawUnsafe<{ workspace_id: string; name: string; default_value: string }[]>(ADDITIONAL_FIELDS_SQL, workspaceIds),
  ]);
  const mailboxes = new Map(mailboxRows.map((m) => [m.id, m]));
  const additional = new Map<string, Map<string, string>>();
  for (const f of fieldRows) {
    const fields = additional.get(f.workspace_id) ?? new Map<string, string>();
    fields.set(f.name, f.default_value);
    additional.set(f.workspace_id, fields);
  }
  // A mailbox's day is its workspace's day: every campaign of a workspace agrees on it.
  const mailboxDayStart = new Map<string, Date>();
  for (const plan of plans.values()) for (const id of plan.row.mailbox_ids) mailboxDayStart.set(id, plan.mailboxDayStart);

  return db.$transaction(async (tx) => {
    // The due-lead read's estimated cost passes jit_above_cost, and compiling it took
    // several times longer than running it (bench: pick); none of a claim's statements
    // gains from JIT.
    await tx.$executeRawUnsafe('SET LOCAL jit = off');
    const campaignIds = [...plans.keys()];
    const counted = await tx.$queryRawUnsafe<{ kind: 'campaign' | 'mailbox'; id: string; today: number; new_today: number }[]>(
      LOCK_AND_COUNT_SQL,
      campaignIds,
      campaignIds.map((id) => plans.get(id)!.dayStart.toISOString()),
      mailboxIds,
      mailboxIds.map((id) => (mailboxDayStart.get(id) ?? now).toISOString()),
      nowIso,
    );
    const campaignLeft = new Map<string, { total: number; fresh: number }>();
    const mailboxLeft = new Map<string, number>();
    for (const c of counted) {
      if (c.kind === 'campaign') {
        const row = plans.get(c.id)!.row;
        campaignLeft.set(c.id, {
          total: Math.max(0, row.daily_limit - c.today),
          fresh: row.daily_limit_new_lead === null ? Infinity : Math.max(0, row.daily_limit_new_lead - c.new_today),
        });
      } else {
        const limit = mailboxes.get(c.id)?.daily_limit ?? 0;
        mailboxLeft.set(c.id, Math.max(0, limit - c.today));
      }
    }
    // Free mailboxes this worker now holds, with sends left today.
    const free = new Set([...mailboxLeft].filter(([, left]) => left > 0).map(([id]) => id));

    // How many due leads to read per campaign: its sends left today, no more than two per
    // free mailbox it has (each mailbox sends once per tick), and its share of about twice
    // what this tick can send, since campaigns that share mailboxes share their sends.
    const freeOf = new Map([...campaignLeft.keys()].map((id) => [id, plans.get(id)!.row.mailbox_ids.filter((m) => free.has(m)).length]));
    const sharesTotal = [...freeOf.values()].reduce((a, b) => a + b, 0);
    const budget = 2 * Math.min(maxSends, free.size);
    const wanted: { id: string; n: number }[] = [];
    for (const [id, left] of campaignLeft) {
      const freeHere = freeOf.get(id)!;
      const share = Math.max(2, Math.ceil((budget * freeHere) / Math.max(1, sharesTotal)));
      const n = Math.min(left.total, freeHere * 2, share);
      if (n > 0 && freeHere > 0) wanted.push({ id, n });
    }
    if (!wanted.length) return { claims: [], stopped: 0, deferred: 0, openCampaigns: plans.size };

    const leads = await tx.$queryRawUnsafe<LeadRow[]>(DUE_LEADS_SQL, wanted.map((w) => w.id), wanted.map((w) => w.n), nowIso);
    // Oldest due first across campaigns, so campaigns sharing a mailbox take turns.
    leads.sort((a, b) => new Date(a.next_send_at).getTime() - new Date(b.next_send_at).getTime() || (a.id < b.id ? -1 : 1));
    const history = new Map<string, { message_id: string; subject: string }[]>();
    const followUps = leads.filter((l) => l.current_step > 0 || l.source_lead_id);
    if (followUps.length) {
      const ids = [...new Set(followUps.flatMap((l) => (l.source_lead_id ? [l.source_lead_id, l.id] : [l.id])))];
      const rows = await tx.$queryRawUnsafe<{ lead_id: string; message_id: string; subject: string }[]>(THREAD_HISTORY_SQL, ids);
      for (const r of rows) history.set(r.lead_id, [...(history.get(r.lead_id) ?? []), r]);
    }

    const updates: LeadUpdate[] = [];
    const gaps: { id: string; at: string }[] = [];
    const assigned = new Map<string, number>();
    const events: { id: string; workspace_id: string; lead_id: string; campaign_id: string; type: string; data: unknown }[] = [];
    const claims: ClaimedSend[] = [];
    const used = new Set<string>();
    let stopped = 0;
    let deferred = 0;
    let waiting = 0;
    // Variation counts as this claim goes, starting from what is stored.
    const variationCounts = new Map<string, number>();
    if (leads.length) {
      const rows = await tx.variation.findMany({ where: { campaignId: { in: wanted.map((w) => w.id) } }, select: { id: true, assignedCount: true } });
      for (const r of rows) variationCounts.set(r.id, r.assignedCount);
    }

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
      const row = plan.row;
      const left = campaignLeft.get(row.id)!;
      const sendable = lead.status === 'NOT_CONTACTED' || lead.status === 'CONTACTED' || (lead.status === 'REPLIED' && !row.stop_on_lead_replied);
      if (!sendable || lead.is_completed) {
        stop(lead, lead.status, null);
        continue;
      }
      if (lead.blocked) {
        stop(lead, 'SKIPPED', 'the address or its domain is on the blocklist');
        continue;
      }
      const stepNumber = lead.current_step + 1;
      const step = row.steps.find((s) => s.step === stepNumber);
      if (!step) {
        stop(lead, lead.status === 'REPLIED' ? 'REPLIED' : 'COMPLETED', null);
        continue;
      }
      if (left.total <= 0) {
        later(lead, plan.afterCampaignDay());
        continue;
      }

      // The mailbox: the lead's own for a follow-up, else the least used free one.
      const isNew = lead.current_step === 0;
      const sticky = lead.email_account_id && row.mailbox_ids.includes(lead.email_account_id) ? lead.email_account_id : null;
      let mailboxId: string | null = null;
      if (sticky) {
        if (free.has(sticky) && !used.has(sticky)) mailboxId = sticky;
      } else {
        if (isNew && left.fresh <= 0) {
          later(lead, plan.afterCampaignDay());
          continue;
        }
        mailboxId = pickMailbox({
          now,
          mailboxes: row.mailbox_ids
            .filter((id) => free.has(id) && !used.has(id))
            .map((id) => {
              const m = mailboxes.get(id)!;
              return { id, sentToday: m.daily_limit - (mailboxLeft.get(id) ?? 0), dailyLimit: m.daily_limit, nextAllowedAt: null, status: m.status };
            }),
        });
      }
      if (!mailboxId) {
        const at = retryAt({ now, plan, mailboxIds: sticky ? [sticky] : row.mailbox_ids, mailboxes, mailboxLeft, followUp: Boolean(sticky) });
        if (at) later(lead, at, sticky ?? lead.email_account_id);
        else waiting += 1;
        continue;
      }
      const mailbox = mailboxes.get(mailboxId)!;

      // The variation: the claim's own on a retry, else the least given one.
      const usable = step.variations.filter((v) => v.is_active && !v.is_deleted);
      const kept = lead.pending_variation_id ? usable.find((v) => v.id === lead.pending_variation_id) : undefined;
      const variationId =
        kept?.id ??
        pickLeastAssignedVariation({
          variations: usable.map((v) => ({ id: v.id, label: v.label, isActive: true, isDeleted: false, assignedCount: variationCounts.get(v.id) ?? 0 })),
        });
      const variation = usable.find((v) => v.id === variationId);
      if (!variation) {
        stop(lead, 'SKIPPED', `step ${stepNumber} has no active variation`);
        continue;
      }

      const sendId = lead.pending_send_id ?? newId(now.getTime());
      const links = trackingLinks({ secrets: deps.secrets, publicUrl: deps.settings.publicUrl, sendId });
      const thread = [...(lead.source_lead_id ? (history.get(lead.source_lead_id) ?? []) : []), ...(history.get(lead.id) ?? [])];
      const composed: ComposeResult = compose({
        subject: variation.subject,
        body: variation.body,
        variables: leadVariables({ lead, mailbox, additional: additional.get(row.workspace_id) ?? new Map() }),
        seed: `${lead.id}:${stepNumber}`,
        sendAsText: row.send_as_txt,
        previous: thread.length ? { subject: thread[thread.length - 1]!.subject, messageIds: thread.map((t) => t.message_id) } : null,
        pixelUrl: row.open_tracking && !row.send_as_txt ? links.pixelUrl : null,
        unsubscribe: row.unsubscribe_link ? { url: links.unsubscribeUrl, text: row.unsubscribe_text?.trim() || 'Unsubscribe' } : null,
      });
      if (!composed.ok) {
        stop(lead, 'SKIPPED', composed.reason);
        continue;
      }

      used.add(mailboxId);
      left.total -= 1;
      if (isNew) left.fresh -= 1;
      mailboxLeft.set(mailboxId, (mailboxLeft.get(mailboxId) ?? 1) - 1);
      if (!kept) {
        variationCounts.set(variation.id, (variationCounts.get(variation.id) ?? 0) + 1);
        assigned.set(variation.id, (assigned.get(variation.id) ?? 0) + 1);
      }
      gaps.push({ id: mailboxId, at: new Date(now.getTime() + sendingGapWithJitter({ gapMinutes: mailbox.sending_gap, seed: sendId })).toISOString() });
      updates.push({
        ...unchanged(lead),
        next_send_at: new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(),
        claimed_at: nowIso,
        email_account_id: mailboxId,
        pending_send_id: sendId,
        pending_variation_id: variation.id,
        status_reason: null,
      });
      const nextStep = row.steps.find((s) => s.step === stepNumber + 1);
      const messageId = `${sendId}@${domainOf(mailbox.email)}`;
      claims.push({
        sendId,
        organizationId: row.organization_id,
        workspaceId: row.workspace_id,
        campaignId: row.id,
        campaignName: row.name,
        parentCampaignId: row.type === 'subseq' ? row.parent_id : null,
        leadId: lead.id,
        leadEmail: lead.email,
        step: stepNumber,
        variationId: variation.id,
        variationLabel: variation.label,
        nextDueAt: nextStep ? new Date(now.getTime() + nextStep.wait_time * DAY_MS) : null,
        attempts: lead.send_attempts,
        takenOver: lead.claimed_at !== null,
        mailbox: {
          id: mailbox.id,
          email: mailbox.email,
          version: new Date(mailbox.updated_at).toISOString(),
          smtpHost: mailbox.smtp_host,
          smtpPort: mailbox.smtp_port,
          smtpUsername: mailbox.smtp_username,
          smtpPasswordEnc: mailbox.smtp_password_enc,
        },
        message: {
          from: { name: `${mailbox.first_name} ${mailbox.last_name}`.trim(), address: mailbox.email },
          to: lead.email,
          replyTo: mailbox.reply_to,
          subject: composed.subject,
          html: composed.html,
          text: composed.text,
          messageId,
          inReplyTo: composed.inReplyTo,
          references: composed.references,
          headers: composed.headers,
        },
      });
      if (claims.length >= maxSends) break;
    }

    // Leads read but not reached (the batch filled up) are untouched: still due.
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
      if (claim.takenOver) deps.log.warn({ leadId: claim.leadId, messageId: claim.message.messageId }, 'retrying a send whose worker stopped before recording it');
    }
    return { claims, stopped, deferred: deferred + waiting, openCampaigns: plans.size };
  });
}

/**
 * When a due lead that found no mailbox now is worth reading again, or null to leave it
 * as it is (still due, keeping its place in line):
 * - every usable mailbox at its daily limit: the next sending window after today;
 * - none usable (disconnected, paused, limit 0): in an hour;
 * - a follow-up whose own mailbox is in its sending gap: when the gap ends;
 * - otherwise (a mailbox just used by this claim, or held by another worker): null, so
 *   the lead keeps its turn at the next tick rather than falling behind newer work.
 */
function retryAt(options: {
  now: Date;
  plan: CampaignPlan;
  mailboxIds: string[];
  mailboxes: Map<string, MailboxRow>;
  mailboxLeft: Map<string, number>;
  followUp: boolean;
}): Date | null {
  const { now, plan } = options;
  const nowMs = now.getTime();
  let usable = 0;
  let atLimit = 0;
  let gapEnd = Infinity;
  for (const id of options.mailboxIds) {
    const m = options.mailboxes.get(id);
    if (!m || m.status !== 'ACTIVE' || m.daily_limit <= 0) continue;
    usable += 1;
    const left = options.mailboxLeft.get(id);
    if (left === 0) atLimit += 1;
    else if (left === undefined && m.next_send_allowed_at) gapEnd = Math.min(gapEnd, new Date(m.next_send_allowed_at).getTime());
  }
  if (!usable) return new Date(nowMs + MAILBOX_DOWN_RETRY_MS);
  if (atLimit === usable) {
    return plan.afterMailboxDay();
  }
  if (options.followUp && gapEnd !== Infinity && gapEnd > nowMs) return new Date(gapEnd);
  return null;
}

// --- deliver and record ------------------------------------------------------------------

export type DeliveryResult = 'sent' | 'bounced' | 'deferred' | 'mailbox_disconnected' | 'lost_claim';

/**
 * Sends one claimed e-mail and records the outcome in one transaction:
 * - accepted: the send is recorded, the lead moves to its next step (or completes);
 * - 5xx: a hard bounce, recorded as a send with its bounce; the lead becomes BOUNCED;
 * - 4xx / connection failure: retried later with backoff, a bounce after 3 failures;
 * - login refused: the mailbox is marked DISCONNECTED and the lead waits (a first step
 *   is free to go out from another mailbox).
 * A bounce may pause the campaign (bounce protection).
 */
export async function deliverClaim(options: { deps: ServiceDeps; claim: ClaimedSend }): Promise<DeliveryResult> {
  const { deps, claim } = options;
  let outcome: SendOutcome;
  try {
    outcome = await deps.ports.smtp.send({
      mailboxId: claim.mailbox.id,
      version: claim.mailbox.version,
      smtp: {
        host: claim.mailbox.smtpHost,
        port: claim.mailbox.smtpPort,
        username: claim.mailbox.smtpUsername,
        password: deps.secrets.decrypt(claim.mailbox.smtpPasswordEnc),
      },
      message: claim.message,
    });
  } catch (error) {
    // The password cannot be decrypted (another key): nothing will work until it is re-entered.
    outcome = { status: 'auth', code: null, message: `cannot read the mailbox password: ${(error as Error).message}` };
  }
  const now = deps.ports.clock.now();
  const log = deps.log.child({ sendId: claim.sendId, leadId: claim.leadId, campaignId: claim.campaignId, mailbox: claim.mailbox.email });

  switch (outcome.status) {
    case 'sent': {
      const recorded = await recordSend({ deps, claim, now, bounce: null });
      log.debug({ messageId: claim.message.messageId, step: claim.step }, 'sent');
      return recorded ? 'sent' : 'lost_claim';
    }
    case 'rejected': {
      await recordSend({ deps, claim, now, bounce: { kind: 'hard', code: outcome.code, message: outcome.message } });
      log.info({ code: outcome.code, response: outcome.message }, 'hard bounce');
      return 'bounced';
    }
    case 'deferred': {
      const attempts = claim.attempts + 1;
      if (attempts >= MAX_SEND_ATTEMPTS) {
        await recordSend({ deps, claim, now, bounce: { kind: 'soft', code: outcome.code, message: `${attempts} attempts failed; last: ${outcome.message}` } });
        log.info({ code: outcome.code, response: outcome.message, attempts }, 'soft bounce: retries exhausted');
        return 'bounced';
      }
      const retry = new Date(now.getTime() + retryDelayMs({ attempt: attempts, seed: claim.sendId }));
      await deps.db.lead.updateMany({
        where: { id: claim.leadId, pendingSendId: claim.sendId },
        data: { claimedAt: null, sendAttempts: attempts, nextSendAt: retry, statusReason: `attempt ${attempts} deferred: ${outcome.message}`.slice(0, 500) },
      });
      log.info({ code: outcome.code, response: outcome.message, attempts, retryAt: retry }, 'send deferred; will retry');
      return 'deferred';
    }
    case 'auth': {
      await deps.db.$transaction(async (tx) => {
        const before = await tx.emailAccount.update({
          where: { id: claim.mailbox.id },
          data: { status: 'DISCONNECTED', disconnectReason: 'smtp_auth', lastError: outcome.message.slice(0, 500) },
          select: { id: true },
        });
        await emitWebhookEvent({
          tx,
          workspaceId: claim.workspaceId,
          event: 'SYSTEM_ALERT',
          campaignId: null,
          now,
          fields: systemAlertFields({
            alert_type: 'MAILBOX_DISCONNECTED',
            message: `mailbox ${claim.mailbox.email} was disconnected: its SMTP login was refused (${outcome.message})`,
            at: now,
            email_account_id: before.id,
            email: claim.mailbox.email,
          }),
        });
        await tx.$executeRawUnsafe(
          `UPDATE leads SET claimed_at = NULL, next_send_at = $3::timestamptz, updated_at = $3::timestamptz,
                  email_account_id = CASE WHEN current_step = 0 THEN NULL ELSE email_account_id END
            WHERE id = $1 AND pending_send_id = $2`,
          claim.leadId,
          claim.sendId,
          now.toISOString(),
        );
      });
      log.warn({ response: outcome.message }, 'mailbox login refused: marked DISCONNECTED, its sends stop');
      return 'mailbox_disconnected';
    }
  }
}

/** Records a send (accepted or bounced) and moves the lead on; true when this claim still held the lead. */
async function recordSend(options: {
  deps: ServiceDeps;
  claim: ClaimedSend;
  now: Date;
  bounce: { kind: 'hard' | 'soft'; code: number | null; message: string } | null;
}): Promise<boolean> {
  const { deps, claim, now, bounce } = options;
  const nowIso = now.toISOString();
  const result = await deps.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRawUnsafe<{ inserted: number; lead_status: string | null }[]>(
      RECORD_SENT_SQL,
      claim.sendId,
      claim.organizationId,
      claim.workspaceId,
      claim.campaignId,
      claim.parentCampaignId,
      claim.leadId,
      claim.mailbox.id,
      claim.step,
      claim.variationId,
      claim.variationLabel,
      claim.message.messageId,
      claim.message.subject,
      claim.message.html ?? claim.message.text,
      claim.message.html === null,
      nowIso,
      bounce ? nowIso : null,
      bounce ? 'BOUNCED' : null,
      bounce ? null : (claim.nextDueAt?.toISOString() ?? null),
      bounce ? bounce.message.slice(0, 1000) : null,
    );
    const held = row?.lead_status !== null && row?.lead_status !== undefined;
    const payloadLead = async (): Promise<PayloadLead> =>
      (await leadsForEvents({ tx, leadIds: [claim.leadId] })).get(claim.leadId) ?? { id: claim.leadId, email: claim.leadEmail };
    const campaign = { id: claim.campaignId, name: claim.campaignName };
    if (!bounce) {
      if (row?.inserted) {
        // A conversation already in the unified inbox (the lead, or its parent-campaign lead, wrote back) shows this send too.
        const [thread] = await tx.$queryRawUnsafe<{ id: string }[]>(LEAD_THREAD_SQL, claim.workspaceId, claim.leadId);
        if (thread) {
          await tx.$executeRawUnsafe(COPY_CAMPAIGN_SENDS_SQL, thread.id, claim.leadId, claim.sendId);
          await tx.uniboxThread.update({ where: { id: thread.id }, data: { lastMessageAt: now } });
        }
        await emitWebhookEvent({
          tx,
          workspaceId: claim.workspaceId,
          event: 'EMAIL_SENT',
          campaignId: claim.campaignId,
          now,
          fields: async () =>
            emailSentFields({
              lead: await payloadLead(),
              campaign,
              send: {
                sender_email: claim.mailbox.email,
                subject: claim.message.subject,
                body: claim.message.html ?? claim.message.text,
                step: claim.step,
                variation: claim.variationLabel,
                message_id: claim.message.messageId,
                sent_at: now,
              },
            }),
        });
      }
      return { held, paused: null };
    }
    await tx.emailEvent.create({
      data: {
        id: newId(now.getTime()),
        workspaceId: claim.workspaceId,
        sentEmailId: claim.sendId,
        campaignId: claim.campaignId,
        leadId: claim.leadId,
        type: 'BOUNCE',
        data: { kind: bounce.kind, code: bounce.code, message: bounce.message, mailbox: claim.mailbox.email },
        occurredAt: now,
      },
    });
    if (row?.lead_status === 'BOUNCED') {
      await tx.leadEvent.create({
        data: {
          id: newId(now.getTime()),
          workspaceId: claim.workspaceId,
          leadId: claim.leadId,
          campaignId: claim.campaignId,
          type: 'STATUS_CHANGED',
          data: { to: 'BOUNCED', reason: bounce.message, code: bounce.code, kind: bounce.kind },
          occurredAt: now,
        },
      });
    }
    const paused = await pauseOnBounceRate({ tx, campaignId: claim.campaignId, now });
    await emitWebhookEvent({
      tx,
      workspaceId: claim.workspaceId,
      event: 'BOUNCED_EMAIL',
      campaignId: claim.campaignId,
      now,
      fields: async () =>
        bouncedEmailFields({
          lead: await payloadLead(),
          campaign,
          bounce: { at: now, sender_email: claim.mailbox.email, message: bounce.message, bounce_type: bounce.kind, campaign_paused: paused !== null },
        }),
    });
    if (paused) {
      await emitWebhookEvent({
        tx,
        workspaceId: claim.workspaceId,
        event: 'SYSTEM_ALERT',
        campaignId: null,
        now,
        fields: systemAlertFields({ alert_type: 'CAMPAIGN_AUTO_PAUSED', message: `campaign "${claim.campaignName}" paused: ${paused}`, at: now, camp_id: claim.campaignId, campaign_name: claim.campaignName }),
      });
    }
    return { held, paused };
  });
  if (result.paused) deps.log.warn({ campaignId: claim.campaignId, reason: result.paused }, 'campaign paused by bounce protection');
  return result.held;
}

/** Pauses the campaign when its bounce rate over the last 100 sends passes its limit; the reason, or null. */
export async function pauseOnBounceRate(options: { tx: Tx; campaignId: string; now: Date }): Promise<string | null> {
  const { tx, campaignId, now } = options;
  const [campaign] = await tx.$queryRawUnsafe<{ status: string; pause_on_bounce_rate: boolean; bounce_rate_limit: number }[]>(
    `SELECT status::text AS status, pause_on_bounce_rate, bounce_rate_limit FROM campaigns WHERE id = $1 FOR UPDATE`,
    campaignId,
  );
  if (!campaign || campaign.status !== 'ACTIVE' || !campaign.pause_on_bounce_rate) return null;
  const [recent] = await tx.$queryRawUnsafe<{ bounced: number; sent: number }[]>(RECENT_BOUNCES_SQL, campaignId);
  if (!recent || recent.sent < BOUNCE_RATE_MIN_SENDS) return null;
  const rate = (recent.bounced / recent.sent) * 100;
  if (rate <= campaign.bounce_rate_limit) return null;
  const reason = `bounce rate ${rate.toFixed(1)}% over the last ${recent.sent} sends passed the ${campaign.bounce_rate_limit}% limit`;
  await tx.campaign.update({ where: { id: campaignId }, data: { status: 'PAUSED', pausedReason: reason, pausedAt: now } });
  return reason;
}

// --- a tick --------------------------------------------------------------------------------

export interface TickResult {
  claimed: number;
  sent: number;
  bounced: number;
  deferred: number;
  disconnected: number;
  stopped: number;
  waiting: number;
  completedCampaigns: string[];
}

/**
 * One round of the engine: claim what may go now, deliver it (all claims of a tick use
 * different mailboxes, so they go out in parallel), then complete finished campaigns.
 */
export async function runSchedulerTick(options: {
  deps: ServiceDeps;
  maxSends?: number;
  /** Only these workspaces' campaigns (tests, a CLI run for one workspace); all when absent. */
  workspaceIds?: string[];
}): Promise<TickResult> {
  const { deps } = options;
  const now = deps.ports.clock.now();
  const claim = await claimDueSends({ deps, now, maxSends: options.maxSends ?? 100, workspaceIds: options.workspaceIds });
  const results = await Promise.all(
    claim.claims.map((c) =>
      deliverClaim({ deps, claim: c }).catch((error: unknown) => {
        // The lease hands the lead back to a later tick.
        deps.log.error({ err: error, leadId: c.leadId, sendId: c.sendId }, 'delivering a claimed send failed');
        return 'lost_claim' as const;
      }),
    ),
  );
  const sentFrom = [...new Set(claim.claims.filter((_, i) => results[i] === 'sent' || results[i] === 'bounced').map((c) => c.campaignId))];
  if (sentFrom.length) await deps.db.$executeRawUnsafe(MARK_CAMPAIGNS_SENT_SQL, sentFrom, now.toISOString());
  const completed = await completeFinishedCampaigns({ deps, now, workspaceIds: options.workspaceIds });
  return {
    claimed: claim.claims.length,
    sent: results.filter((r) => r === 'sent').length,
    bounced: results.filter((r) => r === 'bounced').length,
    deferred: results.filter((r) => r === 'deferred').length,
    disconnected: results.filter((r) => r === 'mailbox_disconnected').length,
    stopped: claim.stopped,
    waiting: claim.deferred,
    completedCampaigns: completed,
  };
}

/** Moves ACTIVE campaigns with no unfinished lead to COMPLETED; their ids. */
export async function completeFinishedCampaigns(options: { deps: ServiceDeps; now: Date; workspaceIds?: string[] }): Promise<string[]> {
  const rows = await options.deps.db.$queryRawUnsafe<{ id: string; name: string }[]>(
    COMPLETE_CAMPAIGNS_SQL,
    options.workspaceIds ?? null,
    options.now.toISOString(),
  );
  for (const row of rows) options.deps.log.info({ campaignId: row.id, name: row.name }, 'campaign completed: every lead is finished');
  return rows.map((r) => r.id);
}
