// Classification of incoming mail, end to end from raw RFC 5322 bytes (CRLF) through
// parseIncoming and classifyIncoming; plus matchesReplyContent and stripQuotedReply.
import { describe, expect, it } from 'vitest';
import { parseIncoming, type ParsedIncoming } from './parse-incoming';
import {
  AUTO_REPLY_SUBJECT_PHRASES,
  OUT_OF_OFFICE_SUBJECT_PHRASES,
  type Classification,
  classifyIncoming,
  cleanDiagnostic,
  matchesReplyContent,
  parseFields,
  stripQuotedReply,
} from './incoming.rules';

// ---------------------------------------------------------------------------------------
// Raw message builders
// ---------------------------------------------------------------------------------------

function rfc822(headers: string[], body: string[] = []): Buffer {
  return Buffer.from([...headers, '', ...body, ''].join('\r\n'), 'utf8');
}

async function parsed(raw: Buffer): Promise<ParsedIncoming> {
  const result = await parseIncoming(raw);
  if (!result.ok) throw new Error(`expected a parsed message, got: ${result.error}`);
  return result.message;
}

async function classify(raw: Buffer): Promise<Classification> {
  return classifyIncoming(await parsed(raw));
}

/** A plain-text message from a lead to the sender; `headers` are added after the standard ones. */
function leadMessage(options: { subject: string; body: string[]; headers?: string[]; from?: string }): Buffer {
  return rfc822(
    [
      'Return-Path: <ada@lead.test>',
      'Received: from mail.lead.test (mail.lead.test [192.0.2.20]) by mx.sender.test; Mon, 23 Nov 2026 10:00:03 +0000',
      `From: ${options.from ?? 'Ada Lovelace <ada@lead.test>'}`,
      'To: Bob Sender <bob@sender.test>',
      `Subject: ${options.subject}`,
      'Date: Mon, 23 Nov 2026 10:00:00 +0000',
      'Message-ID: <msg-1@lead.test>',
      'In-Reply-To: <step-1.campaign-7@sender.test>',
      'References: <step-1.campaign-7@sender.test>',
      ...(options.headers ?? []),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
    ],
    options.body,
  );
}

const ORIGINAL_ID = 'step-1.campaign-7@sender.test';

/** The header section of our original send, as a returned copy carries it. */
const ORIGINAL_HEADERS = [
  'Return-Path: <bob@sender.test>',
  'From: Bob Sender <bob@sender.test>',
  'To: nobody@lead.test',
  'Subject: Quick question',
  'Date: Mon, 23 Nov 2026 09:59:00 +0000',
  `Message-ID: <${ORIGINAL_ID}>`,
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
];

/** A Postfix delivery status notification. */
function postfixDsn(options: { action?: string; status?: string; diagnostic?: string[] | null; subject?: string; text?: string[]; extraHeaders?: string[] } = {}): Buffer {
  const b = '3F1A2B0C5D.1732356060/mx.lead.test';
  return rfc822(
    [
      'Return-Path: <>',
      'Received: by mx.lead.test (Postfix) id 3F1A2B0C5D; Mon, 23 Nov 2026 10:01:00 +0000 (UTC)',
      'Date: Mon, 23 Nov 2026 10:01:00 +0000 (UTC)',
      'From: MAILER-DAEMON@mx.lead.test (Mail Delivery System)',
      `Subject: ${options.subject ?? 'Undelivered Mail Returned to Sender'}`,
      'To: bob@sender.test',
      'Auto-Submitted: auto-replied',
      ...(options.extraHeaders ?? []),
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status;',
      `\tboundary="${b}"`,
      'Content-Transfer-Encoding: 7bit',
      'Message-Id: <20261123100100.3F1A2B0C5D@mx.lead.test>',
    ],
    [
      'This is a MIME-encapsulated message.',
      '',
      `--${b}`,
      'Content-Description: Notification',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      ...(options.text ?? [
        'This is the mail system at host mx.lead.test.',
        '',
        "I'm sorry to have to inform you that your message could not",
        'be delivered to one or more recipients. It\'s attached below.',
        '',
        'For further assistance, please send mail to postmaster.',
        '',
        '                   The mail system',
        '',
        '<nobody@lead.test>: host mailstore.lead.test[192.0.2.30] said: 550 5.1.1',
        '    <nobody@lead.test>: Recipient address rejected: User unknown in virtual',
        '    mailbox table (in reply to RCPT TO command)',
      ]),
      '',
      `--${b}`,
      'Content-Description: Delivery report',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.lead.test',
      'X-Postfix-Queue-ID: 3F1A2B0C5D',
      'X-Postfix-Sender: rfc822; bob@sender.test',
      'Arrival-Date: Mon, 23 Nov 2026 10:00:58 +0000 (UTC)',
      '',
      'Final-Recipient: rfc822; nobody@lead.test',
      'Original-Recipient: rfc822;nobody@lead.test',
      `Action: ${options.action ?? 'failed'}`,
      `Status: ${options.status ?? '5.1.1'}`,
      'Remote-MTA: dns; mailstore.lead.test',
      ...(options.diagnostic === null
        ? []
        : (options.diagnostic ?? [
            'Diagnostic-Code: smtp; 550 5.1.1 <nobody@lead.test>: Recipient address',
            '    rejected: User unknown in virtual mailbox table',
          ])),
      '',
      `--${b}`,
      'Content-Description: Undelivered Message Headers',
      'Content-Type: text/rfc822-headers',
      '',
      ...ORIGINAL_HEADERS,
      '',
      `--${b}--`,
    ],
  );
}

/** An Exchange Online non-delivery report: HTML + text, delivery status, the whole message returned. */
function exchangeNdr(): Buffer {
  const outer = 'b1_report_1732356060';
  const alt = 'b2_alt_1732356060';
  return rfc822(
    [
      'From: Microsoft Outlook <MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@contoso.test>',
      'To: <bob@sender.test>',
      'Date: Mon, 23 Nov 2026 10:01:12 +0000',
      'Subject: Undeliverable: Quick question',
      'Message-ID: <c6a3e2a0-1b2c-4d5e-8f90-0a1b2c3d4e5f@DM6PR01MB1234.prod.exchangelabs.com>',
      'Auto-Submitted: auto-replied',
      'X-MS-Exchange-Message-Is-Ndr:',
      'X-MS-PublicTrafficType: Email',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type="delivery-status"; boundary="${outer}"`,
    ],
    [
      `--${outer}`,
      `Content-Type: multipart/alternative; boundary="${alt}"`,
      '',
      `--${alt}`,
      'Content-Type: text/plain; charset="us-ascii"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      "Your message to ceo@contoso.test couldn't be delivered.",
      '',
      "ceo wasn't found at contoso.test.",
      '',
      'Bob          Office 365          ceo',
      'Action Required                  Recipient',
      '',
      'Unknown To address',
      '',
      `--${alt}`,
      'Content-Type: text/html; charset="us-ascii"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '<html><body><p>Your message to <a href=3D"mailto:ceo@contoso.test">ceo@contoso.test</a> couldn&#39;t be delivered.</p></body></html>',
      '',
      `--${alt}--`,
      '',
      `--${outer}`,
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns;DM6PR01MB1234.prod.exchangelabs.com',
      'Received-From-MTA: dns;mail.sender.test',
      'Arrival-Date: Mon, 23 Nov 2026 10:01:10 +0000',
      '',
      'Original-Recipient: rfc822;ceo@contoso.test',
      'Final-Recipient: rfc822;ceo@contoso.test',
      'Action: failed',
      'Status: 5.1.10',
      'Diagnostic-Code: smtp;550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
      '',
      `--${outer}`,
      'Content-Type: message/rfc822',
      '',
      ...ORIGINAL_HEADERS.map((h) => (h === 'To: nobody@lead.test' ? 'To: ceo@contoso.test' : h)),
      '',
      'Hi,',
      '',
      'I am out of office next week, so a quick question before then: are you the right person?',
      '',
      'Bob',
      '',
      `--${outer}--`,
    ],
  );
}

// ---------------------------------------------------------------------------------------
// Bounces
// ---------------------------------------------------------------------------------------

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

/** An Exchange out-of-office reply to the campaign "Cutting delivery failure rates" (RFC 3834: null Return-Path, Auto-Submitted). */
function outOfOfficeToDeliveryCampaign(options: { from?: string; subject?: string; headers?: string[]; body?: string[] } = {}): Buffer {
  return rfc822(
    [
      'Return-Path: <>',
      `From: ${options.from ?? 'Ada Lovelace <ada@lead.test>'}`,
      'To: Bob Sender <bob@sender.test>',
      `Subject: ${options.subject ?? 'Automatic reply: Cutting delivery failure rates…'}`,
      'Date: Mon, 23 Nov 2026 10:00:05 +0000',
      'Message-ID: <DM6PR01MB5678ABCD@DM6PR01MB5678.namprd01.prod.outlook.com>',
      `In-Reply-To: <${ORIGINAL_ID}>`,
      ...(options.headers ?? ['Auto-Submitted: auto-replied', 'X-Auto-Response-Suppress: All']),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
    ],
    options.body ?? ['Hello,', '', 'I am out of the office until Monday 30 November with limited access to email.', '', 'Ada'],
  );
}

describe('classifyIncoming — an automatic reply to a campaign whose subject reads like a bounce', () => {
  it('an out-of-office reply with Return-Path <> and Auto-Submitted to "Cutting delivery failure rates" is out_of_office, not a bounce', async () => {
    await expect(classify(outOfOfficeToDeliveryCampaign())).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_text' });
  });

  it('without an away notice it is an automatic_reply, still not a bounce', async () => {
    const raw = outOfOfficeToDeliveryCampaign({ body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'auto_submitted' });
  });

  it('a null Return-Path alone does not make a message from a person a bounce', async () => {
    const raw = outOfOfficeToDeliveryCampaign({ subject: 'Cutting delivery failure rates', headers: [], body: ['Can we talk about this on Tuesday?'] });
    await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
  });

  it.each([
    ['Automatic reply: Cutting delivery failure rates', [], { kind: 'automatic_reply', reason: 'auto_reply_subject' }],
    ['Autosvar: Cutting delivery failure rates', [], { kind: 'automatic_reply', reason: 'auto_reply_subject' }],
    ['Abwesenheitsnotiz: Cutting delivery failure rates', [], { kind: 'out_of_office', reason: 'out_of_office_subject' }],
    ['Re: Cutting delivery failure rates', [], { kind: 'reply' }],
    ['Cutting delivery failure rates', ['Auto-Submitted: auto-replied'], { kind: 'automatic_reply', reason: 'auto_submitted' }],
    ['Cutting delivery failure rates', ['X-Autoreply: yes'], { kind: 'automatic_reply', reason: 'x_autoreply' }],
    ['Cutting delivery failure rates', ['X-Autorespond: yes'], { kind: 'automatic_reply', reason: 'x_autorespond' }],
  ] as const)('even from postmaster@, "%s" with %j is not a classic bounce', async (subject, headers, expected) => {
    const raw = outOfOfficeToDeliveryCampaign({ from: 'Postmaster <postmaster@lead.test>', subject, headers: [...headers], body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual(expected);
  });

  it('a delivery status notification about that campaign stays a bounce, auto-reply headers and all', async () => {
    const raw = postfixDsn({ subject: 'Undelivered Mail Returned to Sender: Cutting delivery failure rates', extraHeaders: ['X-Autoreply: yes'] });
    await expect(classify(raw)).resolves.toMatchObject({ kind: 'bounce', status: '5.1.1', failedRecipient: 'nobody@lead.test', originalMessageId: ORIGINAL_ID });
  });
});

// ---------------------------------------------------------------------------------------
// Automatic replies
// ---------------------------------------------------------------------------------------

const NEUTRAL_BODY = ['Thank you for your message.', '', 'It has been received and will be handled by the right person.'];

describe('classifyIncoming — auto-reply headers', () => {
  it.each([
    ['Auto-Submitted: auto-replied', 'auto_submitted'],
    ['Auto-Submitted: auto-generated', 'auto_submitted'],
    ['Auto-Submitted: auto-replied; owner-email="ada@lead.test"', 'auto_submitted'],
    ['X-Autoreply: yes', 'x_autoreply'],
    ['X-Autorespond: Thank you for your e-mail', 'x_autorespond'],
    ['X-Autoresponder: 1', 'x_autoresponder'],
    ['Precedence: auto_reply', 'precedence'],
    ['Precedence: bulk', 'precedence'],
    ['Precedence: junk', 'precedence'],
  ])('%s → automatic_reply (%s)', async (header, reason) => {
    const raw = leadMessage({ subject: 'Re: Quick question', headers: [header], body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason });
  });

  it.each([['Auto-Submitted: no'], ['Auto-Submitted: No (sent by a person)'], ['X-Autoreply: no'], ['X-Autorespond: false'], ['Precedence: list'], ['X-Auto-Response-Suppress: All']])(
    '%s → a reply',
    async (header) => {
      const raw = leadMessage({ subject: 'Re: Quick question', headers: [header], body: ['Sounds interesting, send me more.'] });
      await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
    },
  );

  it('header names are case-insensitive', async () => {
    const raw = leadMessage({ subject: 'Re: Quick question', headers: ['AUTO-SUBMITTED: Auto-Replied'], body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'auto_submitted' });
  });

  it('an automatic message saying the person is away in its first lines is out_of_office', async () => {
    const raw = leadMessage({
      subject: 'Re: Quick question',
      headers: ['Auto-Submitted: auto-replied'],
      body: ['Hello,', '', 'I am currently out of the office with limited access to email, back on 30 November.', '', 'Ada'],
    });
    await expect(classify(raw)).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_text' });
  });
});

describe('classifyIncoming — out-of-office and auto-reply subjects', () => {
  it.each([
    ['en', 'Out of Office: Quick question'],
    ['en', 'Out of office - back on Monday'],
    ['en', '[Out of Office] Quick question'],
    ['en', 'OOO: Quick question'],
    ['en', 'Ada Lovelace is out of the office.'],
    ['en', 'Vacation: Quick question'],
    ['de', 'Abwesenheitsnotiz: Quick question'],
    ['de', 'Abwesend: Quick question'],
    ['de', 'Ada Lovelace ist derzeit nicht im Büro'],
    ['fr', 'Absence du bureau : Quick question'],
    ['fr', 'Absent du bureau'],
    ['fr', 'Ada Lovelace est absente'],
    ['es', 'Fuera de la oficina: Quick question'],
    ['es', 'De vacaciones: Quick question'],
    ['it', 'Fuori ufficio: Quick question'],
    ['it', 'In ferie: Quick question'],
    ['nl', 'Afwezig: Quick question'],
    ['nl', 'Niet op kantoor: Quick question'],
    ['pt', 'Fora do escritório: Quick question'],
    ['pt', 'De férias: Quick question'],
    ['sv', 'Frånvarande: Quick question'],
    ['da/no', 'Fraværende: Quick question'],
    ['pl', 'Poza biurem: Quick question'],
  ])('%s "%s" → out_of_office, even without automation headers', async (_lang, subject) => {
    const raw = leadMessage({ subject, body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_subject' });
  });

  it('an encoded out-of-office subject is recognised after decoding', async () => {
    const raw = leadMessage({ subject: '=?UTF-8?Q?Fora_do_escrit=C3=B3rio:_Quick_question?=', body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_subject' });
  });

  it.each([
    ['en', 'Automatic reply: Quick question', 'I am out of the office until Monday 30 November.'],
    ['de', 'Automatische Antwort: Quick question', 'Ich bin bis zum 30. November nicht im Büro.'],
    ['fr', 'Réponse automatique : Quick question', 'Je suis absent du bureau jusqu’au 30 novembre.'],
    ['es', 'Respuesta automática: Quick question', 'Estoy fuera de la oficina hasta el 30 de noviembre.'],
    ['it', 'Risposta automatica: Quick question', 'Sono fuori ufficio fino al 30 novembre.'],
    ['nl', 'Automatisch antwoord: Quick question', 'Ik ben afwezig tot 30 november.'],
    ['pt', 'Resposta automática: Quick question', 'Estou de férias até 30 de novembro.'],
    ['sv', 'Automatiskt svar: Quick question', 'Jag är på semester till 30 november.'],
    ['da', 'Automatisk svar: Quick question', 'Jeg er fraværende indtil 30. november.'],
    ['pl', 'Odpowiedź automatyczna: Quick question', 'Jestem na urlopie do 30 listopada.'],
  ])('%s "%s" with an away notice in the text → out_of_office', async (_lang, subject, line) => {
    const raw = leadMessage({ subject, body: ['Hello,', '', line, '', 'Kind regards,', 'Ada'] });
    await expect(classify(raw)).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_text' });
  });

  it.each([
    'Automatic reply: Quick question',
    'Auto-Reply: Quick question',
    '[Auto-Reply] Quick question',
    'Autoreply: Quick question',
    'Automatische Antwort: Quick question',
    'Réponse automatique : Quick question',
    'Respuesta automática: Quick question',
    'Risposta automatica: Quick question',
    'Automatisch antwoord: Quick question',
    'Resposta automática: Quick question',
  ])('"%s" without an away notice → automatic_reply (auto_reply_subject)', async (subject) => {
    const raw = leadMessage({ subject, body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'auto_reply_subject' });
  });

  it('Exchange "Automatic reply:" with an out-of-office body → out_of_office', async () => {
    const b = '_000_DM6PR01MB1234_';
    const raw = rfc822(
      [
        'From: Ada Lovelace <ada@lead.test>',
        'To: Bob Sender <bob@sender.test>',
        'Subject: Automatic reply: Quick question',
        'Thread-Topic: Quick question',
        'Date: Mon, 23 Nov 2026 10:00:05 +0000',
        'Message-ID: <DM6PR01MB1234ABCD@DM6PR01MB1234.namprd01.prod.outlook.com>',
        `In-Reply-To: <${ORIGINAL_ID}>`,
        'Auto-Submitted: auto-generated',
        'X-MS-Exchange-Inbox-Rules-Loop: ada@lead.test',
        'X-Auto-Response-Suppress: All',
        'MIME-Version: 1.0',
        `Content-Type: multipart/alternative; boundary="${b}"`,
      ],
      [
        `--${b}`,
        'Content-Type: text/plain; charset="us-ascii"',
        '',
        'Thank you for your email. I am on annual leave until 30 November with no access to email.',
        'For urgent matters please contact carol@lead.test.',
        '',
        `--${b}`,
        'Content-Type: text/html; charset="us-ascii"',
        '',
        '<html><body><p>Thank you for your email. I am on annual leave until 30 November with no access to email.</p></body></html>',
        `--${b}--`,
      ],
    );
    await expect(classify(raw)).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_text' });
  });

  it('a ticket-system acknowledgement is an automatic_reply, not out_of_office', async () => {
    const raw = leadMessage({
      from: 'Lead Support <support@lead.test>',
      subject: '[Ticket #48213] We received your request: Quick question',
      headers: ['Auto-Submitted: auto-replied', 'X-Mailer: Zendesk Mailer'],
      body: [
        '##- Please type your reply above this line -##',
        '',
        'Thank you for contacting Lead Support. Your request (#48213) has been received',
        'and is being reviewed by our team. We will get back to you within 24 hours.',
      ],
    });
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'auto_submitted' });
  });

  it('away wording in the quoted part of an automatic message does not make it out_of_office', async () => {
    const raw = leadMessage({
      subject: 'Re: Quick question',
      headers: ['Auto-Submitted: auto-replied'],
      body: [
        'Your message has been received. A member of our team will respond shortly.',
        '',
        'On Mon, 23 Nov 2026 at 09:59, Bob Sender <bob@sender.test> wrote:',
        '> Hi, I will be out of office next week, so a quick question before then.',
      ],
    });
    await expect(classify(raw)).resolves.toEqual({ kind: 'automatic_reply', reason: 'auto_submitted' });
  });

  it('the phrase lists cover the languages the tests above use', () => {
    for (const phrase of ['automatic reply', 'automatische antwort', 'réponse automatique', 'respuesta automática', 'risposta automatica', 'automatisch antwoord', 'resposta automática']) {
      expect(AUTO_REPLY_SUBJECT_PHRASES).toContain(phrase);
    }
    for (const phrase of ['out of office', 'abwesenheitsnotiz', 'absence du bureau', 'fuera de la oficina', 'fuori ufficio', 'afwezig', 'fora do escritório', 'frånvarande', 'fraværende', 'poza biurem']) {
      expect(OUT_OF_OFFICE_SUBJECT_PHRASES).toContain(phrase);
    }
  });
});

describe('classifyIncoming — replies', () => {
  it('a human "Re:" reply quoting an original that mentions "out of office" is a reply', async () => {
    const raw = leadMessage({
      subject: 'Re: Quick question',
      body: [
        'Hi Bob,',
        '',
        "Yes, let's talk on Tuesday at 3pm.",
        '',
        'Ada',
        '',
        'On Mon, 23 Nov 2026 at 09:59, Bob Sender <bob@sender.test> wrote:',
        '> Hi Ada,',
        '> I will be out of office next week, so a quick question before then:',
        '> are you the right person to talk to about automatic replies?',
      ],
    });
    await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
  });

  it('a person saying they are away, in a plain reply without automation headers, wrote a reply', async () => {
    const raw = leadMessage({ subject: 'RE: Quick question', body: ["I'm out of office this week, but let's talk on the 16th."] });
    await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
  });

  it('a reply with an HTML body only is a reply', async () => {
    const raw = rfc822(
      ['From: Ada <ada@lead.test>', 'To: bob@sender.test', 'Subject: Re: Quick question', 'Content-Type: text/html; charset=utf-8'],
      ['<div>Sure, call me.</div><blockquote>Out of office? No, just asking.</blockquote>'],
    );
    await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
  });

  it.each([
    'Re: When your CFO is out of the office',
    'RE: Ada is currently out of the office? Not with our app',
    'AW: Warum Ihr Vertrieb ist nicht im Büro erreichbar',
    'Re: Votre nom est absent de notre annuaire',
    'SV: Your team is out of office too often',
  ])('a human reply to a campaign whose subject has away wording ("%s") is a reply', async (subject) => {
    const raw = leadMessage({ subject, body: ['Interesting, tell me more.'] });
    await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
  });

  it('away wording after "Re:" still makes a message with automation headers out_of_office', async () => {
    const raw = leadMessage({ subject: 'Re: Quick question [Out of Office]', headers: ['Auto-Submitted: auto-replied'], body: NEUTRAL_BODY });
    await expect(classify(raw)).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_subject' });
  });

  it.each(['Re[2]: [Auto-Reply] tips for your inbox', 'Fwd: [Vacation] rentals for your team', 'RE: (OOO) is costing you deals'])(
    'bracketed auto-reply wording after a reply prefix ("%s") is a reply',
    async (subject) => {
      const raw = leadMessage({ subject, body: ['Tell me more.'] });
      await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
    },
  );

  it.each(['Auto-renewal question', 'Absent-minded question about your pricing', 'Away-day venues', 'Re: Automatic reply: Quick question'])(
    'a subject only starting with a hyphenated word ("%s") is a reply',
    async (subject) => {
      const raw = leadMessage({ subject, body: ['Can you tell me more?'] });
      await expect(classify(raw)).resolves.toEqual({ kind: 'reply' });
    },
  );
});

// ---------------------------------------------------------------------------------------
// Pathological input: each test must simply finish (an expression that backtracks
// quadratically over these inputs takes minutes to hours)
// ---------------------------------------------------------------------------------------

const MB = 1024 * 1024;

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

  it('an out-of-office reply with 2 MB of "@" lines after its notice is out_of_office', async () => {
    const raw = leadMessage({
      subject: 'Automatic reply: Quick question',
      headers: ['Auto-Submitted: auto-replied'],
      body: ['I am out of the office until Monday 30 November.', '', ...Array.from({ length: 5000 }, () => '@'.repeat(400))],
    });
    await expect(classify(raw)).resolves.toEqual({ kind: 'out_of_office', reason: 'out_of_office_text' });
  });

  it('header values of 1 MB (subject, Content-Type, auto-reply headers, delivery status) are classified as usual', async () => {
    const base = await parsed(leadMessage({ subject: 'Re: Quick question', body: ['Sounds good.'] }));
    const spaces = ' '.repeat(MB);
    const cases: [Partial<ParsedIncoming>, Classification][] = [
      [{ subject: `Re${spaces}x` }, { kind: 'reply' }],
      [{ subject: `${spaces}x` }, { kind: 'reply' }],
      [{ subject: `[${spaces}Auto-Reply${spaces}x` }, { kind: 'reply' }],
      [{ subject: `Out${spaces}of${spaces}office${spaces}x` }, { kind: 'reply' }],
      [{ subject: `Automatic reply: ${'out of '.repeat(MB / 7)}`, headers: { ...base.headers, 'auto-submitted': `auto-replied${spaces}` } }, { kind: 'automatic_reply', reason: 'auto_submitted' }],
      [{ contentType: `text/plain; ${'a'.repeat(MB)}` }, { kind: 'reply' }],
      [{ contentType: `multipart/report; report-type=delivery-status; ${'a'.repeat(MB)}`, deliveryStatus: `Action:${spaces}x\u2028y` }, { kind: 'automatic_reply', reason: 'delivery_report' }],
      [
        {
          from: [{ address: 'mailer-daemon@mx.sender.test', name: '' }],
          subject: 'Undelivered Mail Returned to Sender',
          text: 'Your message could not be delivered.',
          headers: { ...base.headers, 'x-failed-recipients': `nobody@lead.test${spaces}` },
          returnedHeaders: `Message-ID:${spaces}<${ORIGINAL_ID}>\u2028${'x'.repeat(MB)}`,
        },
        { kind: 'bounce', diagnostic: 'Your message could not be delivered.', status: null, failedRecipient: 'nobody@lead.test', originalMessageId: null },
      ],
    ];
    for (const [overrides, expected] of cases) expect(classifyIncoming({ ...base, ...overrides })).toEqual(expected);
  });

  it('a DSN with a 1 MB Diagnostic-Code is a bounce', async () => {
    const raw = postfixDsn({ diagnostic: [`Diagnostic-Code: smtp;${' '.repeat(MB)}550 5.1.1 x\u2028y`] });
    await expect(classify(raw)).resolves.toMatchObject({ kind: 'bounce', status: '5.1.1', failedRecipient: 'nobody@lead.test', originalMessageId: ORIGINAL_ID });
  });

  it('parseFields reads a field with 1 MB of spaces before a value that is not on one line', () => {
    expect(parseFields(`Action:${' '.repeat(MB)}failed\u2028now\nStatus: 5.1.1`)).toEqual({ action: 'failed now', status: '5.1.1' });
  });

  it('stripQuotedReply keeps 10 MB of 400-character "@" lines as they are', () => {
    const text = `${'@'.repeat(400)}\n`.repeat(Math.ceil((10 * MB) / 401));
    expect(stripQuotedReply(text)).toBe(text.trim());
  });

  it('stripQuotedReply cuts a reply above 10 MB of quote, and returns a huge text without a quote near its start whole', () => {
    const quote = `> ${'quoted '.repeat(57)}\n`.repeat(25_000);
    expect(stripQuotedReply(`Thanks!\n\nOn Mon, 23 Nov 2026, Bob <bob@sender.test> wrote:\n${quote}`)).toBe('Thanks!');
    const own = `${'words '.repeat(66)}\n`.repeat(25_000);
    expect(stripQuotedReply(`${own}\nOn Mon, 23 Nov 2026, Bob <bob@sender.test> wrote:\n> hi`)).toBe(`${own}\nOn Mon, 23 Nov 2026, Bob <bob@sender.test> wrote:\n> hi`.trim());
  });

  it.each([
    ['lines of spaces (Outlook labels)', `${' '.repeat(MB)}x`, 'x'],
    ['"From" and spaces (Outlook labels)', `From${' '.repeat(MB)}x`, `From${' '.repeat(MB)}x`],
    ['"@" lines ending in "wrote" words', `${`a@${'wrote '.repeat(66)}x\n`.repeat(5000)}`, `${`a@${'wrote '.repeat(66)}x\n`.repeat(5000)}`.trim()],
    ['"Am … schrieb" lines', `${`Am 1 ${'schrieb '.repeat(49)}\n`.repeat(5000)}`, `${`Am 1 ${'schrieb '.repeat(49)}\n`.repeat(5000)}`.trim()],
    ['"On … wrote" lines with trailing spaces', `${`On 1 wrote${' '.repeat(380)}x\n`.repeat(5000)}`, `${`On 1 wrote${' '.repeat(380)}x\n`.repeat(5000)}`.trim()],
  ])('stripQuotedReply over %s finishes with the text as it is', (_name, text, expected) => {
    expect(stripQuotedReply(text)).toBe(expected);
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
// matchesReplyContent
// ---------------------------------------------------------------------------------------

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

  it('works on the text of a parsed reply', async () => {
    const message = await parsed(leadMessage({ subject: 'Re: Quick question', body: ['Yes, we are', 'interested. Book a call?'] }));
    expect(matchesReplyContent({ text: message.text, include: ['we are interested'], exclude: ['not interested'] })).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------
// stripQuotedReply
// ---------------------------------------------------------------------------------------

/** The text of a plain-text reply, read back from raw bytes. */
async function replyText(body: string[]): Promise<string> {
  return (await parsed(leadMessage({ subject: 'Re: Quick question', body }))).text;
}

const SIGNATURE = ['--', 'Ada Lovelace | Head of Engineering', 'Analytical Engines Ltd.', '+44 20 7946 0000 | ada@lead.test'];
const OWN_TEXT = ['Hi Bob,', '', "Tuesday at 3pm works. I'll bring Carol.", '', 'Best,', 'Ada', ...SIGNATURE];
const QUOTE = ['> Hi Ada,', '>', '> would you have 15 minutes next week?', '>', '> Bob'];

describe('stripQuotedReply', () => {
  it('cuts at a Gmail attribution, keeping the reply and its whole signature', async () => {
    const text = await replyText([...OWN_TEXT, '', 'On Mon, 23 Nov 2026 at 10:00, Alice <a@x.test> wrote:', '', ...QUOTE]);
    expect(stripQuotedReply(text)).toBe(OWN_TEXT.join('\n'));
  });

  it('cuts at a Gmail attribution wrapped onto two lines', async () => {
    const text = await replyText([...OWN_TEXT, '', 'On Mon, 23 Nov 2026 at 10:00, Alice Example via Lead <', 'alice@x.test> wrote:', '', ...QUOTE]);
    expect(stripQuotedReply(text)).toBe(OWN_TEXT.join('\n'));
    const text2 = await replyText(['Sounds good.', '', 'On Mon, Nov 23, 2026 at 10:00 AM Alice Example <alice@x.test>', 'wrote:', '', ...QUOTE]);
    expect(stripQuotedReply(text2)).toBe('Sounds good.');
  });

  it('keeps a short reply right above an attribution', async () => {
    expect(stripQuotedReply(await replyText(['Thanks!', 'On Mon, 23 Nov 2026 at 10:00, Alice <a@x.test> wrote:', ...QUOTE]))).toBe('Thanks!');
    expect(stripQuotedReply(await replyText(['Yes.', '', 'Alice Example <alice@x.test> wrote:', ...QUOTE]))).toBe('Yes.');
  });

  it('cuts at a German "Am … schrieb …:" attribution', async () => {
    const own = ['Hallo Bob,', '', 'Dienstag passt gut.', '', 'Viele Grüße', 'Ada', ...SIGNATURE];
    const text = await replyText([...own, '', 'Am Mo., 23. Nov. 2026 um 10:00 Uhr schrieb Alice Example <alice@x.test>:', '', ...QUOTE]);
    expect(stripQuotedReply(text)).toBe(own.join('\n'));
  });

  it('cuts at a French "Le … a écrit :" attribution', async () => {
    const own = ['Bonjour Bob,', '', 'Merci, mardi me convient.', '', 'Cordialement,', 'Ada', ...SIGNATURE];
    const text = await replyText([...own, '', 'Le lun. 23 nov. 2026 à 10:00, Alice Example <alice@x.test> a écrit :', '', ...QUOTE]);
    expect(stripQuotedReply(text)).toBe(own.join('\n'));
    expect(stripQuotedReply(await replyText(['Merci !', '', 'Le lun. 23 nov. 2026 à 10:00, Alice <alice@x.test> a écrit :', ...QUOTE]))).toBe('Merci !');
  });

  it('cuts at other languages attributions (es, it, nl, pt, sv, no, pl)', () => {
    expect(stripQuotedReply('Gracias.\n\nEl lun, 23 nov 2026 a las 10:00, Alice (<alice@x.test>) escribió:\n> Hola')).toBe('Gracias.');
    expect(stripQuotedReply('Grazie.\n\nIl giorno lun 23 nov 2026 alle ore 10:00 Alice <alice@x.test> ha scritto:\n> Ciao')).toBe('Grazie.');
    expect(stripQuotedReply('Bedankt.\n\nOp ma 23 nov. 2026 om 10:00 schreef Alice <alice@x.test>:\n> Hallo')).toBe('Bedankt.');
    expect(stripQuotedReply('Obrigado.\n\nEm seg., 23 de nov. de 2026 às 10:00, Alice <alice@x.test> escreveu:\n> Olá')).toBe('Obrigado.');
    expect(stripQuotedReply('Tack.\n\nDen mån 23 nov. 2026 kl 10:00 skrev Alice <alice@x.test>:\n> Hej')).toBe('Tack.');
    expect(stripQuotedReply('Takk.\n\nPå man. 23. nov. 2026 kl. 10:00 skrev Alice <alice@x.test>:\n> Hei')).toBe('Takk.');
    expect(stripQuotedReply('Dzięki.\n\nW dniu 23.11.2026 o 10:00, Alice <alice@x.test> pisze:\n> Cześć')).toBe('Dzięki.');
  });

  it('cuts at an Outlook "From: … Sent: …" block and the rule above it', async () => {
    const text = await replyText([
      ...OWN_TEXT,
      '',
      '________________________________',
      'From: Bob Sender <bob@sender.test>',
      'Sent: Monday, November 23, 2026 10:00 AM',
      'To: Ada Lovelace <ada@lead.test>',
      'Subject: Quick question',
      '',
      'Hi Ada, would you have 15 minutes next week?',
    ]);
    expect(stripQuotedReply(text)).toBe(OWN_TEXT.join('\n'));
  });

  it('cuts at a localised Outlook block (de "Von: … Gesendet: …", fr "De : … Envoyé : …")', () => {
    expect(stripQuotedReply('Passt.\n\nVon: Bob Sender <bob@sender.test>\nGesendet: Montag, 23. November 2026 10:00\nAn: Ada\nBetreff: Frage\n\nHallo')).toBe('Passt.');
    expect(stripQuotedReply("D'accord.\n\nDe : Bob Sender <bob@sender.test>\nEnvoyé : lundi 23 novembre 2026 10:00\nÀ : Ada\nObjet : Question\n\nBonjour")).toBe("D'accord.");
  });

  it('cuts at "-----Original Message-----"', async () => {
    const text = await replyText([...OWN_TEXT, '', '-----Original Message-----', 'From: Bob Sender', 'Sent: Monday, November 23, 2026 10:00 AM', '', 'Hi Ada']);
    expect(stripQuotedReply(text)).toBe(OWN_TEXT.join('\n'));
    expect(stripQuotedReply('Ok.\n\n-----Ursprüngliche Nachricht-----\nVon: Bob')).toBe('Ok.');
  });

  it('cuts at the first "> " quoted line', async () => {
    const text = await replyText([...OWN_TEXT, '', ...QUOTE]);
    expect(stripQuotedReply(text)).toBe(OWN_TEXT.join('\n'));
  });

  it('keeps a reply written below the quote, without the quoted lines and the attribution', async () => {
    const text = await replyText(['On Mon, 23 Nov 2026 at 10:00, Bob <bob@sender.test> wrote:', ...QUOTE, '', 'Yes, Tuesday works.', '', 'Ada']);
    expect(stripQuotedReply(text)).toBe('Yes, Tuesday works.\n\nAda');
  });

  it('leaves a reply without quoted history as it is (trimmed), lines starting with "On" included', async () => {
    const own = ['On Tuesday I can do 3pm.', 'On our side, John wrote the spec already.', '', 'From my point of view this is fine.', '', 'Ada'];
    expect(stripQuotedReply(await replyText(own))).toBe(own.join('\n'));
    expect(stripQuotedReply('  \n\nJust this.\n\n')).toBe('Just this.');
    expect(stripQuotedReply('')).toBe('');
  });

  it('handles CRLF text', () => {
    expect(stripQuotedReply('Thanks!\r\n\r\nOn Mon, 23 Nov 2026, Bob <bob@sender.test> wrote:\r\n> hi')).toBe('Thanks!');
  });
});
