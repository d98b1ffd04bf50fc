// The sending engine's benchmarks (bench/README.md): `pick` times claimDueSends on the
// seed of seed-sending.ts, `send` drives runSchedulerTick into a local SMTP sink.
import { fork } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import nodemailer from 'nodemailer';
import { newId, type Database, type PrismaClient } from '@outreach/db';
import {
  claimDueSends,
  compose,
  createMailSender,
  createOrganization,
  DUE_LEADS_SQL,
  nodemailerMessage,
  LOCK_CAMPAIGNS_SQL,
  LOCK_MAILBOXES_SQL,
  runSchedulerTick,
  sendingGapWithJitter,
  type ClaimResult,
  type MailSender,
  type OutgoingMessage,
  type ServiceDeps,
  DEFAULT_CLAIM_AHEAD_MS,
  startSendingWorker,
  TICKS_IN_FLIGHT,
} from '@outreach/core';
import { TestClock, testServiceDeps } from '@outreach/core/testing';
import { startSink } from './smtp-sink';
import { ALL_WEEK_UTC, ensureHeadroomSeed, ensureSendingSeed, SEQUENCE } from './seed-sending';
import { fmt, interleave, median, percentile, time } from './measure';
import type { ParentMessage, WorkerMessage, WorkerSettings } from './headroom-worker';

type Say = (line: string) => void;

// ── instrumenting the engine's database client ────────────────────────────────────────

export interface Call {
  label: string;
  start: number;
  end: number;
  sql?: string;
  params?: unknown[];
  rows?: number;
}

/** What each statement of the scheduler is, by its text. */
export function labelOf(sql: string): string {
  if (sql === DUE_LEADS_SQL) return 'DUE_LEADS_SQL';
  if (sql === LOCK_CAMPAIGNS_SQL) return 'LOCK_CAMPAIGNS_SQL';
  if (sql === LOCK_MAILBOXES_SQL) return 'LOCK_MAILBOXES_SQL';
  if (/JOIN email_accounts e ON e.id = md.id/.test(sql)) return 'CLAIM_MAILBOXES_SQL';
  if (/JOIN campaigns c ON c.id = cd.id/.test(sql)) return 'CAMPAIGN_STATE_SQL';
  if (/FROM campaigns c JOIN workspaces w/.test(sql)) return 'ACTIVE_CAMPAIGNS_SQL';
  if (/FROM email_accounts WHERE id = ANY/.test(sql)) return 'CAMPAIGN_MAILBOXES_SQL';
  if (/FROM additional_fields/.test(sql)) return 'ADDITIONAL_FIELDS_SQL';
  if (/FROM sent_emails WHERE lead_id = ANY/.test(sql)) return 'THREAD_HISTORY_SQL';
  if (/INSERT INTO sent_emails/.test(sql) && /json_to_recordset/.test(sql)) return 'RECORD_SENTS_SQL (a batch)';
  if (/json_to_recordset/.test(sql) && /UPDATE leads l/.test(sql)) return 'APPLY_CLAIM_SQL';
  if (/INSERT INTO sent_emails/.test(sql)) return 'RECORD_SENT_SQL';
  if (/webhooks h\b/.test(sql)) return 'webhook subscribers';
  if (/FROM unibox_threads/.test(sql)) return 'unibox thread of the lead';
  if (/WITH done AS/.test(sql)) return 'FINISH_TICK_SQL';
  if (/SET pending_data_at = \$4/.test(sql)) return 'MARK_DATA_SQL';
  return sql.replace(/^\/\* prepared(, json)? \*\//, '').trim().split(/\s+/).slice(0, 6).join(' ');
}

/**
 * The client with every raw statement, model call and nested transaction timed into
 * `calls` (a Proxy: the engine is unchanged and unaware). `labeler` names raw statements (the
 * scheduler's by default; the warmup bench passes its own).
 */
export function instrument<T extends object>(client: T, calls: Call[], labeler: (sql: string) => string = labelOf): T {
  const timed = async <R>(label: string, run: () => Promise<R>, sql?: string, params?: unknown[]) => {
    const start = performance.now();
    const value = await run();
    calls.push({ label, start, end: performance.now(), sql, params, rows: Array.isArray(value) ? value.length : undefined });
    return value;
  };
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === '$queryRawUnsafe' || prop === '$executeRawUnsafe') {
        const fn = value as (sql: string, ...params: unknown[]) => Promise<unknown>;
        return (sql: string, ...params: unknown[]) => timed(labeler(sql), () => fn.call(target, sql, ...params), sql, params);
      }
      if (prop === '$transaction') {
        const fn = value as (cb: (tx: unknown) => Promise<unknown>, o?: unknown) => Promise<unknown>;
        return (cb: (tx: unknown) => Promise<unknown>, o?: unknown) =>
          timed('$transaction (whole, with its statements)', () => fn.call(target, (tx: unknown) => cb(instrument(tx as object, calls, labeler)), o));
      }
      if (typeof prop === 'string' && !prop.startsWith('$') && value !== null && typeof value === 'object') {
        const model = prop;
        return new Proxy(value, {
          get(delegate, method) {
            const m = Reflect.get(delegate, method, delegate) as unknown;
            if (typeof m !== 'function') return m;
            return (...args: unknown[]) => timed(`${model}.${String(method)}`, () => (m as (...a: unknown[]) => Promise<unknown>).apply(delegate, args));
          },
        });
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Milliseconds covered by at least one interval (overlapping calls counted once). */
function covered(calls: { start: number; end: number }[]): number {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  let total = 0;
  let end = -Infinity;
  for (const c of sorted) {
    if (c.end <= end) continue;
    total += c.end - Math.max(c.start, end);
    end = c.end;
  }
  return total;
}

/** Runs `fn` on a transaction client inside a transaction that is always rolled back. */
export async function rolledBack<T>(db: Database, fn: (client: PrismaClient) => Promise<T>): Promise<T> {
  let result: { value: T } | null = null;
  try {
    await db.prisma.$transaction(
      async (tx) => {
        result = { value: await fn(tx as unknown as PrismaClient) };
        throw new Error('bench rollback');
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  } catch (error) {
    if (!result) throw error;
  }
  return (result as unknown as { value: T }).value;
}

/** A statement through pg inside BEGIN … ROLLBACK (FOR UPDATE takes locks), with jit off as in a claim; its time only. */
async function pgRolledBack(pool: pg.Pool, sql: string, params: unknown[]) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL jit = off');
    const t = await time(() => client.query(sql, params));
    await client.query('ROLLBACK');
    return t;
  } finally {
    client.release();
  }
}

// ── pick ─────────────────────────────────────────────────────────────────────────────

export async function pickBench(options: { db: Database; pool: pg.Pool; rounds: number; say: Say }): Promise<string> {
  const { db, pool, say } = options;
  const deps = testServiceDeps({ db });
  const seed = await ensureSendingSeed({ db, pool, log: say, encryptedPassword: deps.secrets.encrypt('bench-password') });
  // Every rolled-back claim leaves dead row versions and index entries behind (this run's
  // and earlier runs'); the due-lead scan would step over more of them as it goes.
  const vacuum = async () => pool.query('VACUUM (ANALYZE) leads, email_accounts, variations, lead_events, campaigns');
  await vacuum();
  const now = new Date(seed.now);
  const scope = [seed.workspaceId];
  const MAX_SENDS = 100;
  const PER_ROUND = 20;
  say(
    `\n## Picking the next ${MAX_SENDS} sends (claimDueSends) among ${seed.leads.toLocaleString('en')} leads, ${seed.due.toLocaleString('en')} of them due, ` +
      `${seed.campaignIds.length} campaigns on 10 of 100 mailboxes each`,
  );

  const claim = (client: PrismaClient, workspaceIds: string[] | undefined = scope, maxSends = MAX_SENDS) =>
    claimDueSends({ deps: { ...deps, db: client }, now, maxSends, workspaceIds });

  // A first claim, instrumented: checks what it claims, and captures the due-lead read's parameters.
  const firstCalls: Call[] = [];
  const first = await rolledBack(db, (tx) => claim(instrument(tx, firstCalls)));
  const dueCall = firstCalls.find((c) => c.label === 'DUE_LEADS_SQL');
  if (!dueCall?.params) throw new Error('pick: claimDueSends did not read due leads');
  const dueParams = dueCall.params;
  const [wantedIds, wantedN] = dueParams as [string[], number[]];
  const firstIds = first.claims.map((c) => c.leadId).join();
  say(
    `  one claim: ${first.claims.length} sends claimed (${first.claims.filter((c) => c.step > 1).length} follow-ups), ${first.stopped} leads stopped, ` +
      `${first.deferred} left for later; it read ${dueCall.rows} due leads (${wantedIds.length} campaigns × ${[...new Set(wantedN)].join('/')})`,
  );

  // Warm both sides, then interleave: PER_ROUND claims, PER_ROUND raw statements, per round.
  for (let i = 0; i < 3; i++) {
    await rolledBack(db, (tx) => claim(tx));
    await pgRolledBack(pool, DUE_LEADS_SQL, dueParams);
  }
  let sameEveryRound = true;
  const samples = { ours: [] as number[], pick: [] as number[], raw: [] as number[] };
  // The pick alone: the claim's due-work read, as the engine issues it (its client, its transaction settings, its parameters).
  // Only the statement is timed, as on the raw side.
  const enginePick = async (tx: PrismaClient) => {
    await tx.$executeRawUnsafe('SET LOCAL jit = off');
    return time(() => tx.$queryRawUnsafe<unknown[]>(DUE_LEADS_SQL, ...dueParams));
  };
  const results = await interleave({
    rounds: options.rounds,
    cases: {
      ours: async () => {
        await vacuum();
        const ms: number[] = [];
        for (let i = 0; i < PER_ROUND; i++) {
          const t = await rolledBack(db, (tx) => time(() => claim(tx)));
          if (t.value.claims.map((c) => c.leadId).join() !== firstIds) sameEveryRound = false;
          ms.push(t.ms);
        }
        samples.ours.push(...ms);
        return median(ms);
      },
      pick: async () => {
        await vacuum();
        const ms: number[] = [];
        for (let i = 0; i < PER_ROUND; i++) ms.push((await rolledBack(db, enginePick)).ms);
        samples.pick.push(...ms);
        return median(ms);
      },
      raw: async () => {
        await vacuum();
        const ms: number[] = [];
        for (let i = 0; i < PER_ROUND; i++) ms.push((await pgRolledBack(pool, DUE_LEADS_SQL, dueParams)).ms);
        samples.raw.push(...ms);
        return median(ms);
      },
    },
  });
  const p50 = percentile(samples.ours, 50);
  const p95 = percentile(samples.ours, 95);
  const rawP50 = percentile(samples.raw, 50);
  const pickP50 = percentile(samples.pick, 50);
  const pickP95 = percentile(samples.pick, 95);
  say(`  the pick: the claim's due-work read (DUE_LEADS_SQL through the engine's Prisma client, jit off, rolled back; ${samples.pick.length} runs): p50 ${fmt(pickP50)} ms, p95 ${fmt(pickP95)} ms`);
  say(`  raw DUE_LEADS_SQL through pg, same campaigns and counts (BEGIN … ROLLBACK, jit off): p50 ${fmt(rawP50)} ms, p95 ${fmt(percentile(samples.raw, 95))} ms`);
  say(`  the whole claim, claimDueSends (pick + limits and locks + compose + claim writes, rolled back; ${samples.ours.length} claims): p50 ${fmt(p50)} ms, p95 ${fmt(p95)} ms   round medians: ${results.ours.map((x) => fmt(x)).join(', ')}`);
  say(
    `  pick ratio engine/raw ${fmt(pickP50 / rawP50)}; pick target p50 ≤ 5 ms: ${pickP50 <= 5 ? 'met' : 'MISSED'}; whole claim / raw pick ${fmt(p50 / rawP50)}; ` +
      `every claim picked the same ${first.claims.length} leads: ${sameEveryRound ? 'yes' : 'NO'}`,
  );

  const planRows = await (async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL jit = off');
      const r = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${DUE_LEADS_SQL}`, dueParams);
      await client.query('ROLLBACK');
      return r.rows.map((row: Record<string, string>) => row['QUERY PLAN'] as string);
    } finally {
      client.release();
    }
  })();
  say('  plan of DUE_LEADS_SQL:');
  for (const line of planRows) say(`    ${line}`);
  const usesIndex = planRows.some((l) => l.includes('leads_due_idx'));
  say(`  leads_due_idx in the plan: ${usesIndex ? 'yes' : 'NO'}`);

  // ── where a claim's time goes ──
  say('\n  profile of one claim (medians of 20 instrumented claims; client-side times through Prisma, server times from EXPLAIN ANALYZE):');
  const byLabel = new Map<string, { ms: number[]; rows: number[]; sql?: string; params?: unknown[] }>();
  const outside: number[] = [];
  const totals: number[] = [];
  for (let i = 0; i < 20; i++) {
    const calls: Call[] = [];
    const t = await rolledBack(db, (tx) => time(() => claim(instrument(tx, calls))));
    totals.push(t.ms);
    const statements = calls.filter((c) => !c.label.startsWith('$transaction'));
    outside.push(t.ms - covered(statements));
    const perLabel = new Map<string, Call[]>();
    for (const c of statements) perLabel.set(c.label, [...(perLabel.get(c.label) ?? []), c]);
    for (const [label, cs] of perLabel) {
      const entry = byLabel.get(label) ?? { ms: [], rows: [], sql: cs[0]!.sql, params: cs[0]!.params };
      entry.ms.push(cs.reduce((s, c) => s + (c.end - c.start), 0));
      entry.rows.push(cs.reduce((s, c) => s + (c.rows ?? 0), 0));
      byLabel.set(label, entry);
    }
  }
  const serverMs = async (sql: string, params: unknown[], jit: boolean) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      if (!jit) await client.query('SET LOCAL jit = off');
      // The median of 5 runs, each rolled back to a savepoint so every run sees the same rows.
      const runs: { exec: number; planning: number; jit: number }[] = [];
      for (let i = 0; i < 5; i++) {
        await client.query('SAVEPOINT run');
        const r = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
        await client.query('ROLLBACK TO SAVEPOINT run');
        const plan = (r.rows[0] as { 'QUERY PLAN': { 'Execution Time': number; 'Planning Time': number; JIT?: { Timing: { Total: number } } }[] })['QUERY PLAN'][0]!;
        runs.push({ exec: plan['Execution Time'], planning: plan['Planning Time'], jit: plan.JIT?.Timing.Total ?? 0 });
      }
      await client.query('ROLLBACK');
      runs.sort((a, b) => a.exec - b.exec);
      return runs[2]!;
    } catch {
      await client.query('ROLLBACK').catch(() => {});
      return null;
    } finally {
      client.release();
    }
  };
  say(`    ${'statement'.padEnd(34)} ${'client ms'.padStart(9)} ${'server exec'.padStart(11)} ${'of it JIT'.padStart(9)} ${'exec, jit off'.padStart(13)} ${'planning'.padStart(8)} ${'rows'.padStart(6)}`);
  const dash = (n: number | undefined) => (n === undefined ? '-' : fmt(n));
  for (const [label, e] of byLabel) {
    const server = e.sql ? await serverMs(e.sql, e.params ?? [], true) : null;
    const noJit = e.sql ? await serverMs(e.sql, e.params ?? [], false) : null;
    say(
      `    ${label.padEnd(34)} ${fmt(median(e.ms)).padStart(9)} ${dash(server?.exec).padStart(11)} ${dash(server?.jit).padStart(9)} ${dash(noJit?.exec).padStart(13)} ${dash(server?.planning).padStart(8)} ${String(median(e.rows)).padStart(6)}`,
    );
  }
  say(`    ${'outside SQL (JS: plans, compose…)'.padEnd(34)} ${fmt(median(outside)).padStart(9)}`);
  say(`    ${'total'.padEnd(34)} ${fmt(median(totals)).padStart(9)}`);

  // Reading about 2 × maxSends leads in all instead of up to 2 per free mailbox of every campaign.
  const fewer = [wantedIds, wantedN.map((n) => Math.min(n, Math.ceil((2 * MAX_SENDS) / wantedIds.length))), ...dueParams.slice(2)];
  const dueSmall = await serverMs(DUE_LEADS_SQL, fewer, false);
  const dueFull = await serverMs(DUE_LEADS_SQL, dueParams, false);
  say(
    `    DUE_LEADS_SQL server time with jit off: ${fmt(dueFull?.exec ?? NaN)} ms for ${wantedN.reduce((a, b) => a + b, 0)} leads, ` +
      `${fmt(dueSmall?.exec ?? NaN)} ms for ${(fewer[1] as number[]).reduce((a, b) => a + b, 0)} (about 2 × ${MAX_SENDS} in all)`,
  );

  // The CPU part: composing the claimed messages alone.
  const v = SEQUENCE.variations[1]![0]!;
  const composeAll = async () => {
    for (let i = 0; i < MAX_SENDS; i++) {
      compose({
        subject: v.subject,
        body: v.body,
        variables: { first_name: `Lead${i}`, company_name: `Company ${i}`, sender_first_name: 'Sender', email: `lead${i}@x.example.com` },
        seed: `lead${i}:1`,
        sendAsText: false,
        previous: null,
        pixelUrl: 'https://outreach.test/t/o/abc',
        unsubscribe: { url: 'https://outreach.test/t/u/abc', text: 'Unsubscribe' },
      });
    }
  };
  const composeRuns: number[] = [];
  for (let run = 0; run < 10; run++) composeRuns.push((await time(composeAll)).ms);
  say(`    compose() of ${MAX_SENDS} first steps alone (no database): p50 ${fmt(median(composeRuns))} ms`);

  // Variants: as the worker runs it (every workspace), and every campaign on all 100 mailboxes.
  const timedVariant = async (prepare: ((tx: PrismaClient) => Promise<unknown>) | null, workspaceIds: string[] | undefined, maxSends = MAX_SENDS) => {
    const ms: number[] = [];
    let read = 0;
    for (let i = 0; i < 10; i++) {
      const r = await rolledBack(db, async (tx) => {
        if (prepare) await prepare(tx);
        const calls: Call[] = [];
        const t = await time(() => claim(instrument(tx, calls), workspaceIds, maxSends));
        return { ms: t.ms, read: calls.find((c) => c.label === 'DUE_LEADS_SQL')?.rows ?? 0, claimed: t.value.claims.length };
      });
      ms.push(r.ms);
      read = r.read;
    }
    return { p50: median(ms), read };
  };
  const active = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaigns WHERE status = 'ACTIVE'`);
  const unscoped = await timedVariant(null, undefined);
  say(`    variant, unscoped as the worker runs it (all ${active.rows[0]!.n} ACTIVE campaigns of the database): p50 ${fmt(unscoped.p50)} ms`);
  const allMailboxes = await timedVariant(
    (tx) =>
      tx.$executeRawUnsafe(
        `INSERT INTO campaign_email_accounts (campaign_id, email_account_id)
         SELECT c.id, e.id FROM campaigns c, email_accounts e WHERE c.workspace_id = $1 AND e.workspace_id = $1 ON CONFLICT DO NOTHING`,
        seed.workspaceId,
      ),
    scope,
  );
  say(`    variant, every campaign on all 100 mailboxes: p50 ${fmt(allMailboxes.p50)} ms, reading ${allMailboxes.read} due leads for ${MAX_SENDS} sends`);
  const ten = await timedVariant(null, scope, 10);
  say(`    variant, maxSends = 10 (a tick of 10 mailboxes): p50 ${fmt(ten.p50)} ms, still reading ${ten.read} due leads`);

  // What one statement costs before it does anything: SELECT 1 each way.
  const roundTrip = async (fn: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 50; i++) ms.push((await time(fn)).ms);
    return median(ms);
  };
  const viaPool = await roundTrip(() => pool.query('SELECT 1'));
  const viaClient = await roundTrip(() => db.prisma.$queryRawUnsafe('SELECT 1'));
  const viaTx = await rolledBack(db, (tx) => roundTrip(() => tx.$queryRawUnsafe('SELECT 1')));
  say(`    SELECT 1: through pg ${fmt(viaPool)} ms, Prisma $queryRawUnsafe ${fmt(viaClient)} ms, the same inside an interactive transaction ${fmt(viaTx)} ms`);

  return (
    `pick next ${MAX_SENDS} of ${(seed.due / 1e6).toFixed(2)}M due: p50 ${fmt(pickP50)} ms, p95 ${fmt(pickP95)} ms (≤ 5 ms p50${pickP50 <= 5 ? '' : ', MISSED'}), ` +
    `raw ${fmt(rawP50)} ms, ratio ${fmt(pickP50 / rawP50)}, leads_due_idx ${usesIndex ? 'yes' : 'NO'}; whole claim p50 ${fmt(p50)} ms, p95 ${fmt(p95)} ms`
  );
}

// ── send ─────────────────────────────────────────────────────────────────────────────

/** BENCH_SEND_MAILBOXES: how many mailboxes the send benchmark sends from (10 by default). */
const SEND_MAILBOXES = Number(process.env['BENCH_SEND_MAILBOXES'] ?? 10);
/** From this many mailboxes on, the SMTP sink runs in a child process (smtp-sink.ts): the raw side opens two connections per mailbox at once. */
const SINK_CHILD_FROM = 500;
/** A tick sends from each mailbox once, at most runSchedulerTick's default of 100. */
const PER_TICK = Math.min(SEND_MAILBOXES, 100);
/** BENCH_SEND_AHEAD_MS: how far ahead the worker round claims a mailbox's later sends (the worker's default; 0: one send per mailbox a tick). */
const SEND_AHEAD_MS = Number(process.env['BENCH_SEND_AHEAD_MS'] ?? DEFAULT_CLAIM_AHEAD_MS);
/** The worker's batch (its default, WORKER_BATCH): with sends claimed ahead, a tick may give a mailbox several. */
const WORKER_PER_TICK = 100;
/** How much faster than real time the worker round's clock moves (a 20 ms claim: 200 s, past any jitter). */
const WORKER_CLOCK_SPEED = 10_000;
const SEND_LEADS = 2_000;
/** A directory to write CPU profiles of the counted rounds to (send-<case>-r<round>.cpuprofile), for a profiler's flame chart. */
const SEND_PROFILE_DIR = process.env['BENCH_SEND_PROFILE'];

/** Runs `fn` under V8's CPU profiler (sampling every 200 µs) when BENCH_SEND_PROFILE names a directory. */
async function underProfiler<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!SEND_PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(join(SEND_PROFILE_DIR, `send-${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** One send through the MailSender: when it started and ended (performance.now()), from which mailbox. */
interface SendSpan {
  start: number;
  end: number;
  mailboxId: string;
}

/**
 * How each mailbox spent a round: the mean time of its sends (the SMTP transaction, DATA mark
 * included), and the time between the end of one of its sends and the start of its next (idle:
 * waiting for a claim, or for its time), mean, p50 and p90.
 */
function mailboxTimeline(spans: readonly SendSpan[]) {
  const idle: number[] = [];
  for (const list of Map.groupBy(spans, (x) => x.mailboxId).values()) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 1; i < list.length; i++) idle.push(list[i]!.start - list[i - 1]!.end);
  }
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return { sendMs: mean(spans.map((x) => x.end - x.start)), idleMs: mean(idle), idleP50: percentile(idle, 50), idleP90: percentile(idle, 90) };
}

/** A MailSender that times each send and keeps the messages (the raw side sends the same ones). */
export function recording(inner: MailSender) {
  const messages: { mailboxId: string; message: OutgoingMessage }[] = [];
  const spans: SendSpan[] = [];
  const sender: MailSender = {
    async send(o) {
      const start = performance.now();
      const outcome = await inner.send(o);
      spans.push({ start, end: performance.now(), mailboxId: o.mailboxId });
      if (outcome.status !== 'sent') throw new Error(`send: the sink answered ${JSON.stringify(outcome)}`);
      messages.push({ mailboxId: o.mailboxId, message: o.message });
      return outcome;
    },
    close: () => inner.close(),
  };
  return { sender, messages, spans };
}

/**
 * CPU time so far of this process (the engine or nodemailer) and the SMTP sink when there is one
 * (in this process, or in its own from SINK_CHILD_FROM mailboxes on), and of this database's
 * PostgreSQL backends (utime + stime from /proc, in clock ticks of 10 ms; the server runs on this machine).
 */
async function cpuNow(pool: pg.Pool, sink?: { cpuMs(): Promise<number> }): Promise<{ node: number; pg: Map<number, number> }> {
  const pids = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  const pgTicks = new Map<number, number>();
  for (const { pid } of pids.rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    pgTicks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  const u = process.cpuUsage();
  return { node: (u.user + u.system) / 1000 + (sink ? await sink.cpuMs() : 0), pg: pgTicks };
}

/** CPU milliseconds between two snapshots: this process, and the backends present in both. */
function cpuSpent(a: Awaited<ReturnType<typeof cpuNow>>, b: Awaited<ReturnType<typeof cpuNow>>) {
  let ticks = 0;
  for (const [pid, t] of b.pg) if (a.pg.has(pid)) ticks += t - a.pg.get(pid)!;
  return { node: b.node - a.node, pg: ticks * 10 };
}

export async function sendBench(options: { db: Database; pool: pg.Pool; rounds: number; say: Say }): Promise<string> {
  const { db, pool, say } = options;
  say(`\n## Sends per second into a local SMTP sink: ${SEND_LEADS.toLocaleString('en')} first steps from ${SEND_MAILBOXES} mailboxes, the engine's ticks (+61 s each) vs nodemailer`);
  // Runs that died left their organization behind; it is of no use to anyone.
  await pool.query(`DELETE FROM organizations WHERE name LIKE 'bench-send-run-%'`);
  const emails = Array.from({ length: SEND_MAILBOXES }, (_, k) => `sender${k + 1}@sink${(k % 3) + 1}.example.com`);
  const passwords = Object.fromEntries(emails.map((e, k) => [e, `password-${k + 1}`]));
  const sinkApart = SEND_MAILBOXES >= SINK_CHILD_FROM;
  const sink = await startSink({ users: passwords, childProcess: sinkApart });
  const clock = new TestClock(new Date('2026-03-02T06:00:00.000Z'));
  const rec = recording(createMailSender({ allowPrivateTargets: true }));
  const deps: ServiceDeps = testServiceDeps({ db, clock, smtp: rec.sender });
  const org = await createOrganization({ db: db.prisma, name: `bench-send-run-${Date.now()}`, workspaceName: 'bench send', leadAllowance: 100_000_000 });
  const ws = org.workspaceId;
  try {
    const mailboxIds = emails.map(() => newId());
    await db.prisma.emailAccount.createMany({
      data: emails.map((email, k) => ({
        id: mailboxIds[k]!,
        organizationId: org.organizationId,
        workspaceId: ws,
        email,
        emailNormalized: email,
        firstName: `Sender${k + 1}`,
        lastName: 'Bench',
        smtpHost: '127.0.0.1',
        smtpPort: sink.port,
        smtpUsername: email,
        smtpPasswordEnc: deps.secrets.encrypt(passwords[email]!),
        imapHost: '127.0.0.1',
        imapPort: 1,
        imapUsername: email,
        imapPasswordEnc: deps.secrets.encrypt(passwords[email]!),
        dailyLimit: 100_000,
        sendingGap: 0,
        signature: `<p>Sender ${k + 1}<br>Bench Inc.</p>`,
      })),
    });

    /** A fresh ACTIVE campaign of two steps on the 10 mailboxes, with `leads` leads due now. */
    const newCampaign = async (leads: number, tag: string) => {
      const id = newId();
      await db.prisma.campaign.create({
        data: {
          id,
          organizationId: org.organizationId,
          workspaceId: ws,
          name: `send bench ${tag}`,
          status: 'ACTIVE',
          dailyLimit: 100_000,
          openTracking: true,
          unsubscribeLink: true,
          schedule: ALL_WEEK_UTC,
        },
      });
      for (const step of [1, 2]) {
        const stepId = newId();
        await db.prisma.sequenceStep.create({ data: { id: stepId, workspaceId: ws, campaignId: id, step, waitTime: SEQUENCE.waitDays[step]! } });
        await db.prisma.variation.createMany({
          data: SEQUENCE.variations[step]!.map((v, i) => ({ id: newId(), workspaceId: ws, campaignId: id, stepId, label: 'AB'[i]!, subject: v.subject, body: v.body })),
        });
      }
      await db.prisma.campaignEmailAccount.createMany({ data: mailboxIds.map((emailAccountId) => ({ campaignId: id, emailAccountId })) });
      // Lead ids: the campaign id's counter end (its start is the second it was made in, shared by
      // campaigns made within one second) and the lead's number.
      await pool.query(
        `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, last_name, company_name, custom_variables,
                            next_send_at, created_at, updated_at)
         SELECT $4 || lpad(to_hex(n), 12, '0'), $1, $2, $3, e, e, 'Lead' || n, 'Surname', 'Company ' || (n % 500),
                CASE WHEN n % 4 = 0 THEN jsonb_build_object('personalization', 'Loved your talk on outbound at SaaStr, Lead' || n || '.') ELSE '{}'::jsonb END,
                $5::timestamptz - interval '1 day' + n * interval '1 second', $5::timestamptz - interval '1 day', $5::timestamptz - interval '1 day'
           FROM generate_series(1, ${leads}) n, LATERAL (SELECT 'lead' || n || '-' || $6 || '@recipient' || (n % 50) || '.example.com' AS e) x`,
        [org.organizationId, ws, id, id.slice(12), clock.now().toISOString(), tag],
      );
      // As autovacuum would have by the time a real campaign of this size sends: the planner
      // knows how many leads and sends there are (the rounds start from tables emptied by the
      // run before; without it the engine's statements were planned for a table of a hundred
      // leads and scanned every lead on each recording).
      await pool.query('ANALYZE leads, sent_emails, campaign_email_accounts');
      return id;
    };

    /** Pauses a round's campaign (the next round starts alike), checks the sink got every e-mail once, empties it; the bytes it got. */
    const closeRound = async (campaignId: string, leads: number, label: string) => {
      await db.prisma.campaign.update({ where: { id: campaignId }, data: { status: 'PAUSED' } });
      const { count, bytes } = await sink.stats();
      if (count !== leads) throw new Error(`${label}: the sink received ${count} messages, not ${leads}`);
      await sink.reset();
      return bytes;
    };

    /** Ticks until `leads` first steps are out; the campaign is paused afterwards so the next round starts alike. */
    const engineRound = async (leads: number, tag: string, day: number, calls?: Call[]) => {
      const tickDeps = calls ? { ...deps, db: instrument(db.prisma, calls) } : deps;
      clock.at = new Date(Date.parse('2026-03-02T06:00:00.000Z') + day * 86_400_000);
      const campaignId = await newCampaign(leads, tag);
      await sink.reset();
      rec.messages.length = 0;
      rec.spans.length = 0;
      const ticks: { start: number; end: number; firstSend: number; lastSend: number }[] = [];
      let sent = 0;
      let idle = 0;
      const t0 = performance.now();
      while (sent < leads) {
        const spansBefore = rec.spans.length;
        const start = performance.now();
        const r = await runSchedulerTick({ deps: tickDeps, workspaceIds: [ws] });
        const end = performance.now();
        const spans = rec.spans.slice(spansBefore);
        if (spans.length) ticks.push({ start, end, firstSend: Math.min(...spans.map((s) => s.start)), lastSend: Math.max(...spans.map((s) => s.end)) });
        sent += r.sent;
        if (r.claimed === 0 && ++idle > 5) throw new Error(`send: the engine stopped claiming after ${sent} sends`);
        if (r.bounced || r.deferred || r.disconnected) throw new Error(`send: unexpected outcome ${JSON.stringify(r)}`);
        clock.advance(61_000);
      }
      const ms = performance.now() - t0;
      const bytes = await closeRound(campaignId, leads, 'send');
      return { perSecond: (leads / ms) * 1000, ms, ticks, bytes, messages: [...rec.messages] };
    };

    /**
     * The same first steps through the sending worker's loop (startSendingWorker), as the worker
     * process runs it: ticks of up to 100 sends, a full tick delivering while the next claims
     * (TICKS_IN_FLIGHT at once), each mailbox taking the sends that follow within the default
     * horizon (DEFAULT_CLAIM_AHEAD_MS), each after its pause, on a clock that moves
     * WORKER_CLOCK_SPEED times faster than real time (a mailbox's pause, gap 0 and up to 60 s of
     * jitter, lasts up to 6 ms; a send waiting for its time waits as long in real time).
     */
    const workerRound = async (leads: number, tag: string, day: number) => {
      const base = Date.parse('2026-03-02T06:00:00.000Z') + day * 86_400_000;
      const campaignId = await newCampaign(leads, tag);
      await sink.reset();
      const began = performance.now();
      const moving = { now: () => new Date(base + (performance.now() - began) * WORKER_CLOCK_SPEED), realMs: (ms: number) => ms / WORKER_CLOCK_SPEED };
      const worker = startSendingWorker({
        deps: { ...deps, ports: { ...deps.ports, clock: moving } },
        intervalMs: 5,
        maxSendsPerTick: WORKER_PER_TICK,
        claimAheadMs: SEND_AHEAD_MS,
        // A lease of a simulated week (about a minute here): no claim runs out while it delivers.
        claimLeaseMs: 7 * 86_400_000,
        workspaceIds: [ws],
      });
      let recorded = 0;
      try {
        // Until every e-mail is out, counted in memory (the sends this round's worker made): asking
        // the database every 25 ms meanwhile made 150–210 statements a round in this process and
        // the server, about 7% of the worker's own at 10 mailboxes. Then until each is recorded.
        const made = () => rec.spans.reduce((n, x) => n + (x.start >= began ? 1 : 0), 0);
        for (let waited = 0; recorded < leads; waited += 25) {
          if (waited > 120_000) throw new Error(`send (worker): ${recorded} of ${leads} sends recorded after 2 minutes`);
          await new Promise((r) => setTimeout(r, 25));
          if (made() < leads) continue;
          recorded = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sent_emails WHERE campaign_id = $1', [campaignId])).rows[0]!.n;
        }
      } finally {
        await worker.stop();
      }
      const ms = performance.now() - began;
      const timeline = mailboxTimeline(rec.spans.filter((x) => x.start >= began));
      rec.spans.length = 0;
      await closeRound(campaignId, leads, 'send (worker)');
      return { perSecond: (leads / ms) * 1000, timeline };
    };

    type Sent = { mailboxId: string; message: OutgoingMessage };
    /** The same messages, from the same mailboxes, straight through nodemailer pools (the engine's pool settings), as `send` sends them. */
    const rawWith = async (messages: Sent[], send: (sendOne: (m: Sent) => Promise<unknown>) => Promise<unknown>) => {
      await sink.reset();
      const transports = new Map(
        mailboxIds.map((id, k) => [
          id,
          nodemailer.createTransport({ pool: true, maxConnections: 2, maxMessages: 100, host: '127.0.0.1', port: sink.port, secure: false, auth: { user: emails[k]!, pass: passwords[emails[k]!]! } }),
        ]),
      );
      const sendOne = ({ mailboxId, message }: Sent) => transports.get(mailboxId)!.sendMail(nodemailerMessage(message));
      const t0 = performance.now();
      await send(sendOne);
      const ms = performance.now() - t0;
      for (const t of transports.values()) t.close();
      const { count } = await sink.stats();
      if (count !== messages.length) throw new Error(`send (raw): the sink received ${count} messages, not ${messages.length}`);
      await sink.reset();
      return (messages.length / ms) * 1000;
    };
    /** `inFlight` messages at a time, whichever mailbox they are from. */
    const rawRound = (messages: Sent[], inFlight: number) =>
      rawWith(messages, async (sendOne) => {
        let next = 0;
        await Promise.all(
          Array.from({ length: Math.min(inFlight, messages.length) }, async () => {
            while (next < messages.length) await sendOne(messages[next++]!);
          }),
        );
      });
    /**
     * Each mailbox's messages one after another, with the pause the engine makes after each (a gap
     * of 0: its 0–60 s jitter, on the worker round's clock): nodemailer paced as the engine paces a
     * mailbox, so the ratio to it is the engine's own cost.
     */
    const rawPacedRound = (messages: Sent[]) =>
      rawWith(messages, async (sendOne) => {
        await Promise.all(
          [...Map.groupBy(messages, (m) => m.mailboxId).values()].map(async (list) => {
            for (const m of list) {
              await sendOne(m);
              await new Promise((resolve) => setTimeout(resolve, sendingGapWithJitter({ gapMinutes: 0, seed: m.message.messageId }) / WORKER_CLOCK_SPEED));
            }
          }),
        );
      });

    // Each round starts on a later simulated day than any before it, four days apart (a worker
    // round's clock moves a day in under 9 s): the mailboxes' pauses set by one round are over by the next.
    let day = 0;
    const nextDay = () => (day += 4);
    // Warm-up, not counted: JIT, pools, caches.
    const warm = await engineRound(200, 'warm', 0);
    await rawRound(warm.messages, 2000);
    await workerRound(200, 'warm-worker', nextDay());

    let last: Awaited<ReturnType<typeof engineRound>> | null = null;
    const tickStats: { claim: number[]; deliver: number[]; after: number[]; tick: number[] } = { claim: [], deliver: [], after: [], tick: [] };
    const timelines: ReturnType<typeof mailboxTimeline>[] = [];
    const cpu = { ours: { node: [] as number[], pg: [] as number[] }, worker: { node: [] as number[], pg: [] as number[] }, raw: { node: [] as number[], pg: [] as number[] } };
    const results = await interleave({
      rounds: options.rounds,
      cases: {
        ours: async (round) => {
          const c0 = await cpuNow(pool, sink);
          last = await underProfiler(`ticks-r${round}`, () => engineRound(SEND_LEADS, `r${round}`, nextDay()));
          const spent = cpuSpent(c0, await cpuNow(pool, sink));
          cpu.ours.node.push(spent.node / SEND_LEADS);
          cpu.ours.pg.push(spent.pg / SEND_LEADS);
          for (const t of last.ticks) {
            tickStats.claim.push(t.firstSend - t.start);
            tickStats.deliver.push(t.end - t.firstSend);
            tickStats.after.push(t.end - t.lastSend);
            tickStats.tick.push(t.end - t.start);
          }
          return last.perSecond;
        },
        worker: async (round) => {
          const c0 = await cpuNow(pool, sink);
          const { perSecond, timeline } = await underProfiler(`worker-r${round}`, () => workerRound(SEND_LEADS, `w${round}`, nextDay()));
          const spent = cpuSpent(c0, await cpuNow(pool, sink));
          cpu.worker.node.push(spent.node / SEND_LEADS);
          cpu.worker.pg.push(spent.pg / SEND_LEADS);
          timelines.push(timeline);
          return perSecond;
        },
        raw: async (round) => {
          const c0 = await cpuNow(pool, sink);
          const rate = await underProfiler(`raw-r${round}`, () => rawRound(last!.messages, SEND_LEADS));
          const spent = cpuSpent(c0, await cpuNow(pool, sink));
          cpu.raw.node.push(spent.node / SEND_LEADS);
          cpu.raw.pg.push(spent.pg / SEND_LEADS);
          return rate;
        },
        rawTenInFlight: () => rawRound(last!.messages, SEND_MAILBOXES),
        rawPaced: () => rawPacedRound(last!.messages),
      },
    });
    const ours = median(results.ours);
    const byWorker = median(results.worker);
    const raw = median(results.raw);
    const done = last as Awaited<ReturnType<typeof engineRound>> | null;
    const avgBytes = done ? done.bytes / SEND_LEADS : 0;
    say(`  messages: ${fmt(avgBytes, 0)} bytes on average (HTML + text, pixel, unsubscribe link and headers), ${SEND_LEADS} recipients, ${SEND_MAILBOXES} mailboxes, sending gap 0 (0–60 s jitter)`);
    say(`  engine, runSchedulerTick with a clock advanced 61 s per tick (${done?.ticks.length ?? 0} ticks): ${fmt(ours, 0)} sends/s   rounds: ${results.ours.map((x) => fmt(x, 0)).join(', ')}`);
    say(`  raw nodemailer, one pooled transport per mailbox (2 connections, 100 messages each), all ${SEND_LEADS} queued at once: ${fmt(raw, 0)} sends/s   rounds: ${results.raw.map((x) => fmt(x, 0)).join(', ')}`);
    say(
      `  engine, the worker's loop (ticks of up to ${WORKER_PER_TICK}, sends claimed ${SEND_AHEAD_MS / 1000} s ahead, ${TICKS_IN_FLIGHT} delivering at once, a clock ${WORKER_CLOCK_SPEED}× real time): ${fmt(byWorker, 0)} sends/s   rounds: ${results.worker.map((x) => fmt(x, 0)).join(', ')}`,
    );
    say(
      `    a mailbox in the worker's loop, by round: a send ${timelines.map((t) => fmt(t.sendMs)).join(', ')} ms on average (its SMTP transaction, the DATA mark's commit included); ` +
        `idle between two of its sends ${timelines.map((t) => `${fmt(t.idleMs)} (p50 ${fmt(t.idleP50)}, p90 ${fmt(t.idleP90)})`).join(', ')} ms`,
    );
    const rawEqual = median(results.rawTenInFlight);
    say(`  for scale, raw with ${SEND_MAILBOXES} in flight (one per mailbox, the engine's concurrency: a mailbox sends one e-mail at a time): ${fmt(rawEqual, 0)} sends/s`);
    const rawPaced = median(results.rawPaced);
    say(`  for scale, raw paced as the engine paces a mailbox (one in flight per mailbox, the same 0–60 s pause after each on the worker round's clock): ${fmt(rawPaced, 0)} sends/s`);
    say(
      `  ratio ours/raw: ticks one after another ${fmt(ours / raw)}, the worker's loop ${fmt(byWorker / raw)} (reported); the worker's loop against raw at one in flight per mailbox ${fmt(byWorker / rawEqual)}, ` +
        `against raw paced as a mailbox ${fmt(byWorker / rawPaced)}`,
    );
    // Each worker round against the raw rounds of the same round (`raw` runs right after it, the
    // other two after that): the machine's speed drifts from one round to the next (nodemailer alone
    // moved 776–1,445 sends/s between runs at 100 mailboxes on 2026-12-07), which the ratio of the
    // medians above does not cancel.
    const byRound = (against: number[]) => results.worker.map((w, i) => w / against[i]!);
    const pairedRaw = byRound(results.raw);
    const pairedEqual = byRound(results.rawTenInFlight);
    const pairedPaced = byRound(results.rawPaced);
    say(
      `  the worker's loop round by round, each against the raw rounds of its round: reported ${pairedRaw.map((x) => fmt(x)).join(', ')} (median ${fmt(median(pairedRaw))}); ` +
        `one in flight per mailbox ${pairedEqual.map((x) => fmt(x)).join(', ')} (median ${fmt(median(pairedEqual))}); paced as a mailbox ${pairedPaced.map((x) => fmt(x)).join(', ')} (median ${fmt(median(pairedPaced))})`,
    );
    say(
      `  CPU per e-mail (node includes the SMTP sink, ${sinkApart ? 'in a child process' : 'in this process'} for both): engine node ${fmt(median(cpu.ours.node))} ms + PostgreSQL ${fmt(median(cpu.ours.pg))} ms; ` +
        `the worker's loop node ${fmt(median(cpu.worker.node))} ms + PostgreSQL ${fmt(median(cpu.worker.pg))} ms; ` +
        `raw nodemailer node ${fmt(median(cpu.raw.node))} ms + PostgreSQL ${fmt(median(cpu.raw.pg))} ms`,
    );
    say(
      `  a tick (${PER_TICK} sends), p50: ${fmt(median(tickStats.tick))} ms = claim ${fmt(median(tickStats.claim))} ms + deliver and record ${fmt(median(tickStats.deliver))} ms ` +
        `(of which after the last SMTP answer ${fmt(median(tickStats.after))} ms: its record, FINISH_TICK_SQL)`,
    );

    // Where a tick's time goes: one more round (not counted) with the database client instrumented.
    const calls: Call[] = [];
    // Meanwhile, what the backends recording sends wait on (pg_stat_activity, every few ms).
    const waits = new Map<string, number>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const r = await pool.query<{ w: string }>(
          `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') AS w FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'active' AND query LIKE '%INSERT INTO sent_emails%' AND pid <> pg_backend_pid()`,
        );
        for (const { w } of r.rows) waits.set(w, (waits.get(w) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const profiled = await engineRound(500, 'profile', nextDay(), calls).finally(() => {
      polling = false;
    });
    await poller;
    const perTick = new Map<string, number[]>();
    for (const c of calls) perTick.set(c.label, [...(perTick.get(c.label) ?? []), c.end - c.start]);
    say(`  statements of ${profiled.ticks.length} instrumented ticks (client-side ms through Prisma; the ${PER_TICK} deliveries of a tick record in batches):`);
    say(`    ${'statement'.padEnd(42)} ${'per tick'.padStart(8)} ${'min ms'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)}`);
    for (const [label, ms] of [...perTick].sort((a, b) => b[1].reduce((x, y) => x + y, 0) - a[1].reduce((x, y) => x + y, 0))) {
      say(
        `    ${label.padEnd(42)} ${fmt(ms.length / profiled.ticks.length, 1).padStart(8)} ${fmt(Math.min(...ms)).padStart(7)} ${fmt(percentile(ms, 50)).padStart(7)} ${fmt(percentile(ms, 95)).padStart(7)}`,
      );
    }
    const sampled = [...waits.values()].reduce((a, b) => a + b, 0);
    say(
      `  RECORD_SENT_SQL backends seen ${sampled} times: ` +
        [...waits].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w} ${fmt((100 * n) / sampled, 0)}%`).join(', ') +
        ' (Lock:* = waiting for another send’s transaction: all of a tick’s records update the same campaigns row)',
    );
    return `send ${SEND_LEADS} via ${SEND_MAILBOXES} mailboxes: engine ${fmt(ours, 0)} sends/s (the worker's loop ${fmt(byWorker, 0)}), raw nodemailer ${fmt(raw, 0)} sends/s, ratio ${fmt(ours / raw)} (worker ${fmt(byWorker / raw)}, median of rounds ${fmt(median(pairedRaw))}) (reported; worker vs raw one in flight per mailbox ${fmt(byWorker / rawEqual)} (rounds ${fmt(median(pairedEqual))}), vs raw paced as a mailbox ${fmt(byWorker / rawPaced)} (rounds ${fmt(median(pairedPaced))})); CPU per e-mail engine ${fmt(median(cpu.ours.node))} + ${fmt(median(cpu.ours.pg))} ms (node + PostgreSQL), raw ${fmt(median(cpu.raw.node))} + ${fmt(median(cpu.raw.pg))} ms`;
  } finally {
    await rec.sender.close();
    await sink.close();
    await pool.query('DELETE FROM organizations WHERE id = $1', [org.organizationId]);
  }
}

// ── headroom ─────────────────────────────────────────────────────────────────────────

/**
 * Whether one worker keeps up with 5,000 mailboxes late in a busy day (200,000 sends
 * already today), and whether a second worker on the same PostgreSQL adds as much again.
 * A tick's claim is timed (rolled back, so every claim sees the same data); the required
 * rate is every mailbox sending once per its 1-minute gap, so a tick of `maxSends` sends
 * must come every maxSends / rate seconds: headroom = that / the claim's time.
 */
export async function headroomBench(options: { db: Database; pool: pg.Pool; url: string; rounds: number; say: Say }): Promise<string> {
  const { db, pool, say } = options;
  const deps = testServiceDeps({ db });
  const seed = await ensureHeadroomSeed({ db, pool, log: say, encryptedPassword: deps.secrets.encrypt('bench-password') });
  await pool.query('VACUUM (ANALYZE) leads, email_accounts, variations, lead_events, campaigns');
  const now = new Date(seed.now);
  const scope = [seed.workspaceId];
  const MAX_SENDS = 100;
  const requiredPerSecond = seed.mailboxes / 60;
  const availableMs = (MAX_SENDS / requiredPerSecond) * 1000;
  say(
    `\n## Headroom: claims of ${MAX_SENDS} sends among ${seed.mailboxes.toLocaleString('en')} mailboxes in ${seed.campaigns} campaigns, ` +
      `${seed.sentToday.toLocaleString('en')} sends already today, ${seed.due.toLocaleString('en')} leads due; ` +
      `required ${fmt(requiredPerSecond, 1)} sends/s (every mailbox once a minute): a tick every ${fmt(availableMs, 0)} ms`,
  );
  const claim = (client: PrismaClient, maxSends = MAX_SENDS) => claimDueSends({ deps: { ...deps, db: client }, now, maxSends, workspaceIds: scope });

  const first = await warmedUpClaim({ db, claim, say });

  // One worker: claims back to back, with the CPU they cost this process and the database.
  const one: number[] = [];
  const cpu0 = await cpuNow(pool);
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < 10; i++) one.push((await rolledBack(db, (tx) => time(() => claim(tx)))).ms);
  }
  const oneCpu = cpuSpent(cpu0, await cpuNow(pool));
  const oneP50 = median(one);
  const oneClaimed = first.claims.length;

  // Two workers: two claims at once, each in its own transaction (both rolled back at the end).
  const pairs: { ms: number; a: number; b: number; shared: number }[] = [];
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < 5; i++) {
      // Each holds its transaction (its locks) until both have claimed, as two live workers would.
      let arrived = 0;
      let release!: () => void;
      const both = new Promise<void>((resolve) => (release = resolve));
      const worker = (tx: PrismaClient) =>
        time(() => claim(tx)).then(async (r) => {
          if (++arrived === 2) release();
          await both;
          return r;
        });
      const t0 = performance.now();
      const [ta, tb] = await Promise.all([rolledBack(db, worker), rolledBack(db, worker)]);
      const ms = Math.max(ta.ms, tb.ms, 0) || performance.now() - t0;
      const [a, b] = [ta.value, tb.value];
      const mailboxesA = new Set(a.claims.map((c) => c.mailbox.id));
      pairs.push({ ms, a: a.claims.length, b: b.claims.length, shared: b.claims.filter((c) => mailboxesA.has(c.mailbox.id)).length });
    }
  }
  const pairMs = median(pairs.map((p) => p.ms));
  const pairClaimed = median(pairs.map((p) => p.a + p.b));
  const shared = Math.max(...pairs.map((p) => p.shared));
  const oneRate = (oneClaimed / oneP50) * 1000;
  const twoRate = (pairClaimed / pairMs) * 1000;
  const headroom = availableMs / oneP50;
  say(
    `  one worker: claim p50 ${fmt(oneP50)} ms, p95 ${fmt(percentile(one, 95))} ms (${one.length} claims, ${oneClaimed} sends each): headroom ${fmt(headroom, 1)}× (target ≥ 3×); ` +
      `CPU per claim: node ${fmt(oneCpu.node / one.length, 1)} ms + PostgreSQL ${fmt(oneCpu.pg / one.length, 1)} ms`,
  );
  say(
    `  two workers at once: both claims done in p50 ${fmt(pairMs)} ms, ${pairClaimed} sends between them (${pairs.map((p) => `${p.a}+${p.b}`).slice(0, 5).join(', ')}…), ` +
      `mailboxes used by both: ${shared}; claimed sends/s ${fmt(twoRate, 0)} vs one worker ${fmt(oneRate, 0)}: ×${fmt(twoRate / oneRate)}`,
  );

  // Separate worker processes, each with its own pool, claiming back to back for a fixed time:
  // one, then two at once (interleaved rounds), on the same seed. HEADROOM_PROCESS_SECONDS=0 skips them.
  const seconds = Number(process.env['HEADROOM_PROCESS_SECONDS'] ?? 15);
  const summary = `headroom at ${seed.mailboxes} mailboxes, ${seed.sentToday} sent today: claim p50 ${fmt(oneP50)} ms, headroom ${fmt(headroom, 1)}×; two workers in one process ×${fmt(twoRate / oneRate)} claimed sends/s`;
  if (!(seconds > 0)) return summary;
  const worker = { workspaceId: seed.workspaceId, now: seed.now, maxSends: MAX_SENDS, poolSize: 4 };
  say(`  worker processes: ${seconds} s a phase, one process then two at once, ${options.rounds} rounds (each claim rolled back, as above)`);
  const phases = await processPhases({ ...options, seconds, worker, availableMs: () => availableMs });
  const rate = (n: 1 | 2) => median(phases[n].map((p) => p.sendsPerSecond));
  const [rate1, rate2] = [rate(1), rate(2)];
  const perWorkerP50 = median(phases[2].flatMap((p) => p.workers.map((w) => w.p50)));
  // Each round's pair, with the cores the phases found: the machine's other work varies by the second.
  const ours = (p: ProcessPhase) => (p.workers.reduce((a, w) => a + w.cpuMs, 0) + p.pgCpuMs) / Math.max(...p.workers.map((w) => w.wallMs));
  say(
    `  rounds: ` +
      phases[1]
        .map((one, i) => {
          const two = phases[2][i]!;
          return `×${fmt(two.sendsPerSecond / one.sendsPerSecond)} (one ${fmt(one.sendsPerSecond, 0)} sends/s on ${fmt(ours(one), 2)} cores of ${fmt(one.machineCores, 2)} busy, two ${fmt(two.sendsPerSecond, 0)} on ${fmt(ours(two), 2)} of ${fmt(two.machineCores, 2)})`;
        })
        .join('; '),
  );
  // Whether the second process costs more CPU per send (contention) or only needs the cores.
  const perCpu = (n: 1 | 2) => median(phases[n].map(sendsPerCpuSecond));
  say(
    `  sends per CPU-second (workers + backends): one process ${fmt(perCpu(1), 0)}, two ${fmt(perCpu(2), 0)} (×${fmt(perCpu(2) / perCpu(1))}); ` +
      `cores busy on the machine: ${[...phases[1], ...phases[2]].map((p) => fmt(p.machineCores, 2)).join(', ')} of ${cpus().length}`,
  );
  say(
    `  processes: one ${fmt(rate1, 0)} claimed sends/s (${fmt(rate1 * 60, 0)} mailboxes at once a minute, headroom ${fmt((rate1 * 60) / seed.mailboxes, 1)}× at ${seed.mailboxes}), ` +
      `two ${fmt(rate2, 0)} (${fmt(rate2 * 60, 0)} mailboxes; each worker's claim p50 ${fmt(perWorkerP50)} ms, headroom ${fmt(availableMs / perWorkerP50, 1)}× per worker at ${seed.mailboxes}): ×${fmt(rate2 / rate1)}`,
  );
  const doubled = process.env['HEADROOM_DOUBLE'] === '0' ? null : await twiceTheMailboxes({ ...options, deps, seconds, maxSends: MAX_SENDS });
  return (
    `${summary}; processes: one ${fmt(rate1, 0)} sends/s, two ${fmt(rate2, 0)} sends/s, ×${fmt(rate2 / rate1)} (headroom per worker ${fmt(availableMs / perWorkerP50, 1)}×)` +
    (doubled ? `; ${doubled}` : '')
  );
}

/**
 * Whether two workers on one PostgreSQL serve twice the mailboxes one serves, with the same
 * ≥ 3× headroom: a seed of 10,000 mailboxes late in the same busy day (500 campaigns, 400,000
 * sends today, 400,000 leads due). Every mailbox once a minute is 167 sends/s: one worker alone
 * would need a tick of 100 sends every 600 ms, each of two workers one every 1,200 ms (the
 * tick time one worker has at 5,000). Worker processes claim back to back (rolled back), one
 * alone, then two at once, a phase of each a round: each claim's time under that load, which
 * is more than the required rate asks of them. Run after the 5,000-mailbox phases (not with
 * HEADROOM_PROCESS_SECONDS=0).
 */
async function twiceTheMailboxes(options: {
  db: Database;
  pool: pg.Pool;
  url: string;
  rounds: number;
  say: Say;
  deps: ServiceDeps;
  seconds: number;
  maxSends: number;
}): Promise<string> {
  const { db, pool, say, deps, maxSends } = options;
  const seed = await ensureHeadroomSeed({ db, pool, log: say, encryptedPassword: deps.secrets.encrypt('bench-password'), mailboxes: 10_000 });
  await pool.query('VACUUM (ANALYZE) leads, email_accounts, variations, lead_events, campaigns');
  const requiredPerSecond = seed.mailboxes / 60;
  const aloneMs = (maxSends / requiredPerSecond) * 1000;
  const eachOfTwoMs = 2 * aloneMs;
  say(
    `\n## Two workers, twice the mailboxes: claims of ${maxSends} sends among ${seed.mailboxes.toLocaleString('en')} mailboxes in ${seed.campaigns} campaigns, ` +
      `${seed.sentToday.toLocaleString('en')} sends already today, ${seed.due.toLocaleString('en')} leads due; required ${fmt(requiredPerSecond, 1)} sends/s: ` +
      `a tick every ${fmt(aloneMs, 0)} ms for one worker alone, every ${fmt(eachOfTwoMs, 0)} ms for each of two`,
  );
  const now = new Date(seed.now);
  const claim = (client: PrismaClient) => claimDueSends({ deps: { ...deps, db: client }, now, maxSends, workspaceIds: [seed.workspaceId] });
  await warmedUpClaim({ db, claim, say });
  const worker = { workspaceId: seed.workspaceId, now: seed.now, maxSends, poolSize: 4 };
  const phases = await processPhases({ ...options, worker, availableMs: (n) => (n === 1 ? aloneMs : eachOfTwoMs) });
  const aloneP50 = median(phases[1].flatMap((p) => p.workers.map((w) => w.p50)));
  const eachP50 = median(phases[2].flatMap((p) => p.workers.map((w) => w.p50)));
  const worstEach = Math.max(...phases[2].flatMap((p) => p.workers.map((w) => w.p50)));
  say(
    `  two workers at ${seed.mailboxes.toLocaleString('en')} mailboxes: each worker's claim p50 ${fmt(eachP50)} ms (the slowest worker's ${fmt(worstEach)} ms), ` +
      `headroom ${fmt(eachOfTwoMs / eachP50, 1)}× per worker (${fmt(eachOfTwoMs / worstEach, 1)}× the slowest; target ≥ 3×); ` +
      `one worker alone: claim p50 ${fmt(aloneP50)} ms, headroom ${fmt(aloneMs / aloneP50, 1)}×`,
  );
  return `two workers at ${seed.mailboxes} mailboxes: headroom ${fmt(eachOfTwoMs / eachP50, 1)}× per worker (slowest ${fmt(eachOfTwoMs / worstEach, 1)}×; ≥ 3×), one alone ${fmt(aloneMs / aloneP50, 1)}×`;
}

/** Three claims to warm up, then one instrumented (rolled back, as every claim here): what it claims, and each statement's time. */
async function warmedUpClaim(options: { db: Database; claim: (client: PrismaClient) => Promise<ClaimResult>; say: Say }): Promise<ClaimResult> {
  const { db, claim } = options;
  for (let i = 0; i < 3; i++) await rolledBack(db, claim);
  const calls: Call[] = [];
  const first = await rolledBack(db, (tx) => claim(instrument(tx, calls)));
  options.say(
    `  one claim: ${first.claims.length} sends from ${new Set(first.claims.map((c) => c.mailbox.id)).size} mailboxes; statements: ` +
      calls.filter((c) => !c.label.startsWith('$transaction')).map((c) => `${c.label} ${fmt(c.end - c.start)} ms (${c.rows ?? '-'} rows)`).join(', '),
  );
  return first;
}

/** `rounds` rounds of processPhase, one worker process then two, each phase described with the tick time `availableMs(n)` gives n workers. */
async function processPhases(options: {
  rounds: number;
  seconds: number;
  url: string;
  worker: Omit<WorkerSettings, 'url'>;
  pool: pg.Pool;
  say: Say;
  availableMs: (n: 1 | 2) => number;
}): Promise<Record<1 | 2, ProcessPhase[]>> {
  const phases: Record<1 | 2, ProcessPhase[]> = { 1: [], 2: [] };
  for (let round = 0; round < options.rounds; round++) {
    for (const n of [1, 2] as const) {
      const phase = await processPhase({ ...options, n });
      phases[n].push(phase);
      options.say(`    ${describePhase(phase, options.availableMs(n))}`);
    }
  }
  return phases;
}

interface ProcessPhase {
  n: number;
  seconds: number;
  sendsPerSecond: number;
  claimsPerSecond: number;
  workers: { claims: number; sends: number; p50: number; p95: number; cpuMs: number; wallMs: number }[];
  /** CPU milliseconds of the workers' PostgreSQL backends. */
  pgCpuMs: number;
  /** Cores busy on the whole machine (every process: ours, the database's, anyone else's). */
  machineCores: number;
  /** pg_stat_activity samples of the workers' backends: state and wait event, counted. */
  waits: Map<string, number>;
  load: string;
}

/**
 * `n` worker processes (bench/headroom-worker.ts) claiming at once for `seconds`, each with its
 * own pool; what they claimed, the CPU of their processes and of their database backends, the
 * whole machine's busy cores, and where their backends were (pg_stat_activity sampled every 50 ms).
 */
async function processPhase(options: {
  n: number;
  seconds: number;
  url: string;
  worker: Omit<WorkerSettings, 'url'>;
  pool: pg.Pool;
}): Promise<ProcessPhase> {
  const file = fileURLToPath(new URL('./headroom-worker.ts', import.meta.url));
  const APP = 'bench-headroom-worker';
  const children = Array.from({ length: options.n }, (_, i) => {
    const url = new URL(options.url);
    url.searchParams.set('application_name', `${APP}-${i + 1}`);
    const settings: WorkerSettings = { ...options.worker, url: url.toString() };
    return fork(file, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, HEADROOM_WORKER: JSON.stringify(settings) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  });
  const next = (child: (typeof children)[number]) =>
    new Promise<WorkerMessage>((resolve, reject) => {
      child.once('message', (m) => resolve(m as WorkerMessage));
      child.once('exit', (code) => reject(new Error(`headroom worker exited (${code})`)));
    });
  try {
    await Promise.all(children.map(next));
    const backends0 = await backendCpu(options.pool, `${APP}-%`);
    const machine0 = await machineCpu();
    const waits = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await options.pool.query<{ state: string; wait: string | null }>(
          `SELECT state, wait_event_type || ':' || wait_event AS wait FROM pg_stat_activity WHERE application_name LIKE $1 AND state <> 'idle'`,
          [`${APP}-%`],
        );
        for (const r of rows) {
          const key = r.state === 'active' ? (r.wait ? `active, waiting ${r.wait}` : 'active, running') : `${r.state} (the worker's turn)`;
          waits.set(key, (waits.get(key) ?? 0) + 1);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const done = children.map(next);
    const until = Date.now() + options.seconds * 1000;
    for (const child of children) child.send({ type: 'go', until } satisfies ParentMessage);
    const reports = (await Promise.all(done)).filter((m): m is Extract<WorkerMessage, { type: 'done' }> => m.type === 'done');
    sampling = false;
    await sampler;
    const machine1 = await machineCpu();
    const backends1 = await backendCpu(options.pool, `${APP}-%`);
    let pgTicks = 0;
    for (const [pid, t] of backends1) pgTicks += t - (backends0.get(pid) ?? 0);
    return {
      n: options.n,
      seconds: options.seconds,
      sendsPerSecond: reports.reduce((a, r) => a + r.sends / (r.wallMs / 1000), 0),
      claimsPerSecond: reports.reduce((a, r) => a + r.claims / (r.wallMs / 1000), 0),
      workers: reports.map((r) => ({ claims: r.claims, sends: r.sends, p50: median(r.latencies), p95: percentile(r.latencies, 95), cpuMs: r.cpuMs, wallMs: r.wallMs })),
      pgCpuMs: pgTicks * 10,
      machineCores: (machine1.busy - machine0.busy) / ((machine1.total - machine0.total) / machine1.cores),
      waits,
      load: loadavg().map((l) => l.toFixed(2)).join(' '),
    };
  } finally {
    for (const child of children) if (child.connected) child.send({ type: 'exit' } satisfies ParentMessage);
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((resolve) => c.once('exit', resolve)) : null)));
  }
}

function describePhase(p: ProcessPhase, availableMs: number): string {
  const claims = p.workers.reduce((a, w) => a + w.claims, 0);
  const nodeMs = p.workers.reduce((a, w) => a + w.cpuMs, 0);
  const wallS = Math.max(...p.workers.map((w) => w.wallMs)) / 1000;
  const sampled = [...p.waits.values()].reduce((a, b) => a + b, 0);
  const waits = [...p.waits].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${fmt((100 * n) / sampled, 0)}%`).join(', ');
  return (
    `${p.n} process${p.n > 1 ? 'es' : ''}: ${fmt(p.sendsPerSecond, 0)} claimed sends/s (${fmt(p.claimsPerSecond, 2)} claims/s); ` +
    p.workers.map((w, i) => `worker ${i + 1} ${w.claims} claims, p50 ${fmt(w.p50, 0)} ms, p95 ${fmt(w.p95, 0)} ms, headroom ${fmt(availableMs / w.p50, 1)}×`).join('; ') +
    `; CPU per claim node ${fmt(nodeMs / claims, 1)} ms + PostgreSQL ${fmt(p.pgCpuMs / claims, 1)} ms (${fmt(sendsPerCpuSecond(p), 0)} sends per CPU-second), ` +
    `cores busy: workers ${fmt(nodeMs / 1000 / wallS, 2)} + their backends ${fmt(p.pgCpuMs / 1000 / wallS, 2)} of ${fmt(p.machineCores, 2)} on the machine; ` +
    `backends sampled: ${waits}; load ${p.load}`
  );
}

/** Claimed sends per second of CPU (the workers' and their backends'): what a core buys. */
function sendsPerCpuSecond(p: ProcessPhase): number {
  const sends = p.workers.reduce((a, w) => a + w.sends, 0);
  return sends / ((p.workers.reduce((a, w) => a + w.cpuMs, 0) + p.pgCpuMs) / 1000);
}

/** CPU ticks (10 ms) so far of the backends whose application_name is like `pattern`, by pid. */
async function backendCpu(pool: pg.Pool, pattern: string): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1', [pattern]);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

/** The machine's CPU ticks so far, busy and in all (/proc/stat), and its cores. */
async function machineCpu(): Promise<{ busy: number; total: number; cores: number }> {
  const lines = (await readFile('/proc/stat', 'utf8')).split('\n');
  const all = lines[0]!.split(/\s+/).slice(1, 9).map(Number);
  const total = all.reduce((a, b) => a + b, 0);
  return { busy: total - all[3]! - all[4]!, total, cores: lines.filter((l) => /^cpu\d/.test(l)).length };
}
