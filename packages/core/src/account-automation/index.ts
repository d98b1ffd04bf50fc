// The operations of this domain, keyed as their tRPC procedures are (`accountAutomation.<key>`).
import { createRule, deleteRules, duplicateRule, getRule, listRules, setRuleStatus, updateRule } from './account-automation.operations';

export const accountAutomationOperations = {
  list: listRules,
  create: createRule,
  update: updateRule,
  delete: deleteRules,
  get: getRule,
  status: setRuleStatus,
  duplicate: duplicateRule,
} as const;

// For the sending engine: a mailbox's rules, evaluated in the transaction recording its bounce.
export { type Firing, evaluateMailboxRules } from './evaluate.service';
// For the worker role (and tests): the evaluation loop and one round of it.
export { type AutomationRoundResult, evaluateRule, loadActiveRule, runAutomationRound } from './evaluate.service';
export { AUTOMATION_PERIOD_MS, type AutomationWorker, startAccountAutomationWorker } from './worker.service';
export { METRIC_READERS, type MetricReader, type MetricQuery, readMetric } from './metrics.service';
export * from './account-automation.rules';
