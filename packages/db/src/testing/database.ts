import { applyMigrations } from '../migrate';
import { createDatabase, type Database } from '../client';

const KEY = Symbol.for('outreach.test-database');
type Holder = { [KEY]?: Promise<Database> };

/** The prefix of the worker databases made from `url`'s (global-setup.ts drops them). */
export const workerDatabasePrefix = (url: string): string => `${decodeURIComponent(new URL(url).pathname.slice(1))}_worker_`;

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A fresh, migrated database for vitest's worker `poolId` on the PostgreSQL server of `url` (made through `url`'s own database). */
async function workerDatabase(url: string, poolId: string): Promise<Database> {
  const name = `${workerDatabasePrefix(url)}${poolId}`;
  const admin = await createDatabase({ url, poolSize: 1 });
  try {
    await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${quoteIdentifier(name)}`);
  } finally {
    await admin.close();
  }
  const worker = new URL(url);
  worker.pathname = `/${encodeURIComponent(name)}`;
  const db = await createDatabase({ url: worker.toString(), poolSize: 5 });
  await applyMigrations({ db });
  return db;
}

/**
 * The database the integration tests run against: PostgreSQL when DATABASE_URL is set,
 * otherwise an in-memory PGlite migrated on first use. One per worker process, on
 * PostgreSQL too (`<database>_worker_<n>` beside DATABASE_URL's, made afresh and migrated),
 * so that a test reading or changing the whole database (the encryption key check) never
 * meets another worker's tests; never closed by tests (the worker's exit ends it).
 */
export function testDatabase(): Promise<Database> {
  // The unit project sets this: its tests are pure, and a file that needs the database is an *.int.test.ts.
  if (process.env['OUTREACH_TEST_NO_DATABASE']) {
    throw new Error('testDatabase() in a unit test: a test that needs the database belongs in an *.int.test.ts file');
  }
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const url = process.env['DATABASE_URL'];
    const poolId = process.env['VITEST_POOL_ID'];
    if (url && poolId) return workerDatabase(url, poolId);
    if (url) return createDatabase({ url, poolSize: 5 });
    const db = await createDatabase({});
    await applyMigrations({ db });
    return db;
  })();
  return holder[KEY];
}

export const usingPostgres = (): boolean => Boolean(process.env['DATABASE_URL']);
