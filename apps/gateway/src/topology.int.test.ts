// The production topology as real processes (what compose.yaml runs): PostgreSQL, one ROLE=api
// process and two ROLE=worker processes of the compiled build (apps/gateway/dist/main.js), sharing
// one database and one ENCRYPTION_KEY. A campaign of 500 leads goes out through a real SMTP server
// in this process while the API is polled, and one worker is killed with SIGKILL mid-run and
// restarted: every lead gets exactly one e-mail, each worker sent some, the API answered throughout.
//
// The SMTP server knows which process sent each message: it maps the client's port to the process
// holding that socket (/proc/net/tcp, /proc/<pid>/fd). It can also hold its answers to one process's
// RCPT TO, which places the kill: the worker holds at least one claim (waiting at RCPT) and has no
// message between DATA and its final "." (the window in which a kill loses an e-mail by design,
// docs/operations.md "A worker killed mid-send"). Its claims are then retried by another worker when
// their lease ends (SEND_LEASE_MS, short here), with the same Message-ID.
//
// Runs once, in the suite's pass without DATABASE_URL: it starts its own PostgreSQL server with the
// binaries of /usr/lib/postgresql/<highest>/bin (as the postgres user when run as root).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, imapServerUnavailable, startImapServer, type ImapTestServer } from '@outreach/core/testing';
import { compiledEntry } from './testing/compiled';
import { openAllDay } from './testing/schedule';

const root = resolve(import.meta.dirname, '..', '..', '..');
const MAILBOXES = 10;
const LEADS = 500;
/**
 * A claim is due again after this (SEND_LEASE_MS), well above the longest hold below. The DATA
 * mark renews it (MARK_DATA_SQL): a claim the surviving worker takes while its RCPT TOs are held,
 * its body going out late in the lease, is still its own when it records the send. Before that
 * renewal, loaded CI machines twice let the other worker take over such claims (their DATA
 * marked), which it then rightly recorded as outcome unknown.
 */
const LEASE_MS = 30_000;
/** The longest RCPT TO answer held from the surviving worker while the killed one restarts (SMTP timeouts are 30 s). */
const HOLD_GUARD_MS = 15_000;

// --- whether this can run here ---------------------------------------------------------------

function postgresBin(): string | null {
  if (!existsSync('/usr/lib/postgresql')) return null;
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')) && existsSync(join('/usr/lib/postgresql', v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join('/usr/lib/postgresql', versions[versions.length - 1]!, 'bin') : null;
}

/** uid and gid of the postgres system user (initdb refuses root). */
function postgresUser(): { uid: number; gid: number } | null {
  try {
    return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) };
  } catch {
    return null;
  }
}

const PG_BIN = postgresBin();
const asRoot = process.getuid?.() === 0;
const PG_USER = asRoot ? postgresUser() : null;
const skipReason: string | null = process.env['DATABASE_URL']
  ? 'DATABASE_URL is set: this test starts its own PostgreSQL server and runs in the pass without DATABASE_URL'
  : !PG_BIN
    ? 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)'
    : asRoot && !PG_USER
      ? 'running as root without a postgres system user to run initdb as'
      : !existsSync('/proc/net/tcp')
        ? 'no /proc/net/tcp (Linux only: the SMTP server tells the worker processes apart by their sockets)'
        : imapServerUnavailable();
if (skipReason) console.warn(`topology.int.test.ts skipped: ${skipReason}`);

// --- small helpers ---------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tempDirs: string[] = [];

/** A file holding a new encryption key (mode 0600), as compose mounts its secret. */
function keyFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outreach-topology-key-'));
  tempDirs.push(dir);
  const file = join(dir, 'encryption_key');
  writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return file;
}

/** Where the time went (printed at the end; nothing is asserted on it). */
const phases: string[] = [];
let phaseStart = Date.now();
function phase(name: string) {
  phases.push(`${name} ${((Date.now() - phaseStart) / 1000).toFixed(1)}s`);
  phaseStart = Date.now();
}

/** Waits until `condition` holds, checking every 25 ms; throws with `describe()` after `timeoutMs` (a guard, not a measure). */
async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number, describe: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${describe()}`);
    await sleep(25);
  }
}

/** Runs a command to its end (as `user` when given), throwing with its output when it fails. */
async function run(command: string, args: string[], options: { user?: { uid: number; gid: number } | null; cwd?: string; timeoutMs?: number } = {}): Promise<string> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  // 'exit', not 'close': pg_ctl's server may keep inherited descriptors open.
  const code = await new Promise<number | null>((resolveExit, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms: ${output}`));
    }, options.timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolveExit(c);
    });
  });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}: ${output}`);
  return output;
}

// --- PostgreSQL ------------------------------------------------------------------------------

interface Postgres {
  url: string;
  stop(): Promise<void>;
}

async function startPostgres(): Promise<Postgres> {
  const bin = PG_BIN!;
  const dir = mkdtempSync(join(tmpdir(), 'outreach-topology-pg-'));
  const user = PG_USER;
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  let started = false;
  const stop = async () => {
    try {
      if (started) await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { user, cwd: dir, timeoutMs: 30_000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync'], { user, cwd: dir, timeoutMs: 120_000 });
    const port = await freePort();
    // fsync off: a throw-away cluster; nothing here depends on surviving a machine crash.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    started = true;
    await run(join(bin, 'pg_ctl'), ['-D', data, '-w', '-t', '60', '-l', join(dir, 'postgres.log'), '-o', options, 'start'], { user, cwd: dir, timeoutMs: 90_000 });
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

// --- the product's processes -----------------------------------------------------------------

interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
}

const procs: Proc[] = [];

function startProc(name: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [compiledEntry('main')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => {
      done = true;
      r({ code, signal });
    }),
  );
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const proc: Proc = { name, child, pid: child.pid, output: () => output, exited, alive: () => !done };
  procs.push(proc);
  return proc;
}

/** The last lines of every process's output, for a failure's message. */
function tails(lines = 15): string {
  return procs.map((p) => `--- ${p.name} (pid ${p.pid}${p.alive() ? '' : ', exited'}):\n${p.output().trimEnd().split('\n').slice(-lines).join('\n')}`).join('\n');
}

/** The JSON log lines of a process with this message. */
function logLines(proc: Proc, msg: string): Record<string, unknown>[] {
  return proc
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(msg))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line['msg'] === msg);
}

// --- the SMTP server -------------------------------------------------------------------------

interface Received {
  to: string;
  messageId: string;
  pid: number | null;
}

/** An answer the server holds back: to a RCPT TO, or to a message's final "." (the message kept). */
interface HeldAnswer {
  session: string;
  pid: number | null;
  to: string;
  answer: () => void;
}

/** The pid, among `pids`, of the process holding the client end of a loopback connection to `serverPort` from `clientPort`. */
async function pidOfClient(clientPort: number, serverPort: number, pids: number[]): Promise<number | null> {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const tables = await Promise.all(['/proc/net/tcp', '/proc/net/tcp6'].map((f) => readFile(f, 'utf8').catch(() => '')));
  let inode: string | null = null;
  for (const line of tables.join('\n').split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols[1]?.endsWith(`:${hex(clientPort)}`) && cols[2]?.endsWith(`:${hex(serverPort)}`)) inode = cols[9] ?? null;
  }
  if (!inode || inode === '0') return null;
  for (const pid of pids) {
    for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === `socket:[${inode}]`) return pid;
    }
  }
  return null;
}

interface Smtp {
  port: number;
  received: Received[];
  /** RCPT TO answers held (nothing of the message sent yet). */
  held: HeldAnswer[];
  /** Answers to a complete message held (the message is received; its sender does not know yet). */
  heldBodies: HeldAnswer[];
  /** Messages between DATA and the end of their body, with the pid of their client. */
  inData: Map<object, number | null>;
  /** Whether RCPT TO, and the end of a body, from this process wait; `release()` answers what no longer should. */
  hold: (pid: number | null) => boolean;
  holdBody: (pid: number | null) => boolean;
  release(): void;
  close(): Promise<void>;
}

async function startSmtp(users: Map<string, string>, candidatePids: () => number[]): Promise<Smtp> {
  const received: Received[] = [];
  const held: HeldAnswer[] = [];
  const heldBodies: HeldAnswer[] = [];
  const inData = new Map<object, number | null>();
  const pids = new Map<string, Promise<number | null>>();
  /** The pid of a session's client once known (always by DATA: RCPT TO waits for it). */
  const known = new Map<string, number | null>();
  let port = 0;
  const api: Smtp = {
    port: 0,
    received,
    held,
    heldBodies,
    inData,
    hold: () => false,
    holdBody: () => false,
    release() {
      for (const [list, holds] of [[held, api.hold], [heldBodies, api.holdBody]] as const) {
        for (const h of [...list]) {
          if (holds(h.pid)) continue;
          list.splice(list.indexOf(h), 1);
          h.answer();
        }
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onConnect(session, callback) {
      pids.set(
        session.id,
        pidOfClient(session.remotePort, port, candidatePids()).then((pid) => {
          known.set(session.id, pid);
          return pid;
        }),
      );
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username !== undefined && users.get(auth.username) === auth.password) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, session, callback) {
      void (pids.get(session.id) ?? Promise.resolve(null)).then((pid) => {
        if (!api.hold(pid)) return callback();
        held.push({ session: session.id, pid, to: address.address.toLowerCase(), answer: () => callback() });
      });
    },
    onData(stream, session: SMTPServerSession, callback) {
      inData.set(stream, known.get(session.id) ?? null);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A body cut off before its final "." never ends: the connection's close destroys the stream.
      stream.on('close', () => inData.delete(stream));
      stream.on('error', () => inData.delete(stream));
      stream.on('end', () => {
        inData.delete(stream);
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = /^Message-ID:\s*<([^>]+)>/im.exec(raw)?.[1] ?? '(none)';
        const pid = known.get(session.id) ?? null;
        for (const to of session.envelope.rcptTo) received.push({ to: to.address.toLowerCase(), messageId, pid });
        if (!api.holdBody(pid)) return callback();
        heldBodies.push({ session: session.id, pid, to: session.envelope.rcptTo[0]!.address.toLowerCase(), answer: () => callback() });
      });
    },
    onClose(session) {
      // RCPTs held on a connection that is gone (its process killed) are never answered.
      for (const list of [held, heldBodies]) for (const h of list.filter((x) => x.session === session.id)) list.splice(list.indexOf(h), 1);
      pids.delete(session.id);
      known.delete(session.id);
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((r, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => r());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('the SMTP server has no port');
  port = address.port;
  api.port = port;
  return api;
}

// --- the test --------------------------------------------------------------------------------

let postgres: Postgres | null = null;
let imap: ImapTestServer | null = null;
let smtp: Smtp | null = null;
let db: pg.Client | null = null;

const users = new Map(Array.from({ length: MAILBOXES }, (_, i) => [`sender${i}@topology.test`, `secret-${i}-${randomBytes(4).toString('hex')}`]));
const leads = Array.from({ length: LEADS }, (_, i) => `lead${String(i).padStart(3, '0')}@leads.test`);

let apiUrl = '';
let apiKey = '';
let workspaceId = '';
let workerEnv: Record<string, string> = {};
let api: Proc;

afterAll(async () => {
  for (const p of procs) if (p.alive()) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await db?.end().catch(() => undefined);
  await smtp?.close().catch(() => undefined);
  await imap?.close().catch(() => undefined);
  await postgres?.stop();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(skipReason !== null)(`the production topology: PostgreSQL, one API and two worker processes${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  beforeAll(async () => {
    phaseStart = Date.now();
    compiledEntry('main');
    phase('build');
    [postgres, imap] = await Promise.all([startPostgres(), startImapServer({ users: Object.fromEntries(users) })]);
    smtp = await startSmtp(users, () => procs.filter((p) => p.alive()).map((p) => p.pid));
    phase('postgres+imap');

    const apiPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    // What compose.yaml gives every process: one database, one key.
    const shared: Record<string, string> = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? tmpdir(),
      NODE_ENV: 'test',
      DATABASE_URL: postgres.url,
      // The compose secret: a file holding the key.
      ENCRYPTION_KEY_FILE: keyFile(),
      PUBLIC_URL: apiUrl,
      DATA_DIR: join(tmpdir(), 'outreach-topology-unused'),
      ALLOW_PRIVATE_TARGETS: 'true',
      SHUTDOWN_TIMEOUT_MS: '10000',
    };
    // All three at once, as compose starts them: they migrate the empty database in turn, and the API
    // process creates the default organization and prints its key.
    // No sending ahead: a mailbox's later sends in a tick wait for the pauses after the ones before
    // (0–60 s each), which the trigger below drops from the database only.
    // The reply readers renew every 300 ms: they divide the mailboxes, and take over a killed one's, within seconds.
    workerEnv = { ...shared, ROLE: 'worker', LOG_LEVEL: 'info', WORKER_INTERVAL_MS: '100', SEND_LEASE_MS: String(LEASE_MS), SEND_AHEAD_MS: '0', IMAP_REFRESH_MS: '300' };
    api = startProc('api', { ...shared, ROLE: 'api', HOST: '127.0.0.1', PORT: String(apiPort), LOG_LEVEL: 'warn' });
    const workers = [startProc('worker A', workerEnv), startProc('worker B', workerEnv)];
    await waitFor('the API key banner', () => /API key:\s+[0-9a-f-]{35}/.test(api.output()) || !api.alive(), 120_000, tails);
    apiKey = /API key:\s+([0-9a-f-]{35})/.exec(api.output())?.[1] ?? '';
    workspaceId = /workspace_id:\s+([0-9a-f]{24})/.exec(api.output())?.[1] ?? '';
    if (!apiKey || !workspaceId) throw new Error(`no key banner:\n${tails(40)}`);
    await waitFor('/readyz', async () => (await fetch(`${apiUrl}/readyz`).catch(() => null))?.status === 200, 30_000, tails);
    phase('api');

    // The one thing not done through the product: a mailbox's pause between two sends is at least
    // 0–60 s (sending_gap 0 plus its jitter), which would spread 500 sends over 25 minutes. The
    // test's own database drops every gap as it is written, so mailboxes are free at every tick.
    db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    await db.query(`CREATE FUNCTION topology_test_no_gap() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.next_send_allowed_at := NULL; RETURN NEW; END $$`);
    await db.query(`CREATE TRIGGER topology_test_no_gap BEFORE INSERT OR UPDATE OF next_send_allowed_at ON email_accounts FOR EACH ROW EXECUTE FUNCTION topology_test_no_gap()`);

    await waitFor('both workers', () => workers.every((w) => w.output().includes('"msg":"sending worker started"') || !w.alive()), 120_000, tails);
    for (const w of workers) if (!w.alive()) throw new Error(`${w.name} exited:\n${tails(40)}`);
    phase('workers');
    // One organization, its key shown by the API only.
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations')).rows[0]!.n).toBe(1);
    for (const w of workers) expect(w.output()).not.toContain('API key:');
  }, 300_000);

  const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, body: Record<string, unknown> = {}) => {
    const params = { workspace_id: workspaceId, ...body };
    const url = method === 'GET' ? `${apiUrl}/api/v1${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}` : `${apiUrl}/api/v1${path}`;
    const response = await fetch(url, {
      method,
      headers: { 'x-api-key': apiKey, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(method === 'GET' ? {} : { body: JSON.stringify(params) }),
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await response.json()) as any;
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return json;
  };

  it('sends 500 e-mails exactly once from two workers, one killed with SIGKILL and restarted, while the API answers', async () => {
    const [workerA, workerB] = [procs[1]!, procs[2]!];

    // Mailboxes (each login checked against the SMTP and IMAP servers), then the campaign.
    const added = await call('POST', '/account/bulk-add-regular-accounts', {
      accounts: [...users].map(([email, password]) => ({
        email,
        smtp_host: '127.0.0.1',
        smtp_port: smtp!.port,
        smtp_username: email,
        smtp_password: password,
        imap_host: '127.0.0.1',
        imap_port: imap!.port,
        imap_username: email,
        imap_password: password,
        daily_limit: 200,
        sending_gap: 0,
      })),
    });
    expect(added.failed).toEqual([]);
    expect(added.added).toHaveLength(MAILBOXES);

    // The two workers divide the mailboxes they read: half each, one IMAP session per mailbox.
    const readMailboxes = async () => {
      const { rows } = await db!.query<{ name: string; n: number }>(
        'SELECT r.name, count(l.email_account_id)::int AS n FROM mailbox_readers r LEFT JOIN mailbox_read_leases l ON l.reader_id = r.id GROUP BY r.name',
      );
      return new Map(rows.map((r) => [Number(r.name.split('/').at(-1)), r.n]));
    };
    const dividedBy = async (a: Proc, b: Proc) => {
      const read = await readMailboxes();
      return read.size === 2 && read.get(a.pid) === MAILBOXES / 2 && read.get(b.pid) === MAILBOXES / 2;
    };
    const oneSessionEach = async () => {
      const open = await imap!.openSessions();
      return [...users.keys()].every((email) => open[email] === 1);
    };
    await waitFor('the workers reading half the mailboxes each', () => dividedBy(workerA, workerB), 30_000, tails);
    await waitFor('one IMAP session per mailbox', oneSessionEach, 30_000, tails);
    phase('readers');

    const campaignId = (await call('POST', '/campaign/add/campaign', { camp_name: 'Topology' })).id as string;
    await call('PATCH', '/campaign/update/campaign', {
      campaign_id: campaignId,
      sequences: [{ step: 1, wait_time: 0, variations: [{ variation: 'A', subject: 'Hello {{first_name}}', body: '<p>Hi {{first_name}}, one message only.</p>' }] }],
      email_accounts: [...users.keys()],
      daily_limit: 1000,
      schedules: openAllDay(),
    });
    const uploaded = await call('POST', '/lead/add', { campaign_id: campaignId, leads: leads.map((email, i) => ({ email, first_name: `Lead${i}` })) });
    expect(uploaded.leads_uploaded).toBe(LEADS);
    phase('mailboxes+campaign');

    // The API is polled all along: every answer must be 200.
    const polls: { status: number | string }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const status = await fetch(`${apiUrl}/api/v1/campaign/list-all?workspace_id=${workspaceId}&campaign_id=${campaignId}`, { headers: { 'x-api-key': apiKey }, signal: AbortSignal.timeout(30_000) }).then(
          async (r) => (await r.arrayBuffer(), r.status),
          (error: Error) => `${error.name}: ${error.message}`,
        );
        polls.push({ status });
        await sleep(100);
      }
    })();
    const progress = () => `received ${smtp!.received.length}, held ${smtp!.held.length}, in DATA ${smtp!.inData.size}\n${tails()}`;
    const sentBy = (proc: Proc) => smtp!.received.filter((m) => m.pid === proc.pid).length;

    try {
      await call('POST', '/campaign/launch', { campaign_id: campaignId });

      // Both workers send.
      await waitFor('a message from each worker', () => sentBy(workerA) > 0 && sentBy(workerB) > 0, 60_000, progress);
      phase('first sends');

      // Worker A's RCPT TOs wait. Once it holds claims there and has no message between DATA and its
      // final ".", one of them (when it holds two or more) goes on and its message is received, but the
      // answer to its final "." waits. Then A is killed: it dies with claims not yet sent (retried by
      // another worker after the lease) and, mostly, one sent that it could not record (recorded with
      // outcome unknown by the other worker, not sent again).
      smtp!.hold = (pid) => pid === workerA.pid;
      const aInData = () => [...smtp!.inData.values()].includes(workerA.pid);
      const heldOfA = () => smtp!.held.filter((h) => h.pid === workerA.pid);
      await waitFor('worker A holding a claim at RCPT TO', () => heldOfA().length > 0 && !aInData(), 30_000, progress);
      if (heldOfA().length >= 2) {
        const [goesOn] = heldOfA();
        smtp!.holdBody = (pid) => pid === workerA.pid;
        smtp!.held.splice(smtp!.held.indexOf(goesOn!), 1);
        goesOn!.answer();
        await waitFor('the message of worker A that went on', () => smtp!.heldBodies.some((h) => h.to === goesOn!.to), 30_000, progress);
      }
      let heldByA: string[] = [];
      let receivedUnansweredByA: string[] = [];
      // The messages A's server answered are recorded first (A records a tick's accepted sends in
      // batches, so an answer may wait for the batch being written): killed before, A would leave
      // them to be recorded with outcome unknown too, a case this test does not place.
      const answeredOfARecorded = async () => {
        const answered = smtp!.received.filter((m) => m.pid === workerA.pid && !smtp!.heldBodies.some((h) => h.to === m.to)).map((m) => m.messageId);
        const { rows } = await db!.query<{ n: number }>('SELECT count(*)::int AS n FROM sent_emails WHERE message_id = ANY($1)', [answered]);
        return rows[0]!.n === answered.length;
      };
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (!aInData() && (await answeredOfARecorded()) && !aInData()) {
          heldByA = heldOfA().map((h) => h.to);
          receivedUnansweredByA = smtp!.heldBodies.filter((h) => h.pid === workerA.pid).map((h) => h.to);
          workerA.child.kill('SIGKILL');
          break;
        }
        if (Date.now() > deadline) throw new Error(`worker A kept a message between DATA and its end, or did not record what was answered\n${progress()}`);
        await sleep(5);
      }
      const sentByA = sentBy(workerA);
      expect(await workerA.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // What A's claims hold: the send id (hence the Message-ID) a retry must reuse, and the DATA mark.
      const claimedByA = new Map(
        (
          await db!.query<{ email: string; pending_send_id: string | null; marked: boolean }>(
            'SELECT email, pending_send_id, pending_data_at IS NOT NULL AS marked FROM leads WHERE campaign_id = $1 AND email = ANY($2) AND claimed_at IS NOT NULL',
            [campaignId, [...heldByA, ...receivedUnansweredByA]],
          )
        ).rows.map((r) => [r.email, r]),
      );
      phase('kill');

      // Restarted with the same settings; worker B's RCPTs wait until the new process has sent one
      // (guarded: an SMTP answer must not wait anywhere near its 30 s timeout).
      const workerA2 = startProc('worker A (restarted)', workerEnv);
      smtp!.hold = (pid) => pid === workerB.pid;
      smtp!.holdBody = () => false;
      smtp!.release();
      const holdEnds = Date.now() + HOLD_GUARD_MS;
      while (sentBy(workerA2) === 0 && Date.now() < holdEnds && workerA2.alive()) await sleep(25);
      smtp!.hold = () => false;
      smtp!.release();
      phase('restart');

      // Done when the campaign is: its last leads are the killed worker's claims, due when their lease ends.
      await waitFor(
        'the campaign to complete',
        async () => (await call('GET', '/campaign/list-all', { campaign_id: campaignId }))[0]?.status === 'COMPLETED',
        120_000,
        progress,
      );
      const [campaign] = await call('GET', '/campaign/list-all', { campaign_id: campaignId });
      phase('complete');

      // The killed worker's reader was removed once it expired; the restarted one has its half.
      await waitFor('the restarted worker reading half the mailboxes', () => dividedBy(workerB, workerA2), 30_000, tails);
      await waitFor('one IMAP session per mailbox again', oneSessionEach, 30_000, tails);
      phase('readers again');

      // Nothing more can be sent: the processes stop (SIGTERM), cleanly.
      polling = false;
      await poller;
      for (const p of [workerB, workerA2, api]) p.child.kill('SIGTERM');
      const exits = await Promise.all([workerB, workerA2, api].map((p) => p.exited));
      phase('stop');

      // 1. Every lead received exactly one message, nobody else received any, each under its own Message-ID.
      const perLead = new Map<string, number>();
      for (const m of smtp!.received) perLead.set(m.to, (perLead.get(m.to) ?? 0) + 1);
      expect([...perLead.keys()].filter((to) => !leads.includes(to))).toEqual([]);
      expect(leads.filter((to) => perLead.get(to) !== 1).map((to) => `${to}: ${perLead.get(to) ?? 0}`)).toEqual([]);
      expect(new Set(smtp!.received.map((m) => m.messageId)).size).toBe(LEADS);
      expect(campaign).toMatchObject({ status: 'COMPLETED', lead_count: LEADS, sent_count: LEADS, lead_contacted_count: LEADS, bounced_count: 0 });
      const { rows } = await db!.query<{ sends: number; leads: number }>(
        `SELECT count(*)::int AS sends, count(DISTINCT lead_id)::int AS leads FROM sent_emails WHERE campaign_id = $1`,
        [campaignId],
      );
      expect(rows[0]).toMatchObject({ sends: LEADS, leads: LEADS });

      // 2. Each worker process sent some: the killed one before its death, the other, and the restarted one.
      const byProcess = { killed: sentByA, other: sentBy(workerB), restarted: sentBy(workerA2) };
      expect(byProcess.killed).toBeGreaterThan(0);
      expect(byProcess.other).toBeGreaterThan(0);
      expect(byProcess.restarted).toBeGreaterThan(0);
      // The API process sent nothing: every message came from a worker (its SMTP connections only checked logins).
      expect(smtp!.received.filter((m) => m.pid !== workerA.pid && m.pid !== workerB.pid && m.pid !== workerA2.pid)).toEqual([]);

      // 3. The claims the killed worker held were taken over by another worker once their lease ended
      //    (its warnings name them): those not sent yet were sent under the Message-ID of A's claim,
      //    once; the one whose message the server had received was recorded, not sent again.
      const takeover = (msg: string) => new Set([...logLines(workerB, msg), ...logLines(workerA2, msg)].map((l) => String(l['messageId'])));
      const retried = takeover('retrying a send whose worker stopped before recording it');
      const unconfirmed = takeover('recorded as sent, outcome unknown: the worker sending this e-mail stopped after handing its body to the SMTP server; not sent again');
      expect(heldByA.length).toBeGreaterThan(0);
      expect([...claimedByA.keys()].sort()).toEqual([...heldByA, ...receivedUnansweredByA].sort());
      for (const to of heldByA) {
        const [message] = smtp!.received.filter((m) => m.to === to);
        expect(claimedByA.get(to)?.marked).toBe(false);
        expect(message?.pid === workerB.pid || message?.pid === workerA2.pid, `${to} sent by another worker`).toBe(true);
        expect(message?.messageId).toBe(`${claimedByA.get(to)?.pending_send_id}@topology.test`);
        expect(retried.has(message!.messageId), `${to}'s message ${message?.messageId} was not a retried claim`).toBe(true);
      }
      const unknownLeads = new Set(
        (await db!.query<{ email: string }>('SELECT l.email FROM sent_emails s JOIN leads l ON l.id = s.lead_id WHERE s.campaign_id = $1 AND s.outcome_unknown', [campaignId])).rows.map((r) => r.email),
      );
      expect([...unknownLeads].sort()).toEqual([...receivedUnansweredByA].sort());
      for (const to of receivedUnansweredByA) {
        const [message] = smtp!.received.filter((m) => m.to === to);
        expect(claimedByA.get(to)?.marked).toBe(true);
        expect(message?.pid).toBe(workerA.pid);
        expect(unconfirmed.has(message!.messageId), `${to}'s message ${message?.messageId} was not recorded as unconfirmed`).toBe(true);
      }

      // 4. The API answered every poll with 200, during the whole run.
      expect(polls.length).toBeGreaterThan(0);
      expect(polls.filter((p) => p.status !== 200)).toEqual([]);
      expect(exits).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
      console.log(
        `topology: ${LEADS} sent; by process ${JSON.stringify(byProcess)}; the killed worker died with ${heldByA.length} claim(s) at RCPT TO (retried) ` +
          `and ${receivedUnansweredByA.length} received but unanswered (recorded with outcome unknown); ${polls.length} API polls, all 200; ${phases.join(', ')}`,
      );
    } finally {
      polling = false;
      await poller;
    }
  }, 300_000);
});
