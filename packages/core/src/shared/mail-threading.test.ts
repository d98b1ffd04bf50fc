import { describe, expect, it } from 'vitest';
import { followUpSubject, threadHeaders } from './mail-threading';

describe('followUpSubject', () => {
  it('keeps the step subject when it has one', () => {
    expect(followUpSubject({ stepSubject: 'New idea', previousSubject: 'Quick question' })).toBe('New idea');
  });

  it('replies to the previous subject when the step has none', () => {
    expect(followUpSubject({ stepSubject: '', previousSubject: 'Quick question' })).toBe('Re: Quick question');
    expect(followUpSubject({ stepSubject: '   ', previousSubject: 'Quick question' })).toBe('Re: Quick question');
    expect(followUpSubject({ stepSubject: null, previousSubject: 'Quick question' })).toBe('Re: Quick question');
  });

  it('does not double an existing Re:', () => {
    for (const previous of ['Re: Quick question', 'RE: Quick question', 're:Quick question', 'Re[2]: Quick question']) {
      expect(followUpSubject({ stepSubject: '', previousSubject: previous })).toBe(previous);
    }
    // A word starting with "re" is not a prefix.
    expect(followUpSubject({ stepSubject: '', previousSubject: 'Regarding: pricing' })).toBe('Re: Regarding: pricing');
  });

  it('is empty when there is nothing to reply to', () => {
    expect(followUpSubject({ stepSubject: '', previousSubject: '' })).toBe('');
  });
});

describe('threadHeaders', () => {
  it('replies to the last message and references all of them, oldest first', () => {
    expect(threadHeaders({ previousMessageIds: ['a@x.com', '<b@x.com>', 'c@x.com'] })).toEqual({
      inReplyTo: '<c@x.com>',
      references: '<a@x.com> <b@x.com> <c@x.com>',
    });
  });

  it('handles one message, blank ids and none', () => {
    expect(threadHeaders({ previousMessageIds: ['<a@x.com>'] })).toEqual({ inReplyTo: '<a@x.com>', references: '<a@x.com>' });
    expect(threadHeaders({ previousMessageIds: [' a@x.com ', '', '<>'] })).toEqual({ inReplyTo: '<a@x.com>', references: '<a@x.com>' });
    expect(threadHeaders({ previousMessageIds: [] })).toEqual({});
  });
});
