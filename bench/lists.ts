// BENCH_ONLY=lists: the campaign list and the workspace statistics over HTTP on the 1M-lead
// workspace (bench/seed.ts), p50 against a raw baseline in the same run (bench/README.md).
import type pg from 'pg';
import type { Seed } from './seed';
import { fmt, interleave, median, percentile, time } from './measure';

/** Requests of one case per round: at least `min`, more while the round is under `budgetMs`. */
async function sample(fn: () => Promise<unknown>, options: { min: number; max: number; budgetMs: number }): Promise<number> {
  const ms: number[] = [];
  const started = performance.now();
  while (ms.length < options.min || (ms.length < options.max && performance.now() - started < options.budgetMs)) ms.push((await time(fn)).ms);
  return percentile(ms, 50);
}

export async function listsBench(options: {
  pool: pg.Pool;
  serverUrl: string;
  headers: Record<string, string>;
  seed: Seed;
  rounds: number;
  say: (line: string) => void;
}): Promise<string[]> {
  const { pool, serverUrl, headers, seed, say } = options;
  const ws = seed.workspaceId;
  const get = async (path: string) => {
    const res = await fetch(`${serverUrl}/api/v1${path}`, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 300)}`);
    return body;
  };
  const range = 'start_date=2026-01-01&end_date=2026-06-30';
  const all = {
    listAll: `/campaign/list-all?workspace_id=${ws}&limit=100`,
    statsAll: `/campaign/stats/all?workspace_id=${ws}&${range}`,
    summary: `/analytics/workspace/summary?workspace_id=${ws}&${range}`,
    performance: `/analytics/workspace/performance?workspace_id=${ws}&${range}`,
    campaignStats: `/analytics/campaign/stats?workspace_id=${ws}&${range}`,
    campaignSummary: `/analytics/campaign/summary?workspace_id=${ws}&campaign_id=${seed.bigCampaignId}`,
  };
  // BENCH_LISTS=listAll,campaignSummary measures those cases only.
  const chosen = process.env['BENCH_LISTS']?.split(',').map((s) => s.trim());
  const paths = Object.fromEntries(Object.entries(all).filter(([name]) => !chosen || chosen.includes(name))) as Partial<typeof all>;
  // The raw baseline: 100 campaign rows, as the list's first read takes them, through pg.
  const RAW_SQL = `SELECT * FROM campaigns WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100`;
  say('\n## Campaign list and workspace statistics, 1M-lead workspace (102 campaigns, 2M sends), HTTP p50');
  for (const path of Object.values(paths)) await get(path); // warm (JIT, plans, caches)
  const opts = { min: 3, max: 30, budgetMs: 2000 };
  const results = await interleave({
    rounds: options.rounds,
    cases: {
      raw: () => sample(() => pool.query(RAW_SQL, [ws]), { ...opts, min: 20 }),
      ...(Object.fromEntries(Object.entries(paths).map(([name, path]) => [name, () => sample(() => get(path), opts)])) as Record<keyof typeof all, () => Promise<number>>),
    },
  });
  const raw = median(results.raw);
  say(`  raw: SELECT of 100 campaign rows through pg: ${fmt(raw)} ms`);
  const lines: string[] = [];
  for (const [name, path] of Object.entries(paths) as [keyof typeof all, string][]) {
    const p50 = median(results[name]);
    say(`  ${`GET ${path.split('?')[0]}`.padEnd(42)} p50 ${fmt(p50).padStart(9)} ms   rounds: ${results[name].map((x) => fmt(x)).join(', ')}`);
    lines.push(`${path.split('?')[0]} p50 ${fmt(p50)} ms`);
  }
  return [`campaign lists (raw 100 rows ${fmt(raw)} ms; list-all target ≤ 50 ms): ${lines.join('; ')}`];
}
