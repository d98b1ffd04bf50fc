// Statements marked prepared() and run again and again are prepared once per PostgreSQL
// connection (statement-names.ts); others never are, nor any behind PgBouncer. PostgreSQL only: PGlite's adapter has no named statements.
import { describe, expect, it } from 'vitest';
import { createDatabase } from './client';
import { prepared } from './statement-names';

const url = process.env['DATABASE_URL'];

describe.skipIf(!url)('prepared statements on PostgreSQL', () => {
  /** How many statements the one connection of a fresh client keeps prepared after running `sql` `runs` times. */
  const preparedAfter = async (connectionUrl: string, sql: string, runs: number) => {
    const db = await createDatabase({ url: connectionUrl, poolSize: 1 });
    try {
      for (let i = 0; i < runs; i++) expect(await db.prisma.$queryRawUnsafe<{ n: number }[]>(sql, i)).toEqual([{ n: i + 1 }]);
      const [row] = await db.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', sql);
      return row!.n;
    } finally {
      await db.close();
    }
  };

  it('prepares a marked statement once it has run a few times, and answers alike', async () => {
    const sql = prepared(`SELECT $1::int + 1 AS n /* ${Date.now()} */`);
    expect(await preparedAfter(url!, sql, 2)).toBe(0);
    expect(await preparedAfter(url!, sql, 5)).toBe(1);
  });

  it('never prepares an unmarked statement, however often it runs', async () => {
    const sql = `SELECT $1::int + 1 AS n /* unmarked ${Date.now()} */`;
    expect(await preparedAfter(url!, sql, 8)).toBe(0);
  });

  it('prepares nothing behind PgBouncer (pgbouncer=true)', async () => {
    const sql = prepared(`SELECT $1::int + 1 AS n /* bouncer ${Date.now()} */`);
    const bouncer = new URL(url!);
    bouncer.searchParams.set('pgbouncer', 'true');
    expect(await preparedAfter(bouncer.toString(), sql, 5)).toBe(0);
  });
});
