/**
 * HTML for e-mail, both ways: escaping a value into HTML, and the plain-text rendering of an
 * HTML body (the text part of a campaign e-mail, a unified-inbox reply, a received message's
 * text when it came as HTML only). Pure.
 */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes the five characters that matter in HTML text and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

// ---------------------------------------------------------------------------------------
// htmlToText
// ---------------------------------------------------------------------------------------

type Token = { kind: 'text'; value: string } | { kind: 'tag'; name: string; closing: boolean; attributes: string };

/**
 * Named entities decoded besides the numeric ones: the XML five, the non-breaking space,
 * and the typography editors and word processors actually produce. Anything else is left
 * as written (a text e-mail showing `&foo;` beats one silently losing it).
 */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
  pound: '£',
  times: '×',
  deg: '°',
  // Invisible: soft hyphen and the zero-width joiners of preheader padding.
  shy: '',
  zwnj: '',
  zwj: '',
};

const ENTITY = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return Object.hasOwn(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name]! : whole;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
    // NUL, lone surrogates and values past Unicode become U+FFFD, as in a browser.
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(code);
  });
}

// `<name` or `</name`: the name runs, as in a browser, to whitespace, `/` or `>`. So
// `<sales@acme.com>` is an (unknown, hence invisible) element, exactly as a mail client shows it.
const TAG_START = /<(\/?)([a-zA-Z][^\s/>]*)/y;
// The rest of a tag up to its `>`, quoted attribute values allowed to contain `>`.
const TAG_REST = /(?:[^>"']|"[^"]*"|'[^']*')*>/y;
// Their content is not text at all (CSS, code, the window title): dropped up to the closing tag.
const RAW_TEXT_ELEMENTS = new Set(['style', 'script', 'title']);

/**
 * Splits HTML into text and tags; comments, declarations (`<!DOCTYPE>`, `<![endif]>`) and
 * raw-text elements are dropped here. A `<` that starts no tag is text. Linear in the
 * input: a tag with an unclosed quote makes quotes unreliable for the rest of the input
 * (tags then end at the first `>`) instead of rescanning to the end from every `<`.
 */
function tokenize(html: string): { tokens: Token[]; markup: boolean } {
  const tokens: Token[] = [];
  let markup = false;
  let text = '';
  let quotesReliable = true;
  const pushText = () => {
    if (text) tokens.push({ kind: 'text', value: text });
    text = '';
  };
  let pos = 0;
  while (pos < html.length) {
    const lt = html.indexOf('<', pos);
    if (lt === -1) {
      text += html.slice(pos);
      break;
    }
    text += html.slice(pos, lt);
    pos = lt;
    if (html.startsWith('<!--', pos)) {
      // `<!-->` is a complete (empty) comment; an unclosed one runs to the end, as in a browser.
      const end = html.indexOf('-->', pos + 2);
      pos = end === -1 ? html.length : end + 3;
      markup = true;
      continue;
    }
    const next = html[pos + 1];
    if (next === '!' || next === '?') {
      const end = html.indexOf('>', pos);
      pos = end === -1 ? html.length : end + 1;
      markup = true;
      continue;
    }
    TAG_START.lastIndex = pos;
    const start = TAG_START.exec(html);
    if (!start) {
      text += '<';
      pos++;
      continue;
    }
    const afterName = pos + start[0].length;
    let end = -1;
    if (quotesReliable) {
      TAG_REST.lastIndex = afterName;
      if (TAG_REST.exec(html)) end = TAG_REST.lastIndex;
      else quotesReliable = false;
    }
    if (end === -1) {
      const gt = html.indexOf('>', afterName);
      if (gt === -1) {
        // No `>` anywhere after: nothing from here on can be a tag.
        text += html.slice(pos);
        break;
      }
      end = gt + 1;
    }
    markup = true;
    const name = start[2]!.toLowerCase();
    const closing = start[1] === '/';
    pos = end;
    if (!closing && RAW_TEXT_ELEMENTS.has(name)) {
      const close = new RegExp(`</${name}(?=[\\s/>])`, 'gi');
      close.lastIndex = pos;
      const found = close.exec(html);
      const gt = found ? html.indexOf('>', found.index) : -1;
      pos = gt === -1 ? html.length : gt + 1;
      continue;
    }
    pushText();
    tokens.push({ kind: 'tag', name, closing, attributes: html.slice(afterName, end - 1) });
  }
  pushText();
  return { tokens, markup };
}

const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** An attribute's decoded value, the first occurrence winning as in HTML; undefined when absent. */
function attribute(attributes: string, wanted: string): string | undefined {
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    if (match[1]!.toLowerCase() !== wanted) continue;
    return decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return undefined;
}

// Elements that sit on their own lines. Paragraphs and headings are also set apart by a
// blank line (their margins); the others by a line break.
const PARAGRAPH_ELEMENTS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'center',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'pre',
  'section',
  'table',
  'tfoot',
  'tr',
  'ul',
]);
// What `<head>` may hold; anything else ends it, as a browser closes an unclosed head.
const HEAD_ELEMENTS = new Set(['head', 'meta', 'link', 'base', 'noscript']);

/** A link label that already is its URL, give or take the scheme, case and a trailing slash. */
function sameUrl(label: string, href: string): boolean {
  const normal = (url: string) => url.replace(/^https?:\/\//i, '').replace(/\/+$/, '').toLowerCase();
  return normal(label) === normal(href);
}

/** Plain-text lines as a text e-mail should have them; see htmlToText. */
function normaliseLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The plain-text alternative of an HTML e-mail body, readable as it stands: spam filters
 * score a text part that is empty or unrelated to the HTML, and some recipients only ever
 * see this part. Paragraphs and headings are separated by a blank line, other blocks and
 * `<br>` by a line break; list items start with `- ` (`1. `, `2. ` … in an `<ol>`, as the
 * HTML shows them); table cells are separated by a space; links read `label (URL)`, just
 * the URL when the label already is it, just the label for `mailto:`; images keep their
 * alt text in brackets; `<head>`, `<style>`, `<script>` and comments disappear. Entities
 * are decoded, runs of spaces collapsed, lines trimmed, at most one blank line in a row.
 *
 * Input with no markup at all is plain text already: its line breaks are kept, its
 * entities decoded and its whitespace normalised the same way.
 */
export function htmlToText(html: string): string {
  const { tokens, markup } = tokenize(html);
  if (!markup) return normaliseLines(decodeEntities(html));

  // The output as pieces, with its last character and trailing line breaks kept aside:
  // reading the end of a string built by `+=` makes V8 flatten it, which on every piece
  // of text would make a long body quadratic.
  const out: string[] = [];
  let last = '';
  let trailingNewlines = 0;
  const append = (piece: string) => {
    if (!piece) return;
    out.push(piece);
    last = piece[piece.length - 1]!;
    let newlines = 0;
    while (newlines < piece.length && piece[piece.length - 1 - newlines] === '\n') newlines++;
    trailingNewlines = newlines === piece.length ? trailingNewlines + newlines : newlines;
  };
  // Line breaks owed before the next text: blocks ask for them, text pays them, so
  // adjacent blocks share their breaks instead of adding them up.
  let need = 0;
  // `- ` (or `1. `) waiting for the first text of a list item, so that a `<p>` inside the
  // `<li>` does not push the text off the bullet's line.
  let bullet = '';
  let preDepth = 0;
  let inHead = false;
  const lists: { ordered: boolean; next: number }[] = [];
  let link: { href: string; start: number | null } | null = null;

  const atLineStart = () => out.length === 0 || last === '\n';
  const lineBreak = (count: number) => {
    need = Math.max(need, count);
  };
  const flush = () => {
    if (out.length > 0 && need > trailingNewlines) append('\n'.repeat(need - trailingNewlines));
    need = 0;
  };
  const emit = (value: string) => {
    if (!value) return;
    if (preDepth === 0 && (need > 0 || bullet || atLineStart()) && value.trim() === '') return;
    flush();
    if (preDepth === 0 && (atLineStart() || last === ' ' || bullet)) value = value.replace(/^ +/, '');
    if (bullet) {
      append(bullet);
      bullet = '';
    }
    if (link && link.start === null) link.start = out.length;
    append(value);
  };
  const closeLink = () => {
    if (!link) return;
    const { href, start } = link;
    link = null;
    if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return;
    const region = start === null ? '' : out.slice(start).join('');
    const label = region.replace(/\s+/g, ' ').trim();
    // A mailto link's label is the address or says whom to write to: the URL adds nothing.
    if (/^mailto:/i.test(href)) return;
    if (!label) {
      emit(href);
    } else if (sameUrl(label, href)) {
      const leading = region.slice(0, region.length - region.trimStart().length);
      const trailing = region.slice(region.trimEnd().length);
      out.length = start!;
      append(leading + href + trailing);
    } else {
      // Appended without paying pending breaks: `<a><div>Book</div></a>` reads `Book (URL)`.
      append(`${/\s/.test(last) ? '' : ' '}(${href})`);
    }
  };

  for (const token of tokens) {
    if (inHead) {
      if (token.kind === 'tag' && token.name === 'head' && token.closing) {
        inHead = false;
        continue;
      }
      const stillHead = token.kind === 'text' ? token.value.trim() === '' : HEAD_ELEMENTS.has(token.name);
      if (stillHead) continue;
      inHead = false;
    }

    if (token.kind === 'text') {
      if (preDepth > 0) emit(decodeEntities(token.value.replace(/\r\n?/g, '\n')));
      else emit(decodeEntities(token.value.replace(/[ \t\n\r\f]+/g, ' ')));
      continue;
    }

    const { name, closing, attributes } = token;
    if (name === 'head' && !closing) {
      inHead = true;
    } else if (name === 'br') {
      // `</br>` too: browsers read it as `<br>`.
      flush();
      append('\n');
    } else if (name === 'img') {
      const alt = attribute(attributes, 'alt')?.replace(/\s+/g, ' ').trim();
      if (alt) emit(`[${alt}]`);
    } else if (name === 'a') {
      closeLink();
      if (!closing) link = { href: (attribute(attributes, 'href') ?? '').trim(), start: null };
    } else if (name === 'li') {
      lineBreak(1);
      if (!closing) {
        flush();
        const list = lists[lists.length - 1];
        bullet = list?.ordered ? `${list.next++}. ` : '- ';
      }
    } else if (name === 'ul' || name === 'ol') {
      lineBreak(1);
      if (closing) lists.pop();
      else {
        const start = Number.parseInt(attribute(attributes, 'start') ?? '', 10);
        lists.push({ ordered: name === 'ol', next: Number.isFinite(start) ? start : 1 });
      }
    } else if (name === 'td' || name === 'th') {
      if (!closing && need === 0 && out.length > 0 && !/\s/.test(last)) append(' ');
    } else if (PARAGRAPH_ELEMENTS.has(name)) {
      // Inside a list item a paragraph is the item's line, not a spaced-out block.
      lineBreak(lists.length > 0 ? 1 : 2);
    } else if (BLOCK_ELEMENTS.has(name)) {
      lineBreak(1);
      if (name === 'pre') preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
    }
  }
  closeLink();
  return normaliseLines(out.join(''));
}
