import { applyMigrations, createDatabase, type Database } from '@outreach/db';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createAuthenticator, createCaches, createDnsResolver, createMailSender,
  createMailboxReader, createMailVerifier, createWarmupMailbox, createOAuthClient, createSecretBox, createWebhookHttp, installationOAuthConfig, systemClock, type ServiceDeps } from '@outreach/core';
import type { Logger } from 'pino';
import { graphiqlEnabled, graphqlIntrospectionEnabled, installationSettingsOf, type Env } from './env';
import { createAuthFailureLimiter, createRateLimiter } from './rate-limit';
import type { GatewayDeps } from './request-context';
import { createMetrics } from './metrics';

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

/** 32 bytes written as 64 hex characters or base64; null when it is neither. */
function parseKey(text: string): Buffer | null {
  const raw = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === 32 ? key : null;
}

/**
 * The key that encrypts secrets at rest: ENCRYPTION_KEY (32 bytes, base64 or hex), the file
 * ENCRYPTION_KEY_FILE names (a container secret), or a key file created once under DATA_DIR.
 */
export function loadEncryptionKey(env: Env): Buffer {
  if (env.ENCRYPTION_KEY && env.ENCRYPTION_KEY_FILE) throw new Error('ENCRYPTION_KEY and ENCRYPTION_KEY_FILE are both set: set one');
  if (env.ENCRYPTION_KEY) {
    const key = parseKey(env.ENCRYPTION_KEY);
    if (!key) throw new Error('ENCRYPTION_KEY must be 32 bytes, written as 64 hex characters or base64');
    return key;
  }
  if (env.ENCRYPTION_KEY_FILE) {
    let text: string;
    try {
      text = readFileSync(env.ENCRYPTION_KEY_FILE, 'utf8');
    } catch (error) {
      throw new Error(`ENCRYPTION_KEY_FILE ${env.ENCRYPTION_KEY_FILE}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const key = parseKey(text);
    if (!key) throw new Error(`ENCRYPTION_KEY_FILE ${env.ENCRYPTION_KEY_FILE} must hold 32 bytes, written as 64 hex characters or base64`);
    return key;
  }
  const file = join(resolve(env.DATA_DIR), 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // 'wx' never overwrites a key another process wrote first.
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

/** Where the gateway is reached from outside: PUBLIC_URL, else this machine's port. */
export function publicUrlOf(env: Env): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}

export function gatewayDeps(options: { db: Database; env: Env; log: Logger; encryptionKey?: Buffer }): GatewayDeps {
  const secrets = createSecretBox({ key: options.encryptionKey ?? loadEncryptionKey(options.env) });
  const installation = installationSettingsOf(options.env);
  // Off unless METRICS_TOKEN is set: no registry, and the workers report to no one. The pool's
  // figures exist on PostgreSQL only (PGlite has no pool).
  const metrics = options.env.METRICS_TOKEN
    ? createMetrics({ token: options.env.METRICS_TOKEN, db: options.db.prisma, clock: systemClock, log: options.log, poolStats: options.db.poolStats?.bind(options.db) })
    : null;
  const service: ServiceDeps = {
    db: options.db.prisma,
    ports: {
      clock: systemClock,
      dns: createDnsResolver({ servers: options.env.DNS_SERVERS, timeoutMs: options.env.DNS_TIMEOUT_MS }),
      // Mailbox hosts on this machine's network only with ALLOW_PRIVATE_TARGETS, as webhooks.
      mail: createMailVerifier({ rejectUnauthorized: options.env.MAIL_TLS_REJECT_UNAUTHORIZED, allowPrivateTargets: options.env.ALLOW_PRIVATE_TARGETS }),
      smtp: createMailSender({ rejectUnauthorized: options.env.MAIL_TLS_REJECT_UNAUTHORIZED, allowPrivateTargets: options.env.ALLOW_PRIVATE_TARGETS }),
      imap: createMailboxReader({ rejectUnauthorized: options.env.MAIL_TLS_REJECT_UNAUTHORIZED, allowPrivateTargets: options.env.ALLOW_PRIVATE_TARGETS }),
      warmupImap: createWarmupMailbox({ rejectUnauthorized: options.env.MAIL_TLS_REJECT_UNAUTHORIZED, allowPrivateTargets: options.env.ALLOW_PRIVATE_TARGETS }),
      webhookHttp: createWebhookHttp({ allowPrivateTargets: options.env.ALLOW_PRIVATE_TARGETS }),
      // OAuth settings are read at each call (environment over `outreach settings set`); http:// issuers only with ALLOW_PRIVATE_TARGETS.
      oauth: createOAuthClient({ config: installationOAuthConfig({ db: options.db.prisma, secrets, env: installation }), allowInsecureHttp: options.env.ALLOW_PRIVATE_TARGETS }),
    },
    log: options.log,
    settings: {
      defaultLeadAllowance: options.env.DEFAULT_LEAD_ALLOWANCE,
      publicUrl: publicUrlOf(options.env),
      allowPrivateTargets: options.env.ALLOW_PRIVATE_TARGETS,
      embeddedDatabase: options.db.kind === 'pglite',
      installation,
    },
    caches: createCaches(),
    secrets,
    ...(metrics ? { observer: metrics.observer } : {}),
  };
  return {
    service,
    metrics,
    authenticator: createAuthenticator({ db: options.db.prisma, cache: service.caches.apiKeys }),
    rateLimiter: createRateLimiter({ perSecond: options.env.RATE_LIMIT_PER_SECOND, burst: options.env.RATE_LIMIT_BURST }),
    authFailures: createAuthFailureLimiter({ burst: options.env.AUTH_FAILURE_BURST, perMinute: options.env.AUTH_FAILURES_PER_MINUTE }),
    graphqlIntrospection: graphqlIntrospectionEnabled(options.env),
    graphiql: graphiqlEnabled(options.env),
  };
}
