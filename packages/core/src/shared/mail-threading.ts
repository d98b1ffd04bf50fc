/**
 * Threading of a reply or follow-up: the `Re:` subject and the In-Reply-To / References
 * headers (RFC 5322 §3.6.4). Pure.
 */
// `Re:` as mail clients write it, in any case, and the `Re[2]:` some of them use.
const REPLY_PREFIX = /^\s*re(\[\d+\])?\s*:/i;

/**
 * The subject of a follow-up step: its own subject when it has one (a new thread on
 * purpose), else `Re: <previous subject>` so it lands in the same conversation, without
 * stacking a second `Re:` on a subject that already has one.
 */
export function followUpSubject(options: { stepSubject: string | null | undefined; previousSubject: string | null | undefined }): string {
  const own = options.stepSubject?.trim();
  if (own) return own;
  const previous = options.previousSubject?.trim() ?? '';
  if (!previous) return '';
  return REPLY_PREFIX.test(previous) ? previous : `Re: ${previous}`;
}

/**
 * Threading headers for a follow-up (RFC 5322 §3.6.4): In-Reply-To names the last message
 * of the thread, References all of them oldest first, each in angle brackets and
 * space-separated. Ids are accepted with or without their brackets; blank ones are
 * skipped. Empty for a first step.
 */
export function threadHeaders(options: { previousMessageIds: readonly string[] }): { inReplyTo?: string; references?: string } {
  const ids = options.previousMessageIds
    .map((id) => id.trim().replace(/^<+/, '').replace(/>+$/, '').trim())
    .filter(Boolean)
    .map((id) => `<${id}>`);
  const last = ids[ids.length - 1];
  if (last === undefined) return {};
  return { inReplyTo: last, references: ids.join(' ') };
}

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
