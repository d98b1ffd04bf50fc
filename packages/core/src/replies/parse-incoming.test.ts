// parseIncoming from raw RFC 5322 bytes (CRLF line endings, as a mailbox hands them over).
import { describe, expect, it } from 'vitest';
import { messageIdsOf } from '../shared/mail-threading';
import { decodeEncodedWords, parseIncoming, type ParsedIncoming } from './parse-incoming';

/** A raw message: header lines, an empty line, the body lines; CRLF throughout. */
function rfc822(headers: string[], body: string[] = []): Buffer {
  return Buffer.from([...headers, '', ...body, ''].join('\r\n'), 'utf8');
}

async function parsed(raw: Buffer): Promise<ParsedIncoming> {
  const result = await parseIncoming(raw);
  if (!result.ok) throw new Error(`expected a parsed message, got: ${result.error}`);
  return result.message;
}

const BASIC_HEADERS = [
  'Return-Path: <ada@lead.test>',
  'From: Ada Lovelace <ada@lead.test>',
  'To: bob@sender.test',
  'Subject: Re: Quick question',
  'Date: Mon, 23 Nov 2026 10:00:00 +0000',
  'Message-ID: <reply-1@lead.test>',
  'MIME-Version: 1.0',
];

describe('parseIncoming — addresses', () => {
  it('reads display names (encoded words, quoted strings) and lower-cases addresses', async () => {
    const message = await parsed(
      rfc822(
        [
          'From: =?UTF-8?B?Wm/DqyDDhW5nc3Ryw7Zt?= <Zoe.Angstrom@Lead.TEST>',
          'To: "Bob Sender" <BOB@sender.test>, carol@sender.test,',
          ' =?ISO-8859-1?Q?J=FCrgen_M=FCller?= <juergen@sender.test>',
          'Cc: =?UTF-8?B?RnLDqWTDqXJpYw==?= <frederic@lead.test>, "Doe, Jane" <jane@lead.test>',
          'Subject: Re: Quick question',
          'Message-ID: <a1@lead.test>',
          'MIME-Version: 1.0',
          'Content-Type: text/plain; charset=utf-8',
        ],
        ['Yes, please send more details.'],
      ),
    );
    expect(message.from).toEqual([{ address: 'zoe.angstrom@lead.test', name: 'Zoë Ångström' }]);
    expect(message.to).toEqual([
      { address: 'bob@sender.test', name: 'Bob Sender' },
      { address: 'carol@sender.test', name: '' },
      { address: 'juergen@sender.test', name: 'Jürgen Müller' },
    ]);
    expect(message.cc).toEqual([
      { address: 'frederic@lead.test', name: 'Frédéric' },
      { address: 'jane@lead.test', name: 'Doe, Jane' },
    ]);
  });

  it('flattens address groups and ignores an empty group', async () => {
    const message = await parsed(
      rfc822(
        [
          'From: ada@lead.test',
          'To: Sales team: bob@sender.test, Carol <carol@sender.test>;',
          'Cc: undisclosed-recipients:;',
          'Subject: Hello',
          'MIME-Version: 1.0',
          'Content-Type: text/plain',
        ],
        ['Hi'],
      ),
    );
    expect(message.to.map((a) => a.address)).toEqual(['bob@sender.test', 'carol@sender.test']);
    expect(message.cc).toEqual([]);
  });

  it('has empty lists when the address headers are missing', async () => {
    const message = await parsed(rfc822(['Subject: no addresses', 'Content-Type: text/plain'], ['x']));
    expect(message.from).toEqual([]);
    expect(message.to).toEqual([]);
    expect(message.cc).toEqual([]);
  });
});

describe('parseIncoming — message ids', () => {
  it('strips angle brackets from Message-ID and In-Reply-To, and lists folded References oldest first', async () => {
    const message = await parsed(
      rfc822(
        [
          ...BASIC_HEADERS.filter((h) => !h.startsWith('Message-ID')),
          'Message-ID:',
          ' <CAF=reply+2@mail.gmail.com>',
          'In-Reply-To: <step-2.campaign-9@sender.test>',
          'References: <step-1.campaign-9@sender.test>',
          '\t<step-2.campaign-9@sender.test>',
          '  <reply-0@lead.test>',
          'Content-Type: text/plain; charset=utf-8',
        ],
        ['Thanks!'],
      ),
    );
    expect(message.messageId).toBe('CAF=reply+2@mail.gmail.com');
    expect(message.inReplyTo).toBe('step-2.campaign-9@sender.test');
    expect(message.references).toEqual(['step-1.campaign-9@sender.test', 'step-2.campaign-9@sender.test', 'reply-0@lead.test']);
    // The header record keeps the unfolded value.
    expect(message.headers['references']).toBe('<step-1.campaign-9@sender.test>\t<step-2.campaign-9@sender.test>  <reply-0@lead.test>');
  });

  it('keeps only the first id of an In-Reply-To that lists several (with comments around them)', async () => {
    const message = await parsed(
      rfc822(
        [
          'From: ada@lead.test',
          'Subject: Re: hi',
          'Message-ID: <m@lead.test>',
          'In-Reply-To: <first@sender.test> (Bob\'s message of Mon, 23 Nov 2026)',
          '  <second@sender.test>',
          'References: <first@sender.test>,<second@sender.test>',
          'Content-Type: text/plain',
        ],
        ['ok'],
      ),
    );
    expect(message.inReplyTo).toBe('first@sender.test');
    expect(message.references).toEqual(['first@sender.test', 'second@sender.test']);
  });

  it('accepts bare ids without brackets, and is null / empty when the headers are missing', async () => {
    const bare = await parsed(
      rfc822(['From: ada@lead.test', 'Subject: Re: hi', 'Message-ID: bare-id@lead.test', 'In-Reply-To: orig@sender.test', 'Content-Type: text/plain'], ['ok']),
    );
    expect(bare.messageId).toBe('bare-id@lead.test');
    expect(bare.inReplyTo).toBe('orig@sender.test');
    expect(bare.references).toEqual([]);

    const none = await parsed(rfc822(['From: ada@lead.test', 'Subject: hi', 'Content-Type: text/plain'], ['ok']));
    expect(none.messageId).toBeNull();
    expect(none.inReplyTo).toBeNull();
    expect(none.references).toEqual([]);
  });

  it('messageIdsOf: bracketed tokens win; bare tokens need an @', () => {
    expect(messageIdsOf('<a@x> <b@y>')).toEqual(['a@x', 'b@y']);
    expect(messageIdsOf('< spaced@x >')).toEqual(['spaced@x']);
    expect(messageIdsOf('junk <a@x> more junk@z')).toEqual(['a@x']);
    expect(messageIdsOf('a@x, b@y  not-an-id')).toEqual(['a@x', 'b@y']);
    expect(messageIdsOf('')).toEqual([]);
    expect(messageIdsOf(undefined)).toEqual([]);
    expect(messageIdsOf('<>')).toEqual([]);
  });
});

describe('parseIncoming — headers, subject, date', () => {
  it('lower-cases header names, unfolds and decodes values, joins repeated headers', async () => {
    const message = await parsed(
      rfc822(
        [
          'Received: from mx1.lead.test by mx.sender.test;',
          '\tMon, 23 Nov 2026 10:00:02 +0000',
          'Received: from client by mx1.lead.test; Mon, 23 Nov 2026 10:00:01 +0000',
          'From: ada@lead.test',
          'To: bob@sender.test',
          'Subject: =?UTF-8?B?R3LDvMOfZSDigJMgQW5nZWJvdA==?=',
          'X-Custom-Header: Value With  Spaces',
          'Date: Mon, 23 Nov 2026 11:00:00 +0100',
          'MIME-Version: 1.0',
          'Content-Type: text/plain; charset=utf-8',
        ],
        ['Hallo'],
      ),
    );
    expect(message.subject).toBe('Grüße – Angebot');
    expect(message.headers['subject']).toBe('Grüße – Angebot');
    expect(message.headers['received']).toBe(
      'from mx1.lead.test by mx.sender.test;\tMon, 23 Nov 2026 10:00:02 +0000, from client by mx1.lead.test; Mon, 23 Nov 2026 10:00:01 +0000',
    );
    expect(message.headers['x-custom-header']).toBe('Value With  Spaces');
    expect(Object.keys(message.headers).every((k) => k === k.toLowerCase())).toBe(true);
    expect(message.date?.toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(message.contentType).toBe('text/plain; charset=utf-8');
  });

  it('decodes a multi-byte character split across two adjacent encoded words', async () => {
    // "€" is E2 82 AC: its first two bytes end the first word, the last one starts the second.
    const message = await parsed(
      rfc822(['From: ada@lead.test', 'Subject: =?UTF-8?Q?Preis_=E2=82?=', ' =?UTF-8?Q?=AC_100?=', 'Content-Type: text/plain'], ['x']),
    );
    expect(message.subject).toBe('Preis € 100');
    expect(message.headers['subject']).toBe('Preis € 100');
  });

  it('reads raw UTF-8 header bytes (SMTPUTF8) as UTF-8', async () => {
    const message = await parsed(rfc822(['From: Zoë <zoe@lead.test>', 'Subject: Réponse à votre e-mail', 'Content-Type: text/plain; charset=utf-8'], ['x']));
    expect(message.subject).toBe('Réponse à votre e-mail');
    expect(message.headers['subject']).toBe('Réponse à votre e-mail');
    expect(message.from).toEqual([{ address: 'zoe@lead.test', name: 'Zoë' }]);
  });

  it('has a null date when the Date header is missing or unreadable, and text/plain when Content-Type is missing', async () => {
    const missing = await parsed(rfc822(['From: ada@lead.test', 'Subject: hi'], ['plain body']));
    expect(missing.date).toBeNull();
    expect(missing.contentType).toBe('text/plain');
    expect(missing.text.trim()).toBe('plain body');
    expect(missing.subject).toBe('hi');

    const unreadable = await parsed(rfc822(['From: ada@lead.test', 'Subject: hi', 'Date: sometime next week'], ['x']));
    expect(unreadable.date).toBeNull();
  });

  it('has an empty subject when there is none', async () => {
    const message = await parsed(rfc822(['From: ada@lead.test', 'Content-Type: text/plain'], ['x']));
    expect(message.subject).toBe('');
  });
});

describe('decodeEncodedWords', () => {
  it('decodes B and Q words, keeps the text around them and drops white space between adjacent words', () => {
    expect(decodeEncodedWords('=?UTF-8?B?Wm/DqyDDhW5nc3Ryw7Zt?= <zoe@lead.test>')).toBe('Zoë Ångström <zoe@lead.test>');
    expect(decodeEncodedWords('Hello =?iso-8859-1?q?J=FCrgen?= and =?utf-8?q?Zo=C3=AB?=!')).toBe('Hello Jürgen and Zoë!');
    expect(decodeEncodedWords('=?UTF-8?Q?a_b?=   =?UTF-8?Q?_c?=')).toBe('a b c');
    expect(decodeEncodedWords('=?UTF-8?Q?one?= =?ISO-8859-1?Q?_two?=')).toBe('one two');
  });

  it('leaves plain text and words in an unknown charset alone', () => {
    expect(decodeEncodedWords('No encoded words here')).toBe('No encoded words here');
    expect(decodeEncodedWords('=?x-unknown-charset?Q?abc?=')).toBe('=?x-unknown-charset?Q?abc?=');
  });

  it('reads a charset with an RFC 2231 language suffix', () => {
    expect(decodeEncodedWords('=?UTF-8*de?Q?Gr=C3=BC=C3=9Fe?=')).toBe('Grüße');
  });
});

describe('parseIncoming — bodies', () => {
  it('reads both parts of a text + HTML alternative', async () => {
    const b = '000000000000a1b2c3d4e5f6';
    const message = await parsed(
      rfc822(
        [...BASIC_HEADERS, `Content-Type: multipart/alternative; boundary="${b}"`],
        [
          `--${b}`,
          'Content-Type: text/plain; charset="UTF-8"',
          'Content-Transfer-Encoding: quoted-printable',
          '',
          'Hi Bob,',
          '',
          'Tuesday at 3pm works =E2=80=93 talk then.',
          '',
          `--${b}`,
          'Content-Type: text/html; charset="UTF-8"',
          'Content-Transfer-Encoding: quoted-printable',
          '',
          '<div dir=3D"ltr">Hi Bob,<div><br></div><div>Tuesday at 3pm works =E2=80=93 talk then.</div></div>',
          '',
          `--${b}--`,
        ],
      ),
    );
    expect(message.text).toBe('Hi Bob,\n\nTuesday at 3pm works – talk then.\n');
    expect(message.html).toContain('<div dir="ltr">Hi Bob,');
    expect(message.html).toContain('Tuesday at 3pm works – talk then.');
    expect(message.contentType).toMatch(/^multipart\/alternative;/);
    expect(message.attachments).toEqual([]);
  });

  it('derives the text from the HTML part when there is no text part', async () => {
    const message = await parsed(
      rfc822(
        [...BASIC_HEADERS, 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: 7bit'],
        [
          '<html><head><style>p { color: red }</style></head><body>',
          '<p>Hi Bob,</p><p>Yes, send me the <b>pricing</b> &amp; a case study.</p>',
          '<blockquote>On Mon, Bob wrote: earlier text</blockquote>',
          '</body></html>',
        ],
      ),
    );
    expect(message.html).toContain('<p>Hi Bob,</p>');
    expect(message.text).toContain('Hi Bob,');
    expect(message.text).toContain('Yes, send me the pricing & a case study.');
    expect(message.text).not.toContain('<p>');
    expect(message.text).not.toContain('color: red');
  });

  it('decodes an ISO-8859-1 body (quoted-printable)', async () => {
    const message = await parsed(
      rfc822(
        [...BASIC_HEADERS, 'Content-Type: text/plain; charset=ISO-8859-1', 'Content-Transfer-Encoding: quoted-printable'],
        ['Gr=FC=DFe aus M=FCnchen, =E0 bient=F4t!'],
      ),
    );
    expect(message.text.trim()).toBe('Grüße aus München, à bientôt!');
  });

  it('decodes an ISO-8859-1 body sent as raw 8-bit bytes', async () => {
    const head = Buffer.from([...BASIC_HEADERS, 'Content-Type: text/plain; charset="iso-8859-1"', 'Content-Transfer-Encoding: 8bit', '', ''].join('\r\n'));
    const body = Buffer.from('Très bien, merci. Grüße\r\n', 'latin1');
    expect(body.includes(0xe8)).toBe(true); // really Latin-1 bytes, not UTF-8
    const message = await parsed(Buffer.concat([head, body]));
    expect(message.text.trim()).toBe('Très bien, merci. Grüße');
  });

  it('lists attachments (file name, lower-case content type, decoded size) and keeps the body text', async () => {
    const mixed = 'mixed-boundary-42';
    const related = 'related-boundary-43';
    const pdf = 'JVBERi0xLjQKJcOiw6PDj8OTCjEgMCBvYmoKPDw+PgplbmRvYmoK'; // 39 bytes
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]).toString('base64'); // 12 bytes
    const message = await parsed(
      rfc822(
        [...BASIC_HEADERS, `Content-Type: multipart/mixed; boundary="${mixed}"`],
        [
          'This is a multi-part message in MIME format.',
          `--${mixed}`,
          `Content-Type: multipart/related; boundary="${related}"`,
          '',
          `--${related}`,
          'Content-Type: text/html; charset=utf-8',
          '',
          '<p>See the attached offer.</p><img src="cid:logo@lead.test">',
          `--${related}`,
          'Content-Type: image/png; name="logo.png"',
          'Content-Transfer-Encoding: base64',
          'Content-ID: <logo@lead.test>',
          'Content-Disposition: inline; filename="logo.png"',
          '',
          png,
          `--${related}--`,
          `--${mixed}`,
          'Content-Type: Application/PDF; name="offer.pdf"',
          'Content-Transfer-Encoding: base64',
          "Content-Disposition: attachment; filename*=UTF-8''Angebot%20M%C3%BCller.pdf",
          '',
          pdf,
          `--${mixed}`,
          'Content-Type: text/csv; charset=utf-8; name="leads.csv"',
          'Content-Disposition: attachment; filename="leads.csv"',
          '',
          'email,first_name',
          'ada@lead.test,Ada',
          `--${mixed}--`,
        ],
      ),
    );
    expect(message.text).toContain('See the attached offer.');
    expect(message.attachments).toEqual([
      { fileName: 'logo.png', contentType: 'image/png', size: 12 },
      { fileName: 'Angebot Müller.pdf', contentType: 'application/pdf', size: 39 },
      { fileName: 'leads.csv', contentType: 'text/csv', size: expect.any(Number) },
    ]);
    expect(message.attachments[2]!.size).toBeGreaterThanOrEqual('email,first_name\r\nada@lead.test,Ada'.length);
    expect(message.deliveryStatus).toBeNull();
    expect(message.returnedHeaders).toBeNull();
  });

  it('keeps a forwarded message/rfc822 of an ordinary e-mail as an attachment, and its text out of the body', async () => {
    const b = 'fwd-boundary';
    const message = await parsed(
      rfc822(
        [...BASIC_HEADERS, `Content-Type: multipart/mixed; boundary="${b}"`],
        [
          `--${b}`,
          'Content-Type: text/plain; charset=utf-8',
          '',
          'Forwarding this to you, see below.',
          `--${b}`,
          'Content-Type: message/rfc822',
          'Content-Disposition: inline',
          '',
          'From: someone@elsewhere.test',
          'Subject: The original',
          'Message-ID: <forwarded-1@elsewhere.test>',
          'Content-Type: text/plain',
          '',
          'Text of the forwarded message.',
          `--${b}--`,
        ],
      ),
    );
    expect(message.text).toContain('Forwarding this to you');
    expect(message.text).not.toContain('Text of the forwarded message.');
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]!.contentType).toBe('message/rfc822');
    expect(message.returnedHeaders).toContain('Message-ID: <forwarded-1@elsewhere.test>');
  });

  it('keeps the parts of a delivery report out of the attachments and exposes their text', async () => {
    const b = 'report-boundary';
    const message = await parsed(
      rfc822(
        [
          'From: MAILER-DAEMON@mx.lead.test (Mail Delivery System)',
          'To: bob@sender.test',
          'Subject: Undelivered Mail Returned to Sender',
          'MIME-Version: 1.0',
          `Content-Type: multipart/report; report-type=delivery-status;`,
          `\tboundary="${b}"`,
        ],
        [
          `--${b}`,
          'Content-Type: text/plain; charset=us-ascii',
          '',
          'Your message could not be delivered.',
          `--${b}`,
          'Content-Type: message/delivery-status',
          '',
          'Reporting-MTA: dns; mx.lead.test',
          '',
          'Final-Recipient: rfc822; nobody@lead.test',
          'Action: failed',
          'Status: 5.1.1',
          `--${b}`,
          'Content-Type: text/rfc822-headers',
          '',
          'From: bob@sender.test',
          'Message-ID: <step-1@sender.test>',
          'Subject: Quick question',
          `--${b}--`,
        ],
      ),
    );
    expect(message.contentType).toBe(`multipart/report; report-type=delivery-status;\tboundary="${b}"`);
    expect(message.attachments).toEqual([]);
    expect(message.text.trim()).toBe('Your message could not be delivered.');
    expect(message.deliveryStatus).toContain('Final-Recipient: rfc822; nobody@lead.test\nAction: failed\nStatus: 5.1.1');
    expect(message.deliveryStatus).not.toContain('\r');
    expect(message.returnedHeaders).toContain('Message-ID: <step-1@sender.test>');
    expect(message.returnedHeaders).not.toContain('\r');
  });
});

describe('parseIncoming — unreadable input', () => {
  it('rejects an empty buffer', async () => {
    await expect(parseIncoming(Buffer.alloc(0))).resolves.toEqual({ ok: false, error: 'empty message' });
  });

  it('rejects something that is not a buffer without throwing', async () => {
    const result = await parseIncoming('From: a@b.test\r\n\r\nhi' as unknown as Buffer);
    expect(result.ok).toBe(false);
  });

  it.each([
    ['binary noise', Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe, 0x0d, 0x0a, 0x0d, 0x0a, 0x63, 0x64])],
    ['a PNG file', Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01', 'latin1')],
    ['a line of text without any header', Buffer.from('hello, this is not an e-mail')],
    ['only blank lines', Buffer.from('\r\n\r\n\r\n')],
  ])('rejects %s with an error and never throws', async (_name, raw) => {
    const result = await parseIncoming(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/unreadable message/);
  });

  it('never throws on random bytes', async () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 50; i++) {
      const raw = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 400) }, () => Math.floor(random() * 256)));
      const result = await parseIncoming(raw);
      expect(typeof result.ok).toBe('boolean');
      if (!result.ok) expect(typeof result.error).toBe('string');
    }
  });

  it('still reads a message with a broken multipart structure (missing closing boundary)', async () => {
    const message = await parsed(
      rfc822([...BASIC_HEADERS, 'Content-Type: multipart/alternative; boundary="never-closed"'], ['--never-closed', 'Content-Type: text/plain', '', 'Truncated reply']),
    );
    expect(message.text).toContain('Truncated reply');
  });
});
