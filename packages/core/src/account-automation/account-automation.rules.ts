// Pure rules of email-account automation: the metrics and their ranges, the operators, the
// actions and what each needs, a rule's validation, and the decision for one mailbox. No
// database, no clock (docs/api.md, "Email account automation").
import type { FieldError } from '../shared/errors';

export const AUTOMATION_METRICS = ['bounce_rate', 'warmup_spam_rate', 'health_score', 'reply_rate', 'consecutive_failures', 'daily_sent'] as const;
export type AutomationMetric = (typeof AUTOMATION_METRICS)[number];

export const AUTOMATION_OPERATORS = ['GT', 'GTE', 'LT', 'LTE', 'EQ'] as const;
export type AutomationOperator = (typeof AUTOMATION_OPERATORS)[number];
/** The symbols accepted for the operators (`>` is GT, …). */
export const OPERATOR_SYMBOLS: Readonly<Record<string, AutomationOperator>> = { '>': 'GT', '>=': 'GTE', '<': 'LT', '<=': 'LTE', '=': 'EQ', '==': 'EQ' };
const OPERATOR_TEXT: Readonly<Record<AutomationOperator, string>> = { GT: '>', GTE: '>=', LT: '<', LTE: '<=', EQ: '=' };

export const AUTOMATION_ACTIONS = ['PAUSE_SENDING', 'PAUSE_WARMUP', 'SET_DAILY_LIMIT', 'ADD_TAG', 'REMOVE_TAG', 'NOTIFY'] as const;
export type AutomationActionType = (typeof AUTOMATION_ACTIONS)[number];

export const AUTOMATION_SCOPES = ['ALL', 'TAGS', 'ACCOUNTS'] as const;
export type AutomationScope = (typeof AUTOMATION_SCOPES)[number];

export const RULE_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];

/** Window of a condition, in days. */
export const MIN_WINDOW_DAYS = 1;
export const MAX_WINDOW_DAYS = 90;
/** Cooldown between two firings of a rule for one mailbox, in minutes (a year at most). */
export const MIN_COOLDOWN_MINUTES = 1;
export const MAX_COOLDOWN_MINUTES = 525_600;
/** SET_DAILY_LIMIT's value: the range PUT /account/bulk-update takes. */
export const MAX_DAILY_LIMIT = 10_000;
/** The largest count a condition on a count compares with. */
export const MAX_COUNT_THRESHOLD = 1_000_000;
export const MAX_ACTIONS = 10;
export const MAX_SCOPE_IDS = 1000;

/**
 * What a metric measures, for the range of its threshold: a rate in percent (0 to 100), a
 * score (0 to 100), or a count (a whole number from 0).
 */
export const METRIC_KIND: Readonly<Record<AutomationMetric, 'percent' | 'score' | 'count'>> = {
  bounce_rate: 'percent',
  warmup_spam_rate: 'percent',
  reply_rate: 'percent',
  health_score: 'score',
  consecutive_failures: 'count',
  daily_sent: 'count',
};

export interface RuleAction {
  type: AutomationActionType;
  /** SET_DAILY_LIMIT: the mailbox's new daily limit. */
  value?: number | null;
  /** ADD_TAG, REMOVE_TAG: the tag. */
  tag_id?: string | null;
}

/** A rule as validated and stored (the API's field names). */
export interface RuleDefinition {
  name: string;
  status: RuleStatus;
  scope: AutomationScope;
  tag_ids: string[];
  email_account_ids: string[];
  metric: AutomationMetric;
  operator: AutomationOperator;
  threshold: number;
  window_days: number;
  actions: RuleAction[];
  cooldown_minutes: number;
}

/** The scope a rule is given: named, or inferred from the ids given (tag ids: TAGS, mailbox ids: ACCOUNTS, none: ALL). */
export function inferScope(options: { scope?: AutomationScope; tag_ids?: string[]; email_account_ids?: string[] }): AutomationScope {
  if (options.scope) return options.scope;
  if (options.tag_ids?.length) return 'TAGS';
  if (options.email_account_ids?.length) return 'ACCOUNTS';
  return 'ALL';
}

/** The problems of a rule's fields that no single field's schema can see (each naming its field); empty when valid. */
export function ruleProblems(rule: RuleDefinition): FieldError[] {
  const problems: FieldError[] = [];
  const kind = METRIC_KIND[rule.metric];
  if (kind === 'count') {
    if (!Number.isInteger(rule.threshold) || rule.threshold < 0 || rule.threshold > MAX_COUNT_THRESHOLD) {
      problems.push({ field: 'threshold', message: `must be a whole number from 0 to ${MAX_COUNT_THRESHOLD} for ${rule.metric} (a count)` });
    }
  } else if (rule.threshold < 0 || rule.threshold > 100) {
    problems.push({
      field: 'threshold',
      message: kind === 'percent' ? `must be from 0 to 100 for ${rule.metric} (a rate in percent: 5 is 5 %)` : `must be from 0 to 100 for ${rule.metric} (a score)`,
    });
  }
  if (rule.scope === 'ALL') {
    if (rule.tag_ids.length) problems.push({ field: 'tag_ids', message: 'must be empty when scope is ALL' });
    if (rule.email_account_ids.length) problems.push({ field: 'email_account_ids', message: 'must be empty when scope is ALL' });
  } else if (rule.scope === 'TAGS') {
    if (!rule.tag_ids.length) problems.push({ field: 'tag_ids', message: 'must hold at least one tag id when scope is TAGS' });
    if (rule.email_account_ids.length) problems.push({ field: 'email_account_ids', message: 'must be empty when scope is TAGS' });
  } else {
    if (!rule.email_account_ids.length) problems.push({ field: 'email_account_ids', message: 'must hold at least one email account id when scope is ACCOUNTS' });
    if (rule.tag_ids.length) problems.push({ field: 'tag_ids', message: 'must be empty when scope is ACCOUNTS' });
  }
  const seen = new Set<string>();
  const tagged = new Map<string, string>();
  rule.actions.forEach((action, i) => {
    const field = (key?: string) => (key ? `actions.${i}.${key}` : `actions.${i}`);
    if (action.type === 'SET_DAILY_LIMIT') {
      if (action.value === undefined || action.value === null) problems.push({ field: field('value'), message: 'is required for SET_DAILY_LIMIT' });
      else if (!Number.isInteger(action.value) || action.value < 0 || action.value > MAX_DAILY_LIMIT) {
        problems.push({ field: field('value'), message: `must be a whole number from 0 to ${MAX_DAILY_LIMIT}` });
      }
    } else if (action.value !== undefined && action.value !== null) {
      problems.push({ field: field('value'), message: `is only taken by SET_DAILY_LIMIT, not ${action.type}` });
    }
    if (action.type === 'ADD_TAG' || action.type === 'REMOVE_TAG') {
      if (!action.tag_id) problems.push({ field: field('tag_id'), message: `is required for ${action.type}` });
      else {
        const other = tagged.get(action.tag_id);
        if (other) problems.push({ field: field('tag_id'), message: other === action.type ? `is already given to another ${action.type}` : 'is both added and removed' });
        tagged.set(action.tag_id, action.type);
      }
    } else {
      if (action.tag_id !== undefined && action.tag_id !== null) problems.push({ field: field('tag_id'), message: `is only taken by ADD_TAG and REMOVE_TAG, not ${action.type}` });
      if (seen.has(action.type)) problems.push({ field: field('type'), message: `${action.type} is given twice` });
      seen.add(action.type);
    }
  });
  return problems;
}

/** Whether `value operator threshold` holds. */
export function conditionHolds(options: { value: number; operator: AutomationOperator; threshold: number }): boolean {
  const { value, threshold } = options;
  switch (options.operator) {
    case 'GT':
      return value > threshold;
    case 'GTE':
      return value >= threshold;
    case 'LT':
      return value < threshold;
    case 'LTE':
      return value <= threshold;
    case 'EQ':
      return value === threshold;
  }
}

/**
 * What one evaluation says of a mailbox: NO_DATA (the metric has no value), NOT_MET, COOLDOWN
 * (met, but the rule fired for the mailbox less than the cooldown ago), or DUE (met: fire).
 */
export type EvaluationOutcome = 'NO_DATA' | 'NOT_MET' | 'COOLDOWN' | 'DUE';
export function evaluationOutcome(options: {
  value: number | null;
  operator: AutomationOperator;
  threshold: number;
  lastFiredAt: Date | null;
  cooldownMinutes: number;
  now: Date;
}): EvaluationOutcome {
  if (options.value === null || !Number.isFinite(options.value)) return 'NO_DATA';
  if (!conditionHolds({ value: options.value, operator: options.operator, threshold: options.threshold })) return 'NOT_MET';
  if (options.lastFiredAt && !cooldownOver(options)) return 'COOLDOWN';
  return 'DUE';
}

/** Whether a rule that fired at `lastFiredAt` may fire again at `now` (the cooldown has passed). */
export function cooldownOver(options: { lastFiredAt: Date | null; cooldownMinutes: number; now: Date }): boolean {
  return !options.lastFiredAt || options.lastFiredAt.getTime() + options.cooldownMinutes * 60_000 <= options.now.getTime();
}

/** A metric's value as shown (rates and scores to 2 decimals; counts as they are). */
export function roundValue(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The condition in words: `bounce_rate 12.5 > 5 over 7 days`. */
export function conditionText(options: { metric: AutomationMetric; value: number; operator: AutomationOperator; threshold: number; windowDays: number }): string {
  const unit = METRIC_KIND[options.metric] === 'percent' ? '%' : '';
  const window = options.metric === 'daily_sent' ? 'today' : `over ${options.windowDays} day${options.windowDays === 1 ? '' : 's'}`;
  return `${options.metric} ${roundValue(options.value)}${unit} ${OPERATOR_TEXT[options.operator]} ${options.threshold}${unit} ${window}`;
}
