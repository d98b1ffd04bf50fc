// A mailbox reader without a server, for the tests of what a read does with a batch (ingestion
// failures, races with the mailbox's deletion): its INBOX is whatever `fetch` answers, and a wait
// for news returns at once. The reading itself is tested against Dovecot.
import type { FetchBatch, MailboxReader, MailboxSession } from '../shared/mailbox-reader';

type Fetch = (read: { uidValidity: bigint | null; lastUid: bigint; max: number }) => Promise<FetchBatch>;

export function stubMailboxReader(fetch: Fetch): MailboxReader {
  const session: MailboxSession = { usable: true, fetchNew: fetch, waitForNews: async () => {}, close: async () => {} };
  return { open: async () => session, fetchNew: ({ imap: _imap, ...read }) => fetch(read) };
}
