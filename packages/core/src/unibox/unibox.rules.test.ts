import { describe, expect, it } from 'vitest';
import { isBase64 } from './unibox.schemas';
import {
  addressList,
  bareMessageId,
  contentPreview,
  contentTypeOf,
  forwardBody,
  forwardSubject,
  replyHeaders,
  replySubject,
  splitAddresses,
  storedAddresses,
  storedAttachments,
} from './unibox.rules';

describe('unibox rules', () => {
  it('prefixes reply and forward subjects once', () => {
    expect(replySubject('Hello')).toBe('Re: Hello');
    expect(replySubject('  RE: Hello ')).toBe('RE: Hello');
    expect(replySubject('Re[2]: Hello')).toBe('Re[2]: Hello');
    expect(replySubject('Fwd: Hello')).toBe('Re: Fwd: Hello');
    expect(replySubject('')).toBe('Re:');
    expect(forwardSubject('Hello')).toBe('Fwd: Hello');
    expect(forwardSubject('FW: Hello')).toBe('FW: Hello');
    expect(forwardSubject('Re: Hello')).toBe('Fwd: Re: Hello');
  });

  it('threads a reply: In-Reply-To the message, References its chain then the message, each once', () => {
    expect(replyHeaders({ messageId: '<b@x>', references: ['a@x', '<a@x>', ' ', 'b@x'] })).toEqual({
      inReplyTo: '<b@x>',
      references: '<a@x> <b@x>',
      stored: { inReplyTo: 'b@x', references: ['a@x', 'b@x'] },
    });
    expect(replyHeaders({ messageId: 'only@x', references: [] }).references).toBe('<only@x>');
    expect(bareMessageId(' <<id@x>> ')).toBe('id@x');
  });

  it('previews the text, or the HTML as text, in 200 characters with whitespace collapsed', () => {
    expect(contentPreview({ text: '  a\n\n b\tc ', html: '<p>ignored</p>' })).toBe('a b c');
    expect(contentPreview({ text: '', html: '<p>Hello <b>there</b></p><p>Second</p>' })).toBe('Hello there Second');
    expect(contentPreview({ text: '😀'.repeat(300), html: '' })).toBe('😀'.repeat(200));
    expect(contentPreview({ text: '', html: '' })).toBe('');
  });

  it('reads stored addresses and attachments leniently, lists addresses comma-joined', () => {
    const stored = storedAddresses([{ address: 'a@x', name: 'A' }, { address: 'b@x' }, { name: 'no address' }, null, 'c@x']);
    expect(stored).toEqual([{ address: 'a@x', name: 'A' }, { address: 'b@x', name: '' }]);
    expect(addressList(stored)).toBe('a@x,b@x');
    expect(storedAddresses('nope')).toEqual([]);
    expect(storedAttachments([{ file_name: 'a.pdf', content_type: 'application/pdf', size: 3 }, { file_name: 'b' }, { size: 1 }])).toEqual([
      { file_name: 'a.pdf', content_type: 'application/pdf', size: 3 },
      { file_name: 'b', content_type: 'application/octet-stream', size: 0 },
    ]);
  });

  it('splits recipient strings and guesses content types', () => {
    expect(splitAddresses(' a@x, b@y ;;c@z ,')).toEqual(['a@x', 'b@y', 'c@z']);
    expect(contentTypeOf('Deck.PDF')).toBe('application/pdf');
    expect(contentTypeOf('noext')).toBe('application/octet-stream');
  });

  it('quotes a forwarded e-mail below the new body, escaping its header values and naming its attachments', () => {
    const html = forwardBody({
      body: '<p>FYI</p>',
      original: {
        from: [{ address: 'jane@acme.test', name: 'Jane <CEO>' }],
        to: [{ address: 'me@x.test', name: '' }],
        cc: [],
        subject: 'Q&A',
        date: new Date('2026-03-02T10:00:00Z'),
        html: '',
        text: 'line 1\nline <2>',
        attachments: [{ file_name: 'deck.pdf', content_type: 'application/pdf', size: 1 }],
      },
    });
    expect(html.startsWith('<p>FYI</p>')).toBe(true);
    expect(html).toContain('From: Jane &lt;CEO&gt; &lt;jane@acme.test&gt;');
    expect(html).toContain('Subject: Q&amp;A');
    expect(html).toContain('Date: Mon, 02 Mar 2026 10:00:00 GMT');
    expect(html).toContain('Attachments (not included): deck.pdf');
    expect(html).toContain('line 1<br>\nline &lt;2&gt;');
    expect(html).not.toContain('Cc:');
  });
});

describe('attachment contents (isBase64)', () => {
  it('accepts standard base64 with line breaks, refuses partial groups, stray padding and other characters', () => {
    expect(isBase64(Buffer.from('hello, world').toString('base64'))).toBe(true);
    expect(isBase64('aGVs\r\nbG8=\n')).toBe(true);
    expect(isBase64('')).toBe(true);
    for (const bad of ['A', 'AAAAA', 'AB=C', 'AB==CD==', '***', 'aGVsbG8=!']) expect(isBase64(bad)).toBe(false);
  });

  it('answers a megabyte of spaces ending in a bad character (an expression that backtracks would not return for minutes)', () => {
    expect(isBase64(`${' '.repeat(1_000_000)}!`)).toBe(false);
    expect(isBase64(`${' '.repeat(1_000_000)}QQ==`)).toBe(true);
  });
});
