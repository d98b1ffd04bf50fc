import { describe, expect, it } from 'vitest';
import { dayNames, launchBlockers, nextStatus, planSequence, rate, sequenceErrors, transitionRefusal } from './campaign.rules';
import type { SequenceInput } from './campaign.schemas';

const seq = (...steps: [number, string[]][]): SequenceInput =>
  steps.map(([step, labels]) => ({ step, wait_time: 1, variations: labels.map((variation) => ({ variation, subject: `s${step}${variation}`, body: 'b' })) }));

describe('nextStatus', () => {
  it('follows DRAFT → ACTIVE ⇄ PAUSED, ACTIVE → COMPLETED → ACTIVE, any → ARCHIVED', () => {
    const table = (['DRAFT', 'ACTIVE', 'PAUSED', 'COMPLETED', 'ARCHIVED'] as const).map((from) => [
      from,
      nextStatus({ from, action: 'launch' }),
      nextStatus({ from, action: 'pause' }),
      nextStatus({ from, action: 'complete' }),
      nextStatus({ from, action: 'archive' }),
    ]);
    expect(table).toEqual([
      ['DRAFT', 'ACTIVE', null, null, 'ARCHIVED'],
      ['ACTIVE', null, 'PAUSED', 'COMPLETED', 'ARCHIVED'],
      ['PAUSED', 'ACTIVE', null, null, 'ARCHIVED'],
      ['COMPLETED', 'ACTIVE', null, null, 'ARCHIVED'],
      ['ARCHIVED', null, null, null, 'ARCHIVED'],
    ]);
  });

  it('names the current status when refusing', () => {
    expect(transitionRefusal({ from: 'ACTIVE', action: 'launch' })).toBe('campaign is already ACTIVE');
    expect(transitionRefusal({ from: 'ARCHIVED', action: 'launch' })).toContain('ARCHIVED');
    expect(transitionRefusal({ from: 'DRAFT', action: 'pause' })).toBe('campaign is DRAFT; only an ACTIVE campaign can be paused');
  });
});

describe('launchBlockers', () => {
  it('lists every missing piece, and nothing when all are there', () => {
    expect(launchBlockers({ sendableSteps: 0, emailAccounts: 0, hasSchedule: false }).map((b) => b.field)).toEqual(['sequences', 'email_accounts', 'schedules']);
    expect(launchBlockers({ sendableSteps: 1, emailAccounts: 0, hasSchedule: true }).map((b) => b.field)).toEqual(['email_accounts']);
    expect(launchBlockers({ sendableSteps: 2, emailAccounts: 1, hasSchedule: true })).toEqual([]);
  });
});

describe('sequenceErrors', () => {
  it('accepts steps 1..n in any order', () => {
    expect(sequenceErrors(seq([2, ['A']], [1, ['A', 'B']]))).toEqual([]);
  });
  it('refuses gaps, repeats and repeated labels, naming the field', () => {
    expect(sequenceErrors(seq([1, ['A']], [3, ['A']])).map((e) => e.field)).toEqual(['sequences.1.step']);
    expect(sequenceErrors(seq([1, ['A']], [1, ['A']])).map((e) => e.field)).toEqual(['sequences.1.step']);
    expect(sequenceErrors(seq([1, ['A', 'B', 'A']])).map((e) => e.field)).toEqual(['sequences.0.variations.2.variation']);
  });
});

describe('planSequence', () => {
  const stored = [
    { id: 's1', step: 1, variations: [{ id: 'v1A', label: 'A', hasSends: true }, { id: 'v1B', label: 'B', hasSends: false }, { id: 'v1C', label: 'C', hasSends: true }] },
    { id: 's2', step: 2, variations: [{ id: 'v2A', label: 'A', hasSends: false }] },
    { id: 's3', step: 3, variations: [{ id: 'v3A', label: 'A', hasSends: true }] },
  ];

  it('updates kept pairs in place, marks sent ones deleted, removes the rest, keeps steps with sends', () => {
    const plan = planSequence({ stored, sequence: seq([1, ['A', 'D']]) });
    expect(plan.steps).toEqual([
      {
        step: 1,
        waitTime: 1,
        existingId: 's1',
        variations: [
          { existingId: 'v1A', label: 'A', name: null, subject: 's1A', body: 'b' },
          { existingId: null, label: 'D', name: null, subject: 's1D', body: 'b' },
        ],
      },
    ]);
    expect(plan.markDeleted.sort()).toEqual(['v1C', 'v3A']);
    expect(plan.remove.sort()).toEqual(['v1B', 'v2A']);
    expect(plan.removeSteps).toEqual(['s2']);
  });

  it('creates new steps and reuses a stored step by number', () => {
    const plan = planSequence({ stored: [], sequence: seq([2, ['A']], [1, ['A']]) });
    expect(plan.steps.map((s) => [s.step, s.existingId])).toEqual([[1, null], [2, null]]);
    expect(planSequence({ stored, sequence: seq([1, ['A', 'B', 'C']], [2, ['A']], [3, ['A']]) })).toMatchObject({ markDeleted: [], remove: [], removeSteps: [] });
  });
});

describe('rate', () => {
  it('is a percentage with 2 decimals, 0 without a base', () => {
    expect(rate({ count: 1, base: 3 })).toBe(33.33);
    expect(rate({ count: 2, base: 3 })).toBe(66.67);
    expect(rate({ count: 5, base: 0 })).toBe(0);
  });
});

describe('dayNames', () => {
  it('spells the write shape\'s enabled days out, Monday first, whatever the key order', () => {
    expect(dayNames({ '7': true, '1': true, '3': true, '5': false })).toEqual(['Monday', 'Wednesday', 'Sunday']);
    expect(dayNames({ '6': true, '8': true, x: true })).toEqual(['Saturday']);
    expect(dayNames({})).toEqual([]);
  });
});
