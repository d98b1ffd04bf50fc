/**
 * Turning a raw message read from a mailbox into the plain data the reply rules work on
 * (mailparser's simpleParser underneath). Never throws: a message that cannot be read
 * comes back as `{ ok: false, error }`, so the caller can keep it aside.
 */
import { simpleParser, type AddressObject, type Attachment, type ParsedMail, type SimpleParserOptions } from 'mailparser';
import { htmlToText } from '../shared/mail-html';
import { messageIdsOf } from '../shared/mail-threading';

export interface IncomingAddress {
  /** Lower-cased. */
  address: string;
  name: string;
}

export interface IncomingAttachment {
  fileName: string;
  contentType: string;
  size: number;
}

export interface ParsedIncoming {
  /** Without angle brackets. */
  messageId: string | null;
  /** The first id of In-Reply-To, without angle brackets. */
  inReplyTo: string | null;
  /** Without angle brackets, oldest first (as the header lists them). */
  references: string[];
  from: IncomingAddress[];
  to: IncomingAddress[];
  cc: IncomingAddress[];
  subject: string;
  /** The text part; derived from the HTML part when there is none. */
  text: string;
  html: string;
  /** The Date header; null when missing or unreadable. */
  date: Date | null;
  /** Lower-case names; values unfolded and RFC 2047-decoded; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The full Content-Type header value (parameters included); `text/plain` when missing (RFC 2045's default). */
  contentType: string;
  /** The message's attachments, without the parts of a delivery report (delivery status, returned message). */
  attachments: IncomingAttachment[];
  /** The raw text of a message/delivery-status part, if any. */
  deliveryStatus: string | null;
  /** The raw header section of a returned message/rfc822 or text/rfc822-headers part, if any. */
  returnedHeaders: string | null;
}

/** `value` storable in a PostgreSQL text column, which cannot hold U+0000: each NUL becomes U+FFFD. */
export function storableText(value: string): string {
  return value.includes('\u0000') ? value.replace(/\u0000/g, '\uFFFD') : value;
}

export type ParseIncomingResult = { ok: true; message: ParsedIncoming } | { ok: false; error: string };

const DELIVERY_STATUS_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);
const RETURNED_MESSAGE_TYPES = new Set(['message/rfc822', 'message/global']);
const RETURNED_HEADERS_TYPES = new Set(['text/rfc822-headers', 'message/global-headers']);

// ---------------------------------------------------------------------------------------
// Header decoding
// ---------------------------------------------------------------------------------------

/** Bytes kept as a binary string by the MIME splitter, read as UTF-8 when they are valid UTF-8 (SMTPUTF8), else as Latin-1. */
function fromBinary(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return value;
  }
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

function decodeCharset(bytes: Buffer, charset: string): string | null {
  try {
    return new TextDecoder(charset.trim().toLowerCase()).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * RFC 2047 encoded words. Adjacent words (separated by white space only) in the same charset
 * are joined before decoding, since a multi-byte character may be split across two of them.
 */
export function decodeEncodedWords(value: string): string {
  if (!value.includes('=?')) return value;
  const out: string[] = [];
  let pending: { charset: string; bytes: Buffer[]; raw: string } | null = null;
  const flush = () => {
    if (!pending) return;
    out.push(decodeCharset(Buffer.concat(pending.bytes), pending.charset) ?? pending.raw);
    pending = null;
  };
  let last = 0;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const index = match.index ?? 0;
    const between = value.slice(last, index);
    if (!(pending && /^\s*$/.test(between))) {
      flush();
      out.push(between);
    }
    const charset = (match[1] ?? '').split('*')[0] ?? '';
    const encoding = (match[2] ?? '').toUpperCase();
    const text = match[3] ?? '';
    const bytes =
      encoding === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
    const current = pending as { charset: string; bytes: Buffer[]; raw: string } | null;
    if (current && current.charset.toLowerCase() === charset.toLowerCase()) {
      current.bytes.push(bytes);
      current.raw += match[0];
    } else {
      flush();
      pending = { charset, bytes: [bytes], raw: match[0] };
    }
    last = index + match[0].length;
  }
  flush();
  out.push(value.slice(last));
  return out.join('');
}

/** Header lines as the MIME splitter kept them (`line` is the whole folded "Name: value"). */
function headerRecord(lines: readonly { key: string; line: string }[] | undefined): Record<string, string> {
  const record: Record<string, string[]> = {};
  for (const { key, line } of lines ?? []) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = key.toLowerCase();
    const value = decodeEncodedWords(fromBinary(line.slice(colon + 1).replace(/\r?\n(?=[ \t])/g, '')).trim());
    (record[name] ??= []).push(value);
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v.join(', ')]));
}

function addresses(value: AddressObject | AddressObject[] | undefined): IncomingAddress[] {
  const result: IncomingAddress[] = [];
  const visit = (entries: { address?: string | undefined; name?: string | undefined; group?: unknown[] | undefined }[]) => {
    for (const entry of entries) {
      if (entry.group) visit(entry.group as typeof entries);
      const address = (entry.address ?? '').trim().toLowerCase();
      if (address) result.push({ address, name: (entry.name ?? '').trim() });
    }
  };
  for (const object of ([] as AddressObject[]).concat(value ?? [])) visit(object.value ?? []);
  return result;
}

function parseDate(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The header section of a message (up to the first empty line). */
function headerSection(content: string): string {
  const match = /\r?\n\r?\n/.exec(content);
  return match ? content.slice(0, match.index) : content;
}

function bareType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

// ---------------------------------------------------------------------------------------
// parseIncoming
// ---------------------------------------------------------------------------------------

/**
 * mailparser's options: delivery-status parts and attached messages stay attachments (their
 * content is read below, and a returned message's text does not leak into `text`), and no
 * derived text or HTML is built that is not used.
 */
const PARSER_OPTIONS = {
  keepDeliveryStatus: true,
  // Passed through to the MIME splitter: an attached message/rfc822 is never parsed inline,
  // even with `Content-Disposition: inline`.
  ignoreEmbedded: true,
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
} as SimpleParserOptions;

export async function parseIncoming(raw: Buffer): Promise<ParseIncomingResult> {
  let mail: ParsedMail;
  try {
    if (!Buffer.isBuffer(raw) || raw.length === 0) return { ok: false, error: 'empty message' };
    mail = await simpleParser(raw, PARSER_OPTIONS);
  } catch (error) {
    return { ok: false, error: `unreadable message: ${(error as Error)?.message ?? String(error)}` };
  }
  try {
    const headers = headerRecord(mail.headerLines);
    if (Object.keys(headers).length === 0) return { ok: false, error: 'unreadable message: no header fields found' };
    const contentType = headers['content-type'] || 'text/plain';
    const isReport = bareType(contentType) === 'multipart/report';

    let deliveryStatus: string | null = null;
    let returnedHeaders: string | null = null;
    const attachments: IncomingAttachment[] = [];
    for (const attachment of mail.attachments as Attachment[]) {
      const type = (attachment.contentType ?? '').toLowerCase();
      const content = Buffer.isBuffer(attachment.content) ? attachment.content.toString('utf8') : '';
      if (DELIVERY_STATUS_TYPES.has(type)) {
        deliveryStatus ??= content.replace(/\r\n/g, '\n');
        continue;
      }
      if (RETURNED_HEADERS_TYPES.has(type) || RETURNED_MESSAGE_TYPES.has(type)) {
        returnedHeaders ??= headerSection(content).replace(/\r\n/g, '\n');
        // A forwarded message in an ordinary e-mail is a real attachment; in a report it is the returned copy.
        if (isReport || RETURNED_HEADERS_TYPES.has(type)) continue;
      }
      attachments.push({ fileName: attachment.filename ?? '', contentType: type || 'application/octet-stream', size: attachment.size ?? attachment.content?.length ?? 0 });
    }

    const html = storableText(typeof mail.html === 'string' ? mail.html : '');
    let text = storableText(typeof mail.text === 'string' ? mail.text : '');
    if (!text.trim() && html) text = htmlToText(html);

    const message: ParsedIncoming = {
      messageId: messageIdsOf(headers['message-id'])[0] ?? null,
      inReplyTo: messageIdsOf(headers['in-reply-to'])[0] ?? null,
      references: messageIdsOf(headers['references']),
      from: addresses(mail.from),
      to: addresses(mail.to),
      cc: addresses(mail.cc),
      subject: storableText(mail.subject ?? headers['subject'] ?? ''),
      text,
      html,
      date: parseDate(headers['date']),
      headers,
      contentType,
      attachments,
      deliveryStatus,
      returnedHeaders,
    };
    return { ok: true, message };
  } catch (error) {
    return { ok: false, error: `unreadable message: ${(error as Error)?.message ?? String(error)}` };
  }
}
