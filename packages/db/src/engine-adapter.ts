import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

const CHAR_OID = 18;
const TEXT_OID = 25;

/**
 * Schema introspection reads catalog columns of PostgreSQL's internal `"char"` type
 * (pg_class.relkind, …), which @prisma/adapter-pg rejects as an unsupported type.
 * pg already returns those values as strings, so on the engine's own connections the
 * column is reported as text.
 */
function readCharAsText<T extends object>(queryable: T): T {
  const target = queryable as unknown as { performIO(query: unknown): Promise<{ fields: { dataTypeID: number }[] }> };
  const performIO = target.performIO.bind(target);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result.fields) if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
    return result;
  };
  return queryable;
}

/**
 * The driver adapter the schema engine runs on for PostgreSQL. It differs from
 * @prisma/adapter-pg's own factory in two ways that matter to migrations:
 * - the shadow database is dropped only after its pool is closed (the stock factory
 *   drops it first, which PostgreSQL refuses while sessions are open);
 * - `"char"` catalog columns read as text (see readCharAsText);
 * - every connection it hands out is tracked and closed by `dispose`, so a session
 *   holding Migrate's advisory lock never outlives an engine run, even a failed one.
 */
export function createPgEngineAdapter(config: pg.PoolConfig): { factory: SqlMigrationAwareDriverAdapterFactory; dispose(): Promise<void> } {
  const open = new Set<SqlDriverAdapter>();
  const track = (adapter: SqlDriverAdapter) => {
    readCharAsText(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => readCharAsText(await startTransaction(...args));
    open.add(adapter);
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      if (!open.delete(adapter)) return;
      await dispose();
    };
    return adapter;
  };
  const admin = async (sql: string) => {
    const client = new pg.Client(config);
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    connect: async () => track(await new PrismaPg({ ...config, max: 2 }).connect()),
    connectToShadowDb: async () => {
      const database = `prisma_migrate_shadow_db_${randomUUID().replace(/-/g, '')}`;
      await admin(`CREATE DATABASE "${database}"`);
      const adapter = track(await new PrismaPg({ ...config, database, max: 2 }).connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await admin(`DROP DATABASE IF EXISTS "${database}"`);
      };
      return adapter;
    },
  };
  return {
    factory,
    async dispose() {
      await Promise.allSettled([...open].map((a) => a.dispose()));
    },
  };
}
