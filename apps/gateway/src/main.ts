// Composition root: settings → database → migrations → services → HTTP server.
import { loadEnv } from './env';
import { createLogger } from './logger';
import { createApp } from './app';
import { listen } from './server';
import { bootstrapIfEmpty, keyBanner } from './bootstrap';
import { gatewayDeps, migrate, openDatabase, publicUrlOf } from './services';

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
const app = createApp({ deps: gatewayDeps({ db, env, log }), db, publicUrl, development: env.NODE_ENV === 'development' });
const server = await listen({ app, port: env.PORT, host: env.HOST, log, shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS });
log.info({ url: server.url, docs: `${publicUrl}/docs`, graphql: `${publicUrl}/graphql`, trpc: `${publicUrl}/trpc` }, 'listening');

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
  await server.close();
  await db.close();
  log.info('stopped cleanly');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
