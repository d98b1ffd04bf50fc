// What a read of a mailbox must write to its row (pure; mailbox-sync.service.ts).

/**
 * A read that found nothing new, with nothing to clear, writes its time only when the last one
 * written is older than this: `last_synced_at` is the last read to within this step. Every read
 * used to write the row (two UPDATEs of email_accounts a read, one per mailbox a minute at the
 * default IMAP_POLL_MS, on the table every sending claim locks).
 */
export const SYNCED_AT_STEP_MS = 5 * 60_000;

/** The mailbox's row as the read found it. */
export interface SyncedRow {
  status: string;
  imap_failures: number;
  imap_retry_at: Date | null;
  imap_synced_at: Date | null;
  imap_uidvalidity: bigint | null;
}

/** What the read found on the server. */
export interface ReadFound {
  uidValidity: bigint;
  reset: boolean;
  messages: number;
}

/**
 * Whether a read must write the mailbox's row: it found messages (each is stored only while the
 * mailbox is still to be read, which that write checks), UIDVALIDITY is new or changed, earlier
 * failures or a disconnection by reading are to be cleared, or the recorded read time is older
 * than SYNCED_AT_STEP_MS (or ahead of now: a clock set back).
 */
export function readNeedsWrite(row: SyncedRow, found: ReadFound, now: Date): boolean {
  if (found.messages > 0 || found.reset) return true;
  if (row.imap_uidvalidity === null || BigInt(row.imap_uidvalidity) !== found.uidValidity) return true;
  if (row.status !== 'ACTIVE' || row.imap_failures > 0 || row.imap_retry_at !== null) return true;
  if (row.imap_synced_at === null) return true;
  const age = now.getTime() - row.imap_synced_at.getTime();
  return age >= SYNCED_AT_STEP_MS || age < 0;
}
