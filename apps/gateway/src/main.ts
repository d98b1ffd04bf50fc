// Composition root: settings → data directory → database → migrations → services → HTTP server → workers.
import { resolve } from 'node:path';
import { EnvError, loadEnv, type Env } from './env';
import { createLogger } from './logger';
import { createApp } from './app';
import { listen, ListenError, type RunningServer } from './server';
import { metricsApp } from './metrics';
import { bootstrapIfEmpty, keyBanner, setupBanner } from './bootstrap';
import { gatewayDeps, migrate, openDatabase, publicUrlOf } from './services';
import { claimDataDir, DataDirLockedError, tightenDataDir, type DataDirLock } from './data-dir';
import { checkEncryptionKey, EncryptionKeyMismatchError, ensureSetupLink, settledWithin, startAccountAutomationWorker, startPurgeWorker, startReplyWorker, startSendingWorker, startWarmupWorker, startWebhookWorker } from '@outreach/core';
import type { Database } from '@outreach/db';

/** A start the operator has to fix: one line on stderr, exit code 1. */
function refuseToStart(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

let env: Env;
try {
  env = loadEnv();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  for (const problem of error.problems) process.stderr.write(`error: ${problem}\n`);
  process.exit(1);
}
const log = createLogger({ level: env.LOG_LEVEL });
const runsWorkers = env.ROLE !== 'api';

// A signal during the start is honoured once the step in progress is done (a migration is never cut short).
let stopSignal: string | null = null;
let running = false;
const onSignal = (signal: string) => {
  if (stopSignal) return;
  stopSignal = signal;
  if (running) void shutdown(signal);
  else log.info({ signal }, 'stop requested while starting: stopping after the current step');
};
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGINT', () => onSignal('SIGINT'));

// The embedded database is one process's: DATA_DIR is private to this user and locked.
let lock: DataDirLock | null = null;
if (!env.DATABASE_URL) {
  const dataDir = resolve(env.DATA_DIR);
  try {
    lock = claimDataDir({ dataDir, kind: env.ROLE === 'worker' ? 'worker' : 'server' });
  } catch (error) {
    if (error instanceof DataDirLockedError) refuseToStart(`${error.message}; stop it first (one process per DATA_DIR)`);
    refuseToStart(`DATA_DIR ${dataDir}: ${(error as Error).message}`);
  }
}

if (!env.PUBLIC_URL && runsWorkers) {
  log.warn(
    { publicUrl: publicUrlOf(env) },
    'PUBLIC_URL is not set: tracking and unsubscribe links in sent e-mails point at localhost; set PUBLIC_URL to the address recipients reach',
  );
}

const lifecycle = { stopping: false };
let db: Database | null = null;
let server: RunningServer | null = null;
/** The worker role's metrics listener (METRICS_TOKEN, on METRICS_PORT); the API roles serve /metrics themselves. */
let metricsServer: RunningServer | null = null;
let deps: ReturnType<typeof gatewayDeps> | null = null;
const workers: { name: string; stop(): Promise<void> }[] = [];

/** Closes what the start opened, for a start that cannot go on. */
async function abortStart(message: string, error?: unknown): Promise<never> {
  if (error) log.fatal({ err: error }, 'start failed');
  await db?.close().catch(() => undefined);
  try {
    if (lock) tightenDataDir(env.DATA_DIR);
  } catch {
    // the start's own error is the one to report
  }
  lock?.release();
  refuseToStart(message);
}

try {
  db = await openDatabase({ env, log });
} catch (error) {
  await abortStart(`cannot open the database: ${(error as Error).message.split('\n')[0]}`, error);
}
if (stopSignal) await shutdown(stopSignal);
try {
  await migrate({ db: db!, log });
  // The embedded database sets the modes of some files it creates itself.
  if (lock) tightenDataDir(env.DATA_DIR);
} catch (error) {
  await abortStart(`start failed: ${(error as Error).message.split('\n')[0]}`, error);
}
if (stopSignal) await shutdown(stopSignal);

const publicUrl = publicUrlOf(env);
try {
  deps = gatewayDeps({ db: db!, env, log });
} catch (error) {
  // ENCRYPTION_KEY of the wrong length, an unreadable key file.
  await abortStart((error as Error).message);
}
try {
  // Every process of an installation must share the key: one with its own would write secrets
  // the others cannot read (a worker on PostgreSQL without the key set makes its own).
  const check = await checkEncryptionKey({ db: db!.prisma, secrets: deps!.service.secrets });
  log.info({ check }, 'encryption key checked against the database');
} catch (error) {
  if (error instanceof EncryptionKeyMismatchError) await abortStart(error.message);
  await abortStart(`start failed: ${(error as Error).message.split('\n')[0]}`, error);
}
if (env.ROLE !== 'worker') {
  const app = createApp({ deps: deps!, db: db!, publicUrl, lifecycle });
  try {
    server = await listen({ app, port: env.PORT, host: env.HOST, log, shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof ListenError) await abortStart(error.message);
    throw error;
  }
  lock?.setUrl(server.url);
} else if (deps!.metrics) {
  try {
    metricsServer = await listen({ app: metricsApp({ metrics: deps!.metrics, log }), port: env.METRICS_PORT, host: env.HOST, log, shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof ListenError) await abortStart(`metrics listener: ${error.message.replace('set PORT', 'set METRICS_PORT')}`);
    throw error;
  }
  log.info({ url: `${metricsServer.url}/metrics` }, 'metrics listening');
}
// Once the port is taken: a start that fails there creates no key (the next start creates and shows it).
try {
  // The API roles only: a worker has no HTTP API, and its log is no place for a key.
  const created = env.ROLE !== 'worker' ? await bootstrapIfEmpty({ db: db!.prisma }) : null;
  if (created) process.stdout.write(`\n${keyBanner(created)}\n\n`);
  // While nobody has signed up: a one-time link that creates the owner (printed, never logged).
  const setup = env.ROLE !== 'worker' ? await ensureSetupLink({ db: db!.prisma, publicUrl }) : null;
  if (setup) process.stdout.write(`\n${setupBanner(setup)}\n\n`);
} catch (error) {
  await server?.close(0);
  await metricsServer?.close(0);
  await abortStart(`start failed: ${(error as Error).message.split('\n')[0]}`, error);
}
if (server) {
  log.info({ url: server.url, docs: `${publicUrl}/docs`, graphql: `${publicUrl}/graphql`, trpc: `${publicUrl}/trpc`, role: env.ROLE }, 'listening');
}
// The worker role: sending, reading replies, delivering webhooks, evaluating email-account automation
// rules, purging deleted campaigns, workspaces and organizations (each safe to run in several processes).
if (runsWorkers) {
  workers.push(
    { name: 'sending worker', ...startSendingWorker({ deps: deps!.service, intervalMs: env.WORKER_INTERVAL_MS, maxSendsPerTick: env.WORKER_BATCH, claimLeaseMs: env.SEND_LEASE_MS, claimAheadMs: env.SEND_AHEAD_MS }) },
    // On the embedded database this process is the only reader: one left by a process that died is removed at once.
    { name: 'reply worker', ...startReplyWorker({ deps: deps!.service, pollMs: env.IMAP_POLL_MS, refreshMs: env.IMAP_REFRESH_MS, loginConcurrency: env.IMAP_LOGIN_CONCURRENCY, soleReader: !env.DATABASE_URL }) },
    { name: 'webhook worker', ...startWebhookWorker({ deps: deps!.service }) },
    { name: 'warmup worker', ...startWarmupWorker({ deps: deps!.service, intervalMs: env.WARMUP_INTERVAL_MS, sharedPool: env.WARMUP_SHARED_POOL }) },
    { name: 'automation worker', ...startAccountAutomationWorker({ deps: deps!.service }) },
    { name: 'purge worker', ...startPurgeWorker({ deps: deps!.service }) },
  );
}
running = true;
if (stopSignal) await shutdown(stopSignal);

/**
 * Stops taking work (new requests answer 503, health checks `stopping`), then lets the
 * workers' rounds and the requests in flight finish, all within SHUTDOWN_TIMEOUT_MS; what
 * has not finished by then is named in the log and cut off (a send or a webhook delivery
 * cut off is retried when its lease ends). Then the database is closed and the process exits:
 * 0 after a clean stop, 1 when work was cut off.
 */
async function shutdown(signal: string): Promise<never> {
  lifecycle.stopping = true;
  server?.refuseNewRequests();
  const timeoutMs = env.SHUTDOWN_TIMEOUT_MS;
  log.info({ signal, timeoutMs }, 'shutting down: refusing new requests, finishing the work in progress');
  const tasks = [
    ...workers.map((w) => ({ name: w.name, stop: () => w.stop() })),
    ...(server ? [{ name: 'http requests', stop: () => server!.idle() }] : []),
  ].map((task) => {
    const entry = { name: task.name, done: false, promise: Promise.resolve() };
    entry.promise = task.stop().then(
      () => void (entry.done = true),
      (error: unknown) => {
        entry.done = true;
        log.error({ err: error, task: task.name }, 'error while stopping');
      },
    );
    return entry;
  });
  const clean = await settledWithin(timeoutMs, Promise.all(tasks.map((t) => t.promise)));
  if (!clean) {
    const unfinished = tasks.filter((t) => !t.done).map((t) => (t.name === 'http requests' ? `http requests (${server?.inFlight() ?? 0} in flight)` : t.name));
    log.warn({ unfinished, timeoutMs }, 'shutdown timeout: stopping with work unfinished (sends and webhook deliveries are retried after their lease)');
  }
  // Closing must not hang the exit either: connections, mail pools and the database get a few seconds.
  let closeFailed = false;
  const closedInTime = await settledWithin(
    5_000,
    (async () => {
      try {
        await server?.close(0);
        await metricsServer?.close(0);
        await deps?.service.ports.smtp.close();
        await db?.close();
      } catch (error) {
        closeFailed = true;
        log.error({ err: error }, 'error while closing');
      }
    })(),
  );
  if (!closedInTime) log.warn('shutdown: closing connections or the database did not finish in 5 s; exiting');
  const closed = closedInTime && !closeFailed;
  try {
    if (lock) tightenDataDir(env.DATA_DIR);
  } catch (error) {
    log.warn({ err: error }, 'could not tighten DATA_DIR modes');
  }
  lock?.release();
  log.info(clean && closed ? 'stopped cleanly' : 'stopped');
  process.exit(clean && closed ? 0 : 1);
}
