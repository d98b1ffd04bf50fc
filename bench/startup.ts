// The product's start as an operator sees it (issue #17, "a compiled build"): the time from the command to
// the first 200 of /readyz on a fresh DATA_DIR and again on a restart, the resident memory of the whole
// process tree (npm, sh, tsx and node when a chain starts it) once idle, and after 10,000 leads uploaded
// through POST /api/v1/lead/add. One command per run, so that two builds or two Node versions compare:
//   npx tsx bench/startup.ts                                        the compiled entry, this checkout's Node
//   BENCH_STARTUP_CMD="npm start" npx tsx bench/startup.ts          through npm
//   BENCH_STARTUP_CWD=/path/to/old/checkout BENCH_STARTUP_CMD="npm start" PATH=/usr/bin:$PATH npx tsx bench/startup.ts
// BENCH_STARTUP_RUNS (default 3): medians over that many fresh data directories. On the embedded database.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, freePort, median } from './measure';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CWD = process.env['BENCH_STARTUP_CWD'] ?? ROOT;
const COMMAND = process.env['BENCH_STARTUP_CMD'] ?? 'node --enable-source-maps apps/gateway/dist/main.js';
const RUNS = Number(process.env['BENCH_STARTUP_RUNS'] ?? 3);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** VmRSS of a process and all its descendants, in MB. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const walk = (pid: number) => {
    try {
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return kb / 1024;
}

interface Started {
  child: ChildProcess;
  output(): string;
  readyMs: number;
}

async function start(dataDir: string, port: number): Promise<Started> {
  const t0 = performance.now();
  const child = spawn('sh', ['-c', `exec ${COMMAND}`], {
    cwd: CWD,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited before ready:\n${out}`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) break;
    if (performance.now() - t0 > 180_000) throw new Error(`not ready after 180 s:\n${out}`);
    await sleep(20);
  }
  return { child, output: () => out, readyMs: performance.now() - t0 };
}

async function stop(s: Started) {
  const exited = new Promise<void>((r) => s.child.once('exit', () => r()));
  s.child.kill('SIGTERM');
  await exited;
}

async function once() {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'outreach-startup-')), 'data');
  try {
    let port = await freePort();
    const fresh = await start(dataDir, port);
    const apiKey = /API key:\s+(\S+)/.exec(fresh.output())?.[1];
    const workspaceId = /workspace_id:\s+([0-9a-f]{24})/.exec(fresh.output())?.[1];
    if (!apiKey || !workspaceId) throw new Error(`no key banner:\n${fresh.output()}`);
    await sleep(2_000);
    const freshRss = treeRss(fresh.child.pid!);
    await stop(fresh);

    port = await freePort();
    const restart = await start(dataDir, port);
    await sleep(2_000);
    const idleRss = treeRss(restart.child.pid!);
    const api = async (path: string, body: unknown) => {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return (await r.json()) as Record<string, unknown>;
    };
    const campaign = await api('/campaign/add/campaign', { workspace_id: workspaceId, camp_name: 'startup bench' });
    for (let batch = 0; batch < 2; batch++) {
      const leads = Array.from({ length: 5_000 }, (_, i) => ({ email: `l${batch}-${i}@startup.example.com`, first_name: `F${i}`, company_name: 'Acme' }));
      await api('/lead/add', { workspace_id: workspaceId, campaign_id: campaign['id'], leads });
    }
    await sleep(2_000);
    const leadsRss = treeRss(restart.child.pid!);
    await stop(restart);
    return { freshMs: fresh.readyMs, restartMs: restart.readyMs, freshRss, idleRss, leadsRss };
  } finally {
    rmSync(dirname(dataDir), { recursive: true, force: true });
  }
}

const runs: Awaited<ReturnType<typeof once>>[] = [];
for (let i = 0; i < RUNS; i++) runs.push(await once());
const m = (key: keyof (typeof runs)[number]) => median(runs.map((r) => r[key]));
console.log(`start of \`${COMMAND}\` in ${CWD} (PGlite; medians of ${RUNS} runs)`);
console.log(`  ready (/readyz 200): fresh DATA_DIR ${fmt(m('freshMs'))} ms, restart ${fmt(m('restartMs'))} ms`);
console.log(`  RSS of the process tree: after a fresh start ${fmt(m('freshRss'))} MB, idle after a restart ${fmt(m('idleRss'))} MB, after 10,000 leads ${fmt(m('leadsRss'))} MB`);
