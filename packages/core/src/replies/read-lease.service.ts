/**
 * The reply readers' leases: which worker process reads which mailbox (read-lease.rules.ts says
 * how they are divided). A reader is live while its row is renewed; a mailbox's lease belongs to
 * one reader and goes with it. Each refresh renews the reader, removes the readers that expired,
 * gives back what exceeds its share and takes free mailboxes up to it.
 */
import { hostname } from 'node:os';
import { newId, type PrismaClient, type Tx } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { planReadLeases, readShare } from './read-lease.rules';
import { MAILBOXES_TO_READ_SQL, READERS_IN_TURN_SQL, RELEASE_LEASES_SQL, RENEW_READER_SQL, RETIRE_OTHER_READERS_SQL, RETIRE_READER_SQL, TAKE_LEASES_SQL, UNREAD_MAILBOXES_SQL, type ReaderRenewal } from './read-lease.queries';

export interface Reader {
  id: string;
  /** host/pid, for the operator (`mailbox_readers.name`). */
  name: string;
}

/** A new reader's identity: one per reply worker started. */
export function newReader(): Reader {
  return { id: newId(), name: `${hostname()}/${process.pid}` };
}

export interface ReadLeaseRefresh {
  /** The mailboxes this reader reads until its next refresh. */
  reading: string[];
  /** Live readers, this one included. */
  readers: number;
  /** Mailboxes to read now (over all readers). */
  readable: number;
  share: number;
  taken: string[];
  released: string[];
  /** Readers found expired and removed. */
  gone: number;
}

/**
 * A reader's refresh, one transaction after the other readers' (READERS_IN_TURN_SQL): renew, give
 * back, take; at most four statements. `ttlMs`: how long the reader stays live without another.
 */
export async function refreshReadLeases(options: { deps: ServiceDeps; reader: Reader; ttlMs: number; workspaceIds?: string[] }): Promise<ReadLeaseRefresh> {
  return options.deps.db.$transaction((tx) => refreshInTurn({ ...options, tx }));
}

async function refreshInTurn(options: { deps: ServiceDeps; tx: Tx; reader: Reader; ttlMs: number; workspaceIds?: string[] }): Promise<ReadLeaseRefresh> {
  const { deps, tx, reader } = options;
  const now = deps.ports.clock.now();
  await tx.$executeRawUnsafe(READERS_IN_TURN_SQL);
  const [renewal] = await tx.$queryRawUnsafe<ReaderRenewal[]>(
    RENEW_READER_SQL,
    now.toISOString(),
    options.workspaceIds ?? null,
    reader.id,
    reader.name,
    new Date(now.getTime() + options.ttlMs).toISOString(),
  );
  const { readers, gone, held, readable } = renewal!;
  const share = readShare({ readable: readable.length, readers });
  const plan = planReadLeases({ held, readable, share });
  if (plan.release.length) await tx.$executeRawUnsafe(RELEASE_LEASES_SQL, reader.id, plan.release);
  let taken: string[] = [];
  if (plan.take > 0) {
    const mine = new Set(held);
    const free = readable.filter((id) => !mine.has(id));
    if (free.length) {
      const rows = await tx.$queryRawUnsafe<{ id: string }[]>(TAKE_LEASES_SQL, now.toISOString(), reader.id, free, plan.take);
      taken = rows.map((r) => r.id);
    }
  }
  return { reading: [...plan.keep, ...taken], readers, readable: readable.length, share, taken, released: plan.release, gone };
}

/** A reader that stops: its leases are given back at once, for the other readers' next refresh. */
export async function retireReader(options: { deps: ServiceDeps; reader: Reader }): Promise<void> {
  await options.deps.db.$executeRawUnsafe(RETIRE_READER_SQL, options.reader.id);
}

/**
 * A reader that is the only one there can be (the embedded database: one process per DATA_DIR)
 * removes the others at its start: a process that died left its reader, which would otherwise keep
 * half the mailboxes unread until it expired. How many it removed.
 */
export async function retireOtherReaders(options: { deps: ServiceDeps; reader: Reader }): Promise<number> {
  return options.deps.db.$executeRawUnsafe(RETIRE_OTHER_READERS_SQL, options.reader.id);
}

/** Mailboxes to read now: connected ones, and those reading disconnected whose retry time has come. */
export async function mailboxesToRead(options: { deps: ServiceDeps; workspaceIds?: string[] }): Promise<string[]> {
  const rows = await options.deps.db.$queryRawUnsafe<{ id: string }[]>(MAILBOXES_TO_READ_SQL, options.deps.ports.clock.now().toISOString(), options.workspaceIds ?? null);
  return rows.map((r) => r.id);
}

/** Mailboxes to read now that no live reader holds: read by no worker (the metrics' `mailboxes_unread`). */
export async function unreadMailboxes(options: { db: PrismaClient; now: Date }): Promise<number> {
  const [row] = await options.db.$queryRawUnsafe<{ unread: number }[]>(UNREAD_MAILBOXES_SQL, options.now.toISOString(), null);
  return row?.unread ?? 0;
}
