// How the reply worker processes divide the mailboxes they read (pure: read-lease.service.ts
// applies it). Each mailbox is read by one process at a time, under a lease that lives as long as
// its reader; each reader takes its fair share of the mailboxes to read now, and gives back what
// exceeds it when more readers come, so that n workers open one IMAP session per mailbox, not n.

/** How often a reader renews itself and its leases, and looks for mailboxes to take (`refreshMs`). */
export const READ_REFRESH_MS = 15_000;
/**
 * A reader not renewed for this many refreshes is gone: its row and its leases are removed by the
 * next refresh of another reader, which takes its mailboxes. A killed worker's mailboxes are read
 * again within four refreshes (a minute by default); a stopped one gives them back at once.
 */
export const READER_TTL_REFRESHES = 3;

/** The most mailboxes one of `readers` live readers reads: an even share, rounded up so that every mailbox has a reader. */
export function readShare(options: { readable: number; readers: number }): number {
  return Math.ceil(options.readable / Math.max(1, options.readers));
}

export interface ReadLeasePlan {
  /** The mailboxes the reader holds and goes on reading. */
  keep: string[];
  /** The leases it gives back: mailboxes no longer to be read now, and those past its share. */
  release: string[];
  /** How many free mailboxes it may take. */
  take: number;
}

/**
 * What a reader does with its leases at a refresh: it keeps those of `held` still `readable`, up to
 * `share` (the oldest taken first, so that a mailbox stays with its reader: `held` comes in the order
 * the leases were taken), gives back the rest, and may take free ones up to its share.
 */
export function planReadLeases(options: { held: readonly string[]; readable: readonly string[]; share: number }): ReadLeasePlan {
  const readable = new Set(options.readable);
  const still = options.held.filter((id) => readable.has(id));
  const keep = still.slice(0, Math.max(0, options.share));
  const kept = new Set(keep);
  return { keep, release: options.held.filter((id) => !kept.has(id)), take: Math.max(0, options.share - keep.length) };
}
