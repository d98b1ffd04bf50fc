// The reply readers' statements (read-lease.service.ts): a reader's renewal, and the leases it
// gives back and takes. Timestamps travel as ISO strings cast in SQL (the worker's clock is
// injected, so database now() is never used for a decision).

/** Mailboxes to read now: connected ones, and those their IMAP login disconnected whose retry time has come. $1 now, $2 the workspaces (null: all). */
const READABLE_NOW = `
  (status = 'ACTIVE' OR (status = 'DISCONNECTED' AND disconnect_reason = 'imap_auth'))
  AND (imap_retry_at IS NULL OR imap_retry_at <= $1::timestamptz)
  AND ($2::text[] IS NULL OR workspace_id = ANY($2::text[]))`;

/** The ids of the mailboxes to read now, in id order. $1 now, $2 the workspaces (null: all). */
export const MAILBOXES_TO_READ_SQL = `SELECT id FROM email_accounts WHERE ${READABLE_NOW} ORDER BY id`;

/**
 * Readers refresh one at a time (a transaction-scoped advisory lock, taken first): each then sees
 * the others' leases and count as they left them, so readers starting together divide the
 * mailboxes at their first refreshes instead of all reaching for the same free ones.
 */
export const READERS_IN_TURN_SQL = 'SELECT pg_advisory_xact_lock(8031966454)';

export interface ReaderRenewal {
  /** The live readers, this one included. */
  readers: number;
  /** Readers found expired and removed, with their leases. */
  gone: number;
  /** The mailboxes this reader holds, oldest lease first. */
  held: string[];
  /** The mailboxes to read now, in id order. */
  readable: string[];
}

/**
 * A reader's refresh, in one statement: it renews itself (or comes back, when another reader found
 * it expired and removed it), removes the readers that have expired (their leases go with them, by
 * the foreign key), and reads how many readers are live, the leases it holds and the mailboxes to
 * read now. $1 now, $2 the workspaces (null: all), $3 the reader's id, $4 its name, $5 until when.
 */
export const RENEW_READER_SQL = `
  WITH renewed AS (
    INSERT INTO mailbox_readers (id, name, started_at, expires_at) VALUES ($3, $4, $1::timestamptz, $5::timestamptz)
    ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at
    RETURNING id
  ), gone AS (
    DELETE FROM mailbox_readers WHERE expires_at < $1::timestamptz AND id <> $3 RETURNING id
  )
  SELECT (SELECT count(*) FROM mailbox_readers WHERE expires_at >= $1::timestamptz AND id <> $3)::int
           + (SELECT count(*) FROM renewed)::int AS readers,
         (SELECT count(*) FROM gone)::int AS gone,
         COALESCE((SELECT array_agg(email_account_id ORDER BY taken_at, email_account_id)
                     FROM mailbox_read_leases WHERE reader_id = $3), '{}') AS held,
         COALESCE((SELECT array_agg(id ORDER BY id) FROM email_accounts WHERE ${READABLE_NOW}), '{}') AS readable`;

/** Gives back leases of this reader. $1 the reader's id, $2 the mailboxes. */
export const RELEASE_LEASES_SQL = 'DELETE FROM mailbox_read_leases WHERE reader_id = $1 AND email_account_id = ANY($2::text[])';

/**
 * Takes up to $4 of the mailboxes $3 that no reader holds, in id order (readers refresh in turn,
 * READERS_IN_TURN_SQL; a conflict would still only skip the mailbox). Only mailboxes that still
 * exist. $1 now, $2 the reader's id. The ids taken.
 */
export const TAKE_LEASES_SQL = `
  INSERT INTO mailbox_read_leases (email_account_id, reader_id, taken_at)
  SELECT e.id, $2, $1::timestamptz
    FROM email_accounts e
   WHERE e.id = ANY($3::text[])
     AND NOT EXISTS (SELECT 1 FROM mailbox_read_leases l WHERE l.email_account_id = e.id)
   ORDER BY e.id
   LIMIT $4
  ON CONFLICT (email_account_id) DO NOTHING
  RETURNING email_account_id AS id`;

/** A reader that stops: its row, and its leases with it. $1 the reader's id. */
export const RETIRE_READER_SQL = 'DELETE FROM mailbox_readers WHERE id = $1';

/** Every reader but $1, and their leases (a sole reader starting: they were left by processes that died). */
export const RETIRE_OTHER_READERS_SQL = 'DELETE FROM mailbox_readers WHERE id <> $1';

/**
 * Mailboxes to read now that no live reader holds (for the metrics: non-zero for more than a refresh
 * or two means no worker reads them). $1 now, $2 null.
 */
export const UNREAD_MAILBOXES_SQL = `
  SELECT count(*)::int AS unread FROM email_accounts e
   WHERE ${READABLE_NOW}
     AND NOT EXISTS (SELECT 1 FROM mailbox_read_leases l JOIN mailbox_readers r ON r.id = l.reader_id
                      WHERE l.email_account_id = e.id AND r.expires_at >= $1::timestamptz)`;
