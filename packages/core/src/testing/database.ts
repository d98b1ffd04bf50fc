import { applyMigrations, createDatabase, type Database } from '@outreach/db';

const KEY = Symbol.for('outreach.test-database');
type Holder = { [KEY]?: Promise<Database> };

/**
 * The database the suite runs against: PostgreSQL when DATABASE_URL is set,
 * otherwise an in-memory PGlite migrated on first use. One per worker process;
 * never closed by tests (the worker's exit ends it).
 */
export function testDatabase(): Promise<Database> {
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
