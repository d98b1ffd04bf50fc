import { applyMigrations } from '../migrate';
import { createDatabase, type Database } from '../client';

const KEY = Symbol.for('outreach.test-database');
type Holder = { [KEY]?: Promise<Database> };

/**
 * The database the integration tests run against: PostgreSQL when DATABASE_URL is set,
 * otherwise an in-memory PGlite migrated on first use. One per worker process;
 * never closed by tests (the worker's exit ends it).
 */
export function testDatabase(): Promise<Database> {
  // The unit project sets this: its tests are pure, and a file that needs the database is an *.int.test.ts.
  if (process.env['OUTREACH_TEST_NO_DATABASE']) {
    throw new Error('testDatabase() in a unit test: a test that needs the database belongs in an *.int.test.ts file');
  }
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const url = process.env['DATABASE_URL'];
    if (url) return createDatabase({ url, poolSize: 5 });
    const db = await createDatabase({});
    await applyMigrations({ db });
    return db;
  })();
  return holder[KEY];
}

export const usingPostgres = (): boolean => Boolean(process.env['DATABASE_URL']);
