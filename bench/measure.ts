// Small measuring helpers: medians, percentiles, interleaved rounds, a keep-alive load loop.
import http from 'node:http';
import { createServer } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}
export const median = (values: number[]) => percentile(values, 50);

export async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Runs each named case once per round, in the same order every round, for `rounds` rounds. */
export async function interleave<K extends string>(options: { rounds: number; cases: Record<K, (round: number) => Promise<number>> }) {
  const results = Object.fromEntries(Object.keys(options.cases).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < options.rounds; round++) {
    for (const [name, fn] of Object.entries(options.cases) as [K, (round: number) => Promise<number>][]) {
      results[name].push(await fn(round));
    }
  }
  return results;
}

/** The worst event-loop delay (ms) seen while `fn` runs. */
export async function withLoopMonitor<T>(fn: () => Promise<T>): Promise<{ value: T; maxDelayMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  try {
    const value = await fn();
    return { value, maxDelayMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

/**
 * Requests per second against one URL: `concurrency` keep-alive workers issue
 * requests back to back for `durationMs`. Every answer must be 200.
 */
export async function load(options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  concurrency: number;
  durationMs: number;
}): Promise<{ rps: number; p50: number; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.durationMs;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? 'GET', headers: options.headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) errors++;
            latencies.push(performance.now() - t0);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      if (options.body) req.write(options.body);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  const elapsed = performance.now() - started;
  agent.destroy();
  return { rps: (latencies.length / elapsed) * 1000, p50: median(latencies), errors };
}

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

/** A TCP port free on loopback right now (for a server a benchmark starts as a child process). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
