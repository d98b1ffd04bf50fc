import { describe, expect, it } from 'vitest';
import { healthScore, mailboxAnalytics, NO_ACTIVITY, windowRate } from './mailbox-health.rules';

const score = (options: Partial<Parameters<typeof healthScore>[0]>) => healthScore({ status: 'ACTIVE', imapFailures: 0, sent: 0, replied: 0, bounced: 0, ...options });

describe('mailbox health score', () => {
  it('is 100 for a connected mailbox with nothing against it, and 0 once it is disconnected', () => {
    expect(score({})).toBe(100);
    expect(score({ sent: 50, replied: 3 })).toBe(100);
    expect(score({ status: 'PAUSED', sent: 10, replied: 1 })).toBe(100);
    expect(score({ status: 'DISCONNECTED', sent: 50, replied: 3 })).toBe(0);
  });

  it('loses 10 points per percent of bounced sends, at most 70', () => {
    expect(score({ sent: 100, replied: 5, bounced: 2 })).toBe(80);
    expect(score({ sent: 30, replied: 1, bounced: 1 })).toBe(67);
    expect(score({ sent: 10, replied: 1, bounced: 5 })).toBe(30);
  });

  it('loses 10 when 20 sends or more got no reply, and 20 while its inbox cannot be read', () => {
    expect(score({ sent: 19 })).toBe(100);
    expect(score({ sent: 20 })).toBe(90);
    expect(score({ imapFailures: 2 })).toBe(80);
    // Everything at once, never below 0.
    expect(score({ sent: 20, bounced: 20, imapFailures: 1 })).toBe(0);
  });
});

describe('mailbox analytics', () => {
  it('answers -1 for a rate over an empty window', () => {
    expect(windowRate({ part: 0, whole: 0 })).toBe(-1);
    expect(windowRate({ part: 1, whole: 3 })).toBe(33.33);
  });

  it('fills the vendor keys from the activity: today counts unibox sends, warmup figures say "no data"', () => {
    const analytics = mailboxAnalytics({
      status: 'ACTIVE',
      imapFailures: 0,
      activity: { ...NO_ACTIVITY, sent_today: 3, unibox_sent_today: 2, replied_today: 1, bounced_today: 1, sent_7d: 50, replied_7d: 2, bounced_7d: 1, ooo_7d: 1, sent_3d: 4, bounced_3d: 1 },
    });
    expect(analytics).toEqual({
      health_scores: {
        health_score: 80,
        '7d_overall_warmup_health': 80,
        '7d_google_warmup_health': -1,
        '7d_microsoft_warmup_health': -1,
        '7d_other_warmup_health': -1,
        '1d_miss_warmup_rate': -1,
        '3d_bounce_rate': 25,
        '7d_bounce_rate': 2,
      },
      reply_rates: { '7d_replyrate': 4, '7d_ooo_replyrate': 2 },
      daily_counters: { email_sent_today: 5, email_replied_today: 1, email_bounced_today: 1, warmup_email_sent_today: 0 },
    });
    const idle = mailboxAnalytics({ status: 'ACTIVE', imapFailures: 0, activity: NO_ACTIVITY });
    expect([idle.health_scores.health_score, idle.health_scores['3d_bounce_rate'], idle.reply_rates['7d_replyrate']]).toEqual([100, -1, -1]);
  });
});
