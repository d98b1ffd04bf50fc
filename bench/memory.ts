// BENCH_ONLY=memory (or `npx tsx bench/memory.ts`): the embedded database's weight (issue item 10).
// The real server (`node --import tsx apps/gateway/src/main.ts`, PGlite under a temporary DATA_DIR)
// in a child process: its RSS once ready after a fresh start (empty DATA_DIR), after a restart on the
// same DATA_DIR, and after uploading 10,000 leads (POST /api/v1/lead/add); then the longest answer of
// /healthz, asked every 10 ms by this process, while the server takes a 5,000-lead upload (the event
// loop's worst stall as another request sees it). The raw baseline, in the same run: PGlite alone
// behind node:http (bench/memory-raw.ts), the same data directory steps and one 5,000-row
// INSERT … SELECT FROM json_to_recordset. See bench/README.md.
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, freePort, median } from './measure';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const UPLOAD = 5000;
const UPLOADS = Number(process.env['BENCH_MEMORY_UPLOADS'] ?? 3);
const SETTLE_MS = Number(process.env['BENCH_MEMORY_SETTLE_MS'] ?? 2000);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** VmRSS and VmHWM (the peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
function request(options: { port: number; method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port: options.port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

interface Child {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

function start(command: string[], env: Record<string, string>, port: number): Child {
  const child = spawn(process.execPath, command, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, port, output: () => out, exited };
}

async function waitReady(c: Child, path: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (c.child.exitCode !== null) throw new Error(`exited before it was ready:\n${c.output()}`);
    const r = await request({ port: c.port, path }).catch(() => null);
    if (r?.status === 200) return;
    await sleep(50);
  }
  throw new Error(`not ready after 120 s:\n${c.output()}`);
}

/** The longest answer (ms) of GET path, asked every 10 ms while `work` runs. */
async function worstAnswerDuring<T>(port: number, path: string, work: () => Promise<T>): Promise<{ value: T; worstMs: number; probes: number }> {
  let done = false;
  let worstMs = 0;
  let probes = 0;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      await request({ port, path });
      worstMs = Math.max(worstMs, performance.now() - t0);
      probes++;
      await sleep(10);
    }
  })();
  try {
    const value = await work();
    done = true;
    // The probe in flight when the work ended may be the one that waited the longest.
    await probe;
    return { value, worstMs, probes };
  } finally {
    done = true;
    await probe;
  }
}

interface Figures {
  fresh: number;
  freshPeak: number;
  restart: number;
  after10k: number;
  peak: number;
  stalls: number[];
}

/** The product: the gateway with its workers, its TypeScript run through tsx (or BENCH_MEMORY_ENTRY, compiled). */
async function measureProduct(): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outreach-mem-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    // Node options of the server only (e.g. --max-semi-space-size=16), to compare.
    ...(process.env['BENCH_MEMORY_NODE_OPTIONS'] ? { NODE_OPTIONS: process.env['BENCH_MEMORY_NODE_OPTIONS'] } : {}),
  };
  // BENCH_MEMORY_ENTRY: a compiled entry instead (apps/gateway/dist/main.js, scripts/build.mjs).
  const entry = process.env['BENCH_MEMORY_ENTRY'];
  const command = entry ? [entry] : ['--import', 'tsx', 'apps/gateway/src/main.ts'];
  const stop = async (c: Child) => {
    c.child.kill('SIGTERM');
    const code = await c.exited;
    if (code !== 0) throw new Error(`the server stopped with ${code}:\n${c.output()}`);
  };
  try {
    let port = await freePort();
    let server = start(command, { ...env, PORT: String(port) }, port);
    await waitReady(server, '/readyz');
    await sleep(SETTLE_MS);
    const freshMem = memoryOf(server.child.pid!);
    const apiKey = /API key:\s+(\S+)/.exec(server.output())?.[1];
    const workspaceId = /workspace_id:\s+([0-9a-f]{24})/.exec(server.output())?.[1];
    if (!apiKey || !workspaceId) throw new Error(`no key banner:\n${server.output()}`);
    await stop(server);

    port = await freePort();
    server = start(command, { ...env, PORT: String(port) }, port);
    await waitReady(server, '/readyz');
    await sleep(SETTLE_MS);
    const restart = memoryOf(server.child.pid!).rss;

    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const api = async (path: string, body: unknown) => {
      const r = await request({ port, method: 'POST', path: `/api/v1${path}`, headers, body: JSON.stringify(body) });
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${r.body.slice(0, 500)}`);
      return JSON.parse(r.body) as Record<string, unknown>;
    };
    const upload = async (n: number, tag: string) => {
      const campaign = await api('/campaign/add/campaign', { workspace_id: workspaceId, camp_name: `memory ${tag}` });
      const leads = Array.from({ length: n }, (_, i) =>
        i % 50 === 0
          ? { email: `blocked${i}@blocked.example.org`, first_name: 'Blocked' }
          : { email: `${tag}-${i}@upload.example.com`, first_name: `F${i}`, last_name: `L${i}`, company_name: 'Acme', industry: 'SaaS' },
      );
      const out = await api('/lead/add', { workspace_id: workspaceId, campaign_id: campaign['id'], leads });
      if (out['leads_uploaded'] !== n) throw new Error(`uploaded ${String(out['leads_uploaded'])} of ${n}`);
    };
    await upload(10_000, 'ten-thousand');
    await sleep(SETTLE_MS);
    const after10k = memoryOf(server.child.pid!).rss;
    const stalls: number[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      stalls.push((await worstAnswerDuring(port, '/healthz', () => upload(UPLOAD, `five-${i}`))).worstMs);
    }
    const peak = memoryOf(server.child.pid!).peak;
    await stop(server);
    return { fresh: freshMem.rss, freshPeak: freshMem.peak, restart, after10k, peak, stalls };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The raw baseline: PGlite alone behind node:http (bench/memory-raw.ts). */
async function measureRaw(): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outreach-mem-raw-'));
  const command = ['--import', 'tsx', 'bench/memory-raw.ts'];
  const stop = async (c: Child) => {
    await request({ port: c.port, method: 'POST', path: '/stop' });
    await c.exited;
  };
  const insert = async (c: Child, n: number) => {
    const r = await request({ port: c.port, method: 'POST', path: `/insert?n=${n}` });
    if (r.status !== 200 || Number(r.body) !== n) throw new Error(`raw insert: ${r.status} ${r.body}`);
  };
  try {
    let port = await freePort();
    let raw = start(command, { DATA_DIR: dataDir, PORT: String(port) }, port);
    await waitReady(raw, '/healthz');
    await sleep(SETTLE_MS);
    const freshMem = memoryOf(raw.child.pid!);
    await stop(raw);
    port = await freePort();
    raw = start(command, { DATA_DIR: dataDir, PORT: String(port) }, port);
    await waitReady(raw, '/healthz');
    await sleep(SETTLE_MS);
    const restart = memoryOf(raw.child.pid!).rss;
    await insert(raw, 10_000);
    await sleep(SETTLE_MS);
    const after10k = memoryOf(raw.child.pid!).rss;
    const stalls: number[] = [];
    for (let i = 0; i < UPLOADS; i++) stalls.push((await worstAnswerDuring(port, '/healthz', () => insert(raw, UPLOAD))).worstMs);
    const peak = memoryOf(raw.child.pid!).peak;
    await stop(raw);
    return { fresh: freshMem.rss, freshPeak: freshMem.peak, restart, after10k, peak, stalls };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function memoryBench(options: { rounds: number; say: (line: string) => void }): Promise<string[]> {
  const { say } = options;
  say(`\n## The embedded database's weight: RSS (MB) of the server on PGlite, and the longest /healthz answer during a ${UPLOAD.toLocaleString('en')}-lead upload`);
  const ours: Figures[] = [];
  const raw: Figures[] = [];
  for (let round = 0; round < options.rounds; round++) {
    ours.push(await measureProduct());
    raw.push(await measureRaw());
    const o = ours[round]!;
    const r = raw[round]!;
    say(`  round ${round + 1}: server fresh ${fmt(o.fresh, 0)} (peak ${fmt(o.freshPeak, 0)}), restart ${fmt(o.restart, 0)}, after 10k leads ${fmt(o.after10k, 0)} (peak ${fmt(o.peak, 0)}), stalls ${o.stalls.map((s) => fmt(s, 0)).join('/')} ms`);
    say(`           raw PGlite fresh ${fmt(r.fresh, 0)} (peak ${fmt(r.freshPeak, 0)}), restart ${fmt(r.restart, 0)}, after 10k rows ${fmt(r.after10k, 0)} (peak ${fmt(r.peak, 0)}), stalls ${r.stalls.map((s) => fmt(s, 0)).join('/')} ms`);
  }
  const m = (list: Figures[], key: 'fresh' | 'restart' | 'after10k' | 'peak') => median(list.map((f) => f[key]));
  const stall = (list: Figures[]) => median(list.flatMap((f) => f.stalls));
  const worst = (list: Figures[]) => Math.max(...list.flatMap((f) => f.stalls));
  const lines: string[] = [];
  for (const key of ['fresh', 'restart', 'after10k'] as const) {
    const label = { fresh: 'RSS after a fresh start', restart: 'RSS after a restart', after10k: 'RSS after 10,000 leads' }[key];
    lines.push(`${label}: ${fmt(m(ours, key), 0)} MB (raw PGlite ${fmt(m(raw, key), 0)} MB, ratio ${fmt(m(ours, key) / m(raw, key))}; target < 400 MB)`);
  }
  lines.push(`peak RSS (VmHWM): ${fmt(m(ours, 'peak'), 0)} MB (raw PGlite ${fmt(m(raw, 'peak'), 0)} MB)`);
  lines.push(
    `longest /healthz answer during a ${UPLOAD.toLocaleString('en')}-lead upload: median ${fmt(stall(ours), 0)} ms, worst ${fmt(worst(ours), 0)} ms ` +
      `(raw one-statement insert: median ${fmt(stall(raw), 0)} ms, worst ${fmt(worst(raw), 0)} ms; target ≤ 100 ms)`,
  );
  for (const line of lines) say(`  ${line}`);
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const summary = await memoryBench({ rounds: Number(process.env['BENCH_ROUNDS'] ?? 3), say: (line) => console.log(line) });
  console.log('\n## Summary');
  for (const line of summary) console.log(`  ${line}`);
  agent.destroy();
}
