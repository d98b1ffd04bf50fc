// Bounces, end to end from raw RFC 5322 bytes (CRLF) through parseIncoming and classifyIncoming:
// delivery status notifications and classic (non-standard) bounces; plus cleanDiagnostic and parseFields.
import { describe, expect, it } from 'vitest';
import { classifyClassicBounce, classifyDeliveryReport, cleanDiagnostic, parseFields } from './bounce.rules';
import type { ParsedIncoming } from './parse-incoming';
import { classify, exchangeNdr, leadMessage, MB, ORIGINAL_HEADERS, ORIGINAL_ID, parsed, postfixDsn, rfc822 } from './incoming.test-helpers';
import { classifyIncoming } from './incoming.rules';

describe('classifyIncoming — delivery status notifications', () => {
  it('a Postfix DSN (message/delivery-status + text/rfc822-headers) is a bounce of the original send', async () => {
    await expect(classify(postfixDsn())).resolves.toEqual({
      kind: 'bounce',
      diagnostic: '550 5.1.1 <nobody@lead.test>: Recipient address rejected: User unknown in virtual mailbox table',
      status: '5.1.1',
      failedRecipient: 'nobody@lead.test',
      originalMessageId: ORIGINAL_ID,
    });
  });

  it('an Exchange NDR (text + HTML, message/rfc822 returned) is a bounce; the returned body does not leak', async () => {
    const message = await parsed(exchangeNdr());
    expect(message.text).not.toContain('out of office');
    expect(message.attachments).toEqual([]);
    expect(classifyIncoming(message)).toEqual({
      kind: 'bounce',
      diagnostic: '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
      status: '5.1.10',
      failedRecipient: 'ceo@contoso.test',
      originalMessageId: ORIGINAL_ID,
    });
  });

  it('cleans a multi-line Gmail diagnostic (the reply code repeated on every line)', async () => {
    const classification = await classify(
      postfixDsn({
        diagnostic: [
          "Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist. Please try",
          " 550-5.1.1 double-checking the recipient's email address for typos or",
          ' 550 5.1.1 unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser - gsmtp',
        ],
      }),
    );
    expect(classification).toMatchObject({
      kind: 'bounce',
      diagnostic:
        "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser - gsmtp",
      status: '5.1.1',
    });
  });

  it('without a Diagnostic-Code, takes the diagnostic from the human-readable part', async () => {
    const classification = await classify(postfixDsn({ diagnostic: null, status: '5.2.2' }));
    expect(classification).toMatchObject({ kind: 'bounce', status: '5.2.2', originalMessageId: ORIGINAL_ID });
    expect(classification.kind === 'bounce' && classification.diagnostic).toBe(
      '<nobody@lead.test>: host mailstore.lead.test[192.0.2.30] said: 550 5.1.1 <nobody@lead.test>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command)',
    );
  });

  it('a 5.x.x status counts as a failure even when the Action is missing', async () => {
    const raw = postfixDsn({ action: 'failed' });
    const withoutAction = Buffer.from(raw.toString('utf8').replace('Action: failed\r\n', ''), 'utf8');
    await expect(classify(withoutAction)).resolves.toMatchObject({ kind: 'bounce', status: '5.1.1', failedRecipient: 'nobody@lead.test' });
  });

  it('a DSN with Action: delayed is not a bounce but an automatic delay notice', async () => {
    const classification = await classify(
      postfixDsn({
        action: 'delayed',
        status: '4.4.1',
        subject: 'Delayed Mail (still being retried)',
        diagnostic: ['Diagnostic-Code: X-Postfix; connect to mailstore.lead.test[192.0.2.30]:25: Connection timed out'],
        text: ['This is the mail system at host mx.lead.test.', '', '####################################################################', '# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #', '####################################################################'],
      }),
    );
    expect(classification).toEqual({ kind: 'automatic_reply', reason: 'delayed_delivery' });
  });

  it('a Gmail-style delay (Status 4.x.x, Action delayed, Will-Retry-Until) is an automatic delay notice', async () => {
    const raw = postfixDsn({ action: 'delayed', status: '4.7.0', subject: 'Delivery Status Notification (Delay)', diagnostic: ['Diagnostic-Code: smtp; 421 4.7.0 Try again later', 'Will-Retry-Until: Wed, 25 Nov 2026 10:00:00 +0000'] });
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'delayed_delivery' });
  });

  it('a DSN for several recipients is a bounce when one failed, about the failed one', async () => {
    const raw = Buffer.from(
      postfixDsn()
        .toString('utf8')
        .replace(
          'Final-Recipient: rfc822; nobody@lead.test',
          'Final-Recipient: rfc822; slow@lead.test\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\nFinal-Recipient: rfc822; nobody@lead.test',
        ),
      'utf8',
    );
    await expect(classify(raw)).resolves.toMatchObject({ kind: 'bounce', failedRecipient: 'nobody@lead.test', status: '5.1.1' });
  });

  it('a success report (Action: delivered / relayed) is an automatic delivery report', async () => {
    for (const [action, status] of [
      ['delivered', '2.0.0'],
      ['relayed', '2.0.0'],
      ['expanded', '2.0.0'],
    ]) {
      const raw = postfixDsn({ action, status, subject: 'Successful Mail Delivery Report', diagnostic: ['Diagnostic-Code: smtp; 250 2.0.0 Ok: queued as 4B2C'] });
      await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'delivery_report' });
    }
  });

  it('takes the original Message-ID from X-Original-Message-ID when no message is returned', async () => {
    const b = 'ndr-x';
    const raw = rfc822(
      [
        'From: postmaster@contoso.test',
        'To: bob@sender.test',
        'Subject: Undeliverable: Quick question',
        `Content-Type: multipart/report; report-type=delivery-status; boundary="${b}"`,
      ],
      [
        `--${b}`,
        'Content-Type: text/plain',
        '',
        'Delivery has failed to these recipients or groups.',
        `--${b}`,
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns;mx.contoso.test',
        `X-Original-Message-ID: <${ORIGINAL_ID}>`,
        '',
        'Final-Recipient: rfc822;ceo@contoso.test',
        'Action: failed',
        'Status: 5.2.2',
        'Diagnostic-Code: smtp;554 5.2.2 mailbox full',
        `--${b}--`,
      ],
    );
    await expect(classify(raw)).resolves.toEqual({
      kind: 'bounce',
      diagnostic: '554 5.2.2 mailbox full',
      status: '5.2.2',
      failedRecipient: 'ceo@contoso.test',
      originalMessageId: ORIGINAL_ID,
    });
  });

  it('a bounce wins over the auto-reply headers the report also carries', async () => {
    const raw = postfixDsn({ extraHeaders: ['X-Autoreply: yes', 'Precedence: auto_reply'] });
    await expect(classify(raw)).resolves.toMatchObject({ kind: 'bounce' });
  });

  it('a read receipt (disposition-notification report) is an automatic reply', async () => {
    const b = 'mdn';
    const raw = rfc822(
      ['From: Ada Lovelace <ada@lead.test>', 'To: bob@sender.test', 'Subject: Read: Quick question', `Content-Type: multipart/report; report-type=disposition-notification; boundary="${b}"`],
      [
        `--${b}`,
        'Content-Type: text/plain',
        '',
        'Your message was read on Monday, 23 November 2026 10:05.',
        `--${b}`,
        'Content-Type: message/disposition-notification',
        '',
        'Final-Recipient: rfc822;ada@lead.test',
        `Original-Message-ID: <${ORIGINAL_ID}>`,
        'Disposition: automatic-action/MDN-sent-automatically; displayed',
        `--${b}--`,
      ],
    );
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'read_receipt' });
  });

  it('a delivery report without a readable status part is still machine mail, never a reply', async () => {
    const b = 'broken';
    const raw = rfc822(
      ['From: Ada Lovelace <ada@lead.test>', 'To: bob@sender.test', 'Subject: Re: Quick question', `Content-Type: multipart/report; report-type=delivery-status; boundary="${b}"`],
      [`--${b}`, 'Content-Type: text/plain', '', 'Something about your message.', `--${b}--`],
    );
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'delivery_report' });
  });
});

describe('classifyIncoming — classic (non-standard) bounces', () => {
  it('MAILER-DAEMON with "Undelivered Mail Returned to Sender" and no report part is a bounce', async () => {
    const raw = rfc822(
      [
        'Return-Path: <>',
        'From: MAILER-DAEMON@mx.sender.test (Mail Delivery System)',
        'To: bob@sender.test',
        'Subject: Undelivered Mail Returned to Sender',
        'Date: Mon, 23 Nov 2026 10:01:00 +0000',
        'Content-Type: text/plain; charset=us-ascii',
      ],
      [
        'This is the mail system at host mx.sender.test.',
        '',
        "I'm sorry to have to inform you that your message could not",
        'be delivered to one or more recipients.',
        '',
        '<nobody@lead.test>: host mx.lead.test[192.0.2.10] said: 550 5.1.1',
        '    <nobody@lead.test>: Recipient address rejected: User unknown (in reply to',
        '    RCPT TO command)',
        '',
        '--- Original message headers follow ---',
        '',
        ...ORIGINAL_HEADERS,
      ],
    );
    await expect(classify(raw)).resolves.toEqual({
      kind: 'bounce',
      diagnostic: '<nobody@lead.test>: host mx.lead.test[192.0.2.10] said: 550 5.1.1 <nobody@lead.test>: Recipient address rejected: User unknown (in reply to RCPT TO command)',
      status: '5.1.1',
      failedRecipient: 'nobody@lead.test',
      originalMessageId: ORIGINAL_ID,
    });
  });

  it('a qmail "failure notice" is a bounce', async () => {
    const raw = rfc822(
      ['From: MAILER-DAEMON@mail.lead.test', 'To: bob@sender.test', 'Subject: failure notice', 'Content-Type: text/plain'],
      [
        'Hi. This is the qmail-send program at mail.lead.test.',
        "I'm afraid I wasn't able to deliver your message to the following addresses.",
        "This is a permanent error; I've given up. Sorry it didn't work out.",
        '',
        '<gone@lead.test>:',
        'Sorry, no mailbox here by that name. (#5.1.1)',
        '',
        '--- Below this line is a copy of the message.',
        '',
        ...ORIGINAL_HEADERS,
        '',
        'Hi, a quick question.',
      ],
    );
    const classification = await classify(raw);
    expect(classification).toMatchObject({ kind: 'bounce', failedRecipient: 'gone@lead.test', originalMessageId: ORIGINAL_ID });
  });

  it('a classic delay warning from MAILER-DAEMON is an automatic delay notice, not a bounce', async () => {
    const raw = rfc822(
      ['From: MAILER-DAEMON@mx.sender.test (Mail Delivery System)', 'To: bob@sender.test', 'Subject: Delayed Mail (still being retried)', 'Content-Type: text/plain'],
      ['# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #', '', '<slow@lead.test>: connect to mx.lead.test[192.0.2.10]:25: Connection timed out'],
    );
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'delayed_delivery' });
  });

  it('a bounce subject from an ordinary person is not a bounce (e.g. a lead forwarding one)', async () => {
    const raw = leadMessage({ subject: 'Fwd: Undelivered Mail Returned to Sender', body: ['Your colleague\'s e-mail bounced, try me instead.'] });
    await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
  });

  it('an ordinary subject from postmaster@ is not a bounce', async () => {
    const raw = leadMessage({ from: 'Postmaster <postmaster@lead.test>', subject: 'Re: Quick question', body: ['Please remove us from your list.'] });
    await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
  });

  it('a classic bounce from MAILER-DAEMON without a null Return-Path (an Exim "Mail delivery failed") is a bounce', async () => {
    const raw = rfc822(
      [
        'Return-Path: <MAILER-DAEMON@mx.sender.test>',
        'From: Mail Delivery System <Mailer-Daemon@mx.sender.test>',
        'To: bob@sender.test',
        'Subject: Mail delivery failed: returning message to sender',
        'X-Failed-Recipients: nobody@lead.test',
        'Date: Mon, 23 Nov 2026 10:01:00 +0000',
        'Content-Type: text/plain; charset=us-ascii',
      ],
      [
        'This message was created automatically by mail delivery software.',
        '',
        'A message that you sent could not be delivered to one or more of its',
        'recipients. This is a permanent error. The following address(es) failed:',
        '',
        '  nobody@lead.test',
        '    host mx.lead.test [192.0.2.10]',
        '    SMTP error from remote mail server after RCPT TO:<nobody@lead.test>:',
        '    550 5.1.1 <nobody@lead.test>: Recipient address rejected: User unknown',
        '',
        '------ This is a copy of the message, including all the headers. ------',
        '',
        ...ORIGINAL_HEADERS,
      ],
    );
    await expect(classify(raw)).resolves.toEqual({
      kind: 'bounce',
      diagnostic:
        'nobody@lead.test host mx.lead.test [192.0.2.10] SMTP error from remote mail server after RCPT TO:<nobody@lead.test>: 550 5.1.1 <nobody@lead.test>: Recipient address rejected: User unknown',
      status: '5.1.1',
      failedRecipient: 'nobody@lead.test',
      originalMessageId: ORIGINAL_ID,
    });
  });
});

// ---------------------------------------------------------------------------------------
// Pathological input: each test must simply finish (an expression that backtracks
// quadratically over these inputs takes minutes to hours)
// ---------------------------------------------------------------------------------------

/** A classic bounce from MAILER-DAEMON (null Return-Path) with `body` as its text. */
function classicBounce(body: string[]): Buffer {
  return rfc822(
    [
      'Return-Path: <>',
      'From: MAILER-DAEMON@mx.sender.test (Mail Delivery System)',
      'To: bob@sender.test',
      'Subject: Undelivered Mail Returned to Sender',
      'Date: Mon, 23 Nov 2026 10:01:00 +0000',
      'Content-Type: text/plain; charset=us-ascii',
    ],
    body,
  );
}

describe('pathological input', () => {
  it('a classic bounce whose text is "<" and 1,000,000 "@" is a bounce without a recipient', async () => {
    await expect(classify(classicBounce([`<${'@'.repeat(1_000_000)}`]))).resolves.toEqual({
      kind: 'bounce',
      diagnostic: `<${'@'.repeat(498)}…`,
      status: null,
      failedRecipient: null,
      originalMessageId: null,
    });
  });

  it('a classic bounce whose text is 1 MB of "a" is a bounce without a recipient', async () => {
    await expect(classify(classicBounce(['a'.repeat(MB)]))).resolves.toEqual({
      kind: 'bounce',
      diagnostic: `${'a'.repeat(499)}…`,
      status: null,
      failedRecipient: null,
      originalMessageId: null,
    });
  });

  it('a classic bounce followed by megabytes of junk keeps its diagnostic and recipient', async () => {
    const raw = classicBounce([
      '<nobody@lead.test>: host mx.lead.test[192.0.2.10] said: 550 5.1.1 User unknown',
      '',
      ...Array.from({ length: 8 }, () => `${'a'.repeat(MB / 4)}@${'b'.repeat(MB / 4)} <${'@'.repeat(MB / 4)}>:`),
    ]);
    await expect(classify(raw)).resolves.toMatchObject({ kind: 'bounce', status: '5.1.1', failedRecipient: 'nobody@lead.test' });
  });

  it('an address-like run of 1 MB ("a.a.…@a-a-…") in a classic bounce is no recipient', async () => {
    const raw = classicBounce([`${'a.'.repeat(MB / 4)}@${'a-'.repeat(MB / 4)}`, `${`${'x'.repeat(250)}@y `.repeat(4096)}`]);
    await expect(classify(raw)).resolves.toMatchObject({ kind: 'bounce', failedRecipient: null });
  });

  it('a DSN with a 1 MB Diagnostic-Code is a bounce', async () => {
    const raw = postfixDsn({ diagnostic: [`Diagnostic-Code: smtp;${' '.repeat(MB)}550 5.1.1 x\u2028y`] });
    await expect(classify(raw)).resolves.toMatchObject({ kind: 'bounce', status: '5.1.1', failedRecipient: 'nobody@lead.test', originalMessageId: ORIGINAL_ID });
  });

  it('parseFields reads a field with 1 MB of spaces before a value that is not on one line', () => {
    expect(parseFields(`Action:${' '.repeat(MB)}failed\u2028now\nStatus: 5.1.1`)).toEqual({ action: 'failed now', status: '5.1.1' });
  });
});

// ---------------------------------------------------------------------------------------
// Helpers: cleanDiagnostic, parseFields
// ---------------------------------------------------------------------------------------

describe('cleanDiagnostic', () => {
  it('drops the diagnostic type and the repeated reply code, on one line', () => {
    expect(cleanDiagnostic('smtp; 550-5.1.1 The account does not exist.\n 550-5.1.1 Please check\n 550 5.1.1 the address.')).toBe(
      '550 5.1.1 The account does not exist. Please check the address.',
    );
    expect(cleanDiagnostic('X-Postfix; host mx.lead.test said: 550 no')).toBe('host mx.lead.test said: 550 no');
    expect(cleanDiagnostic('smtp;554 Transaction failed')).toBe('554 Transaction failed');
    expect(cleanDiagnostic('552-Mailbox full\n 552 try later')).toBe('552 Mailbox full try later');
  });
});

describe('parseFields', () => {
  it('unfolds lines, lower-cases names, first occurrence wins, ignores lines that are not fields', () => {
    expect(parseFields('Final-Recipient: rfc822;\r\n nobody@lead.test\r\nAction: failed\r\nAction: delayed\r\nnot a field\r\nX-Thing :  a   b')).toEqual({
      'final-recipient': 'rfc822; nobody@lead.test',
      action: 'failed',
      'x-thing': 'a b',
    });
  });
});

// ---------------------------------------------------------------------------------------
// classifyDeliveryReport, classifyClassicBounce on their own
// ---------------------------------------------------------------------------------------

describe('classifyDeliveryReport', () => {
  it('reads a failed DSN as a bounce, a read receipt as a notice, and anything but a report as nothing', async () => {
    expect(classifyDeliveryReport(await parsed(postfixDsn()))).toMatchObject({ kind: 'bounce', status: '5.1.1', originalMessageId: ORIGINAL_ID });
    expect(classifyDeliveryReport(await parsed(postfixDsn({ action: 'delayed', status: '4.4.1' })))).toEqual({ kind: 'automatic_reply', reason: 'delayed_delivery' });
    const base = await parsed(leadMessage({ subject: 'Re: Quick question', body: ['Sounds good.'] }));
    expect(classifyDeliveryReport({ ...base, contentType: 'multipart/report; report-type=disposition-notification; boundary="x"' })).toEqual({
      kind: 'automatic_reply',
      reason: 'read_receipt',
    });
    expect(classifyDeliveryReport(base)).toBeNull();
    expect(classifyDeliveryReport({ ...base, contentType: 'multipart/report; report-type=delivery-status', deliveryStatus: null })).toBeNull();
  });
});

describe('classifyClassicBounce', () => {
  const daemon = (overrides: Partial<ParsedIncoming>) =>
    parsed(leadMessage({ subject: 'x', body: ['<nobody@lead.test>: host mx.lead.test said: 550 5.1.1 User unknown'] })).then(
      (m): ParsedIncoming => ({ ...m, from: [{ address: 'mailer-daemon@mx.lead.test', name: 'Mail Delivery System' }], ...overrides }),
    );

  it('is a bounce unless the classification says the message is automatic or an answer', async () => {
    const message = await daemon({ subject: 'Undelivered Mail Returned to Sender' });
    expect(classifyClassicBounce(message, () => false)).toMatchObject({ kind: 'bounce', status: '5.1.1', failedRecipient: 'nobody@lead.test' });
    expect(classifyClassicBounce(message, () => true)).toBeNull();
  });

  it('answers a delay warning, and a message from anyone but a daemon, without asking the classification', async () => {
    const asked: string[] = [];
    const ask = (m: ParsedIncoming) => (asked.push(m.subject), true);
    expect(classifyClassicBounce(await daemon({ subject: 'Delivery Status Notification (Delay)' }), ask)).toEqual({ kind: 'automatic_reply', reason: 'delayed_delivery' });
    expect(classifyClassicBounce(await parsed(leadMessage({ subject: 'Undelivered Mail Returned to Sender', body: ['x'] })), ask)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('a daemon message without a bounce subject is none', async () => {
    expect(classifyClassicBounce(await daemon({ subject: 'Your quarantine summary' }), () => false)).toBeNull();
  });
});
