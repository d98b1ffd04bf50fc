/** The entries of a pasted or loaded list: one per line, or separated by commas, semicolons or spaces; quotes and blanks dropped, each once. */
export function entriesOf(text: string): string[] {
  const entries = text
    .split(/[\s,;]+/)
    .map((e) => e.trim().replace(/^["']+|["']+$/g, ''))
    .filter((e) => e.length > 0);
  return [...new Set(entries)];
}

/** Requests of at most `size` entries (the API takes 1,000 at a time). */
export function chunksOf<T>(items: T[], size = 1000): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
