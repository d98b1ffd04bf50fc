/**
 * Evaluating email-account automation rules and firing them.
 *
 * An evaluation reads the rule's metric for the mailboxes of its scope (metrics.service.ts),
 * records each mailbox's outcome (account_automation_states), and fires for each mailbox whose
 * condition holds outside the cooldown. Firing takes the latch first (CLAIM_FIRING_SQL, a
 * conditional UPDATE of the state's last_fired_at), so of several evaluators at once (workers,
 * the sending engine's bounce hook) exactly one fires; then, in the same transaction, it runs
 * the actions, records the firing in the rule's history and, with NOTIFY, queues a SYSTEM_ALERT.
 *
 * Two ways in: the worker evaluates due rules over their whole scope (runAutomationRound), and
 * the sending engine evaluates one mailbox's rules inside the transaction that records a bounce
 * of it (evaluateMailboxRules), so a rule pausing the mailbox takes it out of the rotation before
 * the next claim. Locks are taken in the engine's order: the mailbox row, then the rule's state.
 */
import { isDeadlock, newId, type PrismaClient, type Tx } from '@outreach/db';
import type { Logger } from 'pino';
import type { ServiceDeps } from '../shared/context';
import { emitSystemAlert } from '../webhook/index';
import {
  type AutomationMetric,
  type AutomationOperator,
  type RuleAction,
  conditionHolds,
  conditionText,
  roundValue,
} from './account-automation.rules';
import {
  ADD_TAG_SQL,
  CLAIM_DUE_RULES_SQL,
  CLAIM_FIRING_SQL,
  type EvaluatedRuleRow,
  LOCK_ACTIVE_RULE_SQL,
  LOCK_MAILBOX_SQL,
  MARK_COOLDOWN_SQL,
  PAUSE_SENDING_SQL,
  PAUSE_WARMUP_SQL,
  RECORD_EVALUATION_SQL,
  REMOVE_TAG_SQL,
  RULES_OF_MAILBOX_SQL,
  SCOPE_MAILBOXES_SQL,
  SET_DAILY_LIMIT_SQL,
  TAG_OF_WORKSPACE_SQL,
} from './account-automation.queries';
import { readMetric } from './metrics.service';

/** A rule as an evaluation needs it. */
export interface EvaluatedRule {
  id: string;
  workspaceId: string;
  name: string;
  metric: AutomationMetric;
  operator: AutomationOperator;
  threshold: number;
  windowDays: number;
  actions: RuleAction[];
  cooldownMinutes: number;
  /** The workspace's time zone (daily counts). */
  timezone: string;
}

function ruleOf(row: EvaluatedRuleRow): EvaluatedRule {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    metric: row.metric as AutomationMetric,
    operator: row.operator as AutomationOperator,
    threshold: Number(row.threshold),
    windowDays: row.window_days,
    actions: row.actions as RuleAction[],
    cooldownMinutes: row.cooldown_minutes,
    timezone: row.timezone,
  };
}

export interface FiringActionResult {
  type: RuleAction['type'];
  value: number | null;
  tag_id: string | null;
  result: 'APPLIED' | 'UNCHANGED' | 'SKIPPED';
  detail: string;
}

export interface Firing {
  id: string;
  ruleId: string;
  emailAccountId: string;
  email: string;
  value: number;
  actions: FiringActionResult[];
}

/**
 * Records the evaluation of `values` (mailbox id → value, null for no data) and answers the
 * mailboxes to fire for (met, and not within the cooldown of their last firing).
 */
async function recordEvaluation(db: PrismaClient | Tx, rule: EvaluatedRule, values: Map<string, number | null>, now: Date): Promise<string[]> {
  if (!values.size) return [];
  const rows = [...values].map(([id, value]) => ({
    id,
    value,
    outcome: value === null || !Number.isFinite(value) ? 'NO_DATA' : conditionHolds({ value, operator: rule.operator, threshold: rule.threshold }) ? 'MET' : 'NOT_MET',
  }));
  const recorded = await db.$queryRawUnsafe<{ id: string; outcome: string }[]>(
    RECORD_EVALUATION_SQL,
    rule.id,
    rule.workspaceId,
    now.toISOString(),
    rule.cooldownMinutes,
    JSON.stringify(rows),
  );
  return recorded.filter((r) => r.outcome === 'MET').map((r) => r.id).sort();
}

/** Runs one action on a locked mailbox; what it did. */
async function runAction(options: { tx: Tx; rule: EvaluatedRule; action: RuleAction; mailbox: { id: string; email: string; status: string }; value: number; now: Date }): Promise<FiringActionResult> {
  const { tx, rule, action, mailbox, value, now } = options;
  const base = { type: action.type, value: action.value ?? null, tag_id: action.tag_id ?? null };
  const nowIso = now.toISOString();
  switch (action.type) {
    case 'PAUSE_SENDING': {
      if (mailbox.status === 'DISCONNECTED') return { ...base, result: 'SKIPPED', detail: 'the mailbox is DISCONNECTED: it sends nothing until it is reconnected' };
      const changed = await tx.$executeRawUnsafe(PAUSE_SENDING_SQL, mailbox.id, nowIso);
      mailbox.status = 'PAUSED';
      return changed ? { ...base, result: 'APPLIED', detail: 'status ACTIVE → PAUSED: out of its campaigns’ rotation until resumed' } : { ...base, result: 'UNCHANGED', detail: 'the mailbox was PAUSED already' };
    }
    case 'PAUSE_WARMUP': {
      const changed = await tx.$executeRawUnsafe(PAUSE_WARMUP_SQL, mailbox.id, nowIso);
      return changed ? { ...base, result: 'APPLIED', detail: 'warmup_status → INACTIVE' } : { ...base, result: 'UNCHANGED', detail: 'warmup was not running' };
    }
    case 'SET_DAILY_LIMIT': {
      const changed = await tx.$executeRawUnsafe(SET_DAILY_LIMIT_SQL, mailbox.id, nowIso, action.value ?? 0);
      return changed ? { ...base, result: 'APPLIED', detail: `daily_limit → ${action.value}` } : { ...base, result: 'UNCHANGED', detail: `daily_limit was ${action.value} already` };
    }
    case 'ADD_TAG':
    case 'REMOVE_TAG': {
      const tag = await tx.$queryRawUnsafe<unknown[]>(TAG_OF_WORKSPACE_SQL, rule.workspaceId, action.tag_id);
      if (!tag.length) return { ...base, result: 'SKIPPED', detail: 'the tag no longer exists' };
      const changed = await tx.$executeRawUnsafe(action.type === 'ADD_TAG' ? ADD_TAG_SQL : REMOVE_TAG_SQL, mailbox.id, action.tag_id);
      if (action.type === 'ADD_TAG') return changed ? { ...base, result: 'APPLIED', detail: 'tag added' } : { ...base, result: 'UNCHANGED', detail: 'the mailbox had the tag already' };
      return changed ? { ...base, result: 'APPLIED', detail: 'tag removed' } : { ...base, result: 'UNCHANGED', detail: 'the mailbox did not have the tag' };
    }
    case 'NOTIFY': {
      const condition = conditionText({ metric: rule.metric, value, operator: rule.operator, threshold: rule.threshold, windowDays: rule.windowDays });
      const queued = await emitSystemAlert({
        tx,
        workspaceId: rule.workspaceId,
        now,
        alert: {
          alert_type: 'AUTOMATION_RULE_FIRED',
          message: `automation rule "${rule.name}" fired for ${mailbox.email}: ${condition}; actions: ${rule.actions.map((a) => a.type).join(', ')}`,
          rule_id: rule.id,
          rule_name: rule.name,
          email_account_id: mailbox.id,
          email: mailbox.email,
          metric: rule.metric,
          value: roundValue(value),
          operator: rule.operator,
          threshold: rule.threshold,
          window_days: rule.windowDays,
          actions: rule.actions.map((a) => a.type),
        },
      });
      return queued
        ? { ...base, result: 'APPLIED', detail: `SYSTEM_ALERT queued for ${queued} webhook${queued === 1 ? '' : 's'}` }
        : { ...base, result: 'SKIPPED', detail: 'no ACTIVE webhook of the workspace subscribes to SYSTEM_ALERT' };
    }
  }
}

/**
 * Fires `rule` for one mailbox in `tx` when the latch lets this evaluator (see CLAIM_FIRING_SQL):
 * the actions in order, the firing in the rule's history. Null when another evaluator fired it
 * within the cooldown, the mailbox is gone, or the rule is no longer as it was evaluated
 * (deleted, set INACTIVE or edited since: a worker evaluates a whole round of rules from one
 * claim, and a rule switched off must not go on pausing mailboxes).
 */
export async function fireRule(options: { tx: Tx; rule: EvaluatedRule; emailAccountId: string; value: number; now: Date }): Promise<Firing | null> {
  const { tx, rule, emailAccountId, value, now } = options;
  const [mailbox] = await tx.$queryRawUnsafe<{ id: string; workspace_id: string; email: string; status: string }[]>(LOCK_MAILBOX_SQL, emailAccountId);
  // A mailbox moved to another workspace meanwhile is not this rule's any more.
  if (!mailbox || mailbox.workspace_id !== rule.workspaceId) return null;
  // The rule as it is now (its workspace's time zone aside: the value was read in the one it had).
  const [current] = await tx.$queryRawUnsafe<EvaluatedRuleRow[]>(LOCK_ACTIVE_RULE_SQL, rule.id);
  if (!current || JSON.stringify({ ...ruleOf(current), timezone: rule.timezone }) !== JSON.stringify(rule)) return null;
  const claimed = await tx.$queryRawUnsafe<unknown[]>(CLAIM_FIRING_SQL, rule.id, emailAccountId, now.toISOString(), rule.cooldownMinutes);
  if (!claimed.length) {
    await tx.$executeRawUnsafe(MARK_COOLDOWN_SQL, rule.id, emailAccountId);
    return null;
  }
  const actions: FiringActionResult[] = [];
  for (const action of rule.actions) actions.push(await runAction({ tx, rule, action, mailbox, value, now }));
  const id = newId(now.getTime());
  await tx.accountAutomationFiring.create({
    data: {
      id,
      ruleId: rule.id,
      workspaceId: rule.workspaceId,
      emailAccountId,
      email: mailbox.email,
      metric: rule.metric,
      value: roundValue(value),
      threshold: rule.threshold,
      actions: JSON.parse(JSON.stringify(actions)),
      firedAt: now,
    },
  });
  return { id, ruleId: rule.id, emailAccountId, email: mailbox.email, value: roundValue(value), actions };
}

const firingLog = (f: Firing, rule: EvaluatedRule) => ({
  ruleId: f.ruleId,
  rule: rule.name,
  mailbox: f.email,
  metric: rule.metric,
  value: f.value,
  actions: f.actions.map((a) => `${a.type}:${a.result}`),
});

/**
 * Evaluates one rule over its whole scope (the worker): the metric for every mailbox of the
 * scope in one read, the evaluation recorded in one statement, then one short transaction per
 * mailbox to fire (mailbox lock, latch, actions).
 */
export async function evaluateRule(options: { db: PrismaClient; rule: EvaluatedRule; now: Date; log?: Logger }): Promise<{ mailboxes: number; fired: Firing[] }> {
  const { db, rule, now, log } = options;
  const accounts = await db.$queryRawUnsafe<{ id: string; email: string }[]>(SCOPE_MAILBOXES_SQL, rule.id);
  const values = await readMetric(rule.metric, { db, ids: accounts.map((a) => a.id), windowDays: rule.windowDays, now, timezone: rule.timezone });
  // Upserts of the same rows by evaluators at once (two workers, the sending engine's hook) can
  // deadlock in PostgreSQL's speculative insertion; the victim's statement is undone, and runs again.
  let due: string[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      due = await recordEvaluation(db, rule, values, now);
      break;
    } catch (error) {
      if (!isDeadlock(error) || attempt === 3) throw error;
    }
  }
  const fired: Firing[] = [];
  for (const id of due) {
    try {
      const firing = await db.$transaction((tx) => fireRule({ tx, rule, emailAccountId: id, value: values.get(id)!, now }));
      if (firing) {
        fired.push(firing);
        log?.info(firingLog(firing, rule), 'automation rule fired');
      }
    } catch (error) {
      // The latch rolled back with the actions: a later evaluation fires it.
      log?.error({ err: error, ruleId: rule.id, emailAccountId: id }, 'firing an automation rule failed');
    }
  }
  return { mailboxes: accounts.length, fired };
}

/** Rule `ruleId` as an evaluation needs it, when it is ACTIVE (tests and the CLI evaluate one rule at once). */
export async function loadActiveRule(db: PrismaClient, ruleId: string): Promise<EvaluatedRule | null> {
  const [row] = await db.$queryRawUnsafe<EvaluatedRuleRow[]>(
    `SELECT r.id, r.workspace_id, r.name, r.scope_type, r.metric, r.operator, r.threshold, r.window_days, r.actions, r.cooldown_minutes, w.timezone
       FROM account_automation_rules r JOIN workspaces w ON w.id = r.workspace_id WHERE r.id = $1 AND r.status = 'ACTIVE'`,
    ruleId,
  );
  return row ? ruleOf(row) : null;
}

/**
 * Evaluates, inside the caller's transaction, the ACTIVE rules whose scope holds one mailbox:
 * the sending engine's hook, called right after it records a bounce of the mailbox (the bounce
 * is in the metric already). A failure here is logged and undone to a savepoint, never the
 * caller's recording: the worker evaluates the rule again on its next round.
 */
export async function evaluateMailboxRules(options: { tx: Tx; emailAccountId: string; now: Date; log?: Logger }): Promise<Firing[]> {
  const { tx, emailAccountId, now, log } = options;
  await tx.$executeRawUnsafe('SAVEPOINT account_automation');
  try {
    // The mailbox first, as every firing locks it (the engine's recording holds it already).
    const [mailbox] = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_MAILBOX_SQL, emailAccountId);
    const rows = mailbox ? await tx.$queryRawUnsafe<EvaluatedRuleRow[]>(RULES_OF_MAILBOX_SQL, emailAccountId) : [];
    const fired: Firing[] = [];
    for (const rule of rows.map(ruleOf)) {
      const values = await readMetric(rule.metric, { db: tx, ids: [emailAccountId], windowDays: rule.windowDays, now, timezone: rule.timezone });
      const due = await recordEvaluation(tx, rule, values, now);
      if (!due.length) continue;
      const firing = await fireRule({ tx, rule, emailAccountId, value: values.get(emailAccountId)!, now });
      if (firing) {
        fired.push(firing);
        log?.info(firingLog(firing, rule), 'automation rule fired');
      }
    }
    await tx.$executeRawUnsafe('RELEASE SAVEPOINT account_automation');
    return fired;
  } catch (error) {
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT account_automation');
    log?.error({ err: error, emailAccountId }, 'evaluating the mailbox’s automation rules failed; the worker evaluates them on its next round');
    return [];
  }
}

export interface AutomationRoundResult {
  /** Rules evaluated this round. */
  rules: number;
  /** Mailboxes they looked at. */
  mailboxes: number;
  fired: number;
}

/**
 * One round of the automation worker: claims the ACTIVE rules due for an evaluation (never
 * evaluated, or last evaluated at least `periodMs` ago; at most `batch`, shared out among
 * workers with SKIP LOCKED) and evaluates each over its scope.
 */
export async function runAutomationRound(options: { deps: ServiceDeps; periodMs: number; batch: number; workspaceIds?: string[] }): Promise<AutomationRoundResult> {
  const { deps } = options;
  const now = deps.ports.clock.now();
  const rows = await deps.db.$queryRawUnsafe<EvaluatedRuleRow[]>(CLAIM_DUE_RULES_SQL, now.toISOString(), options.periodMs, options.batch, options.workspaceIds ?? null);
  const result: AutomationRoundResult = { rules: rows.length, mailboxes: 0, fired: 0 };
  for (const rule of rows.map(ruleOf)) {
    try {
      const evaluated = await evaluateRule({ db: deps.db, rule, now, log: deps.log });
      result.mailboxes += evaluated.mailboxes;
      result.fired += evaluated.fired.length;
    } catch (error) {
      deps.log.error({ err: error, ruleId: rule.id }, 'evaluating an automation rule failed');
    }
  }
  return result;
}
