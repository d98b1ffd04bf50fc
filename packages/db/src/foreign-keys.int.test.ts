// Every foreign key has an index that starts with its columns: a delete of the row it points to
// (a campaign, a workspace, an API client) then finds the rows to cascade to or set to null with
// an index probe, not a scan of the whole table (sent_emails.variation_id: 785 ms per variation
// at 2.55M rows without one).
import { describe, expect, it } from 'vitest';
import type { Database } from './client';
import { testDatabase } from './testing/index';

interface Unindexed {
  table: string;
  constraint: string;
  columns: string[];
}

/** The foreign keys of `schema` whose columns are not the leading columns of any index. */
async function unindexedForeignKeys(db: Database, schema = 'public'): Promise<Unindexed[]> {
  return db.prisma.$queryRawUnsafe<Unindexed[]>(
    `SELECT c.conrelid::regclass::text AS "table", c.conname::text AS "constraint",
            array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_constraint c
       CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
      WHERE c.contype = 'f' AND c.connamespace = $1::regnamespace
        AND NOT EXISTS (
          SELECT 1 FROM pg_index i
           WHERE i.indrelid = c.conrelid
             AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
             AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
      GROUP BY c.conrelid, c.conname
      ORDER BY 1, 2`,
    schema,
  );
}

describe('foreign keys', () => {
  it('each have an index starting with their columns', async () => {
    const db = await testDatabase();
    expect(await unindexedForeignKeys(db)).toEqual([]);
  });

  it('without such an index are found (an index on other leading columns does not count)', async () => {
    const db = await testDatabase();
    await db.prisma.$executeRawUnsafe('CREATE SCHEMA fk_probe');
    try {
      await db.prisma.$executeRawUnsafe('CREATE TABLE fk_probe.parent (id text PRIMARY KEY)');
      await db.prisma.$executeRawUnsafe('CREATE TABLE fk_probe.child (id text PRIMARY KEY, at int, parent_id text REFERENCES fk_probe.parent (id) ON DELETE CASCADE)');
      await db.prisma.$executeRawUnsafe('CREATE INDEX ON fk_probe.child (at, parent_id)');
      expect(await unindexedForeignKeys(db, 'fk_probe')).toEqual([{ table: 'fk_probe.child', constraint: 'child_parent_id_fkey', columns: ['parent_id'] }]);
      await db.prisma.$executeRawUnsafe('CREATE INDEX ON fk_probe.child (parent_id, at)');
      expect(await unindexedForeignKeys(db, 'fk_probe')).toEqual([]);
    } finally {
      await db.prisma.$executeRawUnsafe('DROP SCHEMA fk_probe CASCADE');
    }
  });
});
