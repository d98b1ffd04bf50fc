/**
 * Recognising what arrives in a mailbox (pure functions over a parsed message):
 *
 * 1. a bounce — a delivery status notification (RFC 3464, `multipart/report;
 *    report-type=delivery-status`) reporting a failure, or a classic non-standard bounce
 *    (from MAILER-DAEMON / postmaster, with a bounce subject, and neither marked as an
 *    automatic reply nor titled as a reply). A delay notification is an `automatic_reply`
 *    (`delayed_delivery`), a success report or a read receipt too;
 * 2. an automatic reply — marked by its headers (Auto-Submitted other than `no`,
 *    X-Autoreply, X-Autorespond, Precedence auto_reply/bulk/junk) or by an auto-reply /
 *    out-of-office subject. Among those, out-of-office wording in the subject or the first
 *    lines of the text makes it `out_of_office`;
 * 3. anything else is a `reply`. Deliberately, out-of-office wording alone does not make a
 *    message automatic: a person answering "I'm out of office this week, but let's talk on
 *    the 16th" (no automation headers, a plain "Re:" subject) wrote a reply.
 *
 * Plus `matchesReplyContent` (subsequence triggers on reply content) and `stripQuotedReply`
 * (the new part of a reply, without the quoted conversation).
 *
 * Every expression here runs over text a stranger sent us, so each is written to run in time
 * linear in its input (no nested or adjacent quantifiers that can match the same characters),
 * and the heuristics read only a bounded prefix of the text (MAX_SCANNED_TEXT) and of each
 * header (MAX_SCANNED_HEADER): one crafted message must not block the event loop.
 */
import type { ParsedIncoming } from './parse-incoming';

export type Classification =
  | { kind: 'bounce'; diagnostic: string; status: string | null; failedRecipient: string | null; originalMessageId: string | null }
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

// ---------------------------------------------------------------------------------------
// Pattern lists (exported so the documentation can cite them)
// ---------------------------------------------------------------------------------------

/** Senders of classic bounces (the address's local part, or the display name). */
export const BOUNCE_SENDER_PATTERNS: readonly RegExp[] = [
  /^mailer-daemon@/i,
  /^mailer_daemon@/i,
  /^mailerdaemon@/i,
  /^mail-daemon@/i,
  /^postmaster@/i,
  // Exchange's system mailbox, e.g. MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@contoso.com
  /^microsoftexchange[0-9a-f]{32}@/i,
];
export const BOUNCE_SENDER_NAME_PATTERNS: readonly RegExp[] = [/\bmail delivery (sub)?system\b/i, /\bmailer-daemon\b/i, /\bmail administrator\b/i];

/** Subjects of classic (non-standard) bounces, in the languages we recognise. */
export const BOUNCE_SUBJECT_PATTERNS: readonly RegExp[] = [
  /undelivered mail returned to sender/i,
  /delivery status notification \(fail(ure|ed)\)/i,
  /mail delivery failed/i,
  /^\s*undeliverable\b/i,
  /\bundeliverable (mail|message)\b/i,
  /\bundelivered (mail|message)\b/i,
  /\bdelivery (failure|failed|has failed|unsuccessful)\b/i,
  /\bfailure notice\b/i,
  /\breturned mail\b/i,
  /\bmessage (not delivered|could not be delivered|delivery failed)\b/i,
  /\bmail system error\b/i,
  /\bnon-?deliver(able|y) (mail|message|notification|report)\b/i,
  // de, fr, es, it, nl, pt, sv, da, no, pl (Exchange's "Undeliverable:" and common MTAs)
  /^\s*unzustellbar\b/i,
  /\bnicht zustellbar\b/i,
  /^\s*non remis\b/i,
  /\b(é|e)chec de (la )?(remise|livraison)\b/i,
  /^\s*no se puede entregar\b/i,
  /\bno (se ha podido|se pudo) entregar\b/i,
  /^\s*non recapitabile\b/i,
  /\bmancato recapito\b/i,
  /^\s*onbestelbaar\b/i,
  /\bniet (afgeleverd|bezorgd)\b/i,
  /^\s*n(ã|a)o (é|e) poss(í|i)vel entregar\b/i,
  /\bn(ã|a)o entregue\b/i,
  /^\s*(kan inte levereras|ej levererbart|olevererbart)\b/i,
  /^\s*(kan ikke leveres|ikke leveret|ikke levert|uleverbar)\b/i,
  /^\s*(niedostarczalne|nie mo(ż|z)na dostarczy(ć|c)|niedostarczona)\b/i,
];

/** Subjects of delay warnings (delivery still being retried). */
export const DELAY_SUBJECT_PATTERNS: readonly RegExp[] = [
  /delivery status notification \(delay\)/i,
  /\bdelayed mail\b/i,
  /\bdelivery (is )?delayed\b/i,
  /\bdelivery has been delayed\b/i,
  /^\s*warning: (message|could not send message)/i,
  /^\s*(zustellung verz(ö|o)gert|verz(ö|o)gert)\b/i,
  /^\s*(remise diff(é|e)r(é|e)e|retard(é|e))\b/i,
];

/**
 * Headers marking automatic mail besides Auto-Submitted and Precedence (any value but
 * no/false/0). X-Auto-Response-Suppress is deliberately not one: Outlook and many tools set
 * it on ordinary mail, people's replies included.
 */
export const AUTO_REPLY_HEADERS: readonly string[] = ['x-autoreply', 'x-autorespond', 'x-autoresponder', 'x-autoreply-from', 'x-mail-autoreply'];

/** Precedence values of automatic mail (`bulk`/`junk`: what vacation programs and RFC 3834 responders use). */
export const AUTO_REPLY_PRECEDENCE: readonly string[] = ['auto_reply', 'bulk', 'junk'];

/**
 * Subject prefixes of automatic replies: matched at the start of the subject (optionally in
 * brackets) and followed by ":", "-", a closing bracket or the end, or anywhere in brackets
 * ("[Auto-Reply]") unless the subject starts with "Re:", "Fwd:" or the like. A reply's "Re: …"
 * therefore never matches, whatever the campaign's subject (OUT_OF_OFFICE_SUBJECT_PATTERNS neither).
 */
export const AUTO_REPLY_SUBJECT_PHRASES: readonly string[] = [
  // en
  'automatic reply', 'automatic response', 'automated reply', 'automated response', 'auto reply', 'auto-reply', 'autoreply',
  'auto response', 'auto-response', 'autoresponse', 'auto', 'autosvar',
  // de
  'automatische antwort', 'automatische rückantwort', 'autoantwort',
  // fr
  'réponse automatique', 'reponse automatique',
  // es
  'respuesta automática', 'respuesta automatica',
  // it
  'risposta automatica',
  // nl
  'automatisch antwoord',
  // pt
  'resposta automática', 'resposta automatica',
  // sv
  'automatiskt svar',
  // da, no
  'automatisk svar',
  // pl
  'odpowiedź automatyczna', 'automatyczna odpowiedź', 'autoodpowiedź',
];

/** Out-of-office subject prefixes (same placement rule as AUTO_REPLY_SUBJECT_PHRASES); they make a message automatic and out-of-office. */
export const OUT_OF_OFFICE_SUBJECT_PHRASES: readonly string[] = [
  // en
  'out of office', 'out of the office', 'out-of-office', 'out of office autoreply', 'out of office auto reply', 'ooo', 'on vacation', 'vacation', 'on leave', 'away',
  // de
  'abwesenheitsnotiz', 'abwesenheit', 'abwesend', 'nicht im büro', 'urlaub',
  // fr
  'absence du bureau', 'absent du bureau', 'absente du bureau', 'absent', 'absente', 'en congé', 'en congés',
  // es
  'fuera de la oficina', 'fuera de oficina', 'ausente', 'de vacaciones',
  // it
  'fuori sede', 'fuori ufficio', 'assente', 'in ferie',
  // nl
  'afwezig', 'afwezigheid', 'niet op kantoor',
  // pt (ausente: see es)
  'fora do escritório', 'de férias',
  // sv
  'frånvarande', 'frånvaro', 'inte på kontoret',
  // da, no
  'fraværende', 'fravær', 'ikke på kontoret',
  // pl
  'poza biurem', 'nieobecność', 'nieobecny', 'nieobecna',
];

/** Out-of-office subjects that say so anywhere ("Ada Lovelace is out of the office"). */
export const OUT_OF_OFFICE_SUBJECT_PATTERNS: readonly RegExp[] = [
  /\bis (currently )?out of (the )?office\b/i,
  /\bist (derzeit |zurzeit )?(abwesend|nicht im büro)/i,
  /\best (actuellement )?absente?\b/i,
];

/**
 * Out-of-office wording, looked for (as whole words) in the subject and the first lines of the
 * text of a message already known to be automatic.
 */
export const OUT_OF_OFFICE_TEXT_PHRASES: readonly string[] = [
  // en
  'out of office', 'out of the office', 'out-of-office', 'on vacation', 'on holiday', 'on holidays', 'on leave', 'on annual leave',
  'on parental leave', 'on maternity leave', 'on paternity leave', 'on sick leave', 'away until', 'away from the office', 'away from my desk',
  'currently away', 'i am away', "i'm away", 'i’m away', 'limited access to email', 'limited access to e-mail', 'limited access to my email',
  'back in the office', 'return to the office', 'returning to the office',
  // de
  'nicht im büro', 'außer haus', 'ausser haus', 'abwesend', 'abwesenheit', 'im urlaub', 'in urlaub', 'urlaubsbedingt', 'nicht erreichbar', 'elternzeit',
  // fr
  'absent du bureau', 'absente du bureau', 'hors du bureau', 'absent', 'absente', 'en congé', 'en congés', 'en vacances', 'de retour le',
  // es
  'fuera de la oficina', 'fuera de oficina', 'de vacaciones', 'ausente', 'de baja', 'estaré de vuelta', 'regresaré el',
  // it
  'fuori ufficio', 'fuori sede', 'in ferie', 'in vacanza', 'assente', 'rientrerò',
  // nl
  'afwezig', 'niet op kantoor', 'op vakantie', 'met vakantie', 'met verlof', 'weer aanwezig',
  // pt
  'fora do escritório', 'de férias', 'em férias', 'estarei de volta', 'ausente',
  // sv
  'frånvarande', 'på semester', 'inte på kontoret', 'tjänstledig', 'föräldraledig',
  // da, no
  'fraværende', 'på ferie', 'ikke på kontoret', 'på barsel', 'permisjon', 'ferie',
  // pl
  'poza biurem', 'na urlopie', 'nieobecny', 'nieobecna', 'nieobecność', 'urlop',
];

// Written to run in linear time: a trailing "\s*:?\s*" would retry every split of a run of
// spaces, ".+\bschrieb\b.*:" would rescan the rest of the line after every "schrieb" (the
// lookahead takes the first one only, which is enough: a colon at the end after a later one is
// also after the first), and "^.*@.*" would try every pair of "@"s (the first "@" is enough too).
/** Attribution lines above a quoted reply ("On … wrote:"), per language; see stripQuotedReply. */
export const REPLY_ATTRIBUTION_PATTERNS: readonly RegExp[] = [
  /^\s*on\b.+\bwrote\s*(?::\s*)?$/i, // en
  /^\s*am\b(?=(.+?\bschrieb\b))\1.*:\s*$/i, // de
  /^\s*le\b.+\ba\s+écrit\s*(?::\s*)?$/i, // fr
  /^\s*el\b.+\bescribió\s*(?::\s*)?$/i, // es
  /^\s*il\b.+\bha\s+scritto\s*(?::\s*)?$/i, // it
  /^\s*op\b(?=(.+?\bschreef\b))\1.*:\s*$/i, // nl
  /^\s*em\b.+\bescreveu\s*(?::\s*)?$/i, // pt
  /^\s*(?:den|på)(?=\s)(?=(.+?\bskrev\b))\1.*:\s*$/i, // sv, da, no (`\b` after "å" would never match)
  /^\s*(?:w dniu|dnia)\b.+\b(?:pisze|napisał\(a\)|napisał|napisała)\s*(?::\s*)?$/i, // pl
  // "Ada Lovelace <ada@example.com> wrote:" (no date first)
  /^[^@\n\r\u2028\u2029]*@.*\b(?:wrote|schrieb|a écrit|escribió|ha scritto|schreef|escreveu|skrev|pisze|napisał\(a\)|napisał|napisała)\s*:\s*$/i,
];

/** Separator lines above a quoted or forwarded message ("-----Original Message-----"). */
export const ORIGINAL_MESSAGE_MARKERS: readonly string[] = [
  'original message', 'forwarded message', 'ursprüngliche nachricht', 'originalnachricht', 'weitergeleitete nachricht', "message d'origine",
  'message d’origine', 'message original', 'message transféré', 'mensaje original', 'mensaje reenviado', 'messaggio originale', 'messaggio inoltrato',
  'oorspronkelijk bericht', 'origineel bericht', 'doorgestuurd bericht', 'mensagem original', 'mensagem encaminhada', 'ursprungligt meddelande',
  'vidarebefordrat meddelande', 'oprindelig meddelelse', 'videresendt meddelelse', 'opprinnelig melding', 'videresendt melding', 'wiadomość oryginalna',
  'oryginalna wiadomość', 'przekazana wiadomość',
];

/** The first and second line of Outlook's quoted header block ("From: …" then "Sent: …"), per language. */
export const OUTLOOK_FROM_LABELS: readonly string[] = ['from', 'von', 'de', 'da', 'van', 'från', 'fra', 'od'];
export const OUTLOOK_SENT_LABELS: readonly string[] = [
  'sent', 'date', 'gesendet', 'datum', 'envoyé', 'enviado', 'enviado el', 'fecha', 'inviato', 'data', 'verzonden', 'enviada em', 'skickat', 'sendt', 'dato', 'wysłano',
];

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How much of a message's text (and of a delivery-status or returned-headers part) the
 * heuristics read. What tells a bounce or an away notice apart is near the start of the text:
 * the diagnostic, the notice, the attribution above a quote.
 */
const MAX_SCANNED_TEXT = 64 * 1024;
/** How much of a header value (subject, Content-Type, …) the heuristics read; real ones are far shorter. */
const MAX_SCANNED_HEADER = 8 * 1024;

const scanned = (value: string, limit: number) => (value.length > limit ? value.slice(0, limit) : value);

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

/**
 * "Re:", "AW:", "SV:", "Fwd:", "WG:", … (optionally numbered, "Re[2]:"): a subject answering or
 * forwarding another one. Its text is the campaign's subject, so wording found after the prefix
 * (anywhere-patterns, bracketed phrases) says nothing about this message.
 */
const REPLY_OR_FORWARD_PREFIX = /^\s*(?:re|aw|sv|vs|antw|antwort|rif|r|res|ref|réf|rv|odp|wg|fw|fwd|tr|enc|doorst)(?:\s*(?:\[\d+\]|\(\d+\)))?\s*[:：]/iu;

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

/** Message ids found in a header value (`<…>` tokens; bare tokens with an @ when there are none), without brackets. */
export function messageIdsOf(value: string | null | undefined): string[] {
  if (!value) return [];
  const bracketed = [...value.matchAll(/<([^<>]+)>/g)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
  if (bracketed.length) return bracketed;
  return value
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter((t) => t.includes('@'));
}

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
// classifyIncoming
// ---------------------------------------------------------------------------------------

function classifyReport(message: ParsedIncoming): Classification | null {
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

function classifyClassicBounce(message: ParsedIncoming): Classification | null {
  if (!isDaemonSender(message)) return null;
  const subject = message.subject;
  if (DELAY_SUBJECT_PATTERNS.some((p) => p.test(subject))) return { kind: 'automatic_reply', reason: 'delayed_delivery' };
  // An automatic reply or a reply repeats our campaign's subject, which may read like a bounce's
  // ("Automatic reply: Cutting delivery failure rates"); only a delivery status notification
  // outweighs the marks of an automatic reply.
  if (automationHeaderReason(message.headers) || REPLY_OR_FORWARD_PREFIX.test(subject) || AUTO_SUBJECT.start.test(subject) || OOO_SUBJECT.start.test(subject)) {
    return null;
  }
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
  const report = classifyReport(message) ?? classifyClassicBounce(message);
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

// ---------------------------------------------------------------------------------------
// matchesReplyContent
// ---------------------------------------------------------------------------------------

const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

/**
 * True when `text` contains one of `include` and none of `exclude`, case-insensitively and
 * with runs of white space counted as one space (a phrase may be wrapped across lines).
 * Phrases are trimmed; empty ones are ignored; no include phrase → false.
 */
export function matchesReplyContent(options: { text: string; include: readonly string[]; exclude?: readonly string[] }): boolean {
  const text = normalise(options.text ?? '');
  const clean = (list: readonly string[] | undefined) => (list ?? []).map((p) => normalise(p.trim())).filter((p) => p.length > 0);
  const include = clean(options.include);
  if (!include.length) return false;
  if (!include.some((p) => text.includes(p))) return false;
  return !clean(options.exclude).some((p) => text.includes(p));
}

// ---------------------------------------------------------------------------------------
// stripQuotedReply
// ---------------------------------------------------------------------------------------

const QUOTED_LINE = /^\s*>/;
const SEPARATOR = new RegExp(`^\\s*-{2,}\\s*(?:${ORIGINAL_MESSAGE_MARKERS.map(escapeRegExp).join('|')})\\s*-{2,}\\s*$`, 'iu');
// "(?:\*\s*)?" rather than "\*?\s*": two "\s*" side by side retry every split of a run of spaces.
const label = (labels: readonly string[]) => new RegExp(`^\\s*(?:\\*\\s*)?(?:${labels.map(escapeRegExp).join('|')})\\s*(?:\\*\\s*)?:`, 'iu');
const OUTLOOK_FROM = label(OUTLOOK_FROM_LABELS);
const OUTLOOK_SENT = label(OUTLOOK_SENT_LABELS);
const RULE_LINE = /^\s*[_\-=*]{5,}\s*$/;

/** The first word of a dated attribution ("On …", "Am …", "Le …"), per language. */
const ATTRIBUTION_START = /^\s*(?:on|am|le|el|il|op|em|den|på|w dniu|dnia)(?![\p{L}\p{N}])/iu;

/**
 * An attribution starting on line `i`, possibly wrapped over up to three lines; the number of lines it takes, or 0.
 * A wrapped one has no blank line inside and starts with its own first word on line `i` (the next line
 * does not): otherwise the reply's own last lines ("Merci !", a signature line) would be joined to the
 * attribution below them and cut with it.
 */
function attributionAt(lines: string[], i: number): number {
  if (!lines[i]?.trim()) return 0;
  for (let span = 1; span <= 3 && i + span <= lines.length; span++) {
    if (span > 1 && (!lines[i + span - 1]?.trim() || !ATTRIBUTION_START.test(lines[i] ?? '') || ATTRIBUTION_START.test(lines[i + 1] ?? ''))) break;
    const candidate = lines.slice(i, i + span).join(' ').trim();
    if (candidate.length > 400) break;
    // An attribution carries a date or an address; "On our side, John wrote:" does not.
    if (!/\d|@/.test(candidate)) continue;
    if (REPLY_ATTRIBUTION_PATTERNS.some((p) => p.test(candidate))) return span;
  }
  return 0;
}

/**
 * The new part of a reply: the text before the first "On … wrote:" line (or its equivalent
 * in the languages we recognise), "-----Original Message-----" separator, Outlook "From: …
 * Sent: …" header block, or `>`-quoted line; trimmed. When that leaves nothing (a reply
 * written below the quote), the text without its quoted lines.
 */
export function stripQuotedReply(text: string): string {
  const lines = (text ?? '').replace(/\r\n?/g, '\n').split('\n');
  let cut = lines.length;
  let attribution = { at: -1, span: 0 };
  // The quote is looked for in the first MAX_SCANNED_TEXT characters only, so a huge text costs
  // no more than that; one with no quote there is kept whole.
  for (let i = 0, offset = 0; i < lines.length && offset < MAX_SCANNED_TEXT; offset += (lines[i]?.length ?? 0) + 1, i++) {
    const line = lines[i] ?? '';
    if (QUOTED_LINE.test(line) || SEPARATOR.test(line)) {
      cut = i;
      break;
    }
    const span = attributionAt(lines, i);
    if (span) {
      cut = i;
      attribution = { at: i, span };
      break;
    }
    if (OUTLOOK_FROM.test(line) && lines.slice(i + 1, i + 5).some((l) => OUTLOOK_SENT.test(l))) {
      cut = i;
      break;
    }
  }
  const kept = lines.slice(0, cut);
  while (kept.length && (!kept[kept.length - 1]?.trim() || RULE_LINE.test(kept[kept.length - 1] ?? ''))) kept.pop();
  const result = kept.join('\n').trim();
  if (result || cut === lines.length) return result;
  // Written below the quote: everything but the quoted lines and the attribution.
  return lines
    .filter((l, i) => !QUOTED_LINE.test(l) && !(i >= attribution.at && i < attribution.at + attribution.span))
    .join('\n')
    .trim();
}
