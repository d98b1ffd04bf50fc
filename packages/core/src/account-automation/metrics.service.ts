/**
 * The metric registry of email-account automation: one reader per metric, each one statement
 * (account-automation.queries.ts) over a batch of mailboxes, answering each mailbox's value, or
 * null for "no data" (a rule on it does not fire for that mailbox). The formulas are in
 * docs/api.md, "Email account automation".
 */
import type { PrismaClient, Tx } from '@outreach/db';
import { DAY_MS, dayBounds } from '../shared/zoned-time';
import type { AutomationMetric } from './account-automation.rules';
import { currentHealthScores } from '../email-account/index';
import { CONSECUTIVE_FAILURES_SQL, DAILY_SENT_SQL, SENDS_IN_WINDOW_SQL } from './account-automation.queries';

export interface MetricQuery {
  db: PrismaClient | Tx;
  /** Mailboxes of one workspace. */
  ids: string[];
  windowDays: number;
  now: Date;
  /** The workspace's time zone (daily counts). */
  timezone: string;
}

export type MetricReader = (query: MetricQuery) => Promise<Map<string, number | null>>;

const windowStart = (q: MetricQuery) => new Date(q.now.getTime() - q.windowDays * DAY_MS).toISOString();

/** A share in percent of the sends in the window; null when the window holds no send. */
function sendsRate(part: 'bounced' | 'replied'): MetricReader {
  return async (q) => {
    const rows = await q.db.$queryRawUnsafe<{ id: string; sent: number; bounced: number; replied: number }[]>(SENDS_IN_WINDOW_SQL, q.ids, windowStart(q), q.now.toISOString());
    return new Map(rows.map((r) => [r.id, r.sent === 0 ? null : (100 * r[part]) / r.sent]));
  };
}

/** A count per mailbox from a statement answering (id, value). */
function count(sql: string, from: (q: MetricQuery) => string): MetricReader {
  return async (q) => {
    const rows = await q.db.$queryRawUnsafe<{ id: string; value: number }[]>(sql, q.ids, from(q), q.now.toISOString());
    return new Map(rows.map((r) => [r.id, Number(r.value)]));
  };
}

/**
 * Metrics of the warmup engine: the share of a mailbox's warmup e-mails of the window (placed,
 * or MISSING) that landed in spam, in percent (null when none was placed); and its health
 * score now (email-account's, over the last 7 days whatever the rule's window; docs/api.md,
 * "Mailbox health").
 */
const warmupSpamRate: MetricReader = async (q) => {
  const rows = await q.db.$queryRawUnsafe<{ id: string; placed: number; spam: number }[]>(WARMUP_SPAM_SQL, q.ids, windowStart(q), q.now.toISOString());
  return new Map(rows.map((r) => [r.id, r.placed === 0 ? null : (100 * r.spam) / r.placed]));
};
const healthScore: MetricReader = (q) => currentHealthScores({ db: q.db, ids: q.ids, now: q.now, timezone: q.timezone });

/** $1 mailbox ids, $2 window start, $3 now: warmup e-mails sent in the window whose placement is known, and of those in spam. */
const WARMUP_SPAM_SQL = `
  SELECT sender_account_id AS id, count(*)::int AS placed, count(*) FILTER (WHERE placement = 'SPAM')::int AS spam
    FROM warmup_messages
   WHERE sender_account_id = ANY($1::text[]) AND sent_at >= $2::timestamptz AND sent_at <= $3::timestamptz AND placement <> 'PENDING'
   GROUP BY 1`;

export const METRIC_READERS: Readonly<Record<AutomationMetric, MetricReader>> = {
  bounce_rate: sendsRate('bounced'),
  reply_rate: sendsRate('replied'),
  consecutive_failures: count(CONSECUTIVE_FAILURES_SQL, windowStart),
  daily_sent: count(DAILY_SENT_SQL, (q) => dayBounds({ timezone: q.timezone, at: q.now }).start.toISOString()),
  warmup_spam_rate: warmupSpamRate,
  health_score: healthScore,
};

/** Each mailbox's value of `metric` (a mailbox the reader did not answer for: no data). */
export async function readMetric(metric: AutomationMetric, query: MetricQuery): Promise<Map<string, number | null>> {
  if (!query.ids.length) return new Map();
  const values = await METRIC_READERS[metric](query);
  return new Map(query.ids.map((id) => [id, values.get(id) ?? null]));
}
