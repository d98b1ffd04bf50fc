// SQL of bounce protection (bounce-protection.service.ts).

/**
 * The campaign's status and bounce settings, locked for the decision. $1 campaign id.
 * FOR NO KEY UPDATE, the lock the status update takes anyway: it leaves the campaign's key to
 * the other sends being recorded (their rows' foreign keys share it). A FOR UPDATE would wait
 * for them, and deadlocked when they in turn waited for this transaction's daily-count row (one
 * per campaign then; now one per campaign and mailbox, so only a recording through the same
 * mailbox could).
 */
export const CAMPAIGN_FOR_BOUNCE_CHECK_SQL = `SELECT status::text AS status, pause_on_bounce_rate, bounce_rate_limit FROM campaigns WHERE id = $1 FOR NO KEY UPDATE`;

/** Bounces among a campaign's last 100 sends. */
export const RECENT_BOUNCES_SQL = `
  SELECT count(*) FILTER (WHERE bounced_at IS NOT NULL)::int AS bounced, count(*)::int AS sent
    FROM (SELECT bounced_at FROM sent_emails WHERE campaign_id = $1 ORDER BY sent_at DESC LIMIT 100) t`;
