import { describe, expect, it } from 'vitest';
import { triggerInWords } from './subsequence.rules';

describe('triggerInWords', () => {
  it('names labels by their names and lists phrases', () => {
    const labels = new Map([['INTERESTED', 'Interested'], ['MEETING_BOOKED', 'Meeting booked']]);
    expect(triggerInWords({ name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_INTERESTED', 'LEAD_MARKED_AS_MEETING_BOOKED'] }, labels)).toBe('when a lead is marked Interested or Meeting booked');
    expect(triggerInWords({ name: 'LEAD_REPLY_CONTENT', includeText: 'pricing, demo' })).toBe('when a reply contains: pricing, demo');
    expect(triggerInWords({ name: 'LEAD_REPLY_CONTENT', includeText: 'pricing', excludeText: 'unsubscribe' })).toBe('when a reply contains: pricing (but not: unsubscribe)');
    expect(triggerInWords({ name: 'LEAD_REPLY_ALL' })).toBe('when a lead replies');
  });
});
