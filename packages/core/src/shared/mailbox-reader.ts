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

/** Reads mailboxes' INBOX over IMAP (the replies side of a mailbox). */
export interface MailboxReader {
  /**
   * The messages with a UID above `lastUid` (or from the start when `uidValidity` differs
   * from the server's), oldest first. A refused login, or a host that is not allowed, throws
   * MailLoginError('auth'); an unreachable server MailLoginError('connect').
   */
  fetchNew(options: { imap: MailServerSettings; uidValidity: bigint | null; lastUid: bigint; max: number }): Promise<FetchBatch>;
  /**
   * Waits until the INBOX may hold something new: IMAP IDLE when the server offers it
   * (returns when it reports new mail), otherwise simply `timeoutMs`. Returns at the
   * latest after `timeoutMs`, or when `signal` aborts.
   */
  waitForNews(options: { imap: MailServerSettings; timeoutMs: number; signal?: AbortSignal }): Promise<void>;
}

/**
 * The imapflow reader. A connection per call: mailboxes are read once a minute or on
 * IDLE news, so a short-lived login is cheap and never holds a stale session. Each
 * connection goes to the vetted address of the host (see mailTarget), and a failure to
 * connect or log in is a MailLoginError with a fixed message.
 */
export function createMailboxReader(options: MailConnectionOptions = {}): MailboxReader {
  const connect = (s: MailServerSettings) => connectImap(s, options);

  return {
    async fetchNew({ imap, uidValidity, lastUid, max }) {
      const c = await connect(imap);
      try {
        const box = await c.mailboxOpen('INBOX', { readOnly: true });
        const current = BigInt(box.uidValidity);
        const reset = uidValidity !== null && uidValidity !== current;
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
        return { uidValidity: current, reset, messages };
      } finally {
        await c.logout().catch(() => c.close());
      }
    },

    async waitForNews({ imap, timeoutMs: wait, signal }) {
      if (signal?.aborted) return;
      const c = await connect(imap);
      try {
        if (signal?.aborted) return;
        if (!c.capabilities.has('IDLE')) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          });
          return;
        }
        await c.mailboxOpen('INBOX', { readOnly: true });
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            c.off('exists', done);
            resolve();
          };
          const timer = setTimeout(done, wait);
          // Aborted while connecting: an abort listener added now would never be called.
          if (signal?.aborted) return done();
          signal?.addEventListener('abort', done, { once: true });
          c.on('exists', done);
          c.idle().catch(done);
        });
      } finally {
        await c.logout().catch(() => c.close());
      }
    },
  };
}
