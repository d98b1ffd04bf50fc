// stripQuotedReply: the new part of a reply, over texts read back from raw bytes.
import { describe, expect, it } from 'vitest';
import { stripQuotedReply } from './quoted-reply.rules';
import { leadMessage, MB, parsed } from './incoming.test-helpers';

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

// ---------------------------------------------------------------------------------------
// Pathological input: each test must simply finish (an expression that backtracks
// quadratically over these inputs takes minutes to hours)
// ---------------------------------------------------------------------------------------

describe('pathological input', () => {
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
