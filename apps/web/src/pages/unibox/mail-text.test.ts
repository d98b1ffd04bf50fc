import { describe, expect, it } from 'vitest';
import { attachmentProblem, splitAddresses, textToHtml } from './mail-text';

describe('what a person types, as the send operations take it', () => {
  it('escapes markup and keeps paragraphs and line breaks', () => {
    expect(textToHtml('Hi <b>Ann</b> & co,\nthanks.\n\nBest,\nSam')).toBe('<p>Hi &lt;b&gt;Ann&lt;/b&gt; &amp; co,<br>thanks.</p>\n<p>Best,<br>Sam</p>');
    expect(textToHtml(`<img src=x onerror="alert('x')">`)).not.toMatch(/<img/);
  });

  it('splits addresses on commas, semicolons and spaces', () => {
    expect(splitAddresses(' a@x.test, b@y.test;c@z.test  ')).toEqual(['a@x.test', 'b@y.test', 'c@z.test']);
    expect(splitAddresses('  ')).toEqual([]);
  });

  it('refuses more than 10 MB or 20 files, in words', () => {
    expect(attachmentProblem([{ size: 1024 }])).toBeUndefined();
    expect(attachmentProblem([{ size: 6 * 1024 * 1024 }, { size: 5 * 1024 * 1024 }])).toMatch(/11\.0 MB.*at most 10 MB/);
    expect(attachmentProblem(Array.from({ length: 21 }, () => ({ size: 1 })))).toMatch(/At most 20 files/);
  });
});
