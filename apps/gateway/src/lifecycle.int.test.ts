// The process's life as an operator sees it: `npm start` and SIGTERM, a shutdown bounded by
// SHUTDOWN_TIMEOUT_MS, a private and locked DATA_DIR, settings refused before anything is opened.
// Always on the embedded PGlite (DATABASE_URL is removed from the children's environment).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@outreach/core/testing';
import { compiledEntry } from './testing/compiled';

const root = resolve(import.meta.dirname, '..', '..', '..');
const children: ChildProcess[] = [];
const receivers: Server[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const r of receivers.splice(0)) {
    r.closeAllConnections();
    r.close();
  }
});

function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['DATABASE_URL'];
  delete env['PUBLIC_URL'];
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production', HOST: '127.0.0.1', ...extra };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

interface Running {
  child: ChildProcess;
  output(): string;
  stderr(): string;
  exited: Promise<number | null>;
  /** The pid of the node process serving (from its log lines). */
  serverPid(): number;
}

/** Spawns a command and waits (bounded) until it logs "listening". */
async function startAndWait(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(command, args, { cwd: root, env });
  children.push(child);
  let output = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => {
    output += d;
    stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const deadline = Date.now() + 90_000;
  while (!output.includes('"msg":"listening"')) {
    if (child.exitCode !== null) throw new Error(`exited before listening: ${output}`);
    if (Date.now() > deadline) throw new Error(`did not start: ${output}`);
    await sleep(100);
  }
  return {
    child,
    output: () => output,
    stderr: () => stderr,
    exited,
    serverPid: () => Number(/"pid":(\d+)/.exec(output)![1]),
  };
}

const startNode = (dataDir: string, port: number, extra: Record<string, string> = {}) =>
  startAndWait(process.execPath, [compiledEntry('main')], childEnv(dataDir, { PORT: String(port), ...extra }));

/** Resolves with the exit code, or throws when the process is still running after ms. */
async function exitWithin(running: { exited: Promise<number | null> }, ms: number): Promise<number | null> {
  const timeout = Symbol('timeout');
  const result = await Promise.race([running.exited, sleep(ms).then(() => timeout)]);
  if (result === timeout) throw new Error(`still running after ${ms} ms`);
  return result as number | null;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

function cli(dataDir: string, args: string[]) {
  const r = spawnSync('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: root, env: childEnv(dataDir), encoding: 'utf8', timeout: 90_000, killSignal: 'SIGKILL' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function apiKeyOf(output: string): string {
  const key = /API key:\s+([0-9a-f-]{35})/.exec(output)?.[1];
  if (!key) throw new Error(`no key banner in: ${output}`);
  return key;
}

/** Every entry under dir with a mode other than 0700 (directories) or 0600 (files). */
function looseModes(dir: string): string[] {
  const loose: string[] = [];
  const walk = (d: string) => {
    if ((statSync(d).mode & 0o777) !== 0o700) loose.push(`${d} ${(statSync(d).mode & 0o777).toString(8)}`);
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if ((statSync(p).mode & 0o777) !== 0o600) loose.push(`${p} ${(statSync(p).mode & 0o777).toString(8)}`);
    }
  };
  walk(dir);
  return loose;
}

describe('npm start', { timeout: 120_000 }, () => {
  it('stops on SIGTERM sent to npm: the port closes, no process is left, the lock goes; DATA_DIR is 0700 with files 0600', async () => {
    // An existing directory with loose modes, as earlier versions left it.
    const dataDir = join(tempDir('outreach-npm-'), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'notes.txt'), 'kept', { mode: 0o644 });
    chmodSync(join(dataDir, 'notes.txt'), 0o644);
    const port = await freePort();
    const npm = await startAndWait('npm', ['start'], childEnv(dataDir, { PORT: String(port) }));
    const serverPid = npm.serverPid();
    expect(serverPid).not.toBe(npm.child.pid);
    // The server is the compiled entry run by node itself, npm's own child (no shell or tsx between).
    expect(readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(1)).toEqual(['--enable-source-maps', 'apps/gateway/dist/main.js']);
    expect(readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]).toBe(String(npm.child.pid));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'notes.txt')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'encryption.key')).mode & 0o777).toBe(0o600);
    // Without PUBLIC_URL, the sending worker's links would point at localhost: said once.
    expect(npm.output().match(/PUBLIC_URL is not set/g)).toHaveLength(1);

    npm.child.kill('SIGTERM');
    await exitWithin(npm, 15_000);
    const deadline = Date.now() + 10_000;
    while (isRunning(serverPid) && Date.now() < deadline) await sleep(100);
    expect(isRunning(serverPid)).toBe(false);
    expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(false);
    expect(npm.output()).toContain('stopped cleanly');
    expect(existsSync(join(dataDir, 'outreach.lock'))).toBe(false);
    expect(looseModes(dataDir)).toEqual([]);
  });
});

describe('shutdown', { timeout: 120_000 }, () => {
  it('answers 503 at once and exits within SHUTDOWN_TIMEOUT_MS while a webhook receiver never answers', async () => {
    let received: (() => void) | null = null;
    const posted = new Promise<void>((r) => (received = r));
    // Accepts the POST and never answers.
    const receiver = createServer((_req: IncomingMessage) => received?.());
    receivers.push(receiver);
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;

    const dataDir = join(tempDir('outreach-stop-'), 'data');
    const port = await freePort();
    const product = await startNode(dataDir, port, { SHUTDOWN_TIMEOUT_MS: '2000', ALLOW_PRIVATE_TARGETS: 'true', WORKER_INTERVAL_MS: '100', PUBLIC_URL: `http://127.0.0.1:${port}` });
    expect(product.output()).not.toContain('PUBLIC_URL is not set');
    const key = apiKeyOf(product.output());
    const api = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, any>;
      expect(response.status, JSON.stringify(json)).toBe(200);
      return json;
    };
    const workspace_id = /workspace_id:\s+([0-9a-f]{24})/.exec(product.output())![1];
    const campaign = await api('/campaign/add/campaign', { workspace_id, camp_name: 'Stop test' });
    await api('/lead/add', { workspace_id, campaign_id: campaign.id, leads: [{ email: 'ann@example.com' }] });
    await api('/hook/add', { workspace_id, url: hookUrl, camp_ids: ['ALL'], event_types: ['LEAD_MARKED_AS_INTERESTED'] });
    await api('/lead/data/update', { workspace_id, email: 'ann@example.com', label: 'INTERESTED' });
    // The webhook worker's round is now waiting on the receiver (for up to 10 s).
    await Promise.race([posted, sleep(30_000).then(() => Promise.reject(new Error(`the webhook was never POSTed: ${product.output()}`)))]);

    product.child.kill('SIGTERM');
    const signalled = Date.now();
    // The signal is handled on the process's event loop: a request racing it may still see 200.
    let ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    while (ready.status === 200 && Date.now() - signalled < 1_000) ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'stopping' });
    // Still stopping: the webhook round is in flight.
    expect(product.child.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(503);
    const refused = await fetch(`http://127.0.0.1:${port}/api/v1/workspaces`, { headers: { 'x-api-key': key } });
    expect(refused.status).toBe(503);

    const code = await exitWithin(product, 6_000 - (Date.now() - signalled));
    expect(code).toBe(1);
    expect(product.output()).toMatch(/"unfinished":\["webhook worker"\].*"msg":"shutdown timeout/);
    expect(existsSync(join(dataDir, 'outreach.lock'))).toBe(false);
  });
});

// Several starts of the product each: PGlite takes a while to open on a busy machine.
describe('one process per DATA_DIR', { timeout: 300_000 }, () => {
  it('refuses a second start and the CLI while the server runs, naming it; the CLI works once it stopped', async () => {
    const dataDir = join(tempDir('outreach-lock-'), 'data');
    const port = await freePort();
    const server = await startNode(dataDir, port);
    const key = apiKeyOf(server.output());
    const holder = `the server (pid ${server.serverPid()}, http://127.0.0.1:${port}) holds DATA_DIR ${dataDir}`;

    const second = spawnSync(process.execPath, [compiledEntry('main')], { cwd: root, env: childEnv(dataDir, { PORT: String(await freePort()) }), encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
    expect(second.status).toBe(1);
    expect(second.stderr).toBe(`error: ${holder}; stop it first (one process per DATA_DIR)\n`);

    // The refused start left the running server alone.
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/workspaces`, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect(JSON.parse(readFileSync(join(dataDir, 'outreach.lock'), 'utf8'))).toMatchObject({ pid: server.serverPid(), kind: 'server', url: `http://127.0.0.1:${port}` });

    const refused = cli(dataDir, ['init', '--name', 'Lost']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`error: ${holder}; stop it or use the API\n`);
    expect(refused.stdout).toBe('');

    server.child.kill('SIGTERM');
    expect(await exitWithin(server, 20_000)).toBe(0);
    const init = cli(dataDir, ['init', '--name', 'After']);
    expect(init.code, init.stderr).toBe(0);
    const created = JSON.parse(init.stdout) as { api_key: string };

    // What the CLI reported is there when the server starts again: the new key works.
    const again = await startNode(dataDir, port);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/workspaces`, { headers: { 'x-api-key': created.api_key } })).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await exitWithin(again, 20_000)).toBe(0);

    // A process given another key than the one the data was written with is refused, in one line.
    const otherKey = spawnSync(process.execPath, [compiledEntry('main')], { cwd: root, env: childEnv(dataDir, { PORT: String(await freePort()), ENCRYPTION_KEY: 'c'.repeat(64) }), encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
    expect(otherKey.status).toBe(1);
    expect(otherKey.stderr).toMatch(/^error: the encryption key is not the one this database was set up with[^\n]*\n$/);
  });

  it('takes over a lock left by a process that is gone', () => {
    const dataDir = join(tempDir('outreach-stale-'), 'data');
    mkdirSync(dataDir, { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    expect(isRunning(deadPid)).toBe(false);
    writeFileSync(join(dataDir, 'outreach.lock'), JSON.stringify({ pid: deadPid, start: '1', kind: 'server', url: 'http://127.0.0.1:1', since: '2020-01-01T00:00:00.000Z' }));
    const init = cli(dataDir, ['init', '--name', 'Taken over']);
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({ api_key: expect.any(String) });
    expect(existsSync(join(dataDir, 'outreach.lock'))).toBe(false);
  });
});

describe('the outreach bin', { timeout: 120_000 }, () => {
  it('runs the CLI in its own process, so a signal sent to it reaches the CLI', async () => {
    const dataDir = join(tempDir('outreach-bin-'), 'data');
    const bin = spawn(process.execPath, [join(root, 'apps/gateway/bin/outreach.mjs'), 'init', '--name', 'Bin'], { cwd: root, env: childEnv(dataDir) });
    children.push(bin);
    const exited = new Promise<number | null>((r) => bin.on('exit', (code) => r(code)));
    // The CLI holds DATA_DIR while it opens and migrates the database: the lock names the process running it.
    const lockFile = join(dataDir, 'outreach.lock');
    const deadline = Date.now() + 60_000;
    let holder: { pid: number; kind: string } | null = null;
    while (!holder && Date.now() < deadline && bin.exitCode === null) {
      try {
        holder = JSON.parse(readFileSync(lockFile, 'utf8'));
      } catch {
        await sleep(10);
      }
    }
    expect(holder).toMatchObject({ pid: bin.pid, kind: 'cli' });
    bin.kill('SIGTERM');
    await exitWithin({ exited }, 10_000);
    expect(isRunning(bin.pid!)).toBe(false);
  });
});

describe('settings', () => {
  it.each([
    ['PORT', '70000', 'error: invalid setting PORT="70000": must be at most 65535'],
    ['PUBLIC_URL', 'localhost:3000', 'error: invalid setting PUBLIC_URL="localhost:3000": must be an http:// or https:// URL with a host, e.g. https://outreach.example.com'],
    ['DATABASE_URL', 'postgres://u:secret@host:notaport/db', 'error: invalid setting DATABASE_URL: is not a valid URL;'],
  ])('refuses %s=%s with one line on stderr, exit code 1, before DATA_DIR is created', (name, value, line) => {
    const dataDir = join(tempDir('outreach-env-'), 'data');
    const r = spawnSync(process.execPath, [compiledEntry('main')], { cwd: root, env: { ...childEnv(dataDir), [name]: value }, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr.startsWith(line)).toBe(true);
    expect(r.stderr).not.toContain('secret');
    expect(r.stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });
});
