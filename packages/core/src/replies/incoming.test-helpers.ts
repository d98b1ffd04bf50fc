// Raw messages the tests of incoming mail classify: RFC 5322 bytes (CRLF) read back through
// parseIncoming, as the mailbox sync reads them.
import { parseIncoming, type ParsedIncoming } from './parse-incoming';
import { classifyIncoming, type Classification } from './incoming.rules';

export function rfc822(headers: string[], body: string[] = []): Buffer {
  return Buffer.from([...headers, '', ...body, ''].join('\r\n'), 'utf8');
}

export async function parsed(raw: Buffer): Promise<ParsedIncoming> {
  const result = await parseIncoming(raw);
  if (!result.ok) throw new Error(`expected a parsed message, got: ${result.error}`);
  return result.message;
}

export async function classify(raw: Buffer): Promise<Classification> {
  return classifyIncoming(await parsed(raw));
}

/** A plain-text message from a lead to the sender; `headers` are added after the standard ones. */
export function leadMessage(options: { subject: string; body: string[]; headers?: string[]; from?: string }): Buffer {
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

export const ORIGINAL_ID = 'step-1.campaign-7@sender.test';

/** The header section of our original send, as a returned copy carries it. */
export const ORIGINAL_HEADERS = [
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
export function postfixDsn(options: { action?: string; status?: string; diagnostic?: string[] | null; subject?: string; text?: string[]; extraHeaders?: string[] } = {}): Buffer {
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
export function exchangeNdr(): Buffer {
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

/** A plain automatic acknowledgement, with no away notice. */
export const NEUTRAL_BODY = ['Thank you for your message.', '', 'It has been received and will be handled by the right person.'];

export const MB = 1024 * 1024;
