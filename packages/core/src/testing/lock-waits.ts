// For tests that make two transactions meet on purpose (PostgreSQL only): go on once another
// connection to this test database waits for a lock, the interleaving the test wants.
import type { PrismaClient } from '@outreach/db';

/**
 * Whether another backend of this database waits for a lock, in a statement containing `sql` when
 * given (pg_stat_activity shows a statement's first kilobyte only).
 */
export async function waitingOnLock(prisma: PrismaClient, sql = ''): Promise<boolean> {
  const rows = await prisma.$queryRawUnsafe<{ n: number }[]>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()",
    sql,
  );
  return rows[0]!.n > 0;
}

/** Waits (5 s at most) until another backend waits for a lock (waitingOnLock), or `orUntil` answers true. */
export async function untilWaitingOnLock(prisma: PrismaClient, options: { sql?: string; orUntil?: () => Promise<boolean> } = {}): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await waitingOnLock(prisma, options.sql)) return;
    if (options.orUntil && (await options.orUntil())) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
