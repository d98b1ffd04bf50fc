// BENCH_ONLY=reading: what reading replies costs a worker process (docs/operations.md, "Sizing").
// For each mailbox count, a Dovecot with that many mailboxes and a database of their own; then
// - the compiled worker (`node apps/gateway/dist/main.js`, ROLE=worker) reading them all: how long
//   until every mailbox has its IMAP session, the process's memory, its CPU while nothing arrives,
//   the logins meanwhile, and how long a reply takes from its APPEND to its row in unibox_messages;
// - the raw baseline, in the same run: bare imapflow holding the same sessions in IDLE and fetching
//   what arrives (bench/reading-raw.ts, a process of its own, run by node without tsx).
// See bench/README.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ImapFlow } from 'imapflow';
import { applyMigrations, createDatabase, newId } from '@outreach/db';
import { createOrganization, createSecretBox } from '@outreach/core';
import { startImapServer, imapServerUnavailable, type ImapTestServer } from '@outreach/core/testing';
import { fmt, median } from './measure';

type Say = (line: string) => void;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** BENCH_READ_WORKER_ENTRY: another build's entry (a copy of an older dist, say), to compare two builds in the same checkout. */
const WORKER_ENTRY = process.env['BENCH_READ_WORKER_ENTRY'] ?? join(ROOT, 'apps/gateway/dist/main.js');
/** BENCH_READ_MAILBOXES: the mailbox counts, comma-separated. */
const COUNTS = (process.env['BENCH_READ_MAILBOXES'] ?? '100,1000').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
/** BENCH_READ_IDLE_S: how long CPU is measured with nothing arriving (past IMAP_POLL_MS, 60 s: each mailbox is read again once). */
const IDLE_S = Number(process.env['BENCH_READ_IDLE_S'] ?? 65);
/** BENCH_READ_REPLIES: replies delivered one at a time, each to another mailbox. */
const REPLIES = Number(process.env['BENCH_READ_REPLIES'] ?? 20);
/** The worker's IMAP_POLL_MS (its default), which the raw side waits in IDLE as long as. */
const POLL_MS = 60_000;
/** How long every session may take to open. */
const START_LIMIT_MS = 300_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** VmRSS and VmHWM (the peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU milliseconds a process has used (utime + stime, clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Dovecot watches a mailbox in IDLE with one inotify instance per session, all of its user's; past
 * the system's limit (128 by default) it checks such mailboxes every 30 s instead, which would
 * hide the readers' own latency. Raised (as root) to room for `sessions`, and said so.
 */
function inotifyRoomFor(sessions: number, say: Say): void {
  const path = '/proc/sys/fs/inotify/max_user_instances';
  const now = Number(readFileSync(path, 'utf8').trim());
  if (now >= sessions + 128) return;
  try {
    writeFileSync(path, String(sessions + 128));
    say(`  fs.inotify.max_user_instances raised from ${now} to ${sessions + 128} (Dovecot's IDLE sessions: one each)`);
  } catch {
    say(`  fs.inotify.max_user_instances is ${now}: past it, Dovecot reports new mail in IDLE only every 30 s (run as root, or raise it)`);
  }
}

interface Proc {
  child: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<void>;
}

function start(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, pid: child.pid!, output: () => out, exited };
}

interface Side {
  /** Logins that failed while the sessions opened (the worker's failed reads, each retried a minute later; the raw side's retries a second later). */
  startFailures: number;
  /** Until every mailbox had its session logged in, from the process's start, and from the first session. */
  allOpenMs: number | null;
  spreadMs: number | null;
  opened: number;
  /** Memory with every session open, after the idle time, and the peak over the whole run (MB). */
  rss: number;
  peak: number;
  /** CPU while nothing arrives, % of a core: on average, and in its busiest second. */
  idleCpu: number;
  busiestSecond: number;
  /** Logins Dovecot accepted while nothing arrived. */
  idleLogins: number;
  /** Rows of email_accounts updated while nothing arrived (PostgreSQL's statistics, which lag by up to a few seconds). */
  idleRowWrites: number;
  /** From each reply's APPEND to its being read (ms). */
  replyMs: number[];
  /** CPU per reply read (ms), less the idle rate's share of the time the replies took. */
  replyCpuMs: number;
}

/** Puts a reply into `user`'s INBOX (its own IMAP login, as a mail server delivering it). */
async function deliver(imap: ImapTestServer, user: string, pass: string, n: number): Promise<void> {
  const c = new ImapFlow({ host: '127.0.0.1', port: imap.port, secure: false, auth: { user, pass }, logger: false });
  c.on('error', () => {});
  await c.connect();
  const raw =
    `From: Lead ${n} <lead${n}@leads.example.com>\r\nTo: ${user}\r\nSubject: Re: our call ${n}\r\n` +
    `Message-ID: <reading-bench-${n}-${randomBytes(6).toString('hex')}@leads.example.com>\r\nDate: ${new Date().toUTCString()}\r\n\r\nYes, let us talk next week.\r\n`;
  await c.append('INBOX', raw);
  await c.logout();
}

/** Sessions logged in and not yet closed on the IMAP server (from its log). */
async function loggedIn(imap: ImapTestServer): Promise<number> {
  return Object.values(await imap.openSessions()).reduce((a, b) => a + b, 0);
}

/** Samples until every mailbox has a logged-in session (or the limit): from the process's start, and from its first session. */
async function untilAllOpen(proc: Proc, imap: ImapTestServer, wanted: number, say: Say, label: string) {
  const began = performance.now();
  let first: number | null = null;
  let opened = 0;
  let lastSaid = 0;
  for (;;) {
    opened = await loggedIn(imap);
    const ms = performance.now() - began;
    if (opened > 0) first ??= ms;
    if (opened >= wanted) return { allOpenMs: ms, spreadMs: ms - (first ?? ms), opened };
    if (proc.child.exitCode !== null) throw new Error(`${label} exited:\n${proc.output().slice(-3000)}`);
    if (ms > START_LIMIT_MS) return { allOpenMs: null, spreadMs: null, opened };
    if (ms - lastSaid > 10_000) {
      say(`    ${label}: ${opened} of ${wanted} sessions open after ${fmt(ms / 1000, 0)} s`);
      lastSaid = ms;
    }
    await sleep(250);
  }
}

async function measureSide(options: {
  label: string;
  proc: Proc;
  imap: ImapTestServer;
  users: [string, string][];
  say: Say;
  /** Resolves once the reply to `user` has been read. */
  readOf: (user: string, mailboxIndex: number) => Promise<void>;
  /** The logins that failed so far, from the process's output. */
  failures: () => number;
  /** Rows of email_accounts updated so far (0 for the raw side). */
  rowWrites: () => Promise<number>;
}): Promise<Side> {
  const { label, proc, imap, users, say } = options;
  const open = await untilAllOpen(proc, imap, users.length, say, label);
  const startFailures = options.failures();
  // Past PostgreSQL's statistics delay (an idle backend reports within 10 s), so the first reads' writes fall before the window.
  await sleep(12_000);
  const logins0 = (await imap.logins()).length;
  const cpu0 = cpuMsOf(proc.pid);
  const writes0 = await options.rowWrites();
  let busiestSecond = 0;
  for (let s = 0, last = cpu0; s < IDLE_S; s++) {
    await sleep(1000);
    const now = cpuMsOf(proc.pid);
    busiestSecond = Math.max(busiestSecond, (100 * (now - last)) / 1000);
    last = now;
  }
  const idleCpu = (100 * (cpuMsOf(proc.pid) - cpu0)) / (IDLE_S * 1000);
  const idleLogins = (await imap.logins()).length - logins0;
  const idleRowWrites = (await options.rowWrites()) - writes0;
  const { rss } = memoryOf(proc.pid);
  const replyMs: number[] = [];
  const replyCpu0 = cpuMsOf(proc.pid);
  const replyStart = performance.now();
  for (let k = 0; k < REPLIES; k++) {
    const i = (k * 7919) % users.length;
    const [user, pass] = users[i]!;
    const read = options.readOf(user, i);
    await deliver(imap, user, pass, k);
    const t = performance.now();
    await read;
    replyMs.push(performance.now() - t);
  }
  // Less what the process spends meanwhile with nothing arriving (its idle rate over the replies' time).
  const replyCpuMs = Math.max(0, cpuMsOf(proc.pid) - replyCpu0 - (idleCpu / 100) * (performance.now() - replyStart)) / REPLIES;
  const { peak } = memoryOf(proc.pid);
  return { ...open, startFailures, rss, peak, idleCpu, busiestSecond, idleLogins, idleRowWrites, replyMs, replyCpuMs };
}

export async function readingBench(options: { url: string; say: Say }): Promise<string[]> {
  const { say } = options;
  const missing = imapServerUnavailable();
  if (missing) throw new Error(`reading: ${missing}`);
  if (!existsSync(WORKER_ENTRY)) throw new Error(`reading: ${WORKER_ENTRY} is missing; run npm run build`);
  const summary: string[] = [];
  const results: { n: number; worker: Side; raw: Side }[] = [];
  say(`\n## Reading replies: a worker process holding one IMAP session per mailbox on a local Dovecot, against bare imapflow (${IDLE_S} s idle, ${REPLIES} replies)`);
  for (const n of COUNTS) {
    const users: [string, string][] = Array.from({ length: n }, (_, i) => [`reader${i}@reading.test`, `secret-${i}-${randomBytes(4).toString('hex')}`]);
    inotifyRoomFor(2 * n, say);
    const imap = await startImapServer({ users: Object.fromEntries(users), sessions: 2 * n + 50 });
    const dbName = `bench_reading_${Date.now()}_${n}`;
    const admin = new pg.Client({ connectionString: options.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = options.url.replace(/\/[^/?]*(\?|$)/, `/${dbName}$1`);
    const db = await createDatabase({ url, poolSize: 4 });
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-reading-'));
    try {
      await applyMigrations({ db });
      const key = randomBytes(32);
      const secrets = createSecretBox({ key });
      const org = await createOrganization({ db: db.prisma, name: 'bench reading' });
      const ids = users.map(() => newId());
      await db.prisma.emailAccount.createMany({
        data: users.map(([email, password], i) => ({
          id: ids[i]!,
          organizationId: org.organizationId,
          workspaceId: org.workspaceId,
          email,
          emailNormalized: email,
          firstName: `Reader${i}`,
          lastName: 'Bench',
          smtpHost: '127.0.0.1',
          smtpPort: 1,
          smtpUsername: email,
          smtpPasswordEnc: secrets.encrypt(password),
          imapHost: '127.0.0.1',
          imapPort: imap.port,
          imapUsername: email,
          imapPasswordEnc: secrets.encrypt(password),
        })),
      });
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const storedFor = async (i: number) =>
        (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM unibox_messages WHERE email_account_id = $1', [ids[i]])).rows[0]!.n;

      // The worker, as compose runs it.
      say(`  ${n} mailboxes: the worker process`);
      const worker = start([WORKER_ENTRY], {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: process.env['HOME'] ?? tmpdir(),
        NODE_ENV: 'production',
        ROLE: 'worker',
        DATABASE_URL: url,
        ENCRYPTION_KEY: key.toString('hex'),
        PUBLIC_URL: 'http://127.0.0.1:9',
        DATA_DIR: dataDir,
        ALLOW_PRIVATE_TARGETS: 'true',
        LOG_LEVEL: 'info',
      });
      let workerSide: Side;
      try {
        workerSide = await measureSide({
          label: 'worker',
          proc: worker,
          imap,
          users,
          say,
          failures: () => (worker.output().match(/reading the mailbox failed/g) ?? []).length,
          rowWrites: async () =>
            (await pool.query<{ n: number }>(`SELECT (n_tup_upd)::int AS n FROM pg_stat_user_tables WHERE relname = 'email_accounts'`)).rows[0]!.n,
          readOf: async (_user, i) => {
            const before = await storedFor(i);
            return (async () => {
              for (let waited = 0; (await storedFor(i)) === before; waited += 10) {
                if (waited > 120_000) throw new Error(`reading: the worker did not store the reply to mailbox ${i} within 2 minutes`);
                await sleep(10);
              }
            })();
          },
        });
      } finally {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
      const failures = (worker.output().match(/"level":50/g) ?? []).length;
      if (failures) say(`    the worker logged ${failures} errors; the first: ${/.*"level":50.*/.exec(worker.output())?.[0]?.slice(0, 400)}`);
      await pool.end();
      // Until the worker's sessions are gone, so they are not counted as the raw side's.
      for (let t = 0; t < 100 && (await loggedIn(imap)) > 0; t++) await sleep(100);

      say(`  ${n} mailboxes: bare imapflow`);
      // In a file: thousands of passwords are past what one environment variable may hold.
      const rawSettings = join(dataDir, 'reading-raw.json');
      writeFileSync(rawSettings, JSON.stringify({ port: imap.port, pollMs: POLL_MS, users: Object.fromEntries(users) }));
      const raw = start([join(ROOT, 'bench/reading-raw.ts')], {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        READING_RAW: rawSettings,
      });
      let rawSide: Side;
      try {
        rawSide = await measureSide({
          label: 'raw',
          proc: raw,
          imap,
          users,
          say,
          rowWrites: async () => 0,
          failures: () => (raw.output().match(/^retried /gm) ?? []).length,
          readOf: async (user) => {
            const line = `read ${user} `;
            const from = raw.output().length;
            return (async () => {
              for (let waited = 0; !raw.output().slice(from).includes(line); waited += 5) {
                if (waited > 120_000) throw new Error(`reading: bare imapflow did not read the reply to ${user} within 2 minutes`);
                await sleep(5);
              }
            })();
          },
        });
      } finally {
        raw.child.kill('SIGKILL');
        await raw.exited;
      }
      results.push({ n, worker: workerSide, raw: rawSide });
      const line = (label: string, s: Side) =>
        `    ${label.padEnd(12)} every session open ${s.allOpenMs === null ? `NOT (${s.opened} of ${n} after ${START_LIMIT_MS / 1000} s)` : `in ${fmt(s.allOpenMs / 1000, 1)} s from start, ${fmt(s.spreadMs! / 1000, 1)} s from the first`}, ${s.startFailures} logins failed meanwhile; ` +
        `RSS ${fmt(s.rss, 0)} MB (peak ${fmt(s.peak, 0)}); CPU idle ${fmt(s.idleCpu, 2)} % of a core (busiest second ${fmt(s.busiestSecond, 0)} %), ${s.idleLogins} logins and ${s.idleRowWrites} mailbox rows written in ${IDLE_S} s; ` +
        `a reply read in ${fmt(median(s.replyMs), 0)} ms p50, ${fmt(Math.max(...s.replyMs), 0)} max, ${fmt(s.replyCpuMs, 1)} ms of CPU each`;
      say(line('worker', workerSide));
      say(line('bare imapflow', rawSide));
      say(
        `    ratio worker/raw: RSS ${fmt(workerSide.rss / rawSide.rss)}, idle CPU ${rawSide.idleCpu > 0 ? fmt(workerSide.idleCpu / rawSide.idleCpu) : 'n/a (raw below the 10 ms clock tick)'}, reply p50 ${fmt(median(workerSide.replyMs) / median(rawSide.replyMs))}, CPU per reply ${rawSide.replyCpuMs > 0 ? fmt(workerSide.replyCpuMs / rawSide.replyCpuMs) : 'n/a (raw below the clock tick)'}` +
          (workerSide.spreadMs && rawSide.spreadMs ? `, first to last session ${fmt(workerSide.spreadMs / rawSide.spreadMs)}` : ''),
      );
      summary.push(
        `reading ${n} mailboxes: worker RSS ${fmt(workerSide.rss, 0)} MB (raw ${fmt(rawSide.rss, 0)}), idle CPU ${fmt(workerSide.idleCpu)} % (raw ${fmt(rawSide.idleCpu)}), busiest second ${fmt(workerSide.busiestSecond, 0)} % (raw ${fmt(rawSide.busiestSecond, 0)}), ${workerSide.idleRowWrites} rows written in ${IDLE_S} s, ` +
          `all sessions in ${workerSide.allOpenMs === null ? 'NOT' : fmt(workerSide.allOpenMs / 1000, 1)} s with ${workerSide.startFailures} failed logins (raw ${rawSide.allOpenMs === null ? 'NOT' : fmt(rawSide.allOpenMs / 1000, 1)}), ` +
          `reply p50 ${fmt(median(workerSide.replyMs), 0)} ms (raw ${fmt(median(rawSide.replyMs), 0)})`,
      );
    } finally {
      await db.close();
      await imap.close();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (results.length >= 2) {
    const [a, b] = [results[0]!, results[results.length - 1]!];
    const slope = (x: Side, y: Side) => (y.rss - x.rss) / (b.n - a.n);
    say(`  memory per mailbox read (${a.n} → ${b.n}): worker ${fmt(slope(a.worker, b.worker) * 1024, 0)} kB, bare imapflow ${fmt(slope(a.raw, b.raw) * 1024, 0)} kB`);
    summary.push(`reading: ${fmt(slope(a.worker, b.worker) * 1024, 0)} kB of worker memory per mailbox (bare imapflow ${fmt(slope(a.raw, b.raw) * 1024, 0)} kB)`);
  }
  return summary;
}
