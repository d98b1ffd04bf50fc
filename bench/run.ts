// npm run bench — see bench/README.md. Needs PostgreSQL: BENCH_DATABASE_URL or DATABASE_URL.
import pg from 'pg';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseIntoClientConfig } from 'pg-connection-string';
import { applyMigrations, createDatabase, newId } from '@outreach/db';
import { readingBench } from './reading';
import { CAMPAIGN_EMAILS_SQL, CAMPAIGN_VARIATIONS_SQL, executeOperation, operations, OPEN_RANGE, VARIATION_COUNTS_SQL, type Ctx } from '@outreach/core';
import { createApp, createLogger, gatewayDeps, listen, loadEnv } from '@outreach/gateway';
import { ensureSeed, type Seed } from './seed';
import { headroomBench, pickBench, sendBench } from './sending';
import { warmupBench } from './warmup';
import { webBench } from './web';
import { listsBench } from './lists';
import { memoryBench } from './memory';
import { deletesBench } from './deletes';
import { webhookLatencyBench } from './webhook-latency';
import { fmt, interleave, load, median, percentile, time, withLoopMonitor } from './measure';

const url = process.env['BENCH_DATABASE_URL'] ?? process.env['DATABASE_URL'];
// BENCH_ONLY=web alone (bench/web.ts) runs on in-memory PGlite unless a database URL is set.
if (process.env['BENCH_ONLY']?.trim() === 'web') {
  const summary = await webBench({ url, say: (line) => console.log(line) });
  console.log('\n## Summary');
  for (const line of summary) console.log(`  ${line}`);
  process.exit(0);
}
// BENCH_ONLY=memory alone (bench/memory.ts) needs no PostgreSQL: it starts the server on PGlite.
if (process.env['BENCH_ONLY']?.trim() === 'memory') {
  const summary = await memoryBench({ rounds: Number(process.env['BENCH_ROUNDS'] ?? 3), say: (line) => console.log(line) });
  console.log('\n## Summary');
  for (const line of summary) console.log(`  ${line}`);
  process.exit(0);
}
// BENCH_ONLY=deletes alone (bench/deletes.ts) seeds and deletes its own organizations.
if (process.env['BENCH_ONLY']?.trim() === 'deletes' && url) {
  const summary = await deletesBench({ url, say: (line) => console.log(line) });
  console.log('\n## Summary');
  for (const line of summary) console.log(`  ${line}`);
  process.exit(0);
}
// BENCH_ONLY=reading alone (bench/reading.ts) makes a database per mailbox count on the server of the URL, and a Dovecot.
if (process.env['BENCH_ONLY']?.trim() === 'reading' && url) {
  const summary = await readingBench({ url, say: (line) => console.log(line) });
  console.log('\n## Summary');
  for (const line of summary) console.log(`  ${line}`);
  process.exit(0);
}
// BENCH_ONLY=webhooks alone (bench/webhook-latency.ts) runs on in-memory PGlite unless a database URL is set.
if (process.env['BENCH_ONLY']?.trim() === 'webhooks') {
  const summary = await webhookLatencyBench({ url, say: (line) => console.log(line) });
  console.log('\n## Summary');
  for (const line of summary) console.log(`  ${line}`);
  process.exit(0);
}
if (!url) {
  console.error('bench: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL database the benchmark may fill (about 3 GB)');
  process.exit(2);
}
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
// BENCH_ONLY=upload,stats,emails,rps,lists,pick,send,headroom,warmup runs a subset (headroom is not in the default set); web, memory, deletes and webhooks run alone (above).
const only = new Set((process.env['BENCH_ONLY'] ?? 'upload,stats,emails,rps,lists,pick,send,warmup').split(',').map((s) => s.trim()));
// The 1M-lead workspace and the gateway serve the first four; pick and send bring their own data.
const needsMain = ['upload', 'stats', 'emails', 'rps', 'lists'].some((name) => only.has(name));
const say = (line: string) => console.log(line);

const pool = new pg.Pool({ ...(parseIntoClientConfig(url) as pg.PoolConfig), max: 10 });
// The planner setting recommended for SSD storage (docs/operations.md), set on the
// database before any connection opens, so the operation and the raw baseline share it.
await pool.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database()); END $$`);
await pool.end();
const db = await createDatabase({ url, poolSize: 10 });
await applyMigrations({ db });
const pool2 = new pg.Pool({ ...(parseIntoClientConfig(url) as pg.PoolConfig), max: 10 });
let seed!: Seed;
let server!: Awaited<ReturnType<typeof listen>>;
let ctx!: Ctx;
let headers!: Record<string, string>;
if (needsMain) {
  seed = await ensureSeed({ db, pool: pool2, log: say });
  const env = loadEnv({ NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '100000000', RATE_LIMIT_BURST: '100000000', DATABASE_URL: url });
  const log = createLogger({ level: 'warn' });
  const deps = gatewayDeps({ db, env, log, encryptionKey: Buffer.alloc(32, 7) });
  server = await listen({ app: createApp({ deps, db, publicUrl: 'http://localhost' }), port: 0, host: '127.0.0.1', log, shutdownTimeoutMs: 1000 });
  const actor = await deps.authenticator.authenticate(seed.apiKey);
  ctx = { ...deps.service, actor, requestId: 'bench' };
  headers = { 'x-api-key': seed.apiKey, 'content-type': 'application/json' };
}
const summary: string[] = [];

say(`\nOutreach benchmarks on ${db.describe}; ${ROUNDS} interleaved rounds; medians unless stated.`);

// ── 1. lead upload ─────────────────────────────────────────────────────────────
if (only.has('upload')) {
  say('\n## POST /lead/add, 5,000 leads (2% blocklisted) into the 1M-lead workspace');
  const N = 5000;
  const leadsFor = (tag: string) =>
    Array.from({ length: N }, (_, i) =>
      i % 50 === 0
        ? { email: `blocked${i + 1}@example.org`, first_name: 'Blocked' }
        : { email: `${tag}-${i}@upload.example.com`, first_name: `F${i}`, last_name: `L${i}`, company_name: 'Acme', industry: 'SaaS' },
    );
  const newCampaign = async () => {
    const id = newId();
    await pool2.query(
      `INSERT INTO campaigns (id, organization_id, workspace_id, name, status, type, updated_at) VALUES ($1, $2, $3, 'upload bench', 'ACTIVE', 'parent', now())`,
      [id, seed.organizationId, seed.workspaceId],
    );
    return id;
  };
  // The same rows the operation writes: its upload's id, and due now (next_send_at, which puts each
  // lead in leads_due_idx); without them the baseline wrote leads that would never be sent.
  const RAW_SQL = `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, last_name, company_name, custom_variables,
                     upload_id, created_at, updated_at, next_send_at)
    SELECT t.id, $1, $2, $3, t.email, lower(t.email), t.first_name, t.last_name, t.company_name, t.cv::jsonb, $10, now(), now(), now()
      FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS t(id, email, first_name, last_name, company_name, cv)
     WHERE NOT EXISTS (SELECT 1 FROM blocklist_entries b WHERE b.workspace_id = $2 AND b.value IN (lower(t.email), split_part(lower(t.email), '@', 2)))
    ON CONFLICT (campaign_id, email_normalized) DO NOTHING`;
  // The dead rows of earlier runs' uploads (deleted below) go first: otherwise autovacuum may pass
  // over the table's million rows during the rounds, on one side's time, as it did every ten runs or so.
  await pool2.query('VACUUM leads');
  const delays: number[] = [];
  const WARMUPS = 2;
  // Two uncounted uploads each way first: the first requests pay for JIT compilation (with one, the
  // API's first counted round was still its slowest in most runs).
  const results = await interleave({
    rounds: ROUNDS + WARMUPS,
    cases: {
      api: async (round) => {
        const campaignId = await newCampaign();
        const body = JSON.stringify({ workspace_id: seed.workspaceId, campaign_id: campaignId, leads: leadsFor(`api${round}-${campaignId}`) });
        const { value, maxDelayMs } = await withLoopMonitor(() =>
          time(async () => {
            const res = await fetch(`${server.url}/api/v1/lead/add`, { method: 'POST', headers, body });
            const json = (await res.json()) as { leads_uploaded: number };
            if (res.status !== 200) throw new Error(`lead/add answered ${res.status}: ${JSON.stringify(json)}`);
            return json.leads_uploaded;
          }),
        );
        if (round >= WARMUPS) delays.push(maxDelayMs);
        return (value.value / value.ms) * 1000;
      },
      raw: async (round) => {
        const campaignId = await newCampaign();
        const leads = leadsFor(`raw${round}-${campaignId}`);
        const { ms, value } = await time(() =>
          pool2.query(RAW_SQL, [
            seed.organizationId,
            seed.workspaceId,
            campaignId,
            leads.map(() => newId()),
            leads.map((l) => l.email),
            leads.map((l) => l.first_name),
            leads.map((l) => ('last_name' in l ? l.last_name : null)),
            leads.map((l) => ('company_name' in l ? l.company_name : null)),
            leads.map((l) => JSON.stringify('industry' in l ? { industry: l.industry } : {})),
            newId(),
          ]),
        );
        return ((value.rowCount ?? 0) / ms) * 1000;
      },
    },
  });
  results.api.splice(0, WARMUPS);
  results.raw.splice(0, WARMUPS);
  // The uploads' campaigns go again (an interrupted run's too), so the workspace every benchmark
  // reads stays the seeded size from run to run (a run adds 30,000–150,000 leads), and its
  // organization's count with it.
  await pool2.query(`DELETE FROM campaigns WHERE workspace_id = $1 AND name = 'upload bench'`, [seed.workspaceId]);
  await pool2.query(`UPDATE organizations SET lead_count = (SELECT count(*) FROM leads WHERE organization_id = $1) WHERE id = $1`, [seed.organizationId]);
  const ratio = median(results.api) / median(results.raw);
  // Each API round beside the raw round right after it: the machine's speed drifts between rounds
  // (a CPU loop here varies 2× from one second to the next), which the two medians do not cancel.
  const paired = median(results.api.map((api, i) => api / results.raw[i]!));
  say(`  API (HTTP + validation + classification + insert): ${fmt(median(results.api), 0)} rows/s   rounds: ${results.api.map((x) => fmt(x, 0)).join(', ')}`);
  say(`  raw INSERT … SELECT FROM unnest … ON CONFLICT DO NOTHING with blocklist anti-join (the same columns, due now): ${fmt(median(results.raw), 0)} rows/s   rounds: ${results.raw.map((x) => fmt(x, 0)).join(', ')}`);
  say(`  ratio ${fmt(ratio)} (median of rounds ${fmt(paired)}; target ≥ 0.80); worst event-loop delay during an upload ${fmt(Math.max(...delays), 1)} ms (target ≤ 100)`);
  summary.push(`lead upload 5,000: ratio ${fmt(ratio)} (median of rounds ${fmt(paired)}; ≥ 0.80), max loop delay ${fmt(Math.max(...delays), 1)} ms (≤ 100)`);
}

// ── 2. variation stats ────────────────────────────────────────────────────────
// Index-only scans need the visibility map, which the send benchmark's deleted rows (this
// run's or an earlier one's) clear on the pages they touched; autovacuum would, in time.
if (only.has('stats')) await pool2.query('VACUUM (ANALYZE) sent_emails, leads');
for (const [label, campaignId, reps] of only.has('stats')
  ? ([
      ['10,000 sends', seed.smallCampaignId, 30],
      ['1,000,000 sends', seed.bigCampaignId, 5],
    ] as const)
  : []) {
  say(`\n## Variation stats, campaign with ${label}`);
  const rawGroupBy = `SELECT variation_id, count(*)::int AS sent, count(opened_at)::int AS open, count(replied_at)::int AS reply
                        FROM sent_emails WHERE campaign_id = $1 AND sent_at >= $2 AND sent_at < $3 GROUP BY variation_id`;
  const opParams = [campaignId, OPEN_RANGE.from, OPEN_RANGE.to, seed.workspaceId];
  await executeOperation({ op: operations.campaign.variationStats, ctx, input: { workspace_id: seed.workspaceId, campaign_id: campaignId } }); // warm
  const cases: Record<'operation' | 'raw' | 'plainGroupBy', () => Promise<unknown>> = {
    operation: () => executeOperation({ op: operations.campaign.variationStats, ctx, input: { workspace_id: seed.workspaceId, campaign_id: campaignId } }),
    raw: () => pool2.query(VARIATION_COUNTS_SQL, opParams),
    plainGroupBy: () => pool2.query(rawGroupBy, [campaignId, OPEN_RANGE.from, OPEN_RANGE.to]),
  };
  type Case = keyof typeof cases;
  const names = Object.keys(cases) as Case[];
  // One call of each case after another, the order turning from one to the next, rather than a
  // case's calls in a block: this machine's speed drifts within a second (the same statement took
  // 4.4 ms in one block of 30 calls and 8.7 ms in the next), and a block's median took the drift
  // with it. A round's figure is the median of its calls of a case.
  const results = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Case, number[]>;
  const perCall: Record<Case, number>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const calls = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Case, number[]>;
    for (let i = 0; i < reps; i++) {
      const one = {} as Record<Case, number>;
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length]!;
        one[name] = (await time(cases[name])).ms;
        calls[name].push(one[name]);
      }
      perCall.push(one);
    }
    for (const n of names) results[n].push(median(calls[n]));
  }
  // The ratio: each operation call against the raw call made beside it, the median of those. The
  // ratio of the two medians is printed for scale: its two medians may come from different
  // rounds, at different speeds of the machine (it went from 0.76 to 1.17 over four runs in which
  // this one stayed within 1.13–1.18).
  const ratio = median(perCall.map((c) => c.operation / c.raw));
  const ofMedians = median(results.operation) / median(results.raw);
  const rounds = (ms: number[]) => ms.map((x) => fmt(x)).join(', ');
  say(`  operation (validation, scope, campaign with steps and variations, counts): ${fmt(median(results.operation))} ms   rounds: ${rounds(results.operation)}`);
  say(`  raw: the same GROUP BY (sent, open, reply, positive reply) through pg: ${fmt(median(results.raw))} ms   rounds: ${rounds(results.raw)}`);
  say(`  for scale, a plain GROUP BY of sent/open/reply only: ${fmt(median(results.plainGroupBy))} ms   rounds: ${rounds(results.plainGroupBy)}`);
  say(`  latency ratio ${fmt(ratio)}, the median of calls, each against the raw call beside it (target ≤ 1.30); the ratio of the medians ${fmt(ofMedians)}`);
  const plan = await pool2.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${VARIATION_COUNTS_SQL}`, opParams);
  const lines = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN'] as string);
  say('  plan:');
  for (const line of lines) say(`    ${line}`);
  const indexOnly = lines.some((l) => /Index Only Scan using sent_emails_campaign_id/.test(l));
  const heapFetches = lines.find((l) => l.includes('Heap Fetches'))?.trim() ?? '';
  say(`  index-only scan on sent_emails: ${indexOnly ? 'yes' : 'NO'} (${heapFetches})`);
  summary.push(`variation stats ${label}: ratio ${fmt(ratio)} (≤ 1.30; of the medians ${fmt(ofMedians)}), ${fmt(median(results.operation))} ms vs ${fmt(median(results.raw))} ms, index-only ${indexOnly ? 'yes' : 'no'}`);
}

// ── 3. campaign emails of one lead ────────────────────────────────────────────
if (only.has('emails')) {
  say('\n## GET /unibox/campaign-emails for a lead with 5,000 sends: first page and page 50');
  const base = `${server.url}/api/v1/unibox/campaign-emails?workspace_id=${seed.workspaceId}&lead=${encodeURIComponent(seed.deepLeadEmail)}`;
  const get = async (trail: string) => {
    const res = await fetch(`${base}${trail ? `&page_trail=${trail}` : ''}`, { headers });
    return (await res.json()) as { page_trail: string; data: { id: string; sent_on: string }[] };
  };
  let trail = '';
  let deepLast = { sentOn: '', id: '' };
  for (let page = 1; page < 50; page++) {
    const r = await get(trail);
    trail = r.page_trail;
    const last = r.data[r.data.length - 1]!;
    deepLast = { sentOn: last.sent_on, id: last.id };
  }
  // The raw baseline: the same keyset SQL the operation runs, through pg.

  const sample = async (fn: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 40; i++) ms.push((await time(fn)).ms);
    return percentile(ms, 50);
  };
  const results = await interleave({
    rounds: ROUNDS,
    cases: {
      apiFirst: () => sample(() => get('')),
      apiDeep: () => sample(() => get(trail)),
      rawFirst: () => sample(() => pool2.query(CAMPAIGN_EMAILS_SQL, [seed.workspaceId, seed.deepLeadEmail, null, null, null, 51])),
      rawDeep: () => sample(() => pool2.query(CAMPAIGN_EMAILS_SQL, [seed.workspaceId, seed.deepLeadEmail, null, deepLast.sentOn, deepLast.id, 51])),
    },
  });
  say(`  first page p50 ${fmt(median(results.apiFirst))} ms (raw keyset query ${fmt(median(results.rawFirst))} ms, ratio ${fmt(median(results.apiFirst) / median(results.rawFirst))})`);
  say(`  page 50   p50 ${fmt(median(results.apiDeep))} ms (raw keyset query ${fmt(median(results.rawDeep))} ms, ratio ${fmt(median(results.apiDeep) / median(results.rawDeep))})   target p50 ≤ 5 ms`);
  summary.push(`campaign emails p50: first page ${fmt(median(results.apiFirst))} ms, page 50 ${fmt(median(results.apiDeep))} ms (≤ 5 ms)`);
}

// ── 4. requests per second per transport ──────────────────────────────────────
if (only.has('rps')) {
  say('\n## Requests per second: variation stats of the 10,000-send campaign, 8 concurrent keep-alive clients, 3 s each');
  // A raw server answering the same request: the operation's two statements, concurrently, through pg.
  const raw = http.createServer(async (_req, res) => {
    try {
      const [variations, counts] = await Promise.all([
        pool2.query(CAMPAIGN_VARIATIONS_SQL, [seed.smallCampaignId, seed.workspaceId]),
        pool2.query(VARIATION_COUNTS_SQL, [seed.smallCampaignId, OPEN_RANGE.from, OPEN_RANGE.to, seed.workspaceId]),
      ]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ variations: variations.rows, counts: counts.rows }));
    } catch {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  const rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
  const q = `workspace_id=${seed.workspaceId}&campaign_id=${seed.smallCampaignId}`;
  const trpcInput = encodeURIComponent(JSON.stringify({ workspace_id: seed.workspaceId, campaign_id: seed.smallCampaignId }));
  const gqlBody = JSON.stringify({
    query: `query($ws: ID!, $id: ID!) { campaign(workspaceId: $ws, id: $id) { variationStats { step variations { variation sent open reply posReply } } } }`,
    variables: { ws: seed.workspaceId, id: seed.smallCampaignId },
  });
  const opts = { concurrency: 8, durationMs: 3000 };
  const results = await interleave({
    rounds: ROUNDS,
    cases: {
      raw: async () => (await load({ ...opts, url: rawUrl })).rps,
      rest: async () => (await load({ ...opts, url: `${server.url}/api/v1/campaign/get/variation-stats?${q}`, headers })).rps,
      trpc: async () => (await load({ ...opts, url: `${server.url}/trpc/campaign.variationStats?input=${trpcInput}`, headers })).rps,
      graphql: async () => (await load({ ...opts, url: `${server.url}/graphql`, method: 'POST', headers, body: gqlBody })).rps,
    },
  });
  raw.close();
  const rawRps = median(results.raw);
  say(`  raw node:http + pg: ${fmt(rawRps, 0)} req/s`);
  for (const name of ['rest', 'trpc', 'graphql'] as const) {
    say(`  ${name.padEnd(8)} ${fmt(median(results[name]), 0)} req/s   ratio ${fmt(median(results[name]) / rawRps)}   rounds: ${results[name].map((x) => fmt(x, 0)).join(', ')}`);
  }
  summary.push(`req/s vs raw (${fmt(rawRps, 0)}): REST ${fmt(median(results.rest) / rawRps)}, tRPC ${fmt(median(results.trpc) / rawRps)}, GraphQL ${fmt(median(results.graphql) / rawRps)}`);
}

// ── 4b. the campaign list and the workspace statistics ─────────────────────────
if (only.has('lists')) summary.push(...(await listsBench({ pool: pool2, serverUrl: server.url, headers, seed, rounds: ROUNDS, say })));

// ── 5. picking the next sends ─────────────────────────────────────────────────────
if (only.has('pick')) summary.push(await pickBench({ db, pool: pool2, rounds: ROUNDS, say }));

// ── 6. sends per second into an SMTP sink ─────────────────────────────────────────
if (only.has('send')) summary.push(await sendBench({ db, pool: pool2, rounds: ROUNDS, say }));
if (only.has('headroom')) summary.push(await headroomBench({ db, pool: pool2, url, rounds: ROUNDS, say }));

// ── 7. the warmup send tick for 1,000 pool mailboxes ─────────────────────────────
if (only.has('warmup')) summary.push(await warmupBench({ db, pool: pool2, rounds: ROUNDS, say }));

// ── 8. the web app's budgets (its own database and gateway) ─────────────────────
if (only.has('web')) summary.push(...(await webBench({ url, say })));

// ── 9. the embedded database's weight (PGlite servers in child processes) ─────────
if (only.has('memory')) summary.push(...(await memoryBench({ rounds: ROUNDS, say })));

say('\n## Summary');
for (const line of summary) say(`  ${line}`);
if (needsMain) await server.close();
await pool2.end();
await db.close();
