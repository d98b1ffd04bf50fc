import { connectImap, type MailConnectionOptions, type MailServerSettings } from './mail-verifier';

/** Where a folder puts a message, for warmup placement. */
export type FolderKind = 'INBOX' | 'SPAM' | 'PROMOTIONS';

export interface WarmupFolder {
  path: string;
  kind: FolderKind;
}

export interface WarmupFolderMessage {
  uid: number;
  /** The message's source, as stored (the warmup code is looked for in its text). */
  raw: Buffer;
}

/** One logged-in IMAP session of the warmup scan. */
export interface WarmupImapSession {
  /** INBOX, the special-use \Junk folder, and folders named Spam, Junk, Bulk or Promotions when none carries the flag. */
  folders(): Promise<WarmupFolder[]>;
  /** Messages of a folder received since `since` (IMAP SINCE: whole days), at most `max`, newest first. */
  messagesSince(options: { folder: string; since: Date; max: number }): Promise<WarmupFolderMessage[]>;
  /** Moves messages to INBOX. */
  moveToInbox(options: { folder: string; uids: number[] }): Promise<void>;
  /** Adds flags (\Seen, \Flagged) to messages; a flag the server refuses is skipped. */
  addFlags(options: { folder: string; uids: number[]; flags: string[] }): Promise<void>;
  /** Deletes messages (\Deleted and expunged). */
  remove(options: { folder: string; uids: number[] }): Promise<void>;
}

/** The warmup side of a mailbox's IMAP server: a session per scan. */
export interface WarmupMailbox {
  /**
   * Logs in, runs `work`, logs out. A refused login (or a host not allowed) throws
   * MailLoginError('auth'); an unreachable server MailLoginError('connect').
   */
  session<T>(options: { imap: MailServerSettings; work: (session: WarmupImapSession) => Promise<T> }): Promise<T>;
}

const SPAM_NAMES = /^(?:\[gmail\]\/)?(?:spam|junk|junk e-?mail|bulk|bulk mail)$/i;
const PROMOTION_NAMES = /^(?:\[gmail\]\/)?(?:promotions|categories\/promotions)$/i;

/** The folders a warmup scan looks in, from a LIST answer (path, special-use flag): pure. */
export function warmupFolders(list: { path: string; specialUse?: string }[]): WarmupFolder[] {
  const folders: WarmupFolder[] = [{ path: 'INBOX', kind: 'INBOX' }];
  const junk = list.filter((f) => f.specialUse === '\\Junk');
  if (junk.length) folders.push(...junk.map((f) => ({ path: f.path, kind: 'SPAM' as const })));
  else folders.push(...list.filter((f) => SPAM_NAMES.test(f.path)).map((f) => ({ path: f.path, kind: 'SPAM' as const })));
  folders.push(...list.filter((f) => PROMOTION_NAMES.test(f.path)).map((f) => ({ path: f.path, kind: 'PROMOTIONS' as const })));
  return folders;
}

/** The imapflow implementation: one connection per session, to the vetted address of the host (mailTarget). */
export function createWarmupMailbox(options: MailConnectionOptions = {}): WarmupMailbox {
  return {
    async session({ imap, work }) {
      const client = await connectImap(imap, options);
      const inFolder = async <T>(folder: string, fn: () => Promise<T>): Promise<T> => {
        const lock = await client.getMailboxLock(folder);
        try {
          return await fn();
        } finally {
          lock.release();
        }
      };
      const session: WarmupImapSession = {
        async folders() {
          const list = await client.list();
          return warmupFolders(list.map((f) => ({ path: f.path, specialUse: f.specialUse })));
        },
        messagesSince: ({ folder, since, max }) =>
          inFolder(folder, async () => {
            const found = (await client.search({ since }, { uid: true })) || [];
            const uids = found.sort((a, b) => b - a).slice(0, max);
            const out: WarmupFolderMessage[] = [];
            if (!uids.length) return out;
            for await (const m of client.fetch(uids.join(','), { uid: true, source: true }, { uid: true })) {
              if (m.source) out.push({ uid: m.uid, raw: m.source });
            }
            return out;
          }),
        moveToInbox: ({ folder, uids }) =>
          inFolder(folder, async () => {
            if (uids.length) await client.messageMove(uids.join(','), 'INBOX', { uid: true });
          }),
        addFlags: ({ folder, uids, flags }) =>
          inFolder(folder, async () => {
            if (!uids.length) return;
            for (const flag of flags) await client.messageFlagsAdd(uids.join(','), [flag], { uid: true }).catch(() => false);
          }),
        remove: ({ folder, uids }) =>
          inFolder(folder, async () => {
            if (uids.length) await client.messageDelete(uids.join(','), { uid: true });
          }),
      };
      try {
        return await work(session);
      } finally {
        await client.logout().catch(() => client.close());
      }
    },
  };
}
