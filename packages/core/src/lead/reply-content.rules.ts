/** Reply-content triggers of subsequences (pure): whether a reply's text holds the phrases a subsequence waits for. */

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
