import { describe, expect, it } from 'vitest';
import MailComposer from 'nodemailer/lib/mail-composer';
import MimeNode from 'nodemailer/lib/mime-node';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { buildRawMessage } from './mail-mime.rules';
import { nodemailerMessage, type OutgoingMessage } from './mail-sender';

const DATE = new Date('2026-03-02T06:00:00.000Z');
const BOUNDARY = '--_Outreach-0123456789abcdef-Part_1';

/** The message as nodemailer composes it (the reference). */
async function composed(message: OutgoingMessage): Promise<{ raw: Buffer; envelope: { from: string | false; to: string[] } }> {
  const node = new MailComposer({ ...nodemailerMessage(message), date: DATE }).compile();
  const raw = await new Promise<Buffer>((resolve, reject) => node.build((error, data) => (error ? reject(error) : resolve(data))));
  const envelope = node.getEnvelope();
  return { raw, envelope: { from: envelope.from, to: envelope.to } };
}

/** What a reader (mailparser, as replies are read) gets out of a message. */
function reading(mail: ParsedMail) {
  const addresses = (a: AddressObject | AddressObject[] | undefined) => [a ?? []].flat().flatMap((o) => o.value.map((v) => ({ name: v.name, address: v.address })));
  return {
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: addresses(mail.replyTo),
    subject: mail.subject,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo,
    references: mail.references,
    date: mail.date?.toISOString(),
    listUnsubscribe: mail.headers.get('list-unsubscribe'),
    listUnsubscribePost: mail.headers.get('list-unsubscribe-post'),
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments.length,
  };
}

/** The envelope nodemailer makes of ours (it parses and punycodes the addresses). */
function envelopeOf(envelope: { from: string; to: string[] }) {
  const node = new MimeNode('message/rfc822');
  node.setEnvelope(envelope);
  const e = node.getEnvelope();
  return { from: e.from, to: e.to };
}

const base: OutgoingMessage = {
  from: { name: 'Ada Sender', address: 'ada@sender.example.com' },
  to: 'lead@recipient.example.com',
  subject: 'Question about Acme',
  html: '<p>Hi Lead,</p><p>Would Thursday work?</p>',
  text: 'Hi Lead,\n\nWould Thursday work?',
  messageId: 'abc123.1@sender.example.com',
  headers: { 'List-Unsubscribe': '<https://outreach.test/t/u/abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
};

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'Hi', 'there', 'Acme', 'Müller', 'Łódź', 'Привет', '你好', '🙂', 'naïve café', '"quoted"', 'a,b', '<tag>', '=3D', '.', '..', '\n', '\n.\n', '\r\n', '  ', '\t',
  'line\nbreak', 'x'.repeat(90), 'https://example.com/a-very-long-path/' + 'p'.repeat(70), ' trailing ', '=?utf-8?Q?x?=', '\\', ';', ':', '--',
];

function text(next: () => number, words: number): string {
  let out = '';
  for (let i = 0; i < words; i++) out += (i && next() < 0.7 ? ' ' : '') + PIECES[Math.floor(next() * PIECES.length)]!;
  return out;
}

describe('buildRawMessage', () => {
  it('builds the message a reader reads as it reads nodemailer\'s, with the same envelope', async () => {
    const message: OutgoingMessage = { ...base, cc: ['Cee <cc@example.com>'], bcc: ['hidden@example.com'], replyTo: 'replies@sender.example.com', inReplyTo: '<prev@x.example.com>', references: '<first@x.example.com> <prev@x.example.com>' };
    const ours = buildRawMessage(message, { date: DATE, boundary: BOUNDARY })!;
    const theirs = await composed(message);
    expect(reading(await simpleParser(ours.raw))).toEqual(reading(await simpleParser(theirs.raw)));
    expect(envelopeOf(ours.envelope)).toEqual(theirs.envelope);
    expect(envelopeOf(ours.envelope).to).toEqual(['lead@recipient.example.com', 'cc@example.com', 'hidden@example.com']);
    // A Bcc recipient is in the envelope only.
    expect(ours.raw).not.toContain('hidden@example.com');
    expect(ours.raw).toMatch(/\r\nDate: Mon, 02 Mar 2026 06:00:00 \+0000\r\n/);
  });

  it('keeps every header line and encoded body line within 76 characters, and ends the message with a line break', () => {
    const message: OutgoingMessage = { ...base, subject: `Über ${'long words '.repeat(20)}`, text: `${'word '.repeat(60)}\n${'ü'.repeat(200)}`, html: `<p>${'x'.repeat(500)}</p>` };
    const raw = buildRawMessage(message, { date: DATE, boundary: BOUNDARY })!.raw;
    expect(raw.endsWith('\r\n')).toBe(true);
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
  });

  it('cannot be made to write another header through a line break in the subject, a name or a custom header', async () => {
    const message: OutgoingMessage = {
      ...base,
      from: { name: 'Ada\r\nBcc: victim@example.com', address: 'ada@sender.example.com' },
      subject: 'Hello\r\nBcc: victim@example.com\r\n\r\nbody',
      headers: { 'List-Unsubscribe': '<https://x.example.com>\r\nX-Injected: yes' },
    };
    const raw = buildRawMessage(message, { date: DATE, boundary: BOUNDARY })!.raw;
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(head).not.toMatch(/^(Bcc|X-Injected):/im);
    const mail = await simpleParser(raw);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(mail.text).toBe('Hi Lead,\n\nWould Thursday work?');
  });

  it('sends a plain-text e-mail as a single text part', async () => {
    const message: OutgoingMessage = { ...base, html: null, text: 'Hi Lead,\n\nPlain only.' };
    const raw = buildRawMessage(message, { date: DATE, boundary: BOUNDARY })!.raw;
    expect(raw).not.toContain('multipart');
    expect(raw).toContain('Content-Type: text/plain; charset=utf-8\r\n');
    const mail = await simpleParser(raw);
    expect(mail.text?.trimEnd()).toBe('Hi Lead,\n\nPlain only.');
    expect(mail.html).toBe(false);
    expect(reading(mail)).toEqual(reading(await simpleParser((await composed(message)).raw)));
  });

  it('leaves to nodemailer a message of another shape: attachments, an empty part, a custom header it would clean or override', () => {
    const build = (m: OutgoingMessage) => buildRawMessage(m, { date: DATE, boundary: BOUNDARY });
    expect(build({ ...base, attachments: [{ filename: 'a.txt', content: Buffer.from('a') }] })).toBeNull();
    expect(build({ ...base, text: '' })).toBeNull();
    expect(build({ ...base, html: '' })).toBeNull();
    expect(build({ ...base, headers: { 'X-Bad Name': 'v' } })).toBeNull();
    expect(build({ ...base, headers: { from: 'someone@else.example.com' } })).toBeNull();
    expect(build(base)).not.toBeNull();
  });

  it('reads as nodemailer\'s message on 400 random messages (non-ASCII, long lines, dots, quotes, line breaks, encoded-word look-alikes)', async () => {
    const next = random(17);
    for (let i = 0; i < 400; i++) {
      const message: OutgoingMessage = {
        from: { name: text(next, 1 + Math.floor(next() * 3)).replace(/[\r\n]/g, ' ').trim(), address: `sender${i}@sender.example.com` },
        to: next() < 0.2 ? `"${text(next, 2).replace(/["\\\r\n]/g, '')}" <lead${i}@recipient.example.com>` : `lead${i}@recipient.example.com`,
        ...(next() < 0.2 ? { cc: [`cc${i}@example.com`] } : {}),
        ...(next() < 0.2 ? { replyTo: `reply${i}@example.com` } : {}),
        subject: text(next, 1 + Math.floor(next() * 12)),
        html: next() < 0.15 ? null : `<p>${text(next, 5 + Math.floor(next() * 80))}</p>`,
        text: text(next, 5 + Math.floor(next() * 80)),
        messageId: `m${i}.${Math.floor(next() * 1e9)}@sender.example.com`,
        ...(next() < 0.3 ? { inReplyTo: `<p${i}@x.example.com>`, references: `<r${i}@x.example.com> <p${i}@x.example.com>` } : {}),
        headers: { 'List-Unsubscribe': `<https://outreach.test/t/u/${i}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      };
      const ours = buildRawMessage(message, { date: DATE, boundary: `--_Outreach-${i.toString(16).padStart(16, '0')}-Part_1` })!;
      const theirs = await composed(message);
      const [a, b] = [reading(await simpleParser(ours.raw)), reading(await simpleParser(theirs.raw))];
      expect(a, `message ${i}: ${JSON.stringify(message)}`).toEqual(b);
      expect(envelopeOf(ours.envelope)).toEqual(theirs.envelope);
    }
  });
});
