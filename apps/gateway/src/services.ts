import { applyMigrations, createDatabase, type Database } from '@outreach/db';
import { createAuthenticator, createCaches, createDnsResolver, systemClock, type ServiceDeps } from '@outreach/core';
import type { Logger } from 'pino';
import type { Env } from './env';
import { createRateLimiter } from './rate-limit';
import type { GatewayDeps } from './request-context';

export async function openDatabase(options: { env: Env; log: Logger }): Promise<Database> {
  const { env } = options;
  const db = env.DATABASE_URL
    ? await createDatabase({ url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, acquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS })
    : await createDatabase({ dataDir: env.DATA_DIR });
  options.log.info({ database: db.describe }, 'database opened');
  return db;
}

export async function migrate(options: { db: Database; log: Logger }) {
  const result = await applyMigrations({ db: options.db });
  options.log.info({ applied: result.applied, total: result.total }, result.applied.length ? 'migrations applied' : 'database schema up to date');
  return result;
}

export function gatewayDeps(options: { db: Database; env: Env; log: Logger }): GatewayDeps {
  const service: ServiceDeps = {
    db: options.db.prisma,
    ports: { clock: systemClock, dns: createDnsResolver({ servers: options.env.DNS_SERVERS, timeoutMs: options.env.DNS_TIMEOUT_MS }) },
    log: options.log,
    settings: { defaultLeadAllowance: options.env.DEFAULT_LEAD_ALLOWANCE },
    caches: createCaches(),
  };
  return {
    service,
    authenticator: createAuthenticator({ db: options.db.prisma }),
    rateLimiter: createRateLimiter({ perSecond: options.env.RATE_LIMIT_PER_SECOND, burst: options.env.RATE_LIMIT_BURST }),
  };
}
