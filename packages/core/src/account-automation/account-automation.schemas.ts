import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { intParam, ObjectId, SkipLimit, StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';
import {
  AUTOMATION_ACTIONS,
  AUTOMATION_METRICS,
  AUTOMATION_OPERATORS,
  AUTOMATION_SCOPES,
  MAX_ACTIONS,
  MAX_COOLDOWN_MINUTES,
  MAX_SCOPE_IDS,
  MAX_WINDOW_DAYS,
  MIN_COOLDOWN_MINUTES,
  MIN_WINDOW_DAYS,
  OPERATOR_SYMBOLS,
  RULE_STATUSES,
} from './account-automation.rules';

/** An enum that takes its values in any case and with spaces around (`active`, ` Bounce_Rate `). */
function lenientEnum<const V extends readonly [string, ...string[]]>(values: V, casing: 'upper' | 'lower', aliases: Readonly<Record<string, V[number]>> = {}) {
  const list = values.join(', ');
  return z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const trimmed = v.trim();
      return aliases[trimmed] ?? (casing === 'upper' ? trimmed.toUpperCase() : trimmed.toLowerCase());
    },
    z.enum(values, { error: requiredOr(`one of ${list}`) }),
  );
}

const RuleName = z.string({ error: requiredOr('a string') }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const RuleStatus = lenientEnum(RULE_STATUSES, 'upper').describe('ACTIVE (evaluated) or INACTIVE (kept, never evaluated)');
const Scope = lenientEnum(AUTOMATION_SCOPES, 'upper').describe(
  'ALL: every mailbox of the workspace, now and later; TAGS: the mailboxes carrying one of `tag_ids`; ACCOUNTS: the mailboxes of `email_account_ids`. Inferred from the ids given when left out',
);
const Metric = lenientEnum(AUTOMATION_METRICS, 'lower').describe(
  'bounce_rate, reply_rate, warmup_spam_rate (percent, 0 to 100), health_score (0 to 100), consecutive_failures, daily_sent (counts); see docs/api.md, "Email account automation"',
);
const Operator = lenientEnum(AUTOMATION_OPERATORS, 'upper', OPERATOR_SYMBOLS).describe('GT, GTE, LT, LTE or EQ (or >, >=, <, <=, =)');
const Threshold = z
  .preprocess((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v), z.number({ error: requiredOr('a number') }))
  .describe('What the metric is compared with: a rate in percent (5 is 5 %), a score 0 to 100, or a count');
const WindowDays = intParam({ min: MIN_WINDOW_DAYS, max: MAX_WINDOW_DAYS }).describe(`Days the metric looks back, ${MIN_WINDOW_DAYS} to ${MAX_WINDOW_DAYS}`);
const CooldownMinutes = intParam({ min: MIN_COOLDOWN_MINUTES, max: MAX_COOLDOWN_MINUTES }).describe(
  'Minutes after a firing for one mailbox before the rule may fire for that mailbox again',
);
const TagIds = z.array(ObjectId, { error: requiredOr('an array of tag ids') }).max(MAX_SCOPE_IDS, `must hold at most ${MAX_SCOPE_IDS} ids`);
const EmailAccountIds = z.array(ObjectId, { error: requiredOr('an array of email account ids') }).max(MAX_SCOPE_IDS, `must hold at most ${MAX_SCOPE_IDS} ids`);

export const RuleActionInput = z.object({
  type: lenientEnum(AUTOMATION_ACTIONS, 'upper').describe('PAUSE_SENDING, PAUSE_WARMUP, SET_DAILY_LIMIT, ADD_TAG, REMOVE_TAG or NOTIFY'),
  value: intParam().nullish().describe('SET_DAILY_LIMIT: the new daily limit, 0 to 10000'),
  tag_id: ObjectId.nullish().describe('ADD_TAG, REMOVE_TAG: a tag of the workspace'),
});

const Actions = z
  .array(RuleActionInput, { error: requiredOr('an array of actions') })
  .min(1, 'must hold at least one action')
  .max(MAX_ACTIONS, `must hold at most ${MAX_ACTIONS} actions`)
  .meta({ examples: [[{ type: 'PAUSE_SENDING' }, { type: 'NOTIFY' }]] });

// ─── reads ───────────────────────────────────────────────────────────────────────────────

export const RuleAction = z.object({
  type: z.enum(AUTOMATION_ACTIONS),
  value: z.number().int().nullable().describe('SET_DAILY_LIMIT: the new daily limit; null for the other actions'),
  tag_id: z.string().nullable().describe('ADD_TAG, REMOVE_TAG: the tag; null for the other actions'),
});

export const RuleItem = z.object({
  _id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  status: z.enum(RULE_STATUSES),
  scope: z.enum(AUTOMATION_SCOPES),
  tag_ids: z.array(z.string()),
  email_account_ids: z.array(z.string()),
  metric: z.enum(AUTOMATION_METRICS),
  operator: z.enum(AUTOMATION_OPERATORS),
  threshold: z.number(),
  window_days: z.number().int(),
  actions: z.array(RuleAction),
  cooldown_minutes: z.number().int(),
  last_evaluated_at: z.string().nullable().describe('When the worker last evaluated the rule over its whole scope; null before the first time'),
  created_at: z.string(),
  modified_at: z.string(),
});
export type RuleItem = z.infer<typeof RuleItem>;

export const ListRulesInput = z.object({ workspace_id: WorkspaceIdField, ...SkipLimit });
export type ListRulesInput = z.infer<typeof ListRulesInput>;
export const ListRulesOutput = z.array(RuleItem);

export const GetRuleInput = z.object({ workspace_id: WorkspaceIdField, rule_id: ObjectId });
export type GetRuleInput = z.infer<typeof GetRuleInput>;

export const FiringAction = z.object({
  type: z.enum(AUTOMATION_ACTIONS),
  value: z.number().int().nullable(),
  tag_id: z.string().nullable(),
  result: z.enum(['APPLIED', 'UNCHANGED', 'SKIPPED']).describe('APPLIED: changed the mailbox (or queued the alert); UNCHANGED: it was so already; SKIPPED: could not apply (see detail)'),
  detail: z.string(),
});

export const RuleFiring = z.object({
  _id: z.string(),
  email_account_id: z.string(),
  email: z.string(),
  metric: z.enum(AUTOMATION_METRICS),
  value: z.number().describe('The metric’s value that crossed the threshold'),
  threshold: z.number(),
  actions: z.array(FiringAction),
  fired_at: z.string(),
});

export const MailboxEvaluation = z.object({
  email_account_id: z.string(),
  email: z.string(),
  value: z.number().nullable().describe('The metric’s value at the last evaluation; null: no data (the rule does not fire)'),
  outcome: z
    .enum(['NO_DATA', 'NOT_MET', 'MET', 'COOLDOWN', 'FIRED'])
    .describe('NO_DATA: the metric has no value for the mailbox; NOT_MET; MET: met and about to fire; COOLDOWN: met within the cooldown of the last firing; FIRED'),
  evaluated_at: z.string(),
  last_fired_at: z.string().nullable(),
});

export const GetRuleOutput = RuleItem.extend({
  last_evaluation: z.array(MailboxEvaluation).describe('The last evaluation of each mailbox the rule has looked at (at most 1000, most recent first)'),
  firings: z.array(RuleFiring).describe('The last 50 firings, newest first'),
});

// ─── writes ──────────────────────────────────────────────────────────────────────────────

export const CreateRuleInput = z.object({
  workspace_id: WorkspaceIdField,
  name: RuleName,
  status: RuleStatus.optional(),
  scope: Scope.optional(),
  tag_ids: TagIds.optional(),
  email_account_ids: EmailAccountIds.optional(),
  metric: Metric,
  operator: Operator,
  threshold: Threshold,
  window_days: WindowDays.default(7),
  actions: Actions,
  cooldown_minutes: CooldownMinutes.default(1440),
});
export type CreateRuleInput = z.infer<typeof CreateRuleInput>;

export const RuleOutput = z.object({ status: StatusSuccess, rule: RuleItem });

export const UpdateRuleInput = z.object({
  workspace_id: WorkspaceIdField,
  rule_id: ObjectId,
  name: RuleName.optional(),
  status: RuleStatus.optional(),
  scope: Scope.optional(),
  tag_ids: TagIds.optional(),
  email_account_ids: EmailAccountIds.optional(),
  metric: Metric.optional(),
  operator: Operator.optional(),
  threshold: Threshold.optional(),
  window_days: WindowDays.optional(),
  actions: Actions.optional(),
  cooldown_minutes: CooldownMinutes.optional(),
});
export type UpdateRuleInput = z.infer<typeof UpdateRuleInput>;

export const DeleteRulesInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: z.array(ObjectId, { error: requiredOr('an array of rule ids') }).min(1, 'must hold at least one id').max(1000, 'must hold at most 1000 ids'),
});
export const DeleteRulesOutput = z.object({ status: StatusSuccess, deleted_count: z.number().int() });

export const SetRuleStatusInput = z.object({ workspace_id: WorkspaceIdField, rule_id: ObjectId, status: lenientEnum(RULE_STATUSES, 'upper') });

export const DuplicateRuleInput = z.object({
  workspace_id: WorkspaceIdField,
  rule_id: ObjectId,
  name: RuleName.optional().describe('The copy’s name; "<name> (copy)" when left out'),
});

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(RuleItem, 'AccountAutomationRule');
nameApiSchema(RuleAction, 'AccountAutomationAction');
nameApiSchema(RuleFiring, 'AccountAutomationFiring');
