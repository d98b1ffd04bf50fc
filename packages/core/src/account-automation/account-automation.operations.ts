// The seven email-account automation operations (the spec's "Email Account Automation"):
// rules on a mailbox metric that pause sending or warmup, change the daily limit, tag, or alert.
import { newId, type Tx } from '@outreach/db';
import type { AccountAutomationRuleModel as AccountAutomationRule } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { invalid, notFound, type FieldError } from '../shared/errors';
import {
  type AutomationMetric,
  type AutomationOperator,
  type AutomationScope,
  type RuleAction,
  type RuleDefinition,
  type RuleStatus,
  inferScope,
  ruleProblems,
} from './account-automation.rules';
import {
  CreateRuleInput,
  DeleteRulesInput,
  DeleteRulesOutput,
  DuplicateRuleInput,
  GetRuleInput,
  GetRuleOutput,
  ListRulesInput,
  ListRulesOutput,
  RuleOutput,
  SetRuleStatusInput,
  UpdateRuleInput,
  type RuleItem,
} from './account-automation.schemas';
import { LAST_EVALUATIONS_SQL } from './account-automation.queries';

const RULE_NOT_FOUND = 'account_automation.rule_not_found';
const ruleNotFound = (id: string) => notFound(RULE_NOT_FOUND, `automation rule ${id} not found in this workspace`);

const OPERATION_NOTES =
  'Rules are evaluated by the worker every few minutes and, for a mailbox, right after the sending engine records a bounce of it; see docs/api.md, "Email account automation", for the metrics’ formulas, the actions and the SYSTEM_ALERT they send.';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function actionsOf(stored: unknown): RuleAction[] {
  return (Array.isArray(stored) ? stored : []) as RuleAction[];
}

function itemOf(row: AccountAutomationRule): RuleItem {
  return {
    _id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    status: row.status as RuleStatus,
    scope: row.scopeType as AutomationScope,
    tag_ids: row.scopeType === 'TAGS' ? row.scopeIds : [],
    email_account_ids: row.scopeType === 'ACCOUNTS' ? row.scopeIds : [],
    metric: row.metric as AutomationMetric,
    operator: row.operator as AutomationOperator,
    threshold: row.threshold,
    window_days: row.windowDays,
    actions: actionsOf(row.actions).map((a) => ({ type: a.type, value: a.value ?? null, tag_id: a.tag_id ?? null })),
    cooldown_minutes: row.cooldownMinutes,
    last_evaluated_at: iso(row.lastEvaluatedAt),
    created_at: row.createdAt.toISOString(),
    modified_at: row.updatedAt.toISOString(),
  };
}

const unique = (ids: string[]) => [...new Set(ids)];

/** An action as stored: its type and only the parameter it takes. */
function storedAction(action: RuleAction): RuleAction {
  if (action.type === 'SET_DAILY_LIMIT') return { type: action.type, value: action.value };
  if (action.type === 'ADD_TAG' || action.type === 'REMOVE_TAG') return { type: action.type, tag_id: action.tag_id };
  return { type: action.type };
}

/**
 * Checks a rule: its fields together (ruleProblems), then that every tag and mailbox it names
 * is the workspace's. One 400 naming every offending field (`tag_ids.1`, `actions.0.tag_id`).
 */
async function assertValidRule(tx: Tx, workspaceId: string, rule: RuleDefinition): Promise<void> {
  const problems: FieldError[] = ruleProblems(rule);
  const tagRefs: { field: string; id: string }[] = [
    ...rule.tag_ids.map((id, i) => ({ field: `tag_ids.${i}`, id })),
    ...rule.actions.flatMap((a, i) => (a.tag_id && (a.type === 'ADD_TAG' || a.type === 'REMOVE_TAG') ? [{ field: `actions.${i}.tag_id`, id: a.tag_id }] : [])),
  ];
  if (tagRefs.length) {
    const own = new Set((await tx.tag.findMany({ where: { workspaceId, id: { in: unique(tagRefs.map((r) => r.id)) } }, select: { id: true } })).map((t) => t.id));
    for (const ref of tagRefs) if (!own.has(ref.id)) problems.push({ field: ref.field, message: `${ref.id} is not a tag of this workspace` });
  }
  if (rule.email_account_ids.length) {
    const own = new Set(
      (await tx.emailAccount.findMany({ where: { workspaceId, id: { in: unique(rule.email_account_ids) } }, select: { id: true } })).map((a) => a.id),
    );
    rule.email_account_ids.forEach((id, i) => {
      if (!own.has(id)) problems.push({ field: `email_account_ids.${i}`, message: `${id} is not an email account of this workspace` });
    });
  }
  if (problems.length) throw invalid('request.invalid', problems.map((p) => `${p.field} ${p.message}`).join('; '), problems);
}

/** The columns of a rule from its definition. */
function columnsOf(rule: RuleDefinition) {
  return {
    name: rule.name,
    status: rule.status,
    scopeType: rule.scope,
    scopeIds: unique(rule.scope === 'TAGS' ? rule.tag_ids : rule.scope === 'ACCOUNTS' ? rule.email_account_ids : []),
    metric: rule.metric,
    operator: rule.operator,
    threshold: rule.threshold,
    windowDays: rule.window_days,
    actions: rule.actions.map(storedAction) as object[],
    cooldownMinutes: rule.cooldown_minutes,
  };
}

function definitionOf(row: AccountAutomationRule): RuleDefinition {
  const item = itemOf(row);
  return {
    name: item.name,
    status: item.status,
    scope: item.scope,
    tag_ids: item.tag_ids,
    email_account_ids: item.email_account_ids,
    metric: item.metric,
    operator: item.operator,
    threshold: item.threshold,
    window_days: item.window_days,
    actions: actionsOf(row.actions),
    cooldown_minutes: item.cooldown_minutes,
  };
}

async function findRule(tx: Tx, workspaceId: string, ruleId: string): Promise<AccountAutomationRule> {
  const row = await tx.accountAutomationRule.findFirst({ where: { id: ruleId, workspaceId } });
  if (!row) throw ruleNotFound(ruleId);
  return row;
}

export const listRules = defineOperation({
  name: 'accountAutomation.list',
  kind: 'query',
  summary: 'List email account automation rules',
  description: `The workspace's automation rules, oldest first (ties by id), paged with \`skip\` and \`limit\`. ${OPERATION_NOTES}`,
  input: ListRulesInput,
  output: ListRulesOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const rows = await ctx.db.accountAutomationRule.findMany({
      where: { workspaceId: input.workspace_id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: input.skip,
      take: input.limit,
    });
    return rows.map(itemOf);
  },
});

export const getRule = defineOperation({
  name: 'accountAutomation.get',
  kind: 'query',
  summary: 'Get an email account automation rule with its last evaluation and firings',
  description:
    'The rule, `last_evaluation` (each mailbox it last looked at: the metric’s value, null for no data, and the outcome) and `firings` (its history: the last 50 firings, newest first, with what each action did). 404 `account_automation.rule_not_found` for a rule of another workspace or none.',
  input: GetRuleInput,
  output: GetRuleOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    return ctx.db.$transaction(async (tx) => {
      const row = await findRule(tx, input.workspace_id, input.rule_id);
      const [states, firings] = await Promise.all([
        tx.$queryRawUnsafe<{ email_account_id: string; email: string; last_value: number | null; last_outcome: string; last_evaluated_at: Date; last_fired_at: Date | null }[]>(
          LAST_EVALUATIONS_SQL,
          row.id,
        ),
        tx.accountAutomationFiring.findMany({ where: { ruleId: row.id }, orderBy: [{ firedAt: 'desc' }, { id: 'desc' }], take: 50 }),
      ]);
      return {
        ...itemOf(row),
        last_evaluation: states.map((s) => ({
          email_account_id: s.email_account_id,
          email: s.email,
          value: s.last_value === null ? null : Number(s.last_value),
          outcome: s.last_outcome as 'NO_DATA' | 'NOT_MET' | 'MET' | 'COOLDOWN' | 'FIRED',
          evaluated_at: new Date(s.last_evaluated_at).toISOString(),
          last_fired_at: s.last_fired_at ? new Date(s.last_fired_at).toISOString() : null,
        })),
        firings: firings.map((f) => ({
          _id: f.id,
          email_account_id: f.emailAccountId,
          email: f.email,
          metric: f.metric as AutomationMetric,
          value: f.value,
          threshold: f.threshold,
          actions: f.actions as never,
          fired_at: f.firedAt.toISOString(),
        })),
      };
    });
  },
});

export const createRule = defineOperation({
  name: 'accountAutomation.create',
  kind: 'mutation',
  role: 'admin',
  summary: 'Create an email account automation rule',
  description:
    'A rule: when `metric operator threshold` holds for a mailbox of the scope over the last `window_days` (default 7), its `actions` run on that mailbox, in order, at most once per `cooldown_minutes` (default 1440) for each mailbox. The scope is ALL (every mailbox of the workspace), TAGS (`tag_ids`) or ACCOUNTS (`email_account_ids`), inferred from the ids given when `scope` is left out. 400 naming the field for an unknown metric, operator or action, a threshold out of its metric’s range (rates in percent 0–100, health_score 0–100, counts whole numbers from 0), a window outside 1–90 days, or a tag or mailbox that is not the workspace’s. ' +
    OPERATION_NOTES,
  input: CreateRuleInput,
  output: RuleOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const rule: RuleDefinition = {
      name: input.name,
      status: input.status ?? 'ACTIVE',
      scope: inferScope(input),
      tag_ids: input.tag_ids ?? [],
      email_account_ids: input.email_account_ids ?? [],
      metric: input.metric,
      operator: input.operator,
      threshold: input.threshold,
      window_days: input.window_days,
      actions: input.actions,
      cooldown_minutes: input.cooldown_minutes,
    };
    const created = await ctx.db.$transaction(async (tx) => {
      await assertValidRule(tx, input.workspace_id, rule);
      const organization = await tx.workspace.findUniqueOrThrow({ where: { id: input.workspace_id }, select: { organizationId: true } });
      return tx.accountAutomationRule.create({
        data: { id: newId(), organizationId: organization.organizationId, workspaceId: input.workspace_id, ...columnsOf(rule) },
      });
    });
    return { status: 'success' as const, rule: itemOf(created) };
  },
});

export const updateRule = defineOperation({
  name: 'accountAutomation.update',
  kind: 'mutation',
  role: 'admin',
  summary: 'Update an email account automation rule',
  description:
    'Changes the fields given; the others keep their value. Giving `scope`, `tag_ids` or `email_account_ids` replaces the scope (the scope is inferred from the ids when `scope` is left out; ids of the other kind are dropped). `actions`, when given, replace the list. The rule is validated whole, as on create (400 naming the field). The history and each mailbox’s cooldown stay. 404 `account_automation.rule_not_found` for a rule of another workspace or none.',
  input: UpdateRuleInput,
  output: RuleOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const updated = await ctx.db.$transaction(async (tx) => {
      const row = await findRule(tx, input.workspace_id, input.rule_id);
      const stored = definitionOf(row);
      const rescoped = input.scope !== undefined || input.tag_ids !== undefined || input.email_account_ids !== undefined;
      let scope = stored.scope;
      let tagIds = stored.tag_ids;
      let accountIds = stored.email_account_ids;
      if (rescoped) {
        scope = inferScope(input);
        tagIds = input.tag_ids ?? (scope === 'TAGS' && stored.scope === 'TAGS' ? stored.tag_ids : []);
        accountIds = input.email_account_ids ?? (scope === 'ACCOUNTS' && stored.scope === 'ACCOUNTS' ? stored.email_account_ids : []);
      }
      const rule: RuleDefinition = {
        name: input.name ?? stored.name,
        status: input.status ?? stored.status,
        scope,
        tag_ids: tagIds,
        email_account_ids: accountIds,
        metric: input.metric ?? stored.metric,
        operator: input.operator ?? stored.operator,
        threshold: input.threshold ?? stored.threshold,
        window_days: input.window_days ?? stored.window_days,
        actions: input.actions ?? stored.actions,
        cooldown_minutes: input.cooldown_minutes ?? stored.cooldown_minutes,
      };
      await assertValidRule(tx, input.workspace_id, rule);
      return tx.accountAutomationRule.update({ where: { id: row.id }, data: columnsOf(rule) });
    });
    return { status: 'success' as const, rule: itemOf(updated) };
  },
});

export const deleteRules = defineOperation({
  name: 'accountAutomation.delete',
  kind: 'mutation',
  role: 'admin',
  summary: 'Delete email account automation rules',
  description:
    'Deletes rules of the workspace by id, with their history. What their firings changed on mailboxes stays. Ids that are unknown or of another workspace are ignored; `deleted_count` counts the rules removed.',
  input: DeleteRulesInput,
  output: DeleteRulesOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    // States and firings go with the rule by ON DELETE CASCADE.
    const deleted = await ctx.db.$transaction((tx) => tx.accountAutomationRule.deleteMany({ where: { workspaceId: input.workspace_id, id: { in: input.ids } } }));
    return { status: 'success' as const, deleted_count: deleted.count };
  },
});

export const setRuleStatus = defineOperation({
  name: 'accountAutomation.status',
  kind: 'mutation',
  role: 'admin',
  summary: 'Enable or disable an email account automation rule',
  description:
    'Sets the rule ACTIVE (evaluated; a rule made ACTIVE again is evaluated on the worker’s next round) or INACTIVE (kept with its history, never evaluated). Idempotent. 404 `account_automation.rule_not_found` for a rule of another workspace or none.',
  input: SetRuleStatusInput,
  output: RuleOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const updated = await ctx.db.$transaction(async (tx) => {
      const row = await findRule(tx, input.workspace_id, input.rule_id);
      if (row.status === input.status) return row;
      // Made ACTIVE again: due at once, not a period after its last evaluation.
      return tx.accountAutomationRule.update({ where: { id: row.id }, data: { status: input.status, ...(input.status === 'ACTIVE' ? { lastEvaluatedAt: null } : {}) } });
    });
    return { status: 'success' as const, rule: itemOf(updated) };
  },
});

export const duplicateRule = defineOperation({
  name: 'accountAutomation.duplicate',
  kind: 'mutation',
  role: 'admin',
  summary: 'Duplicate an email account automation rule',
  description:
    'Copies a rule (scope, condition, actions, cooldown) under `name` ("<name> (copy)" when left out). The copy is INACTIVE, so that it does not act beside the original until it is edited and enabled, and starts with no history. 404 `account_automation.rule_not_found` for a rule of another workspace or none.',
  input: DuplicateRuleInput,
  output: RuleOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const created = await ctx.db.$transaction(async (tx) => {
      const row = await findRule(tx, input.workspace_id, input.rule_id);
      const name = input.name ?? `${row.name} (copy)`.slice(0, 200);
      return tx.accountAutomationRule.create({
        data: {
          id: newId(),
          organizationId: row.organizationId,
          workspaceId: row.workspaceId,
          name,
          status: 'INACTIVE',
          scopeType: row.scopeType,
          scopeIds: row.scopeIds,
          metric: row.metric,
          operator: row.operator,
          threshold: row.threshold,
          windowDays: row.windowDays,
          actions: row.actions as object[],
          cooldownMinutes: row.cooldownMinutes,
        },
      });
    });
    return { status: 'success' as const, rule: itemOf(created) };
  },
});
