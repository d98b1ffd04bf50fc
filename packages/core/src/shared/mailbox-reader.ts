import type { ImapFlow } from 'imapflow';
import { connectImap, type MailConnectionOptions, type MailServerSettings } from './mail-verifier';

/** One message read from a mailbox's INBOX. */
export interface FetchedMessage {
  uid: bigint;
  /** The RFC 5322 source, as stored on the server. */
  raw: Buffer;
  /** When the server received it (IMAP INTERNALDATE). */
  internalDate: Date;
}

export interface FetchBatch {
  /** The INBOX's UIDVALIDITY now. */
  uidValidity: bigint;
  /** UIDVALIDITY changed since the last read: UIDs start again, so `messages` starts from UID 1. */
  reset: boolean;
  /** The next messages after `lastUid` in UID order, at most `max`. */
  messages: FetchedMessage[];
}

/**
 * One logged-in IMAP connection to a mailbox, kept by the reply worker from one read to the next
 * (each read and each wait for news used to log in anew: two logins a minute per mailbox).
 */
export interface MailboxSession {
  /**
   * The messages with a UID above `lastUid` (or from the start when `uidValidity` differs from the
   * server's), oldest first. Fails when the connection was lost (the caller logs in again).
   */
  fetchNew(options: { uidValidity: bigint | null; lastUid: bigint; max: number }): Promise<FetchBatch>;
  /**
   * Waits until the INBOX may hold something new: IMAP IDLE when the server offers it (returns when
   * it reports new mail, and at once when mail came since the last fetch), otherwise simply
   * `timeoutMs`. Returns at the latest after `timeoutMs`, or when `signal` aborts or the connection
   * closes.
   */
  waitForNews(options: { timeoutMs: number; signal?: AbortSignal }): Promise<void>;
  /** False once the server or the network has closed the connection. */
  readonly usable: boolean;
  /** Logs out (or drops the connection when that fails or takes more than a few seconds). */
  close(): Promise<void>;
}

/** Reads mailboxes' INBOX over IMAP (the replies side of a mailbox). */
export interface MailboxReader {
  /**
   * Connects and logs in. A refused login, or a host that is not allowed, throws
   * MailLoginError('auth'); an unreachable server MailLoginError('connect').
   */
  open(options: { imap: MailServerSettings }): Promise<MailboxSession>;
  /** One read on a connection of its own (open, fetchNew, close). */
  fetchNew(options: { imap: MailServerSettings; uidValidity: bigint | null; lastUid: bigint; max: number }): Promise<FetchBatch>;
}

/** How long a session's LOGOUT may take before its connection is simply closed. */
const LOGOUT_WAIT_MS = 5_000;

/** A session over an imapflow connection. */
function imapSession(c: ImapFlow): MailboxSession {
  // The INBOX's message count when the last fetch selected it: more since then is news.
  let seen: number | null = null;
  const inbox = async () => {
    const box = await c.mailboxOpen('INBOX', { readOnly: true });
    return { exists: box.exists, uidValidity: BigInt(box.uidValidity), uidNext: box.uidNext };
  };
  return {
    get usable() {
      return c.usable;
    },

    async fetchNew({ uidValidity, lastUid, max }) {
      const box = await inbox();
      seen = box.exists;
      const reset = uidValidity !== null && uidValidity !== box.uidValidity;
      const from = reset ? 1n : lastUid + 1n;
      const messages: FetchedMessage[] = [];
      if (box.exists > 0 && (box.uidNext === undefined || BigInt(box.uidNext) > from)) {
        // UIDs first, then only the first `max` sources: a first read of a large INBOX stays bounded.
        // (`from:*` always matches the last message even when its UID is below `from`; filtered here.)
        const found = (await c.search({ uid: `${from}:*` }, { uid: true })) || [];
        const uids = found.map((u) => BigInt(u)).filter((u) => u >= from).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, max);
        if (uids.length) {
          for await (const m of c.fetch(uids.join(','), { uid: true, source: true, internalDate: true }, { uid: true })) {
            if (!m.source) continue;
            messages.push({ uid: BigInt(m.uid), raw: m.source, internalDate: m.internalDate instanceof Date ? m.internalDate : new Date(m.internalDate ?? Date.now()) });
          }
          messages.sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
        }
      }
      return { uidValidity: box.uidValidity, reset, messages };
    },

    async waitForNews({ timeoutMs: wait, signal }) {
      if (signal?.aborted || !c.usable) return;
      if (!c.capabilities.has('IDLE')) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
        return;
      }
      // A session opened to wait (no fetch before): the INBOX is selected for IDLE.
      if (!c.mailbox || c.mailbox.path !== 'INBOX') seen = (await inbox()).exists;
      // Mail that came between the last fetch and now (its EXISTS went by before anyone listened).
      if (seen !== null && c.mailbox && c.mailbox.exists > seen) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          c.off('exists', done);
          c.off('close', done);
          resolve();
        };
        const timer = setTimeout(done, wait);
        if (signal?.aborted) return done();
        signal?.addEventListener('abort', done, { once: true });
        c.on('exists', done);
        c.on('close', done);
        // The IDLE goes on after `done`: the next command on the connection (or the logout) ends it.
        c.idle().then(done, done);
      });
    },

    async close() {
      // A connection the network lost without a word would hold LOGOUT until the socket timeout (minutes).
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, LOGOUT_WAIT_MS)));
      await Promise.race([c.logout().catch(() => undefined), late]);
      clearTimeout(timer);
      c.close();
    },
  };
}

/**
 * The imapflow reader. Each connection goes to the vetted address of the host (see mailTarget),
 * and a failure to connect or log in is a MailLoginError with a fixed message.
 */
export function createMailboxReader(options: MailConnectionOptions = {}): MailboxReader {
  const open = async ({ imap }: { imap: MailServerSettings }) => imapSession(await connectImap(imap, options));
  return {
    open,
    async fetchNew({ imap, ...read }) {
      const session = await open({ imap });
      try {
        return await session.fetchNew(read);
      } finally {
        await session.close();
      }
    },
  };
}
