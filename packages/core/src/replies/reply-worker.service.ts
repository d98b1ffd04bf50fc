/**
 * The reading side of the worker role. The worker is a reader (read-lease.service.ts): every
 * `refreshMs` it renews itself and its leases and takes its share of the mailboxes to read, so
 * that worker processes divide the mailboxes and each is read by one of them. It keeps one loop
 * per mailbox it holds: read what is new (syncMailbox), then wait for news (IMAP IDLE when the
 * server offers it, else `pollMs`), and again, over one IMAP session kept from one read to the next
 * (read-session.service.ts). A mailbox it gives back (another reader came, or
 * the mailbox is no longer to be read) has its loop stopped, IDLE session included.
 */
import type { ServiceDeps } from '../shared/context';
import { createLimit, type Limit } from '../shared/map-limit';
import type { MailboxReader } from '../shared/mailbox-reader';
import { syncMailbox, type SyncResult } from './mailbox-sync.service';
import { ReadSession } from './read-session.service';
import { pollWaitMs } from './read-session.rules';
import { READ_REFRESH_MS, READER_TTL_REFRESHES } from './read-lease.rules';
import { newReader, refreshReadLeases, retireOtherReaders, retireReader } from './read-lease.service';

export interface ReplyWorker {
  stop(): Promise<void>;
}

interface MailboxLoop {
  stop: AbortController;
  done: Promise<void>;
}

/**
 * IMAP logins a worker has under way at once by default (IMAP_LOGIN_CONCURRENCY): its loops start
 * together, and 3,000 connections opened at once to one server timed out 213 of them waiting for its
 * greeting on the `reading` benchmark (each then a failure on its mailbox, read again a minute later).
 */
export const IMAP_LOGINS_AT_ONCE = 20;

/** The reader with at most `limit`'s logins under way at once (a session opened, or a read on a connection of its own). */
function limitLogins(reader: MailboxReader, limit: Limit): MailboxReader {
  return {
    open: (options) => limit.run(() => reader.open(options)),
    fetchNew: (options) => limit.run(() => reader.fetchNew(options)),
  };
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => (clearTimeout(timer), signal.removeEventListener('abort', done), resolve());
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Starts the reply worker. Stopping aborts the waits, lets a sync in progress finish and gives the
 * worker's mailboxes back at once (the other workers take them at their next refresh); a worker that
 * dies keeps them until it has missed `READER_TTL_REFRESHES` refreshes (`readerTtlMs`).
 */
export function startReplyWorker(options: {
  deps: ServiceDeps;
  pollMs?: number;
  refreshMs?: number;
  readerTtlMs?: number;
  /**
   * This worker is the only reader there can be (the embedded database, one process per DATA_DIR): at
   * its start it removes the readers left by processes that died, and takes every mailbox at once.
   */
  soleReader?: boolean;
  /** IMAP logins under way at once at most (IMAP_LOGINS_AT_ONCE). */
  loginConcurrency?: number;
  /** Only these workspaces' mailboxes (tests; a worker reads all). */
  workspaceIds?: string[];
}): ReplyWorker {
  const pollMs = options.pollMs ?? 60_000;
  const loginConcurrency = options.loginConcurrency ?? IMAP_LOGINS_AT_ONCE;
  const deps: ServiceDeps = { ...options.deps, ports: { ...options.deps.ports, imap: limitLogins(options.deps.ports.imap, createLimit(loginConcurrency)) } };
  const refreshMs = options.refreshMs ?? READ_REFRESH_MS;
  const ttlMs = options.readerTtlMs ?? READER_TTL_REFRESHES * refreshMs;
  const reader = newReader();
  const log = deps.log.child({ component: 'reply-worker', reader: reader.name, readerId: reader.id });
  const stopper = new AbortController();
  const loops = new Map<string, MailboxLoop>();

  const mailboxLoop = async (mailboxId: string, signal: AbortSignal) => {
    // One IMAP session from one read to the next, logged out when the loop ends.
    const session = new ReadSession();
    let lostBefore = false;
    try {
      while (!signal.aborted) {
        const started = performance.now();
        const result = await syncMailbox({ deps, mailboxId, session }).then(
          (synced) => {
            deps.observer?.onTick({ worker: 'reply', ms: performance.now() - started, failed: false });
            return synced;
          },
          (error: unknown) => {
            deps.observer?.onTick({ worker: 'reply', ms: performance.now() - started, failed: true });
            log.error({ err: error, mailboxId }, 'mailbox sync failed');
            return { status: 'unreachable', read: 0, stored: 0, more: false } as SyncResult;
          },
        );
        if (signal.aborted) break;
        if (result.status === 'skipped' || result.status === 'auth_failed' || result.status === 'unreachable') break; // retried by the refresh once due
        if (result.more) continue;
        // Waits on the session the read used (with the mailbox's login as the read found it; a mailbox
        // paused or deleted since is found so by the next read). Gone (dropped by the server, too old):
        // read again first, on a new session, since mail may have come after the read (a session opened
        // only to wait would take it for old); a second time in a row, only after `pollMs`.
        const waiting = await session.live();
        if (!waiting) {
          if (lostBefore) await sleep(pollMs, signal);
          lostBefore = true;
          continue;
        }
        lostBefore = false;
        // At most pollMs, a random part less each time (pollWaitMs): loops started together drift apart.
        await waiting.waitForNews({ timeoutMs: pollWaitMs(pollMs, Math.random()), signal }).catch(() => session.drop());
      }
    } finally {
      await session.drop();
    }
  };

  const startLoop = (mailboxId: string) => {
    const stop = new AbortController();
    const loop: MailboxLoop = { stop, done: Promise.resolve() };
    loop.done = mailboxLoop(mailboxId, AbortSignal.any([stopper.signal, stop.signal]))
      .catch((error: unknown) => log.error({ err: error, mailboxId }, 'reading a mailbox stopped on an error'))
      .finally(() => {
        if (loops.get(mailboxId) === loop) loops.delete(mailboxId);
      });
    loops.set(mailboxId, loop);
  };

  const refresh = async () => {
    if (options.soleReader) {
      const left = await retireOtherReaders({ deps, reader }).catch((error: unknown) => (log.error({ err: error }, 'removing the readers left by earlier processes failed'), 0));
      if (left) log.warn({ left }, 'readers left by processes that stopped without giving their mailboxes back: removed');
    }
    let reading = -1;
    while (!stopper.signal.aborted) {
      try {
        const leases = await refreshReadLeases({ deps, reader, ttlMs, workspaceIds: options.workspaceIds });
        if (stopper.signal.aborted) break;
        const held = new Set(leases.reading);
        // Given back, or taken over while this worker could not renew in time: stop reading it.
        for (const [id, loop] of loops) if (!held.has(id)) loop.stop.abort();
        for (const id of leases.reading) if (!loops.has(id)) startLoop(id);
        if (leases.gone) log.warn({ gone: leases.gone }, 'reply readers expired: their mailboxes are free for the live ones');
        if (leases.reading.length !== reading || leases.released.length) {
          log.info({ reading: leases.reading.length, readers: leases.readers, readable: leases.readable, share: leases.share, taken: leases.taken.length, released: leases.released.length }, 'mailboxes to read');
        }
        reading = leases.reading.length;
      } catch (error) {
        log.error({ err: error }, 'renewing the mailboxes to read failed');
      }
      await sleep(refreshMs, stopper.signal);
    }
  };
  log.info({ pollMs, refreshMs, ttlMs, loginConcurrency }, 'reply worker started');
  const running = refresh();
  return {
    async stop() {
      stopper.abort();
      await running;
      await Promise.allSettled([...loops.values()].map((l) => l.done));
      // Its mailboxes go back now rather than when it would have expired.
      await retireReader({ deps, reader }).catch((error: unknown) => log.warn({ err: error }, 'giving back the mailboxes read failed; they are freed when this reader expires'));
      log.info('reply worker stopped');
    },
  };
}
