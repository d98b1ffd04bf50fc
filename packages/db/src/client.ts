import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createEmbeddedDataDir, embeddedDatabaseOptions } from './pglite-options';
import { PrismaPg } from '@prisma/adapter-pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import pg from 'pg';
import { createPgEngineAdapter } from './engine-adapter';
import { behindPgBouncer, createStatementNamer } from './statement-names';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/prisma/client';

export type { PrismaClient };

export type DatabaseOptions =
  | {
      /** postgres://… — production PostgreSQL through @prisma/adapter-pg. */
      url: string;
      /** Connections in the pool (default 10). */
      poolSize?: number;
      /** How long a query waits for a free connection before failing, in ms (default 10 000). */
      acquireTimeoutMs?: number;
    }
  | {
      /** Directory for an embedded PGlite database; omit for an in-memory one. */
      dataDir?: string;
    };

export interface EngineAdapter {
  factory: SqlMigrationAwareDriverAdapterFactory;
  dispose(): Promise<void>;
}

export interface Database {
  prisma: PrismaClient;
  kind: 'postgres' | 'pglite';
  /** A driver adapter for one schema-engine run, on the same database as the client. */
  engineAdapter(): EngineAdapter;
  /** A short description for logs, without credentials. */
  describe: string;
  /** The PostgreSQL pool's clients: open, idle, and queries waiting for one (absent on PGlite). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable url)';
  }
}

const URL_SHAPE = 'postgres://user:password@host:5432/database';

/**
 * Why a DATABASE_URL cannot be used, in a few words that never repeat the URL (it
 * carries a password), or null when it parses as the client will read it.
 */
export function databaseUrlProblem(url: string): string | null {
  if (!/^postgres(ql)?:\/\//.test(url)) return `must be a postgres:// or postgresql:// URL (${URL_SHAPE})`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `is not a valid URL; check the host, the port (a number) and that special characters in the password are percent-encoded (${URL_SHAPE})`;
  }
  let config: { host?: string | null };
  try {
    config = parseIntoClientConfig(url);
  } catch {
    return `cannot be read as a connection string (${URL_SHAPE})`;
  }
  if (!parsed.hostname && !config.host) return `names no host (${URL_SHAPE})`;
  return null;
}

/**
 * Prisma's other error formats capture a stack trace on every call (a `new Error` per query,
 * to point at the caller should the query be invalid): about a tenth of the client's CPU on the
 * sending engine's path (bench `send`, --cpu-prof). An invalid query is a bug, logged as a masked
 * 500 with its message either way; "minimal" only leaves out the pretty-printed call site.
 */
const ERROR_FORMAT = 'minimal' as const;

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    const connection = parseIntoClientConfig(options.url) as pg.PoolConfig;
    // Our own pool (the adapter ends it with the client), so that its clients can be counted (metrics).
    const pool = new pg.Pool({
      ...connection,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.acquireTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
    });
    // Statements run again and again are prepared once per connection (statement-names.ts).
    // The adapter's type asks for a name every time; node-postgres runs a statement without one unnamed.
    const statementNameGenerator = behindPgBouncer(options.url) ? undefined : (createStatementNamer() as (query: { sql: string; args: unknown[] }) => string);
    const adapterFactory = new PrismaPg(pool, { disposeExternalPool: true, ...(statementNameGenerator ? { statementNameGenerator } : {}) });
    const prisma = new PrismaClient({ adapter: adapterFactory, errorFormat: ERROR_FORMAT });
    return {
      prisma,
      kind: 'postgres',
      engineAdapter: () => createPgEngineAdapter(connection),
      describe: `postgres ${redactUrl(options.url)}`,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => prisma.$disconnect(),
    };
  }
  let dataDir: string | undefined;
  if (options.dataDir) {
    dataDir = resolve(options.dataDir);
    // Only this user may read the database files.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    await createEmbeddedDataDir(dataDir);
  }
  const pglite = new PGlite(embeddedDatabaseOptions(dataDir));
  await pglite.waitReady;
  const adapterFactory = new PrismaPGlite(pglite);
  const prisma = new PrismaClient({ adapter: adapterFactory, errorFormat: ERROR_FORMAT });
  let closed = false;
  return {
    prisma,
    kind: 'pglite',
    // PGlite's adapter shares the one in-process database (its dispose is a no-op)
    // and opens a fresh in-memory database as the shadow.
    engineAdapter: () => ({ factory: adapterFactory, dispose: async () => {} }),
    describe: dataDir ? `pglite ${dataDir}` : 'pglite (in memory)',
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      // Closing PGlite flushes its files; an unclosed data directory can be left corrupt.
      await pglite.close();
    },
  };
}
