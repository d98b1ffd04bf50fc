// Composition root: settings → database → migrations → services → HTTP server.
import { loadEnv } from './env';
import { createLogger } from './logger';
import { createApp } from './app';
import { listen } from './server';
import { bootstrapIfEmpty, keyBanner } from './bootstrap';
import { gatewayDeps, migrate, openDatabase, publicUrlOf } from './services';
import { startReplyWorker, startSendingWorker, startWebhookWorker } from '@outreach/core';

const env = loadEnv();
const log = createLogger({ level: env.LOG_LEVEL });

const db = await openDatabase({ env, log });
let stopping = false;
try {
  await migrate({ db, log });
  const created = await bootstrapIfEmpty({ db: db.prisma });
  if (created) process.stdout.write(`\n${keyBanner(created)}\n\n`);
} catch (error) {
  log.fatal({ err: error }, 'start failed');
  await db.close();
  process.exit(1);
}

const publicUrl = publicUrlOf(env);
const deps = gatewayDeps({ db, env, log });
let server: Awaited<ReturnType<typeof listen>> | null = null;
if (env.ROLE !== 'worker') {
  const app = createApp({ deps, db, publicUrl, development: env.NODE_ENV === 'development' });
  server = await listen({ app, port: env.PORT, host: env.HOST, log, shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS });
  log.info({ url: server.url, docs: `${publicUrl}/docs`, graphql: `${publicUrl}/graphql`, trpc: `${publicUrl}/trpc`, role: env.ROLE }, 'listening');
}
// The worker role: sending, reading replies, delivering webhooks (each safe to run in several processes).
const workers =
  env.ROLE === 'api'
    ? []
    : [
        startSendingWorker({ deps: deps.service, intervalMs: env.WORKER_INTERVAL_MS, maxSendsPerTick: env.WORKER_BATCH }),
        startReplyWorker({ deps: deps.service, pollMs: env.IMAP_POLL_MS }),
        startWebhookWorker({ deps: deps.service }),
      ];

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
  // The workers first: a tick, a mailbox read or a webhook round in progress records its outcome before the database closes.
  await Promise.all(workers.map((w) => w.stop()));
  await server?.close();
  await deps.service.ports.smtp.close();
  await db.close();
  log.info('stopped cleanly');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
