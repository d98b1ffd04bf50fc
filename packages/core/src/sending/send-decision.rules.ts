/**
 * The per-lead decision of a claim, pure: stop the lead, leave it for later, or send it (which
 * mailbox, which variation, the composed e-mail). No database, no clock: `now` is a parameter.
 */
import { domainOf, type OutgoingMessage } from '../shared/mail-sender';
import { compose } from './compose.rules';
import { leadVariables } from './merge-fields.rules';
import { mailboxesInPickOrder, pickLeastAssignedVariation, sendingGapWithJitter } from './pacing.rules';
import type { CampaignRow, LeadRow, MailboxRow, MailboxState } from './scheduler.queries';

/** A lead whose mailbox is disconnected or paused is looked at again after this. */
export const MAILBOX_DOWN_RETRY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

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
  /** When this claim was made (its claimed_at): the DATA mark is written only while the lead still holds it. */
  claimedAt: Date;
  /**
   * When it may go: the claim's time, or, for a mailbox's later send in a claim that sends ahead
   * (SendAhead), when that mailbox's pause after its send before ends. A tick delivers a mailbox's
   * sends one after another, each not before its own sendAt.
   */
  sendAt: Date;
  /**
   * When an earlier attempt of this very e-mail (same send id) had its body going out to
   * the SMTP server, its outcome never recorded (its worker died in the SMTP transaction):
   * the claim records it as sent, outcome unknown, and does not send it again. Null: send.
   */
  dataStartedAt: Date | null;
  /** Whether a webhook listened for the campaign's EMAIL_SENT events when the claim was made (how the send is recorded). */
  emailSentWebhook: boolean;
  mailbox: { id: string; email: string; version: string; authType: string; smtpHost: string; smtpPort: number; smtpUsername: string; smtpPasswordEnc: string };
  message: OutgoingMessage;
}

/** What deciding for one due lead needs: the lead, its campaign, and the claim's state so far. */
export interface SendDecisionInput {
  now: Date;
  lead: LeadRow;
  campaign: CampaignRow;
  /** The campaign's sends left today: in all, and to leads at their first step. */
  campaignLeft: { readonly total: number; readonly fresh: number };
  /** The state of every mailbox of the open campaigns (what choosing one needs). */
  mailboxes: ReadonlyMap<string, MailboxState>;
  /**
   * The full rows (sender, SMTP login) of the mailboxes a send may go from: those this worker
   * holds, and those of leads whose earlier attempt's outcome is unknown.
   */
  senders: ReadonlyMap<string, MailboxRow>;
  /** Free mailboxes this worker holds with sends left today. */
  free: ReadonlySet<string>;
  /** The same, in the order a first step takes them (freeInPickOrder), ordered once per claim. */
  freeInOrder: readonly string[];
  /** The campaign's mailboxes (its mailbox_ids), as a set. */
  campaignMailboxes: ReadonlySet<string>;
  /** Mailboxes already given a send by this claim (one send per mailbox a tick, unless `ahead`). */
  used: ReadonlySet<string>;
  /** A claim that sends ahead: a used mailbox takes another send once its pause ends, within the horizon. */
  ahead?: SendAhead;
  /** Each held mailbox's sends left today. */
  mailboxLeft: ReadonlyMap<string, number>;
  /** Each variation's assigned count, as this claim goes. */
  variationCounts: ReadonlyMap<string, number>;
  /** The e-mails already in the lead's thread (its parent-campaign lead's first), oldest first. */
  thread: readonly { message_id: string; subject: string }[];
  /** The workspace's additional fields and their defaults. */
  additionalFields: ReadonlyMap<string, string>;
  /** The first sending window after the campaign's day (its daily limit is reached). */
  afterCampaignDay: () => Date;
  /** The first sending window after the mailboxes' day (their daily limits are reached). */
  afterMailboxDay: () => Date;
  /** The id of a new send (a retry keeps the claim's own). */
  newSendId: () => string;
  /** The open pixel and unsubscribe URLs of a send. */
  trackingLinks: (sendId: string) => { pixelUrl: string; unsubscribeUrl: string };
}

/**
 * Sending ahead: a claim may give a mailbox more than one send, each after the pause that follows
 * the one before (its gap and jitter), as long as it falls before `until` and inside the campaign's
 * sending window. One claim then does the work of several ticks: its statements, locks and writes
 * are shared by more sends (a mailbox with a 0 gap pauses 0–60 s, so a tick of one send per
 * mailbox sent little at a time from few mailboxes).
 */
export interface SendAhead {
  /** The horizon: no send of the claim is due later than this. */
  until: Date;
  /** When each used mailbox may send again within this claim (ms since the epoch). */
  readyAt: ReadonlyMap<string, number>;
  /** Whether the campaign's sending window is open at `at` (the window may close before `until`). */
  within: (at: Date) => boolean;
}

export type SendDecision =
  /** The lead is finished, without a send: the status it ends with and why. */
  | { kind: 'stop'; status: string; reason: string | null }
  /** Not now: read the lead again at `at`, from this mailbox. */
  | { kind: 'later'; at: Date; emailAccountId: string | null }
  /** No mailbox now, and none worth waiting for: the lead stays due, keeping its place in line. */
  | { kind: 'wait' }
  /**
   * Send: the claim. `gapUntil` is when its mailbox may send again, null when the send takes
   * no slot (an unconfirmed earlier attempt, recorded and not sent again); `keptVariation`
   * when the variation is the claim's own from an earlier attempt (not counted again).
   */
  | { kind: 'send'; claim: ClaimedSend; gapUntil: Date | null; isNew: boolean; keptVariation: boolean };

/**
 * The decision for one due lead, in order: a lead no longer sendable, blocklisted or past
 * its last step stops; the campaign's daily limit (or, for a first step, its new-lead
 * limit) leaves it for later; the mailbox is the lead's own for a follow-up (sticky), else
 * the least used free one; the variation is the claim's own on a retry, else the least
 * assigned one (an even split); then the e-mail is composed, and a template it cannot fill
 * stops the lead.
 */
export function decideSend(input: SendDecisionInput): SendDecision {
  const { now, lead, campaign: row, campaignLeft: left, mailboxes, senders, free, used, mailboxLeft } = input;
  const sendable = lead.status === 'NOT_CONTACTED' || lead.status === 'CONTACTED' || (lead.status === 'REPLIED' && !row.stop_on_lead_replied);
  if (!sendable || lead.is_completed) return { kind: 'stop', status: lead.status, reason: null };
  if (lead.blocked) return { kind: 'stop', status: 'SKIPPED', reason: 'the address or its domain is on the blocklist' };
  const stepNumber = lead.current_step + 1;
  const step = row.steps.find((s) => s.step === stepNumber);
  if (!step) return { kind: 'stop', status: lead.status === 'REPLIED' ? 'REPLIED' : 'COMPLETED', reason: null };
  // An earlier attempt of this e-mail had its body going out when its worker died: it is
  // recorded from the mailbox that sent it, not sent again, so it needs no free mailbox
  // and takes no sending slot, gap or limit.
  const unconfirmed =
    lead.pending_data_at !== null && lead.pending_send_id !== null && lead.email_account_id !== null && senders.has(lead.email_account_id)
      ? lead.email_account_id
      : null;
  if (!unconfirmed && left.total <= 0) return { kind: 'later', at: input.afterCampaignDay(), emailAccountId: lead.email_account_id };

  // The mailbox: the lead's own for a follow-up, else the least used free one.
  const isNew = lead.current_step === 0;
  const sticky = lead.email_account_id && input.campaignMailboxes.has(lead.email_account_id) ? lead.email_account_id : null;
  let mailboxId: string | null = unconfirmed;
  let sendAt = now;
  if (unconfirmed) {
    // Nothing to choose.
  } else if (sticky) {
    if (free.has(sticky) && !used.has(sticky)) mailboxId = sticky;
    else if (free.has(sticky) && input.ahead && (mailboxLeft.get(sticky) ?? 0) > 0) {
      const at = readyWithin(input.ahead, sticky);
      if (at) [mailboxId, sendAt] = [sticky, at];
    }
  } else {
    if (isNew && left.fresh <= 0) return { kind: 'later', at: input.afterCampaignDay(), emailAccountId: lead.email_account_id };
    mailboxId = input.freeInOrder.find((id) => !used.has(id) && input.campaignMailboxes.has(id)) ?? null;
    if (!mailboxId && input.ahead) {
      const next = soonestReady(input.ahead, input.freeInOrder, input.campaignMailboxes, mailboxLeft);
      if (next) [mailboxId, sendAt] = [next.id, next.at];
    }
  }
  if (!mailboxId) {
    const at = retryAt({ now, afterMailboxDay: input.afterMailboxDay, mailboxIds: sticky ? [sticky] : row.mailbox_ids, mailboxes, mailboxLeft, followUp: Boolean(sticky) });
    return at ? { kind: 'later', at, emailAccountId: sticky ?? lead.email_account_id } : { kind: 'wait' };
  }
  // Held (free) or the unconfirmed attempt's: a sender either way.
  const mailbox = senders.get(mailboxId)!;

  // The variation: the claim's own on a retry, else the least given one.
  const usable = step.variations.filter((v) => v.is_active && !v.is_deleted);
  const kept = lead.pending_variation_id ? usable.find((v) => v.id === lead.pending_variation_id) : undefined;
  const variationId =
    kept?.id ??
    pickLeastAssignedVariation({
      variations: usable.map((v) => ({ id: v.id, label: v.label, isActive: true, isDeleted: false, assignedCount: input.variationCounts.get(v.id) ?? 0 })),
    });
  const variation = usable.find((v) => v.id === variationId);
  if (!variation) return { kind: 'stop', status: 'SKIPPED', reason: `step ${stepNumber} has no active variation` };

  const sendId = lead.pending_send_id ?? input.newSendId();
  const links = input.trackingLinks(sendId);
  const thread = input.thread;
  const composed = compose({
    subject: variation.subject,
    body: variation.body,
    variables: leadVariables({ lead, mailbox, additional: input.additionalFields }),
    seed: `${lead.id}:${stepNumber}`,
    sendAsText: row.send_as_txt,
    previous: thread.length ? { subject: thread[thread.length - 1]!.subject, messageIds: thread.map((t) => t.message_id) } : null,
    pixelUrl: row.open_tracking && !row.send_as_txt ? links.pixelUrl : null,
    unsubscribe: row.unsubscribe_link ? { url: links.unsubscribeUrl, text: row.unsubscribe_text?.trim() || 'Unsubscribe' } : null,
  });
  if (!composed.ok) return { kind: 'stop', status: 'SKIPPED', reason: composed.reason };

  const nextStep = row.steps.find((s) => s.step === stepNumber + 1);
  const claim: ClaimedSend = {
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
    nextDueAt: nextStep ? new Date(sendAt.getTime() + nextStep.wait_time * DAY_MS) : null,
    attempts: lead.send_attempts,
    takenOver: lead.claimed_at !== null,
    claimedAt: now,
    sendAt,
    dataStartedAt: unconfirmed ? lead.pending_data_at : null,
    emailSentWebhook: row.email_sent_webhook,
    mailbox: {
      id: mailbox.id,
      email: mailbox.email,
      version: new Date(mailbox.updated_at).toISOString(),
      authType: mailbox.auth_type,
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
      messageId: `${sendId}@${domainOf(mailbox.email)}`,
      inReplyTo: composed.inReplyTo,
      references: composed.references,
      headers: composed.headers,
    },
  };
  const gapUntil = unconfirmed ? null : new Date(sendAt.getTime() + sendingGapWithJitter({ gapMinutes: mailbox.sending_gap, seed: sendId }));
  return { kind: 'send', claim, gapUntil, isNew, keptVariation: kept !== undefined };
}

/** When a used mailbox may send again within the horizon and the window; null: not in this claim. */
function readyWithin(ahead: SendAhead, mailboxId: string): Date | null {
  const at = ahead.readyAt.get(mailboxId);
  if (at === undefined || at > ahead.until.getTime()) return null;
  const when = new Date(at);
  return ahead.within(when) ? when : null;
}

/**
 * The campaign's used mailbox that may send again soonest (ties: pick order), within the horizon
 * and the window, with a send left today: a first step goes out at the first moment one of its
 * mailboxes is free, so a claim's sends spread evenly over its mailboxes.
 */
function soonestReady(
  ahead: SendAhead,
  freeInOrder: readonly string[],
  campaignMailboxes: ReadonlySet<string>,
  mailboxLeft: ReadonlyMap<string, number>,
): { id: string; at: Date } | null {
  let best: { id: string; at: number } | null = null;
  for (const id of freeInOrder) {
    const at = ahead.readyAt.get(id);
    if (at === undefined || !campaignMailboxes.has(id) || (mailboxLeft.get(id) ?? 0) <= 0) continue;
    if (!best || at < best.at) best = { id, at };
  }
  const at = best && readyWithin(ahead, best.id);
  return best && at ? { id: best.id, at } : null;
}

/**
 * A claim's free mailboxes in the order first steps take them (pickMailbox's: the least used
 * today first, ties by id), from the mailboxes' state and their sends left today.
 */
export function freeInPickOrder(options: {
  now: Date;
  free: ReadonlySet<string>;
  mailboxes: ReadonlyMap<string, MailboxState>;
  mailboxLeft: ReadonlyMap<string, number>;
}): string[] {
  return mailboxesInPickOrder({
    now: options.now,
    mailboxes: [...options.free].map((id) => {
      const m = options.mailboxes.get(id)!;
      return { id, sentToday: m.daily_limit - (options.mailboxLeft.get(id) ?? 0), dailyLimit: m.daily_limit, nextAllowedAt: null, status: m.status };
    }),
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
export function retryAt(options: {
  now: Date;
  afterMailboxDay: () => Date;
  mailboxIds: readonly string[];
  mailboxes: ReadonlyMap<string, MailboxState>;
  mailboxLeft: ReadonlyMap<string, number>;
  followUp: boolean;
}): Date | null {
  const { now } = options;
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
    return options.afterMailboxDay();
  }
  if (options.followUp && gapEnd !== Infinity && gapEnd > nowMs) return new Date(gapEnd);
  return null;
}
