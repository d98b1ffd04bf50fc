/**
 * Recognising what arrives in a mailbox (pure functions over a parsed message):
 *
 * 1. a bounce — a delivery status notification (RFC 3464, `multipart/report;
 *    report-type=delivery-status`) reporting a failure, or a classic non-standard bounce
 *    (from MAILER-DAEMON / postmaster, with a bounce subject, and neither marked as an
 *    automatic reply nor titled as a reply). A delay notification is an `automatic_reply`
 *    (`delayed_delivery`), a success report or a read receipt too (bounce.rules.ts);
 * 2. an automatic reply — marked by its headers (Auto-Submitted other than `no`,
 *    X-Autoreply, X-Autorespond, Precedence auto_reply/bulk/junk) or by an auto-reply /
 *    out-of-office subject. Among those, out-of-office wording in the subject or the first
 *    lines of the text makes it `out_of_office`;
 * 3. anything else is a `reply`. Deliberately, out-of-office wording alone does not make a
 *    message automatic: a person answering "I'm out of office this week, but let's talk on
 *    the 16th" (no automation headers, a plain "Re:" subject) wrote a reply.
 *
 * The pattern tables are in incoming-patterns.rules.ts, the stripping of the quoted conversation
 * in quoted-reply.rules.ts. Subsequence reply-content triggers are lead's (lead/reply-content.rules.ts).
 *
 * Every expression here runs over text a stranger sent us, so each is written to run in time
 * linear in its input (no nested or adjacent quantifiers that can match the same characters),
 * and the heuristics read only a bounded prefix of the text (MAX_SCANNED_TEXT) and of each
 * header (MAX_SCANNED_HEADER): one crafted message must not block the event loop.
 */
import type { ParsedIncoming } from './parse-incoming';
import { classifyClassicBounce, classifyDeliveryReport, type BounceClassification } from './bounce.rules';
import {
  AUTO_REPLY_HEADERS,
  AUTO_REPLY_PRECEDENCE,
  AUTO_REPLY_SUBJECT_PHRASES,
  escapeRegExp,
  MAX_SCANNED_HEADER,
  MAX_SCANNED_TEXT,
  OUT_OF_OFFICE_SUBJECT_PATTERNS,
  OUT_OF_OFFICE_SUBJECT_PHRASES,
  OUT_OF_OFFICE_TEXT_PHRASES,
  REPLY_OR_FORWARD_PREFIX,
  scanned,
} from './incoming-patterns.rules';
import { stripQuotedReply } from './quoted-reply.rules';

export type Classification =
  | BounceClassification
  | { kind: 'out_of_office' | 'automatic_reply'; reason: string }
  | { kind: 'reply' };

/**
 * `reason` of automatic replies and out-of-office messages:
 * - `delayed_delivery`: a delivery status notification saying delivery is delayed (still retried);
 * - `delivery_report`: a delivery status notification that reports no failure (delivered, relayed, …);
 * - `read_receipt`: a message disposition notification (`report-type=disposition-notification`);
 * - `auto_submitted`, `x_autoreply`, `x_autorespond`, …, `precedence`: the header that marks it;
 * - `auto_reply_subject`: only its subject says it is automatic;
 * - `out_of_office_subject`, `out_of_office_text`: an automatic message whose subject, or the
 *   first lines of whose text, say the person is away.
 */
export const CLASSIFICATION_REASONS = [
  'delayed_delivery',
  'delivery_report',
  'read_receipt',
  'auto_submitted',
  'x_autoreply',
  'x_autorespond',
  'x_autoresponder',
  'x_autoreply_from',
  'x_mail_autoreply',
  'precedence',
  'auto_reply_subject',
  'out_of_office_subject',
  'out_of_office_text',
] as const;

/** `phrase` as a whole word or phrase (Unicode letters and digits around it do not count as boundaries). */
function phraseRegExp(phrases: readonly string[], flags = 'iu'): RegExp {
  const alternatives = [...phrases].sort((a, b) => b.length - a.length).map((p) => escapeRegExp(p).replace(/\s+/g, '\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, flags);
}

/**
 * A subject starting with one of `phrases` (optionally in brackets) followed by a separator, or one of them in brackets anywhere.
 * A dash counts as a separator only when no letter or digit follows it: "Auto-renewal question" and
 * "Absent-minded …" are hyphenated words, not "Auto - …" / "Absent - …".
 */
function subjectPrefixRegExps(phrases: readonly string[]): { start: RegExp; bracketed: RegExp } {
  const alternatives = [...phrases].sort((a, b) => b.length - a.length).map((p) => escapeRegExp(p).replace(/\s+/g, '\\s+'));
  const group = `(?:${alternatives.join('|')})`;
  return {
    // "(?:[[(]\s*)?" rather than "[[(]?\s*": two "\s*" side by side retry every split of a run of spaces.
    start: new RegExp(`^\\s*(?:[[(]\\s*)?${group}\\s*(?::|：|\\]|\\)|[-–—](?![\\p{L}\\p{N}])|$)`, 'iu'),
    bracketed: new RegExp(`[[(]\\s*${group}\\s*[\\])]`, 'iu'),
  };
}

const AUTO_SUBJECT = subjectPrefixRegExps(AUTO_REPLY_SUBJECT_PHRASES);
const OOO_SUBJECT = subjectPrefixRegExps(OUT_OF_OFFICE_SUBJECT_PHRASES);

/** Whether `subject` marks the message as automatic (and out-of-office) by itself, per the rules above. */
function subjectMatches(subject: string, prefixes: { start: RegExp; bracketed: RegExp }, anywhere: readonly RegExp[] = []): boolean {
  if (prefixes.start.test(subject)) return true;
  if (REPLY_OR_FORWARD_PREFIX.test(subject)) return false;
  return prefixes.bracketed.test(subject) || anywhere.some((p) => p.test(subject));
}

const OOO_TEXT = phraseRegExp(OUT_OF_OFFICE_TEXT_PHRASES);
const OOO_SUBJECT_ANYWHERE = phraseRegExp([...OUT_OF_OFFICE_SUBJECT_PHRASES.filter((p) => !['ooo', 'away', 'absent', 'absente'].includes(p))]);

/**
 * Auto-Submitted or one of AUTO_REPLY_HEADERS, as a reason; null when none. Precedence is left
 * out: mail servers' own notices may carry `Precedence: bulk` too.
 */
function automationHeaderReason(headers: Record<string, string>): string | null {
  const autoSubmitted = (headers['auto-submitted'] ?? '').split(/[;(\s]/)[0]?.trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') return 'auto_submitted';
  for (const name of AUTO_REPLY_HEADERS) {
    const value = headers[name];
    if (value !== undefined && !/^(no|false|0)$/i.test(value.trim())) return name.replace(/-/g, '_');
  }
  return null;
}

/** The header that marks a message as automatic, as a reason; null when none does. */
function autoHeaderReason(headers: Record<string, string>): string | null {
  const marked = automationHeaderReason(headers);
  if (marked) return marked;
  const precedence = (headers['precedence'] ?? '').trim().toLowerCase();
  if (AUTO_REPLY_PRECEDENCE.includes(precedence)) return 'precedence';
  return null;
}

/**
 * Whether a message is marked as automatic (by a header other than Precedence, or an auto-reply or
 * out-of-office subject prefix) or titled as a reply or forward: a daemon's message that is, is no
 * classic bounce (see classifyClassicBounce).
 */
function marksAutomaticOrAnswer(message: ParsedIncoming): boolean {
  const subject = message.subject;
  return Boolean(
    automationHeaderReason(message.headers) || REPLY_OR_FORWARD_PREFIX.test(subject) || AUTO_SUBJECT.start.test(subject) || OOO_SUBJECT.start.test(subject),
  );
}

/** The first lines of a message's own text (quoted conversation left out), where an away notice says so. */
function openingText(text: string): string {
  return stripQuotedReply(text)
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 15)
    .join('\n')
    .slice(0, 1500);
}

/** `message` as far as the heuristics read it (see MAX_SCANNED_TEXT). */
function scannedPart(message: ParsedIncoming): ParsedIncoming {
  return {
    ...message,
    subject: scanned(message.subject ?? '', MAX_SCANNED_HEADER),
    text: scanned(message.text ?? '', MAX_SCANNED_TEXT),
    contentType: scanned(message.contentType ?? '', MAX_SCANNED_HEADER),
    headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, scanned(value, MAX_SCANNED_HEADER)])),
    deliveryStatus: message.deliveryStatus === null ? null : scanned(message.deliveryStatus, MAX_SCANNED_TEXT),
    returnedHeaders: message.returnedHeaders === null ? null : scanned(message.returnedHeaders, MAX_SCANNED_TEXT),
  };
}

export function classifyIncoming(incoming: ParsedIncoming): Classification {
  const message = scannedPart(incoming);
  // (1) Delivery reports and bounces.
  const report = classifyDeliveryReport(message) ?? classifyClassicBounce(message, marksAutomaticOrAnswer);
  if (report) return report;
  // A delivery-status report we could not read is still machine mail.
  if (/^multipart\/report\b/i.test(message.contentType)) return { kind: 'automatic_reply', reason: 'delivery_report' };

  // (2) Automatic replies.
  const subject = message.subject ?? '';
  const oooSubject = subjectMatches(subject, OOO_SUBJECT, OUT_OF_OFFICE_SUBJECT_PATTERNS);
  const autoReason = autoHeaderReason(message.headers) ?? (oooSubject ? 'out_of_office_subject' : subjectMatches(subject, AUTO_SUBJECT) ? 'auto_reply_subject' : null);
  if (autoReason) {
    if (oooSubject || OOO_SUBJECT_ANYWHERE.test(subject) || OOO_TEXT.test(subject)) return { kind: 'out_of_office', reason: 'out_of_office_subject' };
    if (OOO_TEXT.test(openingText(message.text))) return { kind: 'out_of_office', reason: 'out_of_office_text' };
    return { kind: 'automatic_reply', reason: autoReason };
  }

  // (3) A person's reply.
  return { kind: 'reply' };
}
