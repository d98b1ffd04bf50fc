// BENCH_WEB_TRACE=1 with BENCH_ONLY=web: where the lead table's long tasks go. A Chrome trace
// (devtools.timeline) gives each long task's self time by event (script, style, layout, paint, GC);
// a V8 CPU profile over the same span gives the functions that ran, located in the built bundle
// (apps/web/dist is minified without source maps, so each is shown with the code around it).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { fmt } from './measure';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export async function startWebTrace(browser: Browser, page: Page) {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8'] });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return async (options: { dist: string; say: (line: string) => void; longTaskMs: number }) => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
    const buffer = await browser.stopTracing();
    const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
    report({ events: traceEvents, profile, ...options });
  };
}

function report(options: { events: TraceEvent[]; profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }; dist: string; say: (line: string) => void; longTaskMs: number }) {
  const { events, say } = options;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined && mains.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Nesting by time on each thread: self time = duration minus the children's.
  const selfByName = new Map<string, number>();
  let longCount = 0;
  let longTotal = 0;
  const threads = new Map<string, TraceEvent[]>();
  for (const e of complete) threads.set(`${e.pid}:${e.tid}`, [...(threads.get(`${e.pid}:${e.tid}`) ?? []), e]);
  for (const list of threads.values()) {
    const stack: { e: TraceEvent; childDur: number; inLong: boolean }[] = [];
    const close = (until: number) => {
      while (stack.length && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= until) {
        const top = stack.pop()!;
        if (top.inLong) selfByName.set(top.e.name, (selfByName.get(top.e.name) ?? 0) + Math.max(0, top.e.dur! - top.childDur));
      }
    };
    for (const e of list) {
      close(e.ts);
      const parent = stack.at(-1);
      if (parent) parent.childDur += e.dur!;
      const isLongTask = !parent && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur! / 1000 > options.longTaskMs;
      if (isLongTask) {
        longCount++;
        longTotal += e.dur! / 1000;
      }
      stack.push({ e, childDur: 0, inLong: isLongTask || (parent?.inLong ?? false) });
    }
    close(Number.POSITIVE_INFINITY);
  }
  say(`  trace: ${longCount} tasks > ${options.longTaskMs} ms on the renderer's main thread, ${fmt(longTotal, 0)} ms in all; their self time by event:`);
  for (const [name, us] of [...selfByName].sort((a, b) => b[1] - a[1]).slice(0, 10)) say(`    ${name.padEnd(36)} ${fmt(us / 1000, 0).padStart(7)} ms`);

  // The CPU profile: self time per function (all of the span, not only the long tasks).
  const { nodes, samples, timeDeltas } = options.profile;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, { us: number; frame: ProfileNode['callFrame'] }>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url ? `${basename(frame.url)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ''}`;
    byFunction.set(key, { us: (byFunction.get(key)?.us ?? 0) + us, frame });
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  say(`  CPU profile (${fmt(total / 1000, 0)} ms sampled), top functions by self time (code around each, from the minified bundle):`);
  for (const [key, { us, frame }] of [...byFunction].sort((a, b) => b[1].us - a[1].us).slice(0, 12)) {
    let around = '';
    if (frame.url.includes('/assets/')) {
      try {
        const line = readFileSync(join(options.dist, 'assets', basename(new URL(frame.url).pathname)), 'utf8').split('\n')[frame.lineNumber] ?? '';
        around = line.slice(Math.max(0, frame.columnNumber - 20), frame.columnNumber + 70).replace(/\s+/g, ' ');
      } catch {
        around = '';
      }
    }
    say(`    ${fmt(us / 1000, 0).padStart(6)} ms  ${key}${around ? `   …${around}…` : ''}`);
  }
}
