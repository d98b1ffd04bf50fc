// Classification of incoming mail, end to end from raw RFC 5322 bytes (CRLF) through
// parseIncoming and classifyIncoming: automatic replies, out-of-office notices and replies, and how
// they weigh against bounces (bounce.rules.test.ts holds the bounces themselves).
import { describe, expect, it } from 'vitest';
import type { ParsedIncoming } from './parse-incoming';
import { AUTO_REPLY_SUBJECT_PHRASES, OUT_OF_OFFICE_SUBJECT_PHRASES } from './incoming-patterns.rules';
import { type Classification, classifyIncoming } from './incoming.rules';
import { classify, leadMessage, MB, NEUTRAL_BODY, ORIGINAL_ID, parsed, postfixDsn, rfc822 } from './incoming.test-helpers';
import { matchesReplyContent } from '../lead/index';

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

describe('pathological input', () => {
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
});

// Subsequence reply-content triggers (lead/reply-content.rules.ts) match the text of a reply as parsed here.
describe('matchesReplyContent on a parsed reply', () => {
  it('works on the text of a parsed reply', async () => {
    const message = await parsed(leadMessage({ subject: 'Re: Quick question', body: ['Yes, we are', 'interested. Book a call?'] }));
    expect(matchesReplyContent({ text: message.text, include: ['we are interested'], exclude: ['not interested'] })).toBe(true);
  });
});
