// Pure rules of the unified inbox: addresses, previews, subjects, threading headers,
// forwarding quotes and attachments. No database, no clock.
import { escapeHtml, htmlToText } from '../shared/mail-html';
import { threadHeaders } from '../shared/mail-threading';

/** One address as unibox messages store it (`from_json`, `to_json`, …). */
export interface StoredAddress {
  address: string;
  name: string;
}

/** Attachment metadata as unibox messages store it (contents are not kept). */
export interface StoredAttachment {
  file_name: string;
  content_type: string;
  size: number;
}

export const PREVIEW_LENGTH = 200;
/** Total decoded size of the attachments of one message. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** A Message-ID without its angle brackets (as stored). */
export function bareMessageId(id: string): string {
  return id.trim().replace(/^<+/, '').replace(/>+$/, '').trim();
}

/** The addresses of a stored `*_json` column; anything malformed is skipped. */
export function storedAddresses(value: unknown): StoredAddress[] {
  if (!Array.isArray(value)) return [];
  const out: StoredAddress[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    const { address, name } = item as { address?: unknown; name?: unknown };
    if (typeof address !== 'string' || !address) continue;
    out.push({ address, name: typeof name === 'string' ? name : '' });
  }
  return out;
}

/** Addresses as the vendor lists them in `*_email_list`: comma-joined. */
export function addressList(addresses: readonly StoredAddress[]): string {
  return addresses.map((a) => a.address).join(',');
}

/** Attachment metadata of a stored `attachments` column; anything malformed is skipped. */
export function storedAttachments(value: unknown): StoredAttachment[] {
  if (!Array.isArray(value)) return [];
  const out: StoredAttachment[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    const a = item as { file_name?: unknown; content_type?: unknown; size?: unknown };
    if (typeof a.file_name !== 'string') continue;
    out.push({
      file_name: a.file_name,
      content_type: typeof a.content_type === 'string' ? a.content_type : 'application/octet-stream',
      size: typeof a.size === 'number' && Number.isFinite(a.size) ? a.size : 0,
    });
  }
  return out;
}

/**
 * The first 200 characters of a message, whitespace collapsed, never splitting a
 * surrogate pair: from the text part, or from the HTML part turned into text when
 * there is no text part.
 */
export function contentPreview(options: { text: string; html: string }): string {
  const source = options.text.trim() ? options.text : options.html.trim() ? htmlToText(options.html) : '';
  return Array.from(source.replace(/\s+/g, ' ').trim()).slice(0, PREVIEW_LENGTH).join('');
}

// `Re:` and `Fwd:` as mail clients write them, in any case (`Re[2]:`, `Fw:`, `Aw:`, `Wg:` too).
const REPLY_PREFIX = /^\s*(re|aw)(\[\d+\])?\s*:/i;
const FORWARD_PREFIX = /^\s*(fwd?|wg)(\[\d+\])?\s*:/i;

/** `Re: <original>`, without stacking a second `Re:`. */
export function replySubject(original: string): string {
  const subject = original.trim();
  if (!subject) return 'Re:';
  return REPLY_PREFIX.test(subject) ? subject : `Re: ${subject}`;
}

/** `Fwd: <original>`, without stacking a second `Fwd:`. */
export function forwardSubject(original: string): string {
  const subject = original.trim();
  if (!subject) return 'Fwd:';
  return FORWARD_PREFIX.test(subject) ? subject : `Fwd: ${subject}`;
}

/**
 * Threading headers of a reply (RFC 5322 §3.6.4): In-Reply-To is the replied message's
 * Message-ID, References its own References followed by its Message-ID. Ids are stored
 * bare; the headers carry them in angle brackets. Also the bare forms, for storing.
 */
export function replyHeaders(options: { messageId: string; references: readonly string[] }): {
  inReplyTo: string;
  references: string;
  stored: { inReplyTo: string; references: string[] };
} {
  const own = bareMessageId(options.messageId);
  // Oldest first, each id once, the replied message last.
  const earlier = options.references.map(bareMessageId).filter((id, i, all) => id && id !== own && all.indexOf(id) === i);
  const chain = [...earlier, own];
  const headers = threadHeaders({ previousMessageIds: chain });
  return {
    inReplyTo: `<${own}>`,
    references: headers.references ?? `<${own}>`,
    stored: { inReplyTo: own, references: chain },
  };
}

/** A mailbox's display name: "First Last", trimmed. */
export function senderName(options: { firstName: string; lastName: string }): string {
  return `${options.firstName} ${options.lastName}`.trim();
}

function formatAddress(a: StoredAddress): string {
  return a.name ? `${a.name} <${a.address}>` : a.address;
}

/**
 * The body of a forward: the caller's HTML, then the original below a "Forwarded
 * message" header block (From, Date, Subject, To, Cc). The original's attachments are not
 * kept, so they are named only.
 */
export function forwardBody(options: {
  body: string;
  original: { from: readonly StoredAddress[]; to: readonly StoredAddress[]; cc: readonly StoredAddress[]; subject: string; date: Date; html: string; text: string; attachments: readonly StoredAttachment[] };
}): string {
  const o = options.original;
  const lines = [
    '---------- Forwarded message ---------',
    `From: ${escapeHtml(o.from.map(formatAddress).join(', '))}`,
    `Date: ${escapeHtml(o.date.toUTCString())}`,
    `Subject: ${escapeHtml(o.subject)}`,
    `To: ${escapeHtml(o.to.map(formatAddress).join(', '))}`,
    ...(o.cc.length ? [`Cc: ${escapeHtml(o.cc.map(formatAddress).join(', '))}`] : []),
    ...(o.attachments.length ? [`Attachments (not included): ${escapeHtml(o.attachments.map((a) => a.file_name).join(', '))}`] : []),
  ];
  const quoted = o.html.trim() ? o.html : escapeHtml(o.text).replace(/\r?\n/g, '<br>\n');
  return `${options.body}<br><br>\n<div class="forwarded">${lines.join('<br>\n')}<br><br>\n${quoted}</div>`;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  ics: 'text/calendar',
  json: 'application/json',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** A content type from a file name's extension; application/octet-stream when unknown. */
export function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const ext = dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Splits `a@x.com, b@y.com; c@z.com` into its addresses (blank pieces dropped). */
export function splitAddresses(value: string): string[] {
  return value
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);
}
