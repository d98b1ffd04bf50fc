// GraphQL fields of the email-account automation operations: the rules of a workspace, one
// rule with its last evaluation and history, and the writes, which answer the rule.
import { operations } from '@outreach/core';
import { entity, nullWhen, operationField, run, typeOf } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.accountAutomation;
// Object types named after what they are, not where they sit (AccountAutomationAction, …Input).
const types = { actions: 'AccountAutomationAction' };

const AccountAutomationRule = entity(typeOf(ops.list, 'AccountAutomationRule', { types }), {
  node: true,
  load: (ctx, workspaceId, id) => nullWhen('account_automation.rule_not_found', run(ctx, ops.get, { workspace_id: workspaceId, rule_id: id })),
});
const returnsRule = { types, returns: { entity: AccountAutomationRule, id: (out: { rule: { _id: string } }) => out.rule._id } };

operationField('accountAutomationRules', ops.list, { on: Workspace, type: 'AccountAutomationRule', types });
operationField('accountAutomationRule', ops.get, {
  on: Workspace,
  type: 'AccountAutomationRuleDetail',
  types: { firings: 'AccountAutomationFiring', last_evaluation: 'AccountAutomationEvaluation' },
});
operationField('createAccountAutomationRule', ops.create, returnsRule);
operationField('updateAccountAutomationRule', ops.update, returnsRule);
operationField('deleteAccountAutomationRules', ops.delete, { result: 'deleted_count' });
operationField('setAccountAutomationRuleStatus', ops.status, returnsRule);
operationField('duplicateAccountAutomationRule', ops.duplicate, returnsRule);
