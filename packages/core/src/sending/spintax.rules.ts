/**
 * Spintax: `{Hi|Hello|Hey}` picks one option, groups nest (`{Hi {there|friend}|Hello}`),
 * and `\{`, `\}`, `\|`, `\\` are literal characters.
 *
 * Render order: personalize() first, then spin(). Merge fields are resolved before the
 * text is spun, and spin() in any case copies a `{{…}}` placeholder through untouched, so
 * the `|` of `{{first_name|there}}` never splits a group.
 */
import { pickIndex } from '../shared/hash';

type SpinNode = { kind: 'text'; value: string } | { kind: 'group'; index: number; options: SpinNode[][] };

// A merge-field placeholder as personalize() reads it: copied through as one atom.
const PLACEHOLDER = /\{\{[^{}]*\}\}/y;
const ESCAPABLE = new Set(['{', '}', '|', '\\']);
// The characters a sequence interprets; everything between them is copied as it is.
const SPECIAL = /[{}|\\]/g;
// Deeper than anyone writes by hand; past it `{` is literal, which bounds the recursion.
const MAX_DEPTH = 50;

interface Parsed {
  nodes: SpinNode[];
  /** Index of the character that stopped the sequence (`|`, `}` or the end). */
  end: number;
}

function parse(text: string): SpinNode[] {
  // Group parses keyed by the position of their `{`. A group's parse does not depend on
  // what encloses it, so a failed (unclosed) one is never retried: without this, a text
  // with many stray `{` would be rescanned once per enclosing attempt.
  const groups = new Map<number, { node: SpinNode[]; end: number } | null>();

  function parseGroup(open: number, depth: number): { node: SpinNode[]; end: number } | null {
    const cached = groups.get(open);
    if (cached !== undefined) return cached;
    const options: SpinNode[][] = [];
    let result: { node: SpinNode[]; end: number } | null = null;
    let pos = open + 1;
    for (;;) {
      const option = parseSequence(pos, depth + 1);
      if (option.end >= text.length) break; // unclosed: not a group
      options.push(option.nodes);
      if (text[option.end] === '}') {
        // One option is a literal brace pair (`{name}`), kept as written; its content is
        // still spun, so `{see {a|b}}` keeps its outer braces.
        const node: SpinNode[] =
          options.length === 1
            ? [{ kind: 'text', value: '{' }, ...options[0]!, { kind: 'text', value: '}' }]
            : [{ kind: 'group', index: -1, options }];
        result = { node, end: option.end + 1 };
        break;
      }
      pos = option.end + 1;
    }
    groups.set(open, result);
    return result;
  }

  function parseSequence(start: number, depth: number): Parsed {
    const nodes: SpinNode[] = [];
    let buffer = '';
    const flush = () => {
      if (buffer) nodes.push({ kind: 'text', value: buffer });
      buffer = '';
    };
    let pos = start;
    while (pos < text.length) {
      // A run with nothing to interpret is copied as one slice, not a character at a time.
      SPECIAL.lastIndex = pos;
      const next = SPECIAL.exec(text)?.index ?? text.length;
      if (next > pos) {
        buffer += text.slice(pos, next);
        pos = next;
        continue;
      }
      const c = text[pos]!;
      if (c === '\\' && pos + 1 < text.length && ESCAPABLE.has(text[pos + 1]!)) {
        buffer += text[pos + 1];
        pos += 2;
      } else if (c === '{') {
        PLACEHOLDER.lastIndex = pos;
        const placeholder = PLACEHOLDER.exec(text);
        if (placeholder) {
          buffer += placeholder[0];
          pos += placeholder[0].length;
          continue;
        }
        const group = depth < MAX_DEPTH ? parseGroup(pos, depth) : null;
        if (group) {
          flush();
          nodes.push(...group.node);
          pos = group.end;
        } else {
          buffer += c;
          pos++;
        }
      } else if (depth > 0 && (c === '|' || c === '}')) {
        break;
      } else {
        // At the top level a stray `|` or `}` is plain text; so is a `\` escaping nothing.
        buffer += c;
        pos++;
      }
    }
    flush();
    return { nodes, end: pos };
  }

  return parseSequence(0, 0).nodes;
}

/**
 * Numbers the groups in document order, options included, so a group's choice depends on
 * which group it is rather than on its character offset: editing the words around a group
 * does not reshuffle what every lead already got.
 */
function numberGroups(nodes: SpinNode[], next = { value: 0 }): void {
  for (const node of nodes) {
    if (node.kind !== 'group') continue;
    node.index = next.value++;
    for (const option of node.options) numberGroups(option, next);
  }
}

function render(nodes: SpinNode[], seed: string): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.value;
    else out += render(node.options[pickIndex(`${seed}\u0000${node.index}`, node.options.length)]!, seed);
  }
  return out;
}

/**
 * Resolves every spintax group. The choice is a hash of the seed and the group's number,
 * never Math.random: with a seed like `${leadId}:${step}` a retried or re-rendered send
 * says the same thing, while different leads spread evenly over the options. Each group
 * hashes separately, so two groups in one text choose independently.
 *
 * Left as written: a single-option `{name}`, an unclosed `{`, a stray `}` or `|`, and any
 * `{{…}}` placeholder. Escapes (`\{ \} \| \\`) come out as the bare character.
 */
export function spin(options: { text: string; seed: string }): string {
  // No group and no escape: nothing to do (most subjects, many bodies).
  if (!options.text.includes('{') && !options.text.includes('\\')) return options.text;
  const nodes = parse(options.text);
  numberGroups(nodes);
  return render(nodes, options.seed);
}

/** Whether the text contains at least one real spintax group (a caller can then skip spinning). */
export function hasSpintax(text: string): boolean {
  // Nested groups sit inside a top-level group, and single-brace wrappers are flattened,
  // so looking at the top level is enough.
  return parse(text).some((node) => node.kind === 'group');
}
