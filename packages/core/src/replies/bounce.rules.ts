/**
 * Bounces (pure functions over a parsed message): a delivery status notification (RFC 3464,
 * `multipart/report; report-type=delivery-status`) reporting a failure, or a classic
 * non-standard bounce (from MAILER-DAEMON / postmaster, with a bounce subject). A delay
 * notification, a success report or a read receipt is an automatic notice, not a bounce.
 * The classification that weighs these against automatic replies is in incoming.rules.ts.
 *
 * Every expression here runs over text a stranger sent us: see incoming-patterns.rules.ts.
 */
import type { ParsedIncoming } from './parse-incoming';
import {
  BOUNCE_SENDER_NAME_PATTERNS,
  BOUNCE_SENDER_PATTERNS,
  BOUNCE_SUBJECT_PATTERNS,
  DELAY_SUBJECT_PATTERNS,
  escapeRegExp,
} from './incoming-patterns.rules';
import { messageIdsOf } from '../shared/mail-threading';

export type BounceClassification = {
  kind: 'bounce';
  diagnostic: string;
  status: string | null;
  failedRecipient: string | null;
  originalMessageId: string | null;
};

/** A delivery report or a daemon's notice that is no bounce (see CLASSIFICATION_REASONS). */
export type ReportNotice = { kind: 'automatic_reply'; reason: 'read_receipt' | 'delayed_delivery' | 'delivery_report' };

/** "Name: value" fields of a header-like block (folded lines joined), names lower-cased; the first occurrence wins. */
export function parseFields(block: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const unfolded = block.replace(/\r\n?/g, '\n').replace(/\n(?=[ \t])/g, '');
  for (const line of unfolded.split('\n')) {
    // The value is trimmed below: a "\s*" before "(.*)" would retry every split of its leading spaces.
    const match = /^([!-9;-~]+)\s*:(.*)$/s.exec(line);
    if (!match) continue;
    const name = (match[1] ?? '').toLowerCase();
    if (!(name in fields)) fields[name] = (match[2] ?? '').replace(/\s+/g, ' ').trim();
  }
  return fields;
}

function contentTypeOf(value: string): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  // A name starts after a non-name character: otherwise a long run of name characters without "="
  // would be rescanned from each of its characters.
  for (const match of rest.join(';').matchAll(/(?<![\w.*-])([\w.*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]+)/g)) {
    const raw = match[2] ?? '';
    params[(match[1] ?? '').toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return { type: type.trim().toLowerCase(), params };
}

const ENHANCED_STATUS = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;
const REPLY_CODE_AND_STATUS = /\b[45]\d\d[ -]([245]\.\d{1,3}\.\d{1,3})\b/;
/**
 * An address. The lookbehind makes a match start where a run of local-part characters starts:
 * without it, a long run with no "@" after it is rescanned from each of its characters (quadratic).
 */
const EMAIL = /(?<![A-Za-z0-9.!#$%&'*+/=?^_`{|}~-])[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+/g;
/** Characters EMAIL cannot match: an address never spans one. */
const NOT_IN_ADDRESS = /[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]+/;
/** RFC 5321's limit on a forward path. */
const MAX_ADDRESS_LENGTH = 254;

/** The addresses in `text`, looked for only in runs of address characters no longer than an address can be. */
function addressesIn(text: string): string[] {
  const found: string[] = [];
  for (const token of text.split(NOT_IN_ADDRESS)) {
    if (token.length > MAX_ADDRESS_LENGTH || !token.includes('@')) continue;
    for (const match of token.matchAll(EMAIL)) found.push(match[0]);
  }
  return found;
}

function statusOf(value: string | undefined): string | null {
  const match = value ? ENHANCED_STATUS.exec(value) : null;
  return match ? match[0] : null;
}

/** "rfc822; Nobody@Example.org" → "nobody@example.org". */
function recipientOf(value: string | undefined): string | null {
  if (!value) return null;
  const address = (value.includes(';') ? value.slice(value.indexOf(';') + 1) : value).trim().replace(/^<|>$/g, '').trim().toLowerCase();
  return address.includes('@') ? address : null;
}

/**
 * A Diagnostic-Code without its type ("smtp; "), on one line, without the reply code that
 * servers repeat on every line of a multi-line answer ("550-5.1.1 … 550-5.1.1 …").
 */
export function cleanDiagnostic(value: string): string {
  let text = value.replace(/^\s*[\w-]+\s*;\s*/, '').replace(/\s+/g, ' ').trim();
  const lead = /^(\d{3})[- ]((?:[245]\.\d{1,3}\.\d{1,3})?)\s*/.exec(text);
  if (lead) {
    const [whole, code, status] = lead;
    const repeated = new RegExp(`\\s${code}[- ]${status ? escapeRegExp(status) : ''}\\s*`, 'g');
    text = `${code} ${status ? `${status} ` : ''}${text.slice(whole.length).replace(repeated, ' ')}`.replace(/\s+/g, ' ').trim();
  }
  return text;
}

function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** The paragraph of a human-readable bounce that best explains the failure. */
function diagnosticParagraph(text: string): string | null {
  const all = paragraphs(text);
  return (
    all.find((p) => REPLY_CODE_AND_STATUS.test(p)) ??
    all.find((p) => ENHANCED_STATUS.test(p) && /\b(said|returned|rejected|error|unknown|not found|does not exist|refused|denied|failed)\b/i.test(p)) ??
    all.find((p) => /\b(said|remote server returned|rejected|user unknown|does not exist|no such user|not found|mailbox (unavailable|full))\b/i.test(p)) ??
    null
  );
}

const cap = (s: string, n = 500) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function firstParagraph(text: string): string | null {
  return paragraphs(text)[0] ?? null;
}

function originalMessageIdOf(message: ParsedIncoming, perMessage: Record<string, string> = {}): string | null {
  if (message.returnedHeaders) {
    const id = messageIdsOf(parseFields(message.returnedHeaders)['message-id'])[0];
    if (id) return id;
  }
  const fromReport = messageIdsOf(perMessage['x-original-message-id'])[0];
  if (fromReport) return fromReport;
  // Headers of the original quoted in the text (qmail, Exchange's "Original message headers").
  const quoted = /^[ \t]*message-id:[ \t]*<([^<>\s]+)>/im.exec(message.text);
  return quoted ? (quoted[1] ?? null) : null;
}

/**
 * A null Return-Path does not make a sender a daemon: RFC 3834 auto-responders (Exchange's
 * out-of-office replies among them) send with one too.
 */
function isDaemonSender(message: ParsedIncoming): boolean {
  return message.from.some(
    (f) => BOUNCE_SENDER_PATTERNS.some((p) => p.test(f.address)) || BOUNCE_SENDER_NAME_PATTERNS.some((p) => p.test(f.name)),
  );
}

/** The address a classic bounce is about: Postfix/qmail's "<addr>:" line, else the first foreign address in the diagnostic, else in the text. */
function failedRecipientInText(message: ParsedIncoming, diagnostic: string | null): string | null {
  const fromX = recipientOf(message.headers['x-failed-recipients']?.split(',')[0]);
  if (fromX) return fromX;
  // No "@" before the "@": with one, "<@@@@…" is retried at every "@" (quadratic).
  const line = /^[ \t]*<([^<>\s@]+@[^<>\s]+)>:/m.exec(message.text);
  if (line) return (line[1] ?? '').toLowerCase();
  const ours = new Set([...message.from, ...message.to, ...message.cc].map((a) => a.address));
  const pick = (text: string) =>
    addressesIn(text)
      .map((a) => a.toLowerCase())
      .find((a) => !ours.has(a) && !BOUNCE_SENDER_PATTERNS.some((p) => p.test(a)));
  return (diagnostic && pick(diagnostic)) || pick(message.text) || null;
}

// ---------------------------------------------------------------------------------------
// Delivery reports and classic bounces
// ---------------------------------------------------------------------------------------

/**
 * A delivery status notification (RFC 3464, `multipart/report; report-type=delivery-status`) or a
 * read receipt (`report-type=disposition-notification`): a bounce when it reports a failure, else
 * a `delayed_delivery`, `delivery_report` or `read_receipt` notice; null for any other message, or a
 * report without a readable recipient block.
 */
export function classifyDeliveryReport(message: ParsedIncoming): BounceClassification | ReportNotice | null {
  const { type, params } = contentTypeOf(message.contentType);
  if (type !== 'multipart/report') return null;
  const reportType = (params['report-type'] ?? '').toLowerCase();
  if (reportType === 'disposition-notification') return { kind: 'automatic_reply', reason: 'read_receipt' };
  if (reportType !== 'delivery-status' && reportType !== 'global-delivery-status') return null;
  if (!message.deliveryStatus) return null;
  const blocks = message.deliveryStatus
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map(parseFields)
    .filter((f) => Object.keys(f).length > 0);
  const perMessage = blocks.find((b) => 'reporting-mta' in b || 'arrival-date' in b || 'x-original-message-id' in b) ?? {};
  const recipients = blocks.filter((b) => 'final-recipient' in b || 'original-recipient' in b || 'action' in b);
  if (!recipients.length) return null;
  const action = (b: Record<string, string>) => (b['action'] ?? '').split(/[\s(]/)[0]?.toLowerCase() ?? '';
  const statusClass = (b: Record<string, string>) => statusOf(b['status'])?.[0] ?? null;
  const failed = recipients.find((b) => action(b) === 'failed' || statusClass(b) === '5');
  if (failed) {
    const code = failed['diagnostic-code'] ? cleanDiagnostic(failed['diagnostic-code']) : '';
    const diagnostic = code || diagnosticParagraph(message.text) || firstParagraph(message.text) || `delivery failed (${failed['status'] ?? 'no status'})`;
    return {
      kind: 'bounce',
      diagnostic: cap(diagnostic),
      status: statusOf(failed['status']) ?? statusOf(code),
      failedRecipient: recipientOf(failed['original-recipient']) ?? recipientOf(failed['final-recipient']),
      originalMessageId: originalMessageIdOf(message, perMessage),
    };
  }
  if (recipients.some((b) => action(b) === 'delayed' || statusClass(b) === '4')) return { kind: 'automatic_reply', reason: 'delayed_delivery' };
  return { kind: 'automatic_reply', reason: 'delivery_report' };
}

/**
 * A classic (non-standard) bounce: from MAILER-DAEMON / postmaster with a bounce subject, and not
 * marked as an automatic reply nor titled as a reply (`marksAutomaticOrAnswer`, the classification's
 * own test, asked only of a daemon's message whose subject is no delay warning). A daemon's delay
 * warning is a `delayed_delivery` notice; null for anything else.
 */
export function classifyClassicBounce(
  message: ParsedIncoming,
  marksAutomaticOrAnswer: (message: ParsedIncoming) => boolean,
): BounceClassification | ReportNotice | null {
  if (!isDaemonSender(message)) return null;
  const subject = message.subject;
  if (DELAY_SUBJECT_PATTERNS.some((p) => p.test(subject))) return { kind: 'automatic_reply', reason: 'delayed_delivery' };
  // An automatic reply or a reply repeats our campaign's subject, which may read like a bounce's
  // ("Automatic reply: Cutting delivery failure rates"); only a delivery status notification
  // outweighs the marks of an automatic reply.
  if (marksAutomaticOrAnswer(message)) return null;
  if (!BOUNCE_SUBJECT_PATTERNS.some((p) => p.test(subject))) return null;
  const paragraph = diagnosticParagraph(message.text);
  const status = (paragraph && (REPLY_CODE_AND_STATUS.exec(paragraph)?.[1] ?? statusOf(paragraph))) || null;
  return {
    kind: 'bounce',
    diagnostic: cap(paragraph ?? firstParagraph(message.text) ?? subject),
    status,
    failedRecipient: failedRecipientInText(message, paragraph),
    originalMessageId: originalMessageIdOf(message),
  };
}
