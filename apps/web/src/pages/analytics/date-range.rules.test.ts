import { describe, expect, it } from 'vitest';
import { choiceOf, daysIn, paramsOf, rangeOf, rangeProblems } from './date-range.rules';

const today = new Date('2026-03-10T23:30:00Z');

describe('analytics date ranges', () => {
  it('counts a preset back from today, today included', () => {
    expect(rangeOf({ preset: 7 }, today)).toEqual({ startDate: '2026-03-04', endDate: '2026-03-10' });
    expect(daysIn(rangeOf({ preset: 90 }, today))).toBe(90);
    expect(rangeOf({ from: '2026-01-01', to: '2026-01-31' }, today)).toEqual({ startDate: '2026-01-01', endDate: '2026-01-31' });
  });

  it('says what is wrong with a custom range next to its field', () => {
    expect(rangeProblems({ from: '', to: '2026-01-01' })).toEqual({ from: 'Choose the first day' });
    expect(rangeProblems({ from: '2026-02-01', to: '2026-01-01' })).toEqual({ to: 'The last day must not be before the first' });
    expect(rangeProblems({ from: '2026-01-01', to: '2026-04-02' })).toEqual({ to: 'Choose at most 91 days' });
    expect(rangeProblems({ from: '2026-01-01', to: '2026-04-01' })).toEqual({});
  });

  it('reads and writes the choice in the address, the last 30 days by default', () => {
    expect(choiceOf(new URLSearchParams(''))).toEqual({ preset: 30 });
    expect(choiceOf(new URLSearchParams('days=12'))).toEqual({ preset: 30 });
    expect(choiceOf(new URLSearchParams(paramsOf({ preset: 90 })))).toEqual({ preset: 90 });
    expect(choiceOf(new URLSearchParams(paramsOf({ from: '2026-01-01', to: '2026-01-02' })))).toEqual({ from: '2026-01-01', to: '2026-01-02' });
  });
});
