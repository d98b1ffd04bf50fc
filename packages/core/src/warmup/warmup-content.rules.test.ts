import { describe, expect, it } from 'vitest';
import { newWarmupCode, warmupCodeCandidates } from '../shared/warmup-code';
import { warmupFolders } from '../shared/warmup-mailbox';
import { customWords, warmupContent } from './warmup-content.rules';

describe('warmup code', () => {
  it('is word-like, and found again in a text around it, once', () => {
    const codes = Array.from({ length: 50 }, () => newWarmupCode());
    expect(new Set(codes).size).toBe(50);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z]{6}-[a-z]{4}\d{2}$/);
      expect(warmupCodeCandidates(`Best,\nAnn\n\n${code}\n\n> quoted ${code.toUpperCase()}`)).toEqual([code]);
    }
  });

  it('is not taken from ordinary text', () => {
    expect(warmupCodeCandidates('A follow-up on the re-run of test-case42, see pemaro-kilu4 or xpemaro-kilu42.')).toEqual([]);
  });
});

describe('warmup content', () => {
  const base = { fromName: 'Ann', toName: 'Bob', customWords: [], signature: '' };

  it('is spun from the corpus, differs between codes and is the same for one code', () => {
    const a = warmupContent({ ...base, code: 'pemaro-kilu42' });
    expect(warmupContent({ ...base, code: 'pemaro-kilu42' })).toEqual(a);
    const many = new Set(Array.from({ length: 30 }, () => warmupContent({ ...base, code: newWarmupCode() }).text.split('\n\n')[1]));
    expect(many.size).toBeGreaterThan(10);
    expect(a.subject).not.toMatch(/[{}|]/);
    expect(a.text).not.toMatch(/[{}|]/);
    expect(a.text.startsWith('H') || a.text.startsWith('G')).toBe(true);
    expect(a.text).toContain('Bob');
  });

  it('mixes in a custom word, ends with the signature and the code the receiver recognises', () => {
    const words = customWords('Project Falcon, quarterly report,\n ,budget');
    expect(words).toEqual(['Project Falcon', 'quarterly report', 'budget']);
    const content = warmupContent({ ...base, code: 'bodaki-vesu07', customWords: words, signature: 'Ann Smith\nAlpha Ltd' });
    expect(words.some((w) => content.text.includes(w))).toBe(true);
    expect(content.text.endsWith('Ann Smith\nAlpha Ltd\n\nbodaki-vesu07')).toBe(true);
    expect(warmupCodeCandidates(content.text)).toEqual(['bodaki-vesu07']);
  });

  it('answers in the thread: Re: the subject, once', () => {
    expect(warmupContent({ ...base, code: 'bodaki-vesu07', reply: { subject: 'Lunch soon?' } }).subject).toBe('Re: Lunch soon?');
    expect(warmupContent({ ...base, code: 'bodaki-vesu07', reply: { subject: 'Re: Lunch soon?' } }).subject).toBe('Re: Lunch soon?');
  });
});

describe('warmup folders', () => {
  it('looks in INBOX and the \\Junk folder, by name only when no folder has the flag, and in Promotions', () => {
    expect(warmupFolders([{ path: 'INBOX' }, { path: 'Junk', specialUse: '\\Junk' }, { path: 'Spam' }, { path: 'Trash', specialUse: '\\Trash' }])).toEqual([
      { path: 'INBOX', kind: 'INBOX' },
      { path: 'Junk', kind: 'SPAM' },
    ]);
    expect(warmupFolders([{ path: 'INBOX' }, { path: 'Spam' }, { path: 'Promotions' }, { path: 'Archive' }])).toEqual([
      { path: 'INBOX', kind: 'INBOX' },
      { path: 'Spam', kind: 'SPAM' },
      { path: 'Promotions', kind: 'PROMOTIONS' },
    ]);
  });
});
