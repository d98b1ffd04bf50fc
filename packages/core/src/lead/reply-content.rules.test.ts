// matchesReplyContent: subsequence reply-content triggers (on a parsed reply: replies/incoming.rules.test.ts).
import { describe, expect, it } from 'vitest';
import { matchesReplyContent } from './reply-content.rules';

describe('matchesReplyContent', () => {
  const text = 'Hi Bob,\n\nWe are Interested in a DEMO.\nPlease send\npricing details.';

  it('matches case-insensitively', () => {
    expect(matchesReplyContent({ text, include: ['interested'] })).toBe(true);
    expect(matchesReplyContent({ text, include: ['demo'] })).toBe(true);
    expect(matchesReplyContent({ text: 'not now', include: ['INTERESTED'] })).toBe(false);
  });

  it('matches when any include phrase is present', () => {
    expect(matchesReplyContent({ text, include: ['unsubscribe', 'pricing'] })).toBe(true);
    expect(matchesReplyContent({ text, include: ['unsubscribe', 'remove me'] })).toBe(false);
  });

  it('trims phrases and counts runs of white space (line breaks included) as one space', () => {
    expect(matchesReplyContent({ text, include: ['  send pricing  '] })).toBe(true);
    expect(matchesReplyContent({ text, include: ['send   pricing'] })).toBe(true);
    expect(matchesReplyContent({ text, include: ['interested in\ta demo'] })).toBe(true);
  });

  it('ignores empty phrases in both lists', () => {
    expect(matchesReplyContent({ text, include: ['', '   ', 'demo'], exclude: ['', '  '] })).toBe(true);
  });

  it('an exclude phrase wins over an include phrase', () => {
    expect(matchesReplyContent({ text, include: ['demo'], exclude: ['pricing'] })).toBe(false);
    expect(matchesReplyContent({ text, include: ['demo'], exclude: ['  PRICING  '] })).toBe(false);
    expect(matchesReplyContent({ text, include: ['demo'], exclude: ['not interested'] })).toBe(true);
  });

  it('with no include phrase (empty list, or only empty phrases) nothing matches, as documented', () => {
    expect(matchesReplyContent({ text, include: [] })).toBe(false);
    expect(matchesReplyContent({ text, include: ['', '  '] })).toBe(false);
    expect(matchesReplyContent({ text, include: [], exclude: ['nothing like this'] })).toBe(false);
  });
});
