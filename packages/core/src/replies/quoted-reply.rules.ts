/**
 * The new part of a reply, without the quoted conversation (pure). The attribution lines,
 * separators and Outlook labels it looks for are in incoming-patterns.rules.ts; like every
 * expression there, these run in time linear in their input, over a bounded prefix of the text.
 */
import {
  escapeRegExp,
  MAX_SCANNED_TEXT,
  ORIGINAL_MESSAGE_MARKERS,
  OUTLOOK_FROM_LABELS,
  OUTLOOK_SENT_LABELS,
  REPLY_ATTRIBUTION_PATTERNS,
} from './incoming-patterns.rules';

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
