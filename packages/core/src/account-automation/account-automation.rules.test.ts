import { describe, expect, it } from 'vitest';
import { conditionText, cooldownOver, evaluationOutcome, inferScope, ruleProblems, type RuleDefinition } from './account-automation.rules';

const TAG = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const rule = (over: Partial<RuleDefinition> = {}): RuleDefinition => ({
  name: 'Pause on bounces',
  status: 'ACTIVE',
  scope: 'ALL',
  tag_ids: [],
  email_account_ids: [],
  metric: 'bounce_rate',
  operator: 'GT',
  threshold: 5,
  window_days: 7,
  actions: [{ type: 'PAUSE_SENDING' }, { type: 'NOTIFY' }],
  cooldown_minutes: 60,
  ...over,
});
const fields = (r: RuleDefinition) => ruleProblems(r).map((p) => p.field);

describe('automation rule validation', () => {
  it('accepts a well-formed rule', () => {
    expect(ruleProblems(rule())).toEqual([]);
    expect(ruleProblems(rule({ metric: 'daily_sent', threshold: 40, actions: [{ type: 'SET_DAILY_LIMIT', value: 10 }, { type: 'ADD_TAG', tag_id: TAG }] }))).toEqual([]);
  });

  it('keeps each threshold to its metric’s range: rates and scores 0–100, counts whole numbers from 0', () => {
    expect(fields(rule({ threshold: 101 }))).toEqual(['threshold']);
    expect(fields(rule({ threshold: -1 }))).toEqual(['threshold']);
    expect(fields(rule({ metric: 'health_score', threshold: 150 }))).toEqual(['threshold']);
    expect(fields(rule({ metric: 'consecutive_failures', threshold: 2.5 }))).toEqual(['threshold']);
    expect(fields(rule({ metric: 'daily_sent', threshold: 500 }))).toEqual([]);
    expect(ruleProblems(rule({ threshold: 101 }))[0]!.message).toMatch(/0 to 100 for bounce_rate \(a rate in percent/);
  });

  it('asks for the ids a scope needs, and no others', () => {
    expect(fields(rule({ scope: 'TAGS' }))).toEqual(['tag_ids']);
    expect(fields(rule({ scope: 'ACCOUNTS', tag_ids: [TAG] }))).toEqual(['email_account_ids', 'tag_ids']);
    expect(fields(rule({ scope: 'ALL', tag_ids: [TAG] }))).toEqual(['tag_ids']);
  });

  it('checks each action’s parameters and refuses repeats', () => {
    expect(fields(rule({ actions: [{ type: 'SET_DAILY_LIMIT' }] }))).toEqual(['actions.0.value']);
    expect(fields(rule({ actions: [{ type: 'SET_DAILY_LIMIT', value: 20_000 }] }))).toEqual(['actions.0.value']);
    expect(fields(rule({ actions: [{ type: 'NOTIFY', value: 3 }] }))).toEqual(['actions.0.value']);
    expect(fields(rule({ actions: [{ type: 'ADD_TAG' }] }))).toEqual(['actions.0.tag_id']);
    expect(fields(rule({ actions: [{ type: 'NOTIFY' }, { type: 'NOTIFY' }] }))).toEqual(['actions.1.type']);
    expect(fields(rule({ actions: [{ type: 'ADD_TAG', tag_id: TAG }, { type: 'REMOVE_TAG', tag_id: TAG }] }))).toEqual(['actions.1.tag_id']);
  });

  it('infers the scope from the ids given', () => {
    expect(inferScope({})).toBe('ALL');
    expect(inferScope({ tag_ids: [TAG] })).toBe('TAGS');
    expect(inferScope({ email_account_ids: [TAG] })).toBe('ACCOUNTS');
    expect(inferScope({ scope: 'ALL', tag_ids: [TAG] })).toBe('ALL');
  });
});

describe('evaluating a mailbox', () => {
  const now = new Date('2026-03-02T10:00:00Z');
  const base = { operator: 'GT' as const, threshold: 5, cooldownMinutes: 60, now, lastFiredAt: null };

  it('fires when the condition holds, says no data without a value, and not met otherwise', () => {
    expect(evaluationOutcome({ ...base, value: 5.5 })).toBe('DUE');
    expect(evaluationOutcome({ ...base, value: 5 })).toBe('NOT_MET');
    expect(evaluationOutcome({ ...base, value: null })).toBe('NO_DATA');
    expect(evaluationOutcome({ ...base, operator: 'LTE', value: 5 })).toBe('DUE');
  });

  it('waits for the cooldown after a firing', () => {
    const firedAt = new Date(now.getTime() - 59 * 60_000);
    expect(evaluationOutcome({ ...base, value: 50, lastFiredAt: firedAt })).toBe('COOLDOWN');
    expect(cooldownOver({ lastFiredAt: new Date(now.getTime() - 60 * 60_000), cooldownMinutes: 60, now })).toBe(true);
  });

  it('tells the condition in words for the alert', () => {
    expect(conditionText({ metric: 'bounce_rate', value: 100 / 3, operator: 'GT', threshold: 5, windowDays: 7 })).toBe('bounce_rate 33.33% > 5% over 7 days');
    expect(conditionText({ metric: 'daily_sent', value: 41, operator: 'GTE', threshold: 40, windowDays: 1 })).toBe('daily_sent 41 >= 40 today');
  });
});
