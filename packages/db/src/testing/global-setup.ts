// Runs once around the integration tests. On PostgreSQL (DATABASE_URL set) each worker makes
// and migrates its own database beside DATABASE_URL's (testing/database.ts); this drops them,
// before the run (a run that was killed leaves them) and after it. On PGlite every worker
// migrates its own in-memory database.
import { createDatabase } from '../client';
import { quoteIdentifier, workerDatabasePrefix } from './database';

async function dropWorkerDatabases(url: string): Promise<void> {
  const db = await createDatabase({ url, poolSize: 1 });
  try {
    const prefix = workerDatabasePrefix(url);
    const rows = await db.prisma.$queryRawUnsafe<{ datname: string }[]>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', prefix);
    for (const { datname } of rows) await db.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${quoteIdentifier(datname)} WITH (FORCE)`);
  } finally {
    await db.close();
  }
}

export default async function setup() {
  const url = process.env['DATABASE_URL'];
  if (!url) return;
  await dropWorkerDatabases(url);
  return () => dropWorkerDatabases(url);
}
