/**
 * Reading a connected mailbox's INBOX, incrementally by UID with UIDVALIDITY checked, and
 * handing each message to ingestMessage (the reply worker, reply-worker.service.ts, keeps one
 * loop per mailbox it reads). A refused login marks the mailbox DISCONNECTED and is retried
 * with backoff; a successful login reconnects a mailbox that reading had disconnected.
 * XOAUTH2 mailboxes log in with their access token (refreshed once on a refused login); a
 * revoked grant disconnects the mailbox (`oauth_revoked`) and it is not read again until a
 * new authorization sets it ACTIVE.
 */
import type { ServiceDeps } from '../shared/context';
import { MailLoginError } from '../shared/mail-verifier';
import type { FetchBatch } from '../shared/mailbox-reader';
import { MailboxOAuthRevokedError, MailboxTokenUnavailableError, withMailboxLogin } from '../email-account/index';
import { emitSystemAlert } from '../webhook/index';
import { ingestMessage, keepUnreadable, type IngestResult } from './ingest.service';
import { readNeedsWrite } from './mailbox-sync.rules';
import { IMAP_DISCONNECTED, isReadable, READABLE } from './readable-mailbox.rules';
import type { ReadSession } from './read-session.service';

/** Messages read per round (a mailbox with more catches up over the next rounds, without waiting). */
const BATCH = 100;
/** Waits after consecutive failures: 1, 2, 4 … minutes, at most an hour. */
export function imapRetryDelayMs(failures: number): number {
  return Math.min(60, 2 ** Math.max(0, failures - 1)) * 60_000;
}

export interface SyncResult {
  status: 'ok' | 'auth_failed' | 'unreachable' | 'skipped';
  read: number;
  stored: number;
  /** More messages are waiting on the server. */
  more: boolean;
  error?: string;
}

interface MailboxRow {
  id: string;
  workspace_id: string;
  organization_id: string;
  email: string;
  status: string;
  disconnect_reason: string | null;
  imap_host: string;
  imap_port: number;
  imap_username: string;
  imap_password_enc: string;
  auth_type: string;
  imap_uidvalidity: bigint | null;
  imap_last_uid: bigint;
  imap_failures: number;
  imap_retry_at: Date | null;
  imap_synced_at: Date | null;
}

/**
 * Reads one mailbox's new messages and ingests them; records progress after each message. With
 * `session` (the reply loop's), the read goes over the session kept from the last one while it may,
 * and the session it logs in with is kept for the next; without, it logs in and out.
 */
export async function syncMailbox(options: { deps: ServiceDeps; mailboxId: string; session?: ReadSession }): Promise<SyncResult> {
  const { deps } = options;
  const [mailbox] = await deps.db.$queryRawUnsafe<MailboxRow[]>(
    `SELECT id, workspace_id, organization_id, email, status::text AS status, disconnect_reason, imap_host, imap_port, imap_username,
            imap_password_enc, auth_type, imap_uidvalidity, imap_last_uid, imap_failures, imap_retry_at, imap_synced_at
       FROM email_accounts WHERE id = $1`,
    options.mailboxId,
  );
  // Deleted, paused, or disconnected otherwise than by its IMAP login (its workspace deleted): not read.
  if (!mailbox || !isReadable(mailbox)) return SKIPPED;
  const log = deps.log.child({ mailbox: mailbox.email, mailboxId: mailbox.id });
  const since = { uidValidity: mailbox.imap_uidvalidity === null ? null : BigInt(mailbox.imap_uidvalidity), lastUid: BigInt(mailbox.imap_last_uid), max: BATCH };
  const login = loginKey(mailbox);
  let read: { batch: FetchBatch } | { error: unknown } | null = null;
  const kept = await options.session?.reusable(login);
  if (kept) {
    read = await kept.fetchNew(since).then((batch) => ({ batch }), (error: unknown) => ({ error }));
    // The kept connection failed (closed by the server, the network): log in anew below.
    if ('error' in read) {
      log.info({ err: read.error }, 'the kept IMAP session failed; logging in again');
      await options.session!.drop();
      read = null;
    }
  }
  if (!read) {
    try {
      // XOAUTH2 mailboxes log in with their current access token, and once more with a new one when it is refused.
      read = await withMailboxLogin({
        deps,
        mailbox: imapLogin(mailbox),
        attempt: async (imap): Promise<{ batch: FetchBatch } | { error: unknown }> => {
          const opened = await deps.ports.imap.open({ imap }).then((session) => ({ session }), (error: unknown) => ({ error }));
          if ('error' in opened) return opened;
          const fetched = await opened.session.fetchNew(since).then((batch) => ({ batch }), (error: unknown) => ({ error }));
          if ('batch' in fetched && options.session) await options.session.keep(opened.session, login);
          else await opened.session.close();
          return fetched;
        },
        refused: (result) => 'error' in result && result.error instanceof MailLoginError && result.error.failure === 'auth',
      });
    } catch (error) {
      // The grant is revoked: the mailbox was disconnected (and the alert emitted); it is not read again until authorized anew.
      if (error instanceof MailboxOAuthRevokedError) return { status: 'auth_failed', read: 0, stored: 0, more: false, error: error.message };
      if (error instanceof MailboxTokenUnavailableError) return failed({ deps, mailbox, reason: 'connect', message: error.message });
      return failed({ deps, mailbox, reason: 'auth', message: `cannot read the IMAP password: ${(error as Error).message}` });
    }
  }
  if ('error' in read) {
    const reason = read.error instanceof MailLoginError ? read.error.reason : 'connect';
    return failed({ deps, mailbox, reason, message: (read.error as Error).message });
  }
  const { batch } = read;
  const now = deps.ports.clock.now();
  if (batch.reset) log.warn({ was: String(mailbox.imap_uidvalidity), now: String(batch.uidValidity) }, 'UIDVALIDITY changed: reading INBOX again from the start');
  // A successful login: clear the backoff, and reconnect a mailbox that reading had disconnected
  // (only if that is still why it is: not one disconnected since for another reason, its workspace
  // deleted). Nothing when it is no longer to be read (deleted, paused, disconnected meanwhile).
  // A read that found nothing, with nothing to clear, writes nothing (readNeedsWrite).
  if (readNeedsWrite(mailbox, { uidValidity: batch.uidValidity, reset: batch.reset, messages: batch.messages.length }, now)) {
    const progressed = await deps.db.emailAccount.updateMany({
      where: { id: mailbox.id, ...READABLE },
      data: { imapUidValidity: batch.uidValidity, ...(batch.reset ? { imapLastUid: 0n } : {}), imapFailures: 0, imapRetryAt: null, imapSyncedAt: now },
    });
    if (!progressed.count) return stopped(log);
    if (mailbox.status !== 'ACTIVE') {
      await deps.db.emailAccount.updateMany({ where: { id: mailbox.id, ...IMAP_DISCONNECTED }, data: { status: 'ACTIVE', disconnectReason: null, lastError: null } });
    }
  }
  let stored = 0;
  const target = { id: mailbox.id, workspaceId: mailbox.workspace_id, organizationId: mailbox.organization_id, email: mailbox.email };
  for (const m of batch.messages) {
    const message = { deps, mailbox: target, raw: m.raw, uid: m.uid, receivedAt: m.internalDate };
    let result: IngestResult;
    try {
      // Once more on failure (a deadlock, a dropped connection); a message that fails twice
      // while the database works is kept aside raw, or it would hold up every message after it.
      // A mailbox deleted meanwhile (its rows' foreign keys failed the message) stops the reading, quietly.
      result = await ingestMessage(message).catch(async (error: unknown) => {
        if (!(await stillReadable(deps, mailbox.id))) throw error;
        log.warn({ err: error, uid: String(m.uid) }, 'ingesting a message failed; trying once more');
        return ingestMessage(message).catch(async (again: unknown) => {
          if (!(await stillReadable(deps, mailbox.id))) throw again;
          log.error({ err: again, uid: String(m.uid) }, 'ingesting a message failed twice; keeping it raw in "others"');
          return keepUnreadable({ ...message, error: `ingestion failed: ${(again as Error).message}` });
        });
      });
    } catch (error) {
      if (!(await stillReadable(deps, mailbox.id))) return stopped(log, stored);
      // Not even that could be stored: the database is failing. The UID is not recorded, so
      // the message is read again at the next round (not at once: nothing spins).
      log.error({ err: error, uid: String(m.uid) }, 'storing a message failed; it will be read again');
      return { status: 'ok', read: stored, stored, more: false, error: (error as Error).message };
    }
    // Deleted, paused or disconnected as the message was to be stored: nothing was, reading stops.
    if (result.status === 'not_read') return stopped(log, stored);
    if (result.status === 'stored') stored += 1;
    // Read up to here; the next message only while the mailbox is still to be read.
    const { count } = await deps.db.emailAccount.updateMany({ where: { id: mailbox.id, ...READABLE }, data: { imapLastUid: m.uid } });
    if (!count) return stopped(log, stored);
  }
  if (batch.messages.length) log.info({ read: batch.messages.length, stored }, 'mailbox read');
  return { status: 'ok', read: batch.messages.length, stored, more: batch.messages.length >= BATCH };
}

const SKIPPED: SyncResult = { status: 'skipped', read: 0, stored: 0, more: false };

/** Whether the mailbox is still there and to be read (after a failure: was it deleted, paused or disconnected meanwhile?). */
async function stillReadable(deps: ServiceDeps, mailboxId: string): Promise<boolean> {
  return (await deps.db.emailAccount.count({ where: { id: mailboxId, ...READABLE } })) > 0;
}

/** Reading stops: the mailbox was deleted, paused or disconnected (its workspace deleted) while it was read. */
function stopped(log: ServiceDeps['log'], stored = 0): SyncResult {
  log.info({ stored }, 'mailbox deleted, paused or disconnected while it was read: reading it stops');
  return { ...SKIPPED, read: stored, stored };
}

type ImapLoginRow = Pick<MailboxRow, 'id' | 'imap_host' | 'imap_port' | 'imap_username' | 'imap_password_enc' | 'auth_type'>;

/** What a kept session was logged in with: another value (the mailbox's settings updated) needs a new login. */
function loginKey(row: ImapLoginRow): string {
  return [row.auth_type, row.imap_host, row.imap_port, row.imap_username, row.imap_password_enc].join('\n');
}

/** The IMAP side of a mailbox's login (its password or XOAUTH2). */
function imapLogin(row: ImapLoginRow) {
  return { id: row.id, authType: row.auth_type, host: row.imap_host, port: row.imap_port, username: row.imap_username, passwordEnc: row.imap_password_enc };
}

async function failed(options: { deps: ServiceDeps; mailbox: MailboxRow; reason: 'auth' | 'connect'; message: string }): Promise<SyncResult> {
  const { deps, mailbox, reason, message } = options;
  const now = deps.ports.clock.now();
  const failures = mailbox.imap_failures + 1;
  const retryAt = new Date(now.getTime() + imapRetryDelayMs(failures));
  const disconnected = await deps.db.$transaction(async (tx) => {
    // Nothing for a mailbox deleted meanwhile; disconnected only if still ACTIVE (not one paused,
    // or disconnected with its workspace, since the sync read it).
    await tx.emailAccount.updateMany({ where: { id: mailbox.id }, data: { imapFailures: failures, imapRetryAt: retryAt, lastError: `IMAP: ${message}`.slice(0, 500) } });
    const disconnect = reason === 'auth' && (await tx.emailAccount.updateMany({ where: { id: mailbox.id, status: 'ACTIVE' }, data: IMAP_DISCONNECTED })).count > 0;
    if (disconnect) {
      await emitSystemAlert({
        tx,
        workspaceId: mailbox.workspace_id,
        now,
        alert: { alert_type: 'MAILBOX_DISCONNECTED', message: `mailbox ${mailbox.email} was disconnected: its IMAP login was refused (${message})`, email_account_id: mailbox.id, email: mailbox.email },
      });
    }
    return disconnect;
  });
  deps.log.warn({ mailbox: mailbox.email, reason, failures, retryAt, err: message }, disconnected ? 'IMAP login refused: mailbox marked DISCONNECTED' : 'reading the mailbox failed; will retry');
  return { status: reason === 'auth' ? 'auth_failed' : 'unreachable', read: 0, stored: 0, more: false, error: message };
}
