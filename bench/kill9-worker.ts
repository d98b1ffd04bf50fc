// The sending worker of bench/kill9-double-send.ts, as its own process so that it can be
// killed with SIGKILL: the engine's worker loop (startSendingWorker) on PostgreSQL with the
// real nodemailer MailSender, nothing else. Its clock runs KILL9_CLOCK_SPEED times faster than
// the wall clock from KILL9_CLOCK_ORIGIN (so a mailbox's 0–60 s jitter between two sends takes
// a second), shifted by KILL9_CLOCK_OFFSET_MS, which lets a restarted worker find the claims of
// the one before it past their 5-minute lease at once (the engine never reads the database's clock).
import { pino } from 'pino';
import { createDatabase } from '@outreach/db';
import type { ServiceDeps } from '@outreach/core';

// KILL9_CORE: another copy of packages/core to run instead (its src/index.ts), to measure an
// earlier version of the engine against the same bench, e.g. the last commit's:
//   mkdir /tmp/kill9-head && git archive HEAD packages/core | tar -x -C /tmp/kill9-head
//   ln -s "$PWD/node_modules" /tmp/kill9-head/node_modules && cp tsconfig.base.json /tmp/kill9-head/tsconfig.json
//   KILL9_CORE=/tmp/kill9-head/packages/core/src/index.ts npx tsx bench/kill9-double-send.ts
const core = (await import(process.env['KILL9_CORE'] ?? '@outreach/core')) as typeof import('@outreach/core');
const { createCaches, createDnsResolver, createMailboxReader, createMailSender, createMailVerifier, createSecretBox, startSendingWorker } = core;

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`kill9-worker: ${name} is not set`);
  return value;
};
const offsetMs = Number(process.env['KILL9_CLOCK_OFFSET_MS'] ?? 0);
const speed = Number(process.env['KILL9_CLOCK_SPEED'] ?? 1);
const origin = Number(process.env['KILL9_CLOCK_ORIGIN'] ?? Date.now());
const db = await createDatabase({ url: env('KILL9_DATABASE_URL'), poolSize: 12 });
const at = () => performance.timeOrigin + performance.now();
const traced = new Proxy(db.prisma, {
  get(target, prop) {
    const value = Reflect.get(target, prop, target) as unknown;
    if (prop !== '$executeRawUnsafe' || !process.env['KILL9_TRACE']) return value;
    const fn = value as (sql: string, ...params: unknown[]) => Promise<number>;
    return async (sql: string, ...params: unknown[]) => {
      const start = at();
      const n = await fn.call(target, sql, ...params);
      if (sql.includes('SET pending_data_at')) process.stdout.write(`mark ${String(params[0])} ${start} ${at()}\n`);
      return n;
    };
  },
});
const deps: ServiceDeps = {
  db: traced,
  ports: {
    clock: { now: () => new Date(origin + (Date.now() - origin) * speed + offsetMs) },
    dns: createDnsResolver({ servers: ['127.0.0.1:9'], timeoutMs: 200 }),
    mail: createMailVerifier({ rejectUnauthorized: false, allowPrivateTargets: true }),
    smtp: createMailSender({ timeoutMs: 10_000, rejectUnauthorized: false, allowPrivateTargets: true }),
    imap: createMailboxReader({ rejectUnauthorized: false, allowPrivateTargets: true }),
    // Unused by the sending worker; absent from older copies of the engine (KILL9_CORE).
    webhookHttp: core.createWebhookHttp?.({ allowPrivateTargets: true }),
    // Unused by password mailboxes; absent from older copies of the engine (KILL9_CORE).
    oauth: core.createOAuthClient?.({ config: core.installationOAuthConfig({ db: traced, secrets: createSecretBox({ key: Buffer.from(env('KILL9_ENCRYPTION_KEY'), 'hex') }) }), allowInsecureHttp: true }),
  },
  log: pino({ level: process.env['KILL9_LOG_LEVEL'] ?? 'error' }, pino.destination(2)),
  settings: { defaultLeadAllowance: 1_000_000, publicUrl: 'https://outreach.test', allowPrivateTargets: true },
  caches: createCaches(),
  secrets: createSecretBox({ key: Buffer.from(env('KILL9_ENCRYPTION_KEY'), 'hex') }),
};
const worker = startSendingWorker({ deps, intervalMs: Number(process.env['KILL9_INTERVAL_MS'] ?? 100), maxSendsPerTick: 100 });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void (async () => {
    await worker.stop();
    await deps.ports.smtp.close();
    await db.close();
    process.exit(0);
  })();
});
