// SQL of email-account automation: the metric readers, a rule's scope, the evaluation states
// with the firing latch, the worker's claim of due rules, and the actions' writes. Times
// travel as ISO strings cast in SQL (the clock is injected; database now() decides nothing).

// ─── metrics (one statement each; $1 mailbox ids, then the window) ───────────────────────

/**
 * bounce_rate and reply_rate: the mailbox's campaign sends in the window ($2 ≤ sent_at ≤ $3)
 * and, of those, the bounced ones (a 5xx refusal, a soft bounce after retries, or a bounce
 * report read from the inbox) and the replied ones.
 */
export const SENDS_IN_WINDOW_SQL = `
  SELECT a.id, count(s.id)::int AS sent, count(s.bounced_at)::int AS bounced, count(s.replied_at)::int AS replied
    FROM unnest($1::text[]) AS a(id)
    LEFT JOIN sent_emails s ON s.email_account_id = a.id AND s.sent_at >= $2::timestamptz AND s.sent_at <= $3::timestamptz
   GROUP BY a.id`;

/**
 * consecutive_failures: the mailbox's newest sends in the window that bounced one after the
 * other, counted back to its newest accepted (not bounced) send.
 */
export const CONSECUTIVE_FAILURES_SQL = `
  SELECT a.id,
         (SELECT count(*)::int FROM sent_emails s
           WHERE s.email_account_id = a.id AND s.sent_at >= $2::timestamptz AND s.sent_at <= $3::timestamptz
             AND s.bounced_at IS NOT NULL
             AND s.sent_at > COALESCE((SELECT max(k.sent_at) FROM sent_emails k
                                        WHERE k.email_account_id = a.id AND k.sent_at >= $2::timestamptz
                                          AND k.sent_at <= $3::timestamptz AND k.bounced_at IS NULL), '-infinity'::timestamptz)) AS value
    FROM unnest($1::text[]) AS a(id)`;

/**
 * daily_sent: what the mailbox sent today ($2, the start of the day in the workspace's zone,
 * to $3): campaign sends and the unified inbox's sends, as the scheduler counts them against
 * its daily limit.
 */
export const DAILY_SENT_SQL = `
  SELECT e.id,
         ((SELECT count(*) FROM sent_emails s WHERE s.email_account_id = e.id AND s.sent_at >= $2::timestamptz AND s.sent_at <= $3::timestamptz)
          + CASE WHEN e.unibox_day_start = $2::timestamptz THEN e.unibox_sent_today ELSE 0 END)::int AS value
    FROM email_accounts e WHERE e.id = ANY($1::text[])`;

// ─── scope ───────────────────────────────────────────────────────────────────────────────

/** The condition "mailbox e is in the scope of rule r". */
const IN_SCOPE = `(r.scope_type = 'ALL'
    OR (r.scope_type = 'ACCOUNTS' AND e.id = ANY(r.scope_ids))
    OR (r.scope_type = 'TAGS' AND EXISTS (SELECT 1 FROM email_account_tags t WHERE t.email_account_id = e.id AND t.tag_id = ANY(r.scope_ids))))`;

/** The mailboxes of rule $1's scope (in its workspace), by id. */
export const SCOPE_MAILBOXES_SQL = `
  SELECT e.id, e.email FROM account_automation_rules r
    JOIN email_accounts e ON e.workspace_id = r.workspace_id
   WHERE r.id = $1 AND ${IN_SCOPE}
   ORDER BY e.id`;

/** The ACTIVE rules whose scope holds mailbox $1 (in its workspace), oldest first; with the workspace's time zone. */
export const RULES_OF_MAILBOX_SQL = `
  SELECT r.id, r.workspace_id, r.name, r.scope_type, r.metric, r.operator, r.threshold, r.window_days, r.actions,
         r.cooldown_minutes, w.timezone
    FROM email_accounts e
    JOIN account_automation_rules r ON r.workspace_id = e.workspace_id AND r.status = 'ACTIVE'
    JOIN workspaces w ON w.id = e.workspace_id
   WHERE e.id = $1 AND ${IN_SCOPE}
   ORDER BY r.created_at, r.id`;

/**
 * Claims the ACTIVE rules due for an evaluation ($1 now, never evaluated or last evaluated at
 * least $2 ms ago), at most $3, optionally of the workspaces $4 only; SKIP LOCKED, so workers
 * share them out, and each is marked evaluated at once (a worker that dies mid-way leaves it
 * to the next period).
 */
export const CLAIM_DUE_RULES_SQL = `
  UPDATE account_automation_rules r SET last_evaluated_at = $1::timestamptz
    FROM workspaces w
   WHERE w.id = r.workspace_id AND r.id IN (
     SELECT id FROM account_automation_rules
      WHERE status = 'ACTIVE'
        AND (last_evaluated_at IS NULL OR last_evaluated_at <= $1::timestamptz - make_interval(secs => $2::double precision / 1000))
        AND ($4::text[] IS NULL OR workspace_id = ANY($4::text[]))
      ORDER BY last_evaluated_at NULLS FIRST, id
      LIMIT $3
        FOR UPDATE SKIP LOCKED)
  RETURNING r.id, r.workspace_id, r.name, r.scope_type, r.metric, r.operator, r.threshold, r.window_days, r.actions,
            r.cooldown_minutes, w.timezone`;

export interface EvaluatedRuleRow {
  id: string;
  workspace_id: string;
  name: string;
  scope_type: string;
  metric: string;
  operator: string;
  threshold: number;
  window_days: number;
  actions: unknown;
  cooldown_minutes: number;
  timezone: string;
}

// ─── evaluation states and the firing latch ──────────────────────────────────────────────

/**
 * Records an evaluation of rule $1 (workspace $2, at $3, cooldown $4 minutes) for mailboxes
 * $5 (json: id, value, outcome NO_DATA | NOT_MET | MET). A MET mailbox whose last firing is
 * within the cooldown is recorded as COOLDOWN. Answers each mailbox's recorded outcome.
 *
 * The mailboxes and the rule are held until it commits (FOR KEY SHARE, as the states' foreign
 * keys would, in a delete's order: the mailboxes, then the rule, before their states): a mailbox
 * or the rule deleted since the metric was read is left out (nothing when the rule is gone),
 * where its foreign key failed the whole evaluation, and a delete under way is waited for.
 */
export const RECORD_EVALUATION_SQL = `
  WITH x AS (SELECT * FROM json_to_recordset($5::json) AS x(id text, value double precision, outcome text)),
  boxes AS MATERIALIZED (SELECT e.id FROM email_accounts e WHERE e.id IN (SELECT id FROM x) ORDER BY e.id FOR KEY SHARE),
  rule AS MATERIALIZED (SELECT r.id FROM account_automation_rules r, (SELECT count(*) FROM boxes) b WHERE r.id = $1 FOR KEY SHARE OF r)
  INSERT INTO account_automation_states AS s (rule_id, email_account_id, workspace_id, last_value, last_outcome, last_evaluated_at)
  SELECT $1, x.id, $2, x.value, x.outcome, $3::timestamptz
    FROM x
   WHERE x.id IN (SELECT id FROM boxes) AND EXISTS (SELECT 1 FROM rule)
   ORDER BY x.id
  ON CONFLICT (rule_id, email_account_id) DO UPDATE
     SET last_value = EXCLUDED.last_value, last_evaluated_at = EXCLUDED.last_evaluated_at,
         last_outcome = CASE WHEN EXCLUDED.last_outcome = 'MET' AND s.last_fired_at IS NOT NULL
                              AND s.last_fired_at > $3::timestamptz - make_interval(mins => $4::int)
                             THEN 'COOLDOWN' ELSE EXCLUDED.last_outcome END
  RETURNING s.email_account_id AS id, s.last_outcome AS outcome`;

/**
 * The firing latch: takes the firing of rule $1 for mailbox $2 at $3 when it has never fired
 * for it or fired at least the cooldown ($4 minutes) ago. One conditional UPDATE: of two
 * evaluators at once, the second waits for the first's row lock, then sees its firing time
 * and takes nothing. One row when this evaluator fires.
 */
export const CLAIM_FIRING_SQL = `
  UPDATE account_automation_states SET last_fired_at = $3::timestamptz, last_outcome = 'FIRED'
   WHERE rule_id = $1 AND email_account_id = $2
     AND (last_fired_at IS NULL OR last_fired_at <= $3::timestamptz - make_interval(mins => $4::int))
  RETURNING 1`;

/** A MET evaluation that another evaluator fired meanwhile: COOLDOWN. */
export const MARK_COOLDOWN_SQL = `
  UPDATE account_automation_states SET last_outcome = 'COOLDOWN' WHERE rule_id = $1 AND email_account_id = $2 AND last_outcome = 'MET'`;

/** The mailbox a firing acts on, locked first (the sending engine's order: the mailbox, then the rule's state). */
export const LOCK_MAILBOX_SQL = `SELECT id, workspace_id, email, status::text AS status FROM email_accounts WHERE id = $1 FOR UPDATE`;

/**
 * The rule a firing acts for as it is now, while it is ACTIVE and its workspace not deleted, held
 * until the firing commits (FOR SHARE: switching it off, editing or deleting it waits for the
 * firing, and a firing for a change under way, so none fires after the request changing the rule
 * has answered), after its mailbox and before its state, the order in which a delete of the rule
 * takes the rule and then (its cascade) the states. $1 rule.
 */
export const LOCK_ACTIVE_RULE_SQL = `
  SELECT r.id, r.workspace_id, r.name, r.scope_type, r.metric, r.operator, r.threshold, r.window_days, r.actions,
         r.cooldown_minutes, w.timezone
    FROM account_automation_rules r JOIN workspaces w ON w.id = r.workspace_id
   WHERE r.id = $1 AND r.status = 'ACTIVE' AND w.deleted_at IS NULL
     FOR SHARE OF r`;

// ─── actions ─────────────────────────────────────────────────────────────────────────────

/** PAUSE_SENDING: an ACTIVE mailbox becomes PAUSED (the scheduler claims ACTIVE mailboxes only). */
export const PAUSE_SENDING_SQL = `UPDATE email_accounts SET status = 'PAUSED', updated_at = $2::timestamptz WHERE id = $1 AND status = 'ACTIVE'`;

/** PAUSE_WARMUP: the warmup status POST /account/warmup/pause sets (emailAccount.pauseWarmup). */
export const PAUSE_WARMUP_SQL = `UPDATE email_accounts SET warmup_status = 'INACTIVE', updated_at = $2::timestamptz WHERE id = $1 AND warmup_status <> 'INACTIVE'`;

/** SET_DAILY_LIMIT: $3 the new limit. */
export const SET_DAILY_LIMIT_SQL = `UPDATE email_accounts SET daily_limit = $3, updated_at = $2::timestamptz WHERE id = $1 AND daily_limit <> $3`;

/** ADD_TAG: the tag $2, while it is still a tag of the mailbox's workspace (as PUT /account/bulk-assign-tags ASSIGN). */
export const ADD_TAG_SQL = `
  INSERT INTO email_account_tags (email_account_id, tag_id)
  SELECT e.id, t.id FROM email_accounts e JOIN tags t ON t.workspace_id = e.workspace_id AND t.id = $2 WHERE e.id = $1
  ON CONFLICT DO NOTHING`;

/** REMOVE_TAG (as PUT /account/bulk-assign-tags UNASSIGN). */
export const REMOVE_TAG_SQL = `DELETE FROM email_account_tags WHERE email_account_id = $1 AND tag_id = $2`;

/** Whether tag $2 is a tag of workspace $1, held until the firing commits (a delete of the tag waits for it). */
export const TAG_OF_WORKSPACE_SQL = `SELECT 1 FROM tags WHERE workspace_id = $1 AND id = $2 FOR KEY SHARE`;

// ─── reads of a rule ─────────────────────────────────────────────────────────────────────

/** The last evaluations of rule $1, most recent first, with the mailbox's address. */
export const LAST_EVALUATIONS_SQL = `
  SELECT s.email_account_id, e.email, s.last_value, s.last_outcome, s.last_evaluated_at, s.last_fired_at
    FROM account_automation_states s JOIN email_accounts e ON e.id = s.email_account_id
   WHERE s.rule_id = $1
   ORDER BY s.last_evaluated_at DESC, s.email_account_id
   LIMIT 1000`;
