/**
 * The tables the recognition of incoming mail reads (bounce senders and subjects, automation
 * headers, auto-reply and out-of-office wording, reply attributions and quote separators), as
 * data: exported so the documentation can cite them. The rules that use them are in
 * bounce.rules.ts (delivery reports and classic bounces), quoted-reply.rules.ts (the quoted
 * conversation under a reply) and incoming.rules.ts (the classification that composes them).
 *
 * Every expression here runs over text a stranger sent us, so each is written to run in time
 * linear in its input (no nested or adjacent quantifiers that can match the same characters),
 * and the heuristics read only a bounded prefix of the text (MAX_SCANNED_TEXT) and of each
 * header (MAX_SCANNED_HEADER): one crafted message must not block the event loop.
 */

// ---------------------------------------------------------------------------------------
// Pattern lists
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

/**
 * "Re:", "AW:", "SV:", "Fwd:", "WG:", … (optionally numbered, "Re[2]:"): a subject answering or
 * forwarding another one. Its text is the campaign's subject, so wording found after the prefix
 * (anywhere-patterns, bracketed phrases) says nothing about this message.
 */
export const REPLY_OR_FORWARD_PREFIX = /^\s*(?:re|aw|sv|vs|antw|antwort|rif|r|res|ref|réf|rv|odp|wg|fw|fwd|tr|enc|doorst)(?:\s*(?:\[\d+\]|\(\d+\)))?\s*[:：]/iu;

// ---------------------------------------------------------------------------------------
// Scanning limits and helpers
// ---------------------------------------------------------------------------------------

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How much of a message's text (and of a delivery-status or returned-headers part) the
 * heuristics read. What tells a bounce or an away notice apart is near the start of the text:
 * the diagnostic, the notice, the attribution above a quote.
 */
export const MAX_SCANNED_TEXT = 64 * 1024;
/** How much of a header value (subject, Content-Type, …) the heuristics read; real ones are far shorter. */
export const MAX_SCANNED_HEADER = 8 * 1024;

/** `value` cut to its first `limit` characters. */
export const scanned = (value: string, limit: number) => (value.length > limit ? value.slice(0, limit) : value);
