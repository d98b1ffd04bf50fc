import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDatabase } from './testing/index';
import { applyMigrations, defaultMigrationsDir, defaultSchemaPath, diffMigrationsToSchema, pendingMigrations } from './migrate';
import { schemaEnginesOpened } from './engine';

describe('migrations', () => {
  it('produce exactly the schema in schema.prisma (the engine finds nothing to change)', async () => {
    const db = await testDatabase();
    expect(await diffMigrationsToSchema({ db })).toBe('');
  });

  it('detect a schema.prisma change that no migration covers', async () => {
    const db = await testDatabase();
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const schema = readFileSync(defaultSchemaPath, 'utf8').replace(
      '  leadAllowance Int?',
      '  driftColumn   Int?     @map("drift_column")\n  leadAllowance Int?',
    );
    const path = join(mkdtempSync(join(tmpdir(), 'schema-')), 'schema.prisma');
    writeFileSync(path, schema);
    expect(await diffMigrationsToSchema({ db, schemaPath: path })).toContain('ADD COLUMN     "drift_column" INTEGER');
  });

  it('are recorded in _prisma_migrations as prisma migrate deploy records them, and re-applying is a no-op', async () => {
    const db = await testDatabase();
    const opened = schemaEnginesOpened();
    const again = await applyMigrations({ db });
    expect(again.applied).toEqual([]);
    // Nothing pending: the schema engine is not loaded at all.
    expect(schemaEnginesOpened()).toBe(opened);
    expect(await pendingMigrations({ db })).toEqual([]);
    const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; rolled_back_at: Date | null }[]>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM _prisma_migrations ORDER BY migration_name',
    );
    const onDisk = readdirSync(defaultMigrationsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(rows.map((r) => r.migration_name)).toEqual(onDisk);
    for (const row of rows) {
      const sql = readFileSync(join(defaultMigrationsDir, row.migration_name, 'migration.sql'));
      // Prisma's checksum is the SHA-256 of the migration file.
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('report a migration folder that was not applied yet as pending', async () => {
    const db = await testDatabase();
    const { mkdtempSync, cpSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    cpSync(defaultMigrationsDir, dir, { recursive: true });
    mkdirSync(join(dir, '29991231000000_future'));
    writeFileSync(join(dir, '29991231000000_future', 'migration.sql'), 'SELECT 1;\n');
    expect(await pendingMigrations({ db, migrationsDir: dir })).toEqual(['29991231000000_future']);
  });
});
