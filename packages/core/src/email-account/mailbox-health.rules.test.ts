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

describe('mailbox health score: warmup placement, DNS, complaints', () => {
  const warmup = (inbox: number, spam: number, promotions = 0, missing = 0) => ({ inbox, spam, promotions, missing });

  it('loses half the percent of warmup e-mails in spam or missing (at most 40), a tenth of those in promotions (at most 10)', () => {
    expect(score({ warmup: warmup(8, 2) })).toBe(90);
    expect(score({ warmup: warmup(6, 2, 0, 2) })).toBe(80);
    expect(score({ warmup: warmup(0, 10) })).toBe(60);
    expect(score({ warmup: warmup(5, 0, 5) })).toBe(95);
    // Fewer than 5 placed: too few to judge.
    expect(score({ warmup: warmup(0, 4) })).toBe(100);
  });

  it('loses 10 without SPF, 10 without DKIM, 5 without DMARC; nothing while unchecked', () => {
    expect(score({ dns: { spf: true, dkim: true, dmarc: true } })).toBe(100);
    expect(score({ dns: { spf: false, dkim: true, dmarc: false } })).toBe(85);
    expect(score({ dns: { spf: false, dkim: false, dmarc: false } })).toBe(75);
    expect(score({ dns: null })).toBe(100);
  });

  it('loses 10 per spam complaint, at most 30, and adds every penalty up, never below 0', () => {
    expect(score({ complaints: 2 })).toBe(80);
    expect(score({ complaints: 9 })).toBe(70);
    expect(score({ sent: 100, replied: 5, bounced: 2, warmup: warmup(8, 2), dns: { spf: true, dkim: false, dmarc: true }, imapFailures: 1 })).toBe(40);
    expect(score({ status: 'DISCONNECTED', warmup: warmup(10, 0) })).toBe(0);
  });

  it('shows warmup inbox placement by provider and the day\'s missing rate', () => {
    const analytics = mailboxAnalytics({
      status: 'ACTIVE',
      imapFailures: 0,
      activity: {
        ...NO_ACTIVITY,
        warmup_sent_today: 4,
        warmup_7d: warmup(6, 3, 0, 1),
        warmup_google_7d: warmup(3, 1),
        warmup_microsoft_7d: warmup(0, 0),
        warmup_other_7d: warmup(3, 2, 0, 1),
        warmup_sent_1d: 4,
        warmup_missing_1d: 1,
      },
      dns: { spf: true, dkim: true, dmarc: false, checked_at: '2026-03-02T08:00:00.000Z' },
    });
    expect(analytics.health_scores).toMatchObject({
      health_score: 75,
      '7d_google_warmup_health': 75,
      '7d_microsoft_warmup_health': -1,
      '7d_other_warmup_health': 50,
      '1d_miss_warmup_rate': 25,
    });
    expect(analytics.health_scores.health_inputs).toMatchObject({ warmup_inbox_7d: 6, warmup_spam_7d: 3, warmup_missing_7d: 1, spf: true, dmarc: false });
    expect(analytics.daily_counters.warmup_email_sent_today).toBe(4);
  });
});

describe('mailbox analytics', () => {
  it('answers -1 for a rate over an empty window', () => {
    expect(windowRate({ part: 0, whole: 0 })).toBe(-1);
    expect(windowRate({ part: 1, whole: 3 })).toBe(33.33);
  });

  it('fills the vendor keys from the activity: today counts unibox sends, warmup figures say "no data" without warmup', () => {
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
        health_inputs: {
          status: 'ACTIVE',
          imap_failures: 0,
          sent_7d: 50,
          replied_7d: 2,
          bounced_7d: 1,
          complaints_7d: null,
          warmup_inbox_7d: 0,
          warmup_spam_7d: 0,
          warmup_promotions_7d: 0,
          warmup_missing_7d: 0,
          spf: null,
          dkim: null,
          dmarc: null,
          dns_checked_at: null,
        },
      },
      reply_rates: { '7d_replyrate': 4, '7d_ooo_replyrate': 2 },
      daily_counters: { email_sent_today: 5, email_replied_today: 1, email_bounced_today: 1, warmup_email_sent_today: 0 },
    });
    const idle = mailboxAnalytics({ status: 'ACTIVE', imapFailures: 0, activity: NO_ACTIVITY });
    expect([idle.health_scores.health_score, idle.health_scores['3d_bounce_rate'], idle.reply_rates['7d_replyrate']]).toEqual([100, -1, -1]);
  });
});
