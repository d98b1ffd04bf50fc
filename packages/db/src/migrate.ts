import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';
import { openSchemaEngine, type EngineLog } from './engine';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const defaultSchemaPath = join(repoRoot, 'prisma', 'schema.prisma');
export const defaultMigrationsDir = join(repoRoot, 'prisma', 'migrations');

const FILTERS = { externalTables: [], externalEnums: [] };

export interface MigrationPaths {
  schemaPath?: string;
  migrationsDir?: string;
}

async function loadMigrationsList(migrationsDir: string) {
  const entries = existsSync(migrationsDir) ? await readdir(migrationsDir, { withFileTypes: true }) : [];
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => {
      const file = join(migrationsDir, name, 'migration.sql');
      const content = existsSync(file)
        ? { tag: 'ok' as const, value: await readFile(file, 'utf8') }
        : { tag: 'error' as const, value: `missing ${file}` };
      return { path: name, migrationFile: { path: 'migration.sql', content } };
    }),
  );
  const lockPath = join(migrationsDir, 'migration_lock.toml');
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: 'migration_lock.toml',
      content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

async function withEngine<T>(
  db: Database,
  paths: MigrationPaths,
  log: EngineLog | undefined,
  fn: (engine: Awaited<ReturnType<typeof openSchemaEngine>>, schema: string, schemaPath: string) => Promise<T>,
): Promise<T> {
  const schemaPath = paths.schemaPath ?? defaultSchemaPath;
  const schema = await readFile(schemaPath, 'utf8');
  const adapter = db.engineAdapter();
  try {
    const engine = await openSchemaEngine({ adapterFactory: adapter.factory, schemaPath, schema, log });
    try {
      return await fn(engine, schema, schemaPath);
    } finally {
      engine.free();
    }
  } finally {
    await adapter.dispose();
  }
}

/**
 * Applies pending migrations with the WebAssembly schema engine, through the
 * database's own driver adapter, recording them in `_prisma_migrations` exactly as
 * `prisma migrate deploy` does. Idempotent.
 */
export async function applyMigrations(options: { db: Database; log?: EngineLog } & MigrationPaths) {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir;
  const migrationsList = await loadMigrationsList(migrationsDir);
  const total = migrationsList.migrationDirectories.length;
  // Nothing pending (every restart): the engine, 5 MB of WebAssembly whose instance stays in
  // memory once loaded, is not loaded. A failed or rolled-back migration counts as pending,
  // so the engine still reports it (P3009) as migrate deploy does.
  if (!(await pendingIn(options.db, migrationsList)).length) return { applied: [] as string[], total };
  return withEngine(options.db, options, options.log, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: FILTERS });
    return { applied: out.appliedMigrationNames, total };
  });
}

/** The migrations of the list not recorded as applied (finished, not rolled back); all of them before the first. */
async function pendingIn(db: Database, list: Awaited<ReturnType<typeof loadMigrationsList>>): Promise<string[]> {
  const names = list.migrationDirectories.map((d) => d.path);
  let applied: Set<string>;
  try {
    const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    applied = new Set(rows.map((r) => r.migration_name));
  } catch {
    applied = new Set();
  }
  return names.filter((n) => !applied.has(n));
}

/** Migrations present on disk but not yet recorded as applied in the database. */
export async function pendingMigrations(options: { db: Database } & MigrationPaths): Promise<string[]> {
  return pendingIn(options.db, await loadMigrationsList(options.migrationsDir ?? defaultMigrationsDir));
}

/**
 * SQL that would take a database built by the migrations to the schema in
 * schema.prisma (empty when they agree). Uses a shadow database through the adapter.
 */
export async function diffMigrationsToSchema(options: { db: Database } & MigrationPaths): Promise<string> {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir;
  return withEngine(options.db, options, undefined, async (engine, schema, schemaPath) => {
    const migrationsList = await loadMigrationsList(migrationsDir);
    const out = await engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: FILTERS,
    });
    return (out.stdout ?? '').replace(/^-- This is an empty migration\.\s*$/m, '').trim();
  });
}

function timestamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
}

/**
 * Writes a new migration folder with the SQL that takes the existing migrations to
 * the current schema.prisma. Returns null when there is nothing to migrate.
 */
export async function createMigration(
  options: { db: Database; name: string; now?: Date } & MigrationPaths,
): Promise<{ directory: string; sql: string } | null> {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir;
  const sql = await diffMigrationsToSchema(options);
  if (!sql) return null;
  const slug = options.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'migration';
  const directory = join(migrationsDir, `${timestamp(options.now ?? new Date())}_${slug}`);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'migration.sql'), `${sql}\n`);
  const lockPath = join(migrationsDir, 'migration_lock.toml');
  if (!existsSync(lockPath)) {
    await writeFile(
      lockPath,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  return { directory, sql };
}
