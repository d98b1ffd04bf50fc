// A mailbox's recent sending and warmup as `payload.analytics`, and its health score
// (docs/api.md, "Mailbox health"), pure.
import type { AccountAnalytics, HealthInputs } from './email-account.schemas';

/** What the engine recorded of one mailbox over the last days (email-account.queries.ts, MAILBOX_ACTIVITY_SQL). */
export interface MailboxActivity {
  /** Sends since the start of the workspace's day, and manual (unibox) sends counted for that day. */
  sent_today: number;
  unibox_sent_today: number;
  /** Replies from leads received since the start of the day. */
  replied_today: number;
  /** Sends of the last 7 days recorded as bounced since the start of the day. */
  bounced_today: number;
  /** Sends of the last 7 days (rolling, from now), and of those the replied, bounced and out-of-office-answered ones. */
  sent_7d: number;
  replied_7d: number;
  bounced_7d: number;
  ooo_7d: number;
  /** Sends of the last 3 days, and of those the bounced ones. */
  sent_3d: number;
  bounced_3d: number;
  /** Warmup e-mails sent since the start of the day. */
  warmup_sent_today?: number;
  /** Warmup e-mails of the last 7 days by where they landed (PENDING ones are not counted), overall and by the recipient's provider. */
  warmup_7d?: WarmupPlacement;
  warmup_google_7d?: WarmupPlacement;
  warmup_microsoft_7d?: WarmupPlacement;
  warmup_other_7d?: WarmupPlacement;
  /** Warmup e-mails sent in the last 24 hours, and of those the ones MISSING. */
  warmup_sent_1d?: number;
  warmup_missing_1d?: number;
}

export interface WarmupPlacement {
  inbox: number;
  spam: number;
  promotions: number;
  missing: number;
}

export const NO_PLACEMENT: WarmupPlacement = { inbox: 0, spam: 0, promotions: 0, missing: 0 };

export const NO_ACTIVITY: MailboxActivity = {
  sent_today: 0,
  unibox_sent_today: 0,
  replied_today: 0,
  bounced_today: 0,
  sent_7d: 0,
  replied_7d: 0,
  bounced_7d: 0,
  ooo_7d: 0,
  sent_3d: 0,
  bounced_3d: 0,
};

/** Sends of a window with no reply at all from which on silence counts against the mailbox. */
export const SILENT_SENDS = 20;
/** Warmup e-mails placed (or missing) in the window from which on their placement counts. */
export const WARMUP_MIN_SAMPLE = 5;

/** What a domain's DNS says of its sending setup (the vitals check); null when not checked. */
export interface DnsVerdict {
  spf: boolean;
  dkim: boolean;
  dmarc: boolean;
}

const placedOf = (p: WarmupPlacement) => p.inbox + p.spam + p.promotions + p.missing;

/**
 * The health score of a mailbox, 0 to 100, over its last 7 days:
 * - DISCONNECTED (a login refused): 0, it cannot send;
 * - otherwise 100, less 10 points per percent of bounced sends (at most 70: 2 % costs 20, 7 % or more 70),
 *   less 10 when at least SILENT_SENDS sends got no reply at all (mail landing in spam reads like this),
 *   less 10 per spam complaint (at most 30; complaints are not recorded yet: null),
 *   less half the percent of warmup e-mails that landed in spam or went missing (at most 40) and a tenth of
 *   the percent that landed in promotions (at most 10), once WARMUP_MIN_SAMPLE of them were placed,
 *   less 10 without SPF, 10 without DKIM, 5 without DMARC on its domain (nothing while unchecked),
 *   less 20 while reading its inbox fails (replies and bounces go unseen), never below 0.
 * A mailbox that sent nothing has nothing against it: 100 (or 80 while its inbox cannot be read).
 */
export function healthScore(options: {
  status: string;
  imapFailures: number;
  sent: number;
  replied: number;
  bounced: number;
  complaints?: number | null;
  warmup?: WarmupPlacement;
  dns?: DnsVerdict | null;
}): number {
  if (options.status === 'DISCONNECTED') return 0;
  let score = 100;
  if (options.sent > 0) {
    score -= Math.min(70, (10 * 100 * options.bounced) / options.sent);
    if (options.sent >= SILENT_SENDS && options.replied === 0) score -= 10;
  }
  if (options.complaints) score -= Math.min(30, 10 * options.complaints);
  const w = options.warmup;
  if (w && placedOf(w) >= WARMUP_MIN_SAMPLE) {
    const total = placedOf(w);
    score -= Math.min(40, (0.5 * 100 * (w.spam + w.missing)) / total);
    score -= Math.min(10, (0.1 * 100 * w.promotions) / total);
  }
  if (options.dns) {
    if (!options.dns.spf) score -= 10;
    if (!options.dns.dkim) score -= 10;
    if (!options.dns.dmarc) score -= 5;
  }
  if (options.imapFailures > 0) score -= 20;
  return Math.max(0, Math.round(score));
}

/** `part / whole` in percent, 2 decimals; -1 (the vendor's "no data") when the window is empty. */
export function windowRate(options: { part: number; whole: number }): number {
  if (options.whole === 0) return -1;
  return Math.round((options.part / options.whole) * 10_000) / 100;
}

/** Inbox placement of warmup e-mails in percent, a whole number; -1 when none was placed. */
function inboxPercent(p: WarmupPlacement | undefined): number {
  if (!p || placedOf(p) === 0) return -1;
  return Math.round((100 * p.inbox) / placedOf(p));
}

/** The health score's inputs (shown with it) from a mailbox's state, activity and DNS verdict. */
export function healthInputs(options: { status: string; imapFailures: number; activity: MailboxActivity; dns: (DnsVerdict & { checked_at: string }) | null }): HealthInputs {
  const a = options.activity;
  const w = a.warmup_7d ?? NO_PLACEMENT;
  return {
    status: options.status,
    imap_failures: options.imapFailures,
    sent_7d: a.sent_7d,
    replied_7d: a.replied_7d,
    bounced_7d: a.bounced_7d,
    complaints_7d: null,
    warmup_inbox_7d: w.inbox,
    warmup_spam_7d: w.spam,
    warmup_promotions_7d: w.promotions,
    warmup_missing_7d: w.missing,
    spf: options.dns?.spf ?? null,
    dkim: options.dns?.dkim ?? null,
    dmarc: options.dns?.dmarc ?? null,
    dns_checked_at: options.dns?.checked_at ?? null,
  };
}

/** The score of a set of inputs (healthScore over them). */
export function scoreOf(inputs: HealthInputs): number {
  return healthScore({
    status: inputs.status,
    imapFailures: inputs.imap_failures,
    sent: inputs.sent_7d,
    replied: inputs.replied_7d,
    bounced: inputs.bounced_7d,
    complaints: inputs.complaints_7d,
    warmup: { inbox: inputs.warmup_inbox_7d, spam: inputs.warmup_spam_7d, promotions: inputs.warmup_promotions_7d, missing: inputs.warmup_missing_7d },
    dns: inputs.spf === null || inputs.dkim === null || inputs.dmarc === null ? null : { spf: inputs.spf, dkim: inputs.dkim, dmarc: inputs.dmarc },
  });
}

/** `payload.analytics` of a mailbox: the vendor's keys, with the engine's figures. */
export function mailboxAnalytics(options: { status: string; imapFailures: number; activity: MailboxActivity; dns?: (DnsVerdict & { checked_at: string }) | null }): AccountAnalytics {
  const a = options.activity;
  const inputs = healthInputs({ status: options.status, imapFailures: options.imapFailures, activity: a, dns: options.dns ?? null });
  const health = scoreOf(inputs);
  return {
    health_scores: {
      health_score: health,
      '7d_overall_warmup_health': health,
      '7d_google_warmup_health': inboxPercent(a.warmup_google_7d),
      '7d_microsoft_warmup_health': inboxPercent(a.warmup_microsoft_7d),
      '7d_other_warmup_health': inboxPercent(a.warmup_other_7d),
      '1d_miss_warmup_rate': windowRate({ part: a.warmup_missing_1d ?? 0, whole: a.warmup_sent_1d ?? 0 }),
      '3d_bounce_rate': windowRate({ part: a.bounced_3d, whole: a.sent_3d }),
      '7d_bounce_rate': windowRate({ part: a.bounced_7d, whole: a.sent_7d }),
      health_inputs: inputs,
    },
    reply_rates: {
      '7d_replyrate': windowRate({ part: a.replied_7d, whole: a.sent_7d }),
      '7d_ooo_replyrate': windowRate({ part: a.ooo_7d, whole: a.sent_7d }),
    },
    daily_counters: {
      email_sent_today: a.sent_today + a.unibox_sent_today,
      email_replied_today: a.replied_today,
      email_bounced_today: a.bounced_today,
      warmup_email_sent_today: a.warmup_sent_today ?? 0,
    },
  };
}
