// BENCH_ONLY=web: the web app's budgets (issue #16) — initial JavaScript gzipped, the campaigns
// screen's time to a clickable first row, and long tasks while the virtualised lead table scrolls
// over 100,000 leads. The real gateway on loopback and Debian's Chromium through playwright-core;
// each figure beside a raw baseline measured in the same run, in the same browser. See bench/README.md.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { applyMigrations, createDatabase, newId } from '@outreach/db';
import { createSetupLink } from '@outreach/core';
import { createApp, createLogger, gatewayDeps, listen, loadEnv } from '@outreach/gateway';
import { browserUnavailable, launchBrowser } from '../apps/gateway/src/testing/browser';
import { fmt, median, percentile } from './measure';
import { startWebTrace } from './web-trace';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const JS_BUDGET_KB = 300;
const CAMPAIGNS_BUDGET_MS = 1000;
const LONG_TASK_MS = 50;

// ── 1. initial JavaScript ──────────────────────────────────────────────────────
export function initialAssets(dist = DIST) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
  const js: string[] = [];
  const css: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    if (tag.startsWith('<script')) {
      const src = attr(tag, 'src');
      if (src) js.push(src);
    } else if (/rel="modulepreload"/.test(tag)) js.push(attr(tag, 'href')!);
    else if (/rel="stylesheet"/.test(tag)) css.push(attr(tag, 'href')!);
  }
  const size = (path: string) => {
    const bytes = readFileSync(join(dist, path.replace(/^\//, '')));
    return { path, raw: bytes.length, gzip9: gzipSync(bytes, { level: 9 }).length, gzipDefault: gzipSync(bytes, { level: constants.Z_DEFAULT_COMPRESSION }).length };
  };
  return { js: js.map(size), css: css.map(size) };
}

function sum(list: { raw: number; gzip9: number; gzipDefault: number }[]) {
  return list.reduce((a, b) => ({ raw: a.raw + b.raw, gzip9: a.gzip9 + b.gzip9, gzipDefault: a.gzipDefault + b.gzipDefault }), { raw: 0, gzip9: 0, gzipDefault: 0 });
}
const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} kB`;

// In the page before any of its scripts: long tasks as they happen, and the instant (ms since
// navigation start) a selector first matches a visible element: checked on every DOM change.
const INIT_SCRIPT = `
  window.__longTasks = [];
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true }); } catch {}
  window.__ready = null;
  const check = () => {
    const s = window.__benchSelector;
    if (!s || window.__ready !== null) return;
    const el = document.querySelector(s);
    if (el) { const r = el.getBoundingClientRect(); if (r.width > 0 && r.height > 0) window.__ready = performance.now(); }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
`;

interface LongTasks {
  count: number;
  max: number;
  total: number;
}
async function longTasks(page: import('playwright-core').Page, since = 0): Promise<LongTasks> {
  const tasks = (await page.evaluate((t) => (window as any).__longTasks.filter((x: any) => x.start >= t), since)) as { duration: number }[];
  const over = tasks.filter((t) => t.duration > LONG_TASK_MS);
  return { count: over.length, max: over.length ? Math.max(...over.map((t) => t.duration)) : 0, total: over.reduce((a, t) => a + t.duration, 0) };
}

/** A static page through node:http: the raw baseline of both browser figures. */
async function staticServer() {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>baseline</title></head><body>`;
  const row = (i: number) => `<tr><td><a href="/x/${i}">lead${i}@example.com</a></td><td>Lead ${i}</td><td>Acme</td><td>CONTACTED</td></tr>`;
  const pages: Record<string, string> = {
    '/campaigns': `${head}<h1>Campaigns</h1><table aria-label="Campaigns"><tbody>${row(1)}</tbody></table></body></html>`,
    '/leads': `${head}<div id="scroller" style="height:500px;overflow:auto"><table style="width:100%"><tbody>${Array.from({ length: 100 }, (_, i) => row(i).replace('<tr>', '<tr style="height:45px">')).join('')}</tbody></table></div></body></html>`,
  };
  const server = http.createServer((req, res) => {
    const body = pages[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

export async function webBench(options: { url?: string; say: (line: string) => void }): Promise<string[]> {
  const { say } = options;
  const summary: string[] = [];

  say('\n## Initial JavaScript: the scripts and modulepreloads apps/web/dist/index.html loads up front');
  const assets = initialAssets();
  for (const a of [...assets.js, ...assets.css]) say(`  ${a.path.padEnd(44)} ${kb(a.raw).padStart(10)} raw ${kb(a.gzip9).padStart(10)} gzip -9 ${kb(a.gzipDefault).padStart(10)} gzip -6 (default)`);
  const js = sum(assets.js);
  const css = sum(assets.css);
  say(`  JS total  ${kb(js.raw)} raw, ${kb(js.gzip9)} gzip level 9, ${kb(js.gzipDefault)} gzip default level (6)`);
  say(`  CSS total ${kb(css.raw)} raw, ${kb(css.gzip9)} gzip level 9, ${kb(css.gzipDefault)} gzip default level (6)`);
  const jsPass = js.gzip9 / 1024 <= JS_BUDGET_KB && js.gzipDefault / 1024 <= JS_BUDGET_KB;
  say(`  budget ≤ ${JS_BUDGET_KB} kB gzipped JS: ${jsPass ? 'PASS' : 'FAIL'} (${kb(js.gzipDefault)} at the default level, ${fmt((js.gzipDefault / 1024 / JS_BUDGET_KB) * 100, 0)}% of the budget)`);
  summary.push(`initial JS ${kb(js.gzipDefault)} gzipped (level 6; ${kb(js.gzip9)} at 9), CSS ${kb(css.gzipDefault)}: ${jsPass ? 'PASS' : 'FAIL'} (≤ ${JS_BUDGET_KB} kB)`);

  const unavailable = browserUnavailable();
  if (unavailable) {
    say(`  the browser parts are skipped: ${unavailable}`);
    return summary;
  }

  const db = await createDatabase(options.url ? { url: options.url, poolSize: 10 } : {});
  await applyMigrations({ db });
  const env = loadEnv({ NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '100000000', RATE_LIMIT_BURST: '100000000', ...(options.url ? { DATABASE_URL: options.url } : {}) });
  const log = createLogger({ level: 'warn' });
  const deps = gatewayDeps({ db, env, log, encryptionKey: Buffer.alloc(32, 7) });
  const server = await listen({ app: createApp({ deps, db, publicUrl: 'http://localhost' }), port: 0, host: '127.0.0.1', log, shutdownTimeoutMs: 1000 });
  const raw = await staticServer();
  let browser: Browser | undefined;
  const CAMPAIGNS = Number(process.env['BENCH_WEB_CAMPAIGNS'] ?? 50);
  const LEADS = Number(process.env['BENCH_WEB_LEADS'] ?? 100_000);
  const RUNS = Number(process.env['BENCH_WEB_RUNS'] ?? 10);
  try {
    // The owner signs up through GraphQL (as the setup page does); the browser gets the session cookie.
    const setup = await createSetupLink({ db: db.prisma, publicUrl: server.url });
    const token = decodeURIComponent(setup.link.split('#token=')[1]!);
    const email = `bench-${newId()}@bench-web.example.com`;
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation($t: String!, $e: String!) { setUpOwner(token: $t, email: $e, name: "Bench Owner", password: "a-long-enough-password", organizationName: "Bench web") { __typename } }`,
        variables: { t: token, e: email },
      }),
    });
    const answer = (await res.json()) as { errors?: unknown };
    const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
    if (answer.errors || !cookie) throw new Error(`setUpOwner failed: ${JSON.stringify(answer)}`);
    const [cookieName, cookieValue] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    const user = await db.prisma.user.findUniqueOrThrow({ where: { email } });
    const workspace = await db.prisma.workspace.findFirstOrThrow({ where: { organizationId: user.organizationId } });
    const org = user.organizationId;
    const prefix = newId().slice(0, 12);
    const hexId = (tag: string, expr: string) => `'${prefix}${tag}' || lpad(to_hex(${expr}), ${12 - tag.length}, '0')`;
    let t0 = performance.now();
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO campaigns (id, organization_id, workspace_id, name, status, type, updated_at)
       SELECT ${hexId('c', 'n')}, $1, $2, 'Campaign ' || n, (CASE n % 3 WHEN 0 THEN 'ACTIVE' WHEN 1 THEN 'PAUSED' ELSE 'DRAFT' END)::"CampaignStatus", 'parent'::"CampaignType", now() - n * interval '1 minute'
         FROM generate_series(1, ${CAMPAIGNS}) n`,
      org,
      workspace.id,
    );
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, last_name, company_name, status, current_step, created_at, updated_at)
       SELECT ${hexId('l', 'n')}, $1, $2, ${hexId('c', '1')}, 'lead' || n || '@bench-web.example.com', 'lead' || n || '@bench-web.example.com',
              'First' || n, 'Last' || n, 'Company ' || (n % 500), 'CONTACTED'::"LeadStatus", 1, now() - n * interval '1 second', now()
         FROM generate_series(1, ${LEADS}) n`,
      org,
      workspace.id,
    );
    await db.prisma.$executeRawUnsafe('ANALYZE leads, campaigns');
    say(`\n(seeded ${CAMPAIGNS} campaigns and ${LEADS.toLocaleString('en')} leads in one of them in ${fmt((performance.now() - t0) / 1000, 1)} s on ${db.describe})`);

    browser = await launchBrowser();
    const newContext = async (signedIn: boolean) => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
      if (signedIn) await context.addCookies([{ name: cookieName, value: cookieValue, url: server.url }]);
      await context.addInitScript(INIT_SCRIPT);
      return context;
    };
    /** A cold load (new context: no cache) until `selector` is visible; ms since navigation start, and the long tasks. */
    const coldLoad = async (url: string, selector: string, signedIn: boolean) => {
      const context = await newContext(signedIn);
      await context.addInitScript(`window.__benchSelector = ${JSON.stringify(selector)};`);
      const page = await context.newPage();
      const operations: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/graphql')) operations.push(/"operationName":"(\w+)"/.exec(r.postData() ?? '')?.[1] ?? /query (\w+)/.exec(r.postData() ?? '')?.[1] ?? '?');
      });
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForSelector(selector, { state: 'visible', timeout: 30_000 });
      const ready = (await page.evaluate(() => (window as any).__ready)) as number;
      const lt = await longTasks(page);
      // Where the time went: when the last script arrived, the GraphQL requests (in flight, ms), the long tasks.
      const parts = (await page.evaluate(() => {
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const gql = resources.filter((r) => r.name.endsWith('/graphql'));
        return {
          scriptsEnd: Math.max(0, ...resources.filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js')).map((r) => r.responseEnd)),
          graphql: gql.length,
          graphqlMs: gql.reduce((a, r) => a + (r.responseEnd - r.startTime), 0),
          lastGraphqlEnd: Math.max(0, ...gql.map((r) => r.responseEnd)),
        };
      })) as { scriptsEnd: number; graphql: number; graphqlMs: number; lastGraphqlEnd: number };
      // BENCH_WEB_VERBOSE=1: each load's timeline (the page, its scripts and requests: start→end ms).
      if (process.env['BENCH_WEB_VERBOSE']) {
        const list = (await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => `${r.name.split('/').pop()} ${Math.round(r.startTime)}→${Math.round(r.responseEnd)}`))) as string[];
        const nav = (await page.evaluate(() => { const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming; return `html →${Math.round(n.responseEnd)} domInteractive ${Math.round(n.domInteractive)} dcl ${Math.round(n.domContentLoadedEventEnd)}`; })) as string;
        say(`    ${nav}; ready ${Math.round(ready)}; GraphQL: ${operations.join(', ') || 'none'}; ${list.join('; ')}`);
      }
      await context.close();
      return { ready, lt, parts };
    };

    // ── 2. the campaigns screen ──────────────────────────────────────────────────
    say(`\n## Campaigns screen (${CAMPAIGNS} campaigns), cold load in a new browser context: navigation start → first row's link visible; ${RUNS} runs after one uncounted`);
    const appSel = 'table[aria-label="Campaigns"] tbody tr a[href^="/campaigns/"]';
    const rawSel = 'table[aria-label="Campaigns"] tbody tr a[href]';
    const app: number[] = [];
    const base: number[] = [];
    let appLong: LongTasks = { count: 0, max: 0, total: 0 };
    const parts: { scriptsEnd: number[]; graphqlMs: number[]; lastGraphqlEnd: number[]; graphql: number[]; longMs: number[] } = { scriptsEnd: [], graphqlMs: [], lastGraphqlEnd: [], graphql: [], longMs: [] };
    for (let i = 0; i <= RUNS; i++) {
      const a = await coldLoad(`${server.url}/campaigns`, appSel, true);
      const b = await coldLoad(`${raw.url}/campaigns`, rawSel, false);
      if (i === 0) continue;
      app.push(a.ready);
      base.push(b.ready);
      parts.scriptsEnd.push(a.parts.scriptsEnd);
      parts.graphqlMs.push(a.parts.graphqlMs);
      parts.lastGraphqlEnd.push(a.parts.lastGraphqlEnd);
      parts.graphql.push(a.parts.graphql);
      parts.longMs.push(a.lt.total);
      appLong = { count: appLong.count + a.lt.count, max: Math.max(appLong.max, a.lt.max), total: appLong.total + a.lt.total };
    }
    // And the link is clickable: one click goes to the campaign.
    {
      const context = await newContext(true);
      const page = await context.newPage();
      await page.goto(`${server.url}/campaigns`);
      await page.locator(appSel).first().click({ timeout: 10_000 });
      await page.waitForURL(/\/campaigns\/[0-9a-f]{24}/, { timeout: 10_000 });
      await context.close();
    }
    // BENCH_WEB_TRACE=campaigns: a Chrome trace and CPU profile of one more cold load.
    if (process.env['BENCH_WEB_TRACE'] === 'campaigns') {
      const context = await newContext(true);
      const page = await context.newPage();
      const stop = await startWebTrace(browser, page);
      await page.goto(`${server.url}/campaigns`);
      await page.locator(appSel).first().waitFor({ timeout: 30_000 });
      say('  one more cold load, traced:');
      await stop({ dist: DIST, say, longTaskMs: LONG_TASK_MS });
      await context.close();
    }
    const appMedian = median(app);
    const campaignsPass = appMedian <= CAMPAIGNS_BUDGET_MS;
    say(`  app:  median ${fmt(appMedian, 0)} ms, p90 ${fmt(percentile(app, 90), 0)} ms   runs: ${app.map((x) => fmt(x, 0)).join(', ')}`);
    say(`  raw:  static one-row table from node:http, median ${fmt(median(base), 0)} ms, p90 ${fmt(percentile(base, 90), 0)} ms`);
    say(`  app, medians: last script received at ${fmt(median(parts.scriptsEnd), 0)} ms; ${median(parts.graphql)} GraphQL requests, ${fmt(median(parts.graphqlMs), 0)} ms in flight in all, the last answered at ${fmt(median(parts.lastGraphqlEnd), 0)} ms; ${fmt(median(parts.longMs), 0)} ms in long tasks a load`);
    say(`  ratio ${fmt(appMedian / median(base), 1)}; long tasks > ${LONG_TASK_MS} ms during the ${RUNS} loads: ${appLong.count} (max ${fmt(appLong.max, 0)} ms)`);
    say(`  budget ≤ ${CAMPAIGNS_BUDGET_MS} ms: ${campaignsPass ? 'PASS' : 'FAIL'}${campaignsPass ? '' : ` (by ${fmt(appMedian - CAMPAIGNS_BUDGET_MS, 0)} ms)`}`);
    summary.push(`campaigns screen ${fmt(appMedian, 0)} ms median, p90 ${fmt(percentile(app, 90), 0)} ms (raw ${fmt(median(base), 0)} ms): ${campaignsPass ? 'PASS' : 'FAIL'} (≤ ${CAMPAIGNS_BUDGET_MS} ms)`);

    // ── 3. the lead table over 100,000 leads ──────────────────────────────────────
    say(`\n## Leads table, ${LEADS.toLocaleString('en')} leads: long tasks (> ${LONG_TASK_MS} ms, PerformanceObserver 'longtask') while scrolling`);
    const STOPS = Number(process.env['BENCH_WEB_STOPS'] ?? 200);
    const WHEEL_STEPS = 200;
    const context = await newContext(true);
    const page = await context.newPage();
    const pageLoads: number[] = [];
    page.on('requestfinished', (request) => {
      if (!request.url().endsWith('/graphql') || !/"offset":[1-9]/.test(request.postData() ?? '')) return;
      const t = request.timing();
      if (t.responseEnd > 0) pageLoads.push(t.responseEnd - t.requestStart);
    });
    const scrollerSel = '[aria-label="Leads table (scrolls)"]';
    // The rows the person sees (those crossing the scroller's box, below its sticky header): the
    // last one's number (aria-rowindex counts the header row as 1), and whether the view still
    // waits for rows — none rendered there yet, or one whose page is being read.
    const inView = () =>
      page.evaluate((s) => {
        const scroller = document.querySelector(s)!;
        const box = scroller.getBoundingClientRect();
        const top = box.top + (scroller.querySelector('thead')?.getBoundingClientRect().height ?? 0);
        const rows = [...scroller.querySelectorAll('tbody tr[aria-rowindex]')].filter((r) => {
          const b = r.getBoundingClientRect();
          return b.bottom > top && b.top < box.bottom;
        });
        return { last: Number(rows.at(-1)?.getAttribute('aria-rowindex') ?? 1) - 1, pending: !rows.length || rows.some((r) => r.getAttribute('aria-busy') === 'true') };
      }, scrollerSel) as Promise<{ last: number; pending: boolean }>;
    await page.goto(`${server.url}/leads`);
    await page.waitForSelector(`${scrollerSel} tbody tr[aria-rowindex] a`, { timeout: 30_000 });
    const afterLoad = await longTasks(page);
    // BENCH_WEB_TRACE=1: a Chrome trace and CPU profile of both phases (use a smaller BENCH_WEB_LEADS).
    const stopTrace = process.env['BENCH_WEB_TRACE'] && process.env['BENCH_WEB_TRACE'] !== 'campaigns' ? await startWebTrace(browser, page) : null;
    // Phase A: the person drags the scrollbar from the first lead to the last in STOPS jumps; at
    // each stop the rows in view must be read and shown (their pages are read by offset).
    let mark = (await page.evaluate(() => performance.now())) as number;
    t0 = performance.now();
    let visited = 0;
    const fills: number[] = [];
    for (let stop = 1; stop <= STOPS; stop++) {
      const j0 = performance.now();
      await page.evaluate(
        ([s, f]) => {
          const el = document.querySelector(s as string)!;
          el.scrollTop = Math.round((el.scrollHeight - el.clientHeight) * (f as number));
        },
        [scrollerSel, stop / STOPS] as const,
      );
      let view = await inView();
      while (view.pending && performance.now() - j0 < 10_000) {
        await page.waitForTimeout(5);
        view = await inView();
      }
      if (view.pending) throw new Error(`the rows at ${fmt((stop / STOPS) * 100, 1)} % were not shown within 10 s`);
      fills.push(performance.now() - j0);
      visited = Math.max(visited, view.last);
    }
    const pagingMs = performance.now() - t0;
    const paging = await longTasks(page, mark);
    const rowsRead = (await page.evaluate((s) => document.querySelectorAll(`${s} tbody tr[aria-rowindex]`).length, scrollerSel)) as number;
    // Phase B: wheel scrolling back up from the end, 200 steps of 2,000 px (about 8,900 rows; their pages are read on the way).
    mark = (await page.evaluate(() => performance.now())) as number;
    await page.locator(scrollerSel).hover();
    const w0 = performance.now();
    for (let i = 0; i < WHEEL_STEPS; i++) {
      await page.mouse.wheel(0, -2000);
      await page.waitForTimeout(16);
    }
    const wheelMs = performance.now() - w0;
    const wheel = await longTasks(page, mark);
    if (stopTrace) await stopTrace({ dist: DIST, say, longTaskMs: LONG_TASK_MS });
    const traceTop = (await page.evaluate(() => (window as any).__longTasks.sort((a: any, b: any) => b.duration - a.duration).slice(0, 5))) as { start: number; duration: number }[];
    await context.close();

    // Baseline: the same wheel steps over a static list of 100 rows, same browser.
    const bctx = await newContext(false);
    const bpage = await bctx.newPage();
    await bpage.goto(`${raw.url}/leads`);
    await bpage.locator('#scroller').hover();
    const bm = (await bpage.evaluate(() => performance.now())) as number;
    const b0 = performance.now();
    for (let i = 0; i < WHEEL_STEPS; i++) {
      await bpage.mouse.wheel(0, i % 2 ? -2000 : 2000);
      await bpage.waitForTimeout(16);
    }
    const baseWheelMs = performance.now() - b0;
    const baseLong = await longTasks(bpage, bm);
    await bctx.close();

    const allLong = { count: paging.count + wheel.count, max: Math.max(paging.max, wheel.max) };
    const leadsPass = allLong.count === 0 && visited >= LEADS;
    say(`  first page shown; long tasks while loading the screen: ${afterLoad.count} (max ${fmt(afterLoad.max, 0)} ms) — not part of the scroll`);
    say(`  dragging to the end in ${STOPS} jumps: rows reached ${visited.toLocaleString('en')} of ${LEADS.toLocaleString('en')} in ${fmt(pagingMs / 1000, 1)} s (${pageLoads.length} page reads of 100 by offset)`);
    say(`    rows in view shown after a jump: median ${fmt(median(fills), 0)} ms, p90 ${fmt(percentile(fills, 90), 0)} ms, max ${fmt(Math.max(...fills), 0)} ms; page read (request → response end): median ${fmt(median(pageLoads), 1)} ms, p90 ${fmt(percentile(pageLoads, 90), 1)} ms`);
    say(`    long tasks > ${LONG_TASK_MS} ms: ${paging.count}, max ${fmt(paging.max, 0)} ms, total ${fmt(paging.total, 0)} ms; table rows in the DOM at the end: ${rowsRead}`);
    say(`  wheel: ${WHEEL_STEPS} steps of 2,000 px back up from the end, ${fmt(wheelMs, 0)} ms: long tasks ${wheel.count}, max ${fmt(wheel.max, 0)} ms`);
    say(`  raw: the same ${WHEEL_STEPS} wheel steps over a static 100-row list: ${fmt(baseWheelMs, 0)} ms, long tasks ${baseLong.count}, max ${fmt(baseLong.max, 0)} ms`);
    say(`  longest tasks of the leads page (start ms, duration ms): ${traceTop.map((t) => `${fmt(t.start, 0)}:${fmt(t.duration, 0)}`).join(', ') || 'none'}`);
    say(`  budget no long task > ${LONG_TASK_MS} ms over ${LEADS.toLocaleString('en')} rows: ${leadsPass ? 'PASS' : 'FAIL'} (${allLong.count} long tasks, max ${fmt(allLong.max, 0)} ms; ${visited.toLocaleString('en')} rows reached)`);
    summary.push(`lead table scroll: ${visited.toLocaleString('en')} rows, ${allLong.count} long tasks > ${LONG_TASK_MS} ms (max ${fmt(allLong.max, 0)} ms), rows shown ${fmt(median(fills), 0)} ms after a jump (p50): ${leadsPass ? 'PASS' : 'FAIL'}`);
  } finally {
    await browser?.close();
    await raw.close();
    await server.close();
    await db.close();
  }
  return summary;
}
