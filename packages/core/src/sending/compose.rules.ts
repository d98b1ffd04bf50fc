/**
 * Composing the e-mail a lead receives for one step: merge fields, spintax, the follow-up
 * subject and threading, the unsubscribe link, the open pixel, and the plain-text part.
 *
 * The body is always rendered as HTML first, whatever the campaign sends: a plain-text
 * template is escaped and its line breaks turned into `<br>` *before* merging, so merged
 * values are escaped exactly once (by personalize()) and a lead's `<script>` or `&` can
 * neither inject markup nor be escaped twice. The text part is then htmlToText() of that
 * HTML, which is also what a campaign sending plain text sends: one rendering path, so
 * the two parts of an e-mail never say different things.
 */
import { escapeHtml, htmlToText } from '../shared/mail-html';
import { followUpSubject, threadHeaders } from '../shared/mail-threading';
import { personalize } from './personalize.rules';
import { spin } from './spintax.rules';

// ---------------------------------------------------------------------------------------
// compose
// ---------------------------------------------------------------------------------------

export interface ComposeOptions {
  /** The variation's subject template; '' on a follow-up means "same thread". */
  subject: string;
  /** The variation's body template: HTML as the editor stores it, or plain text. */
  body: string;
  /** Merge values, exactly as personalize() takes them. */
  variables: Record<string, string | null | undefined>;
  /** Spintax seed, e.g. `${leadId}:${step}` (spin() is deterministic per seed). */
  seed: string;
  /** The campaign sends plain text (no HTML part, no pixel). */
  sendAsText: boolean;
  /** Earlier sends to this lead in this sequence, oldest first; null for a first step. */
  previous: { subject: string; messageIds: string[] } | null;
  /** Open tracking on: the pixel's absolute URL (HTML only). */
  pixelUrl: string | null;
  /** Unsubscribe link on: its absolute URL and the link text (e.g. "Unsubscribe"). */
  unsubscribe: { url: string; text: string } | null;
}

export type ComposeResult =
  | {
      ok: true;
      subject: string;
      /** Null when the campaign sends plain text. */
      html: string | null;
      text: string;
      /** A follow-up continuing the previous e-mail's thread (and carrying its headers). */
      threaded: boolean;
      inReplyTo?: string;
      references?: string;
      /** Extra message headers (List-Unsubscribe). */
      headers: Record<string, string>;
    }
  | { ok: false; reason: string; missing: string[] };

// Elements a hand-written plain-text body never contains. A known list rather than any
// `<word>`: "Reply <yes> or <no>" is plain text, and treating it as HTML would swallow
// the words and the line breaks.
const HTML_ELEMENT =
  /<\/?(?:a|abbr|b|big|blockquote|body|br|center|code|div|em|font|h[1-6]|head|hr|html|i|img|li|meta|ol|p|pre|s|small|span|strike|strong|style|sub|sup|table|tbody|td|tfoot|th|thead|title|tr|u|ul)(?=[\s/>])|<!--|<!doctype/i;

/** Whether a body template is HTML (as the editor stores it) rather than plain text. */
function isHtml(template: string): boolean {
  return HTML_ELEMENT.test(template);
}

/**
 * A plain-text template as HTML: escaped, line breaks as `<br>`. Done on the template, not
 * on the rendered body: merge fields and spintax contain none of `& < > " '`, so they
 * survive, fallbacks (template text) get escaped with it, and personalize() escapes the
 * values, each character exactly once.
 */
function textToHtml(template: string): string {
  return escapeHtml(template.replace(/\r\n?/g, '\n')).replace(/\n/g, '<br>');
}

/** Inserts before the last `</body>` when there is one (content after it is outside the document), else appends. */
function insertBeforeBodyEnd(html: string, insert: string): string {
  if (!insert) return html;
  let at = -1;
  for (const match of html.matchAll(/<\/body\s*>/gi)) at = match.index;
  return at === -1 ? html + insert : html.slice(0, at) + insert + html.slice(at);
}

function missingReason(names: string[], where: string): string {
  return `no value for ${names.map((name) => `{{${name}}}`).join(', ')} in the ${where}`;
}

/**
 * Renders one step of a campaign for one lead: personalize() then spin() on the subject
 * and on the body (separate seeds, so the two choose independently), then the follow-up
 * subject and threading, the unsubscribe link and the open pixel.
 *
 * A merge field with no value and no fallback fails the whole e-mail, naming the fields
 * (sorted, each once) and where they were missing: the caller skips the lead rather than
 * send "Hi ,".
 *
 * A follow-up whose subject renders blank stays in the thread (`Re: <previous subject>`,
 * In-Reply-To / References from the earlier Message-IDs); one with its own subject starts
 * a new thread on purpose and carries no threading headers. The subject is one line:
 * line breaks from merged values become spaces.
 *
 * HTML: the unsubscribe paragraph, then the pixel, go just before `</body>` (or at the
 * end); the text part is rendered without the pixel. Plain text: no HTML part, no pixel
 * (it could not load anyway), the unsubscribe link as a last line. Either way, with an
 * unsubscribe URL the RFC 8058 one-click headers are set: Gmail and Yahoo require them
 * from bulk senders and show their own unsubscribe button from them.
 */
export function compose(options: ComposeOptions): ComposeResult {
  const { variables, seed, previous, pixelUrl, unsubscribe } = options;

  const subject = personalize({ template: options.subject, variables, spintax: true });
  const bodyTemplate = isHtml(options.body) ? options.body : textToHtml(options.body);
  const body = personalize({ template: bodyTemplate, variables, html: true, spintax: true });
  if (!subject.ok || !body.ok) {
    const reasons: string[] = [];
    if (!subject.ok) reasons.push(missingReason(subject.missing, 'subject'));
    if (!body.ok) reasons.push(missingReason(body.missing, 'body'));
    const missing = [...new Set([...(subject.ok ? [] : subject.missing), ...(body.ok ? [] : body.missing)])].sort();
    return { ok: false, reason: reasons.join('; '), missing };
  }

  const renderedSubject = spin({ text: subject.text, seed: `${seed}:subject` }).replace(/\s+/g, ' ').trim();
  const renderedBody = spin({ text: body.text, seed: `${seed}:body` });

  let finalSubject = renderedSubject;
  let thread: { inReplyTo?: string; references?: string } = {};
  let threaded = false;
  if (previous) {
    finalSubject = followUpSubject({ stepSubject: renderedSubject, previousSubject: previous.subject });
    if (renderedSubject === '') {
      threaded = true;
      thread = threadHeaders({ previousMessageIds: previous.messageIds });
    }
  }

  const headers: Record<string, string> = unsubscribe
    ? { 'List-Unsubscribe': `<${unsubscribe.url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    : {};

  let html: string | null = null;
  let text: string;
  if (options.sendAsText) {
    text = htmlToText(renderedBody);
    if (unsubscribe) text += `${text ? '\n\n' : ''}${unsubscribe.text}: ${unsubscribe.url}`;
  } else {
    const footer = unsubscribe
      ? `<p style="font-size:12px;color:#6b7280"><a href="${escapeHtml(unsubscribe.url)}">${escapeHtml(unsubscribe.text)}</a></p>`
      : '';
    const pixel = pixelUrl
      ? `<img src="${escapeHtml(pixelUrl)}" width="1" height="1" alt="" style="display:none;border:0;width:1px;height:1px">`
      : '';
    html = insertBeforeBodyEnd(renderedBody, footer + pixel);
    text = htmlToText(insertBeforeBodyEnd(renderedBody, footer));
  }

  return { ok: true, subject: finalSubject, html, text, threaded, ...thread, headers };
}
