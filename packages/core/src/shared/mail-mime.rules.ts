/**
 * An outgoing e-mail as one RFC 5322 message, built in one pass with nodemailer's own encoders.
 *
 * nodemailer's MailComposer builds a message as a tree of streams (a MIME node per part, an
 * encoder stream per body, a pipeline per node): about 0.4 ms of CPU per campaign e-mail, more
 * than the SMTP conversation that sends it. A campaign e-mail is always one of two shapes, a
 * text part alone or text and HTML as alternatives, so it is built here directly: every header
 * value goes through nodemailer's MimeNode.encodeHeaderValue (addresses parsed and punycoded,
 * encoded words, line breaks and control characters removed, so the same protection against
 * header injection) and is folded as nodemailer folds it; each body is sent as nodemailer
 * would choose (7bit when it is plain ASCII in short lines, otherwise quoted-printable or
 * base64, whichever suits the text). A message of another shape (attachments, an empty part), a
 * custom header nodemailer would clean or override, gets null: nodemailer composes it.
 */
import MimeNode, { type MimeNodeHeaderValue } from 'nodemailer/lib/mime-node';
import { buildHeaderValue, foldLines, hasLongerLines, isPlainText } from 'nodemailer/lib/mime-funcs';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';
import { encode as base64Encode, wrap as base64Wrap } from 'nodemailer/lib/base64';
import type { OutgoingMessage } from './mail-sender';

/** What nodemailer's SMTP transport sends: the envelope (addresses as given: nodemailer parses and punycodes them) and the message. */
export interface RawMessage {
  envelope: { from: string; to: string[] };
  raw: string;
}

/** A header name as it can be written as it is (printable ASCII, no colon). */
const HEADER_NAME = /^[!-9;-~]+$/;
/** Headers the message writes itself: nodemailer lets them override a custom header of the same name. */
const OWN_HEADERS = new Set(['from', 'sender', 'to', 'cc', 'bcc', 'reply-to', 'in-reply-to', 'references', 'subject', 'message-id', 'date', 'mime-version', 'content-type', 'content-transfer-encoding']);
/** The longest line of a 7bit body, and of every encoded line and folded header. */
const LINE_LENGTH = 76;

/** One node to encode header values with (the method keeps no state between calls). */
let encoder: MimeNode | null = null;
function encodeHeader(key: string, value: MimeNodeHeaderValue): string {
  encoder ??= new MimeNode(false);
  return encoder.encodeHeaderValue(key, value);
}

/** `Key: value`, folded at 76 characters; nothing when the encoded value is blank (nodemailer skips those too). */
function header(lines: string[], key: string, value: MimeNodeHeaderValue): void {
  if (value === undefined || value === null || value === '') return;
  const encoded = encodeHeader(key, value);
  if (!encoded.trim()) return;
  lines.push(foldLines(`${key}: ${encoded}`, LINE_LENGTH));
}

/** Whether nodemailer would write a text as quoted-printable (more Latin letters than other characters) rather than base64: its MimeNode's `_getTextEncoding`, which it does not export. */
function prefersQuotedPrintable(text: string): boolean {
  let other = 0;
  let latin = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x08 || code === 0x0b || code === 0x0c || (code >= 0x0e && code <= 0x1f) || code >= 0x80) other++;
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin++;
  }
  return other < latin;
}

/** A text body part: its Content-Type, Content-Transfer-Encoding, and the body as encoded. */
function textPart(contentType: 'text/plain' | 'text/html', content: string): { headers: string[]; body: string } {
  const type = `Content-Type: ${contentType}; charset=utf-8`;
  if (isPlainText(content) && !hasLongerLines(content, LINE_LENGTH)) {
    return { headers: [type, 'Content-Transfer-Encoding: 7bit'], body: content };
  }
  if (prefersQuotedPrintable(content)) {
    return { headers: [type, 'Content-Transfer-Encoding: quoted-printable'], body: qpWrap(qpEncode(content), LINE_LENGTH) };
  }
  return { headers: [type, 'Content-Transfer-Encoding: base64'], body: base64Wrap(base64Encode(content), LINE_LENGTH) };
}

/**
 * The message, or null when nodemailer must compose it (attachments; an empty text or HTML; a
 * custom header name that is not plain printable ASCII or that names a header the message sets).
 * `boundary` separates the parts of a text + HTML message (random per message, so that it does
 * not occur in a body); `date` is its Date header.
 */
export function buildRawMessage(message: OutgoingMessage, options: { date: Date; boundary: string }): RawMessage | null {
  // nodemailer leaves out an empty part (an e-mail of HTML alone, or of an empty text): its shape then.
  if (message.attachments?.length || !message.text || message.html === '') return null;
  const extra = Object.entries(message.headers ?? {});
  if (extra.some(([key]) => !HEADER_NAME.test(key) || OWN_HEADERS.has(key.toLowerCase()))) return null;
  const lines: string[] = [];
  for (const [key, value] of extra) header(lines, key, value);
  header(lines, 'From', { name: message.from.name, address: message.from.address });
  header(lines, 'To', message.to);
  header(lines, 'Cc', message.cc?.length ? message.cc : null);
  header(lines, 'Reply-To', message.replyTo);
  header(lines, 'In-Reply-To', message.inReplyTo);
  header(lines, 'References', message.references);
  header(lines, 'Subject', message.subject);
  header(lines, 'Message-ID', `<${message.messageId}>`);
  lines.push(`Date: ${options.date.toUTCString().replace(/GMT/, '+0000')}`, 'MIME-Version: 1.0');
  let raw: string;
  if (message.html === null) {
    const part = textPart('text/plain', message.text);
    raw = `${lines.concat(part.headers.reverse()).join('\r\n')}\r\n\r\n${part.body}`;
  } else {
    const boundary = options.boundary;
    lines.push(foldLines(`Content-Type: ${buildHeaderValue({ value: 'multipart/alternative', params: { boundary } })}`, LINE_LENGTH));
    const text = textPart('text/plain', message.text);
    const html = textPart('text/html', message.html);
    raw =
      `${lines.join('\r\n')}\r\n\r\n` +
      `--${boundary}\r\n${text.headers.join('\r\n')}\r\n\r\n${text.body}\r\n` +
      `--${boundary}\r\n${html.headers.join('\r\n')}\r\n\r\n${html.body}\r\n` +
      `--${boundary}--`;
  }
  if (!raw.endsWith('\n')) raw += '\r\n';
  return { envelope: { from: message.from.address, to: [message.to, ...(message.cc ?? []), ...(message.bcc ?? [])] }, raw };
}
