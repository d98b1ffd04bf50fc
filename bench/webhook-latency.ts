// How long a lone event waits before its receiver has it: the real webhook worker loop on the
// system clock, one event at a time (a quiet workspace), POSTed to a receiver on loopback.
//   npx tsx bench/webhook-latency.ts            (in-memory PGlite)
//   BENCH_DATABASE_URL=postgres://… npx tsx bench/webhook-latency.ts
// WEBHOOK_EVENTS (default 10) events, each emitted at a random moment of the worker's interval
// (WORKER_INTERVAL_MS, default 2000, the worker's default) and awaited up to 30 s.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyMigrations, createDatabase, newId } from '@outreach/db';
import { startWebhookWorker, systemClock } from '@outreach/core';
import { emitWebhookEvent } from '../packages/core/src/webhook/webhook-outbox.service';
import { createTestOrganization, testServiceDeps } from '@outreach/core/testing';
import { fmt, median } from './measure';

const url = process.env['BENCH_DATABASE_URL'] ?? process.env['DATABASE_URL'];
const EVENTS = Number(process.env['WEBHOOK_EVENTS'] ?? 10);
const INTERVAL_MS = Number(process.env['WORKER_INTERVAL_MS'] ?? 2000);

const db = url ? await createDatabase({ url, poolSize: 4 }) : await createDatabase({});
await applyMigrations({ db });
const org = await createTestOrganization({ db });
const deps = testServiceDeps({ db, clock: systemClock, allowPrivateTargets: true });

const arrivals = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const { n } = JSON.parse(body) as { n: string };
    arrivals.set(n, performance.now());
    res.end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as AddressInfo).port;
await db.prisma.webhook.create({
  data: { id: newId(), organizationId: org.organizationId, workspaceId: org.workspaceId, url: `http://127.0.0.1:${port}/hook`, name: 'latency', campIds: ['ALL'], eventTypes: ['EMAIL_SENT'] },
});

const worker = startWebhookWorker({ deps, intervalMs: INTERVAL_MS, workspaceIds: [org.workspaceId] });
const latencies: number[] = [];
let lost = 0;
for (let i = 0; i < EVENTS; i++) {
  await new Promise((r) => setTimeout(r, Math.random() * INTERVAL_MS));
  const n = `e${i}`;
  const emitted = performance.now();
  await db.prisma.$transaction((tx) => emitWebhookEvent({ tx, workspaceId: org.workspaceId, event: 'EMAIL_SENT', campaignId: null, fields: { n }, now: new Date() }));
  const deadline = Date.now() + 30_000;
  while (!arrivals.has(n) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  if (arrivals.has(n)) latencies.push(arrivals.get(n)! - emitted);
  else lost += 1;
}
await worker.stop();
receiver.close();
await db.close();
console.log(`webhook latency, ${EVENTS} lone events, worker interval ${INTERVAL_MS} ms, on ${url ? 'PostgreSQL' : 'PGlite'}:`);
console.log(`  median ${fmt(median(latencies))} ms, max ${fmt(Math.max(...latencies, 0))} ms, not delivered within 30 s: ${lost}`);
process.exit(lost ? 1 : 0);
