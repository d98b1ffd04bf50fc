import { describe, expect, it } from 'vitest';
import { labelKeyFromName } from './lead-label.rules';

describe('labelKeyFromName', () => {
  it('upper-cases and turns each run of other characters into one underscore, trimmed', () => {
    expect(labelKeyFromName('Demo scheduled!')).toBe('DEMO_SCHEDULED');
    expect(labelKeyFromName('  follow-up -- later  ')).toBe('FOLLOW_UP_LATER');
    expect(labelKeyFromName('__Hot lead__')).toBe('HOT_LEAD');
    expect(labelKeyFromName('q3 2026 budget')).toBe('Q3_2026_BUDGET');
    expect(labelKeyFromName('interested')).toBe('INTERESTED');
  });

  it('drops accents, treats other non-ASCII letters as separators, and answers empty when nothing is left', () => {
    expect(labelKeyFromName('Réunion fixée')).toBe('REUNION_FIXEE');
    expect(labelKeyFromName('Call → later')).toBe('CALL_LATER');
    expect(labelKeyFromName('Встреча')).toBe('');
    expect(labelKeyFromName('!!! ???')).toBe('');
    expect(labelKeyFromName('')).toBe('');
  });
});
