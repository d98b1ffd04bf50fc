// A mailbox's recent sending as `payload.analytics` (docs/api.md, "Mailbox health"), pure.
import type { AccountAnalytics } from './email-account.schemas';

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
}

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

/**
 * The health score of a mailbox, 0 to 100, over its last 7 days:
 * - DISCONNECTED (a login refused): 0, it cannot send;
 * - otherwise 100, less 10 points per percent of bounced sends (at most 70: 2 % costs 20, 7 % or more 70),
 *   less 10 when at least SILENT_SENDS sends got no reply at all (mail landing in spam reads like this),
 *   less 20 while reading its inbox fails (replies and bounces go unseen), never below 0.
 * A mailbox that sent nothing has nothing against it: 100 (or 80 while its inbox cannot be read).
 */
export function healthScore(options: { status: string; imapFailures: number; sent: number; replied: number; bounced: number }): number {
  if (options.status === 'DISCONNECTED') return 0;
  let score = 100;
  if (options.sent > 0) {
    score -= Math.min(70, (10 * 100 * options.bounced) / options.sent);
    if (options.sent >= SILENT_SENDS && options.replied === 0) score -= 10;
  }
  if (options.imapFailures > 0) score -= 20;
  return Math.max(0, Math.round(score));
}

/** `part / whole` in percent, 2 decimals; -1 (the vendor's "no data") when the window is empty. */
export function windowRate(options: { part: number; whole: number }): number {
  if (options.whole === 0) return -1;
  return Math.round((options.part / options.whole) * 10_000) / 100;
}

/** `payload.analytics` of a mailbox: the vendor's keys, with the engine's figures. */
export function mailboxAnalytics(options: { status: string; imapFailures: number; activity: MailboxActivity }): AccountAnalytics {
  const a = options.activity;
  const health = healthScore({ status: options.status, imapFailures: options.imapFailures, sent: a.sent_7d, replied: a.replied_7d, bounced: a.bounced_7d });
  return {
    health_scores: {
      health_score: health,
      '7d_overall_warmup_health': health,
      '7d_google_warmup_health': -1,
      '7d_microsoft_warmup_health': -1,
      '7d_other_warmup_health': -1,
      '1d_miss_warmup_rate': -1,
      '3d_bounce_rate': windowRate({ part: a.bounced_3d, whole: a.sent_3d }),
      '7d_bounce_rate': windowRate({ part: a.bounced_7d, whole: a.sent_7d }),
    },
    reply_rates: {
      '7d_replyrate': windowRate({ part: a.replied_7d, whole: a.sent_7d }),
      '7d_ooo_replyrate': windowRate({ part: a.ooo_7d, whole: a.sent_7d }),
    },
    daily_counters: {
      email_sent_today: a.sent_today + a.unibox_sent_today,
      email_replied_today: a.replied_today,
      email_bounced_today: a.bounced_today,
      warmup_email_sent_today: 0,
    },
  };
}
