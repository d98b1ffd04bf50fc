// How long a lone event waits before its receiver has it: the real webhook worker loop on the
// system clock, one event at a time (a quiet workspace), POSTed to a receiver on loopback.
//   BENCH_ONLY=webhooks npm run bench                          (in-memory PGlite)
//   BENCH_ONLY=webhooks BENCH_DATABASE_URL=postgres://… npm run bench
// Two cases, in one run:
// - alone: nothing else to deliver (the baseline);
// - beside a busy webhook: another workspace's webhook has WEBHOOK_BACKLOG (default 500) events
//   queued, older than every lone event, and its receiver takes WEBHOOK_SLOW_MS (default 200)
//   to answer each. A worker that serves due deliveries strictly oldest first makes the quiet
//   workspace wait for the whole backlog (500 × 200 ms = 100 s).
// WEBHOOK_EVENTS (default 10) lone events per case, one after another at random moments of the
// worker's interval (WORKER_INTERVAL_MS, default 2000, the worker's default), each awaited up to
// 30 s; one not delivered by then counts as 30 s.
// The ratio is the busy case's median over the alone case's.
// Then the throughput of one webhook: WEBHOOK_DRAIN (default 2000) events queued for a receiver
// that answers at once, drained by the worker loop, against the same POSTs made one after
// another through the same port (deps.ports.webhookHttp) with no database: the raw baseline.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyMigrations, createDatabase, newId, type Database } from '@outreach/db';
import { startWebhookWorker, systemClock } from '@outreach/core';
import { emitWebhookEvent } from '../packages/core/src/webhook/webhook-outbox.service';
import { createTestOrganization, testServiceDeps } from '@outreach/core/testing';
import { fmt, median } from './measure';

const EVENTS = Number(process.env['WEBHOOK_EVENTS'] ?? 10);
const INTERVAL_MS = Number(process.env['WORKER_INTERVAL_MS'] ?? 2000);
const BACKLOG = Number(process.env['WEBHOOK_BACKLOG'] ?? 500);
const SLOW_MS = Number(process.env['WEBHOOK_SLOW_MS'] ?? 200);
const WAIT_MS = 30_000;
const DRAIN = Number(process.env['WEBHOOK_DRAIN'] ?? 2000);

interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  close(): void;
}

/** A receiver on loopback that notes when each event's `n` arrived, answering after `delayMs`. */
async function startReceiver(delayMs: number): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const { n } = JSON.parse(body) as { n: string };
      arrivals.set(n, performance.now());
      setTimeout(() => res.end('ok'), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, arrivals, close: () => server.close() };
}

async function webhookFor(db: Database, org: { organizationId: string; workspaceId: string }, url: string, name: string) {
  await db.prisma.webhook.create({
    data: { id: newId(), organizationId: org.organizationId, workspaceId: org.workspaceId, url, name, campIds: ['ALL'], eventTypes: ['EMAIL_SENT'] },
  });
}

const emit = (db: Database, workspaceId: string, n: string) =>
  db.prisma.$transaction((tx) => emitWebhookEvent({ tx, workspaceId, event: 'EMAIL_SENT', campaignId: null, fields: { n }, now: new Date() }));

/** Lone events to a quiet workspace's webhook, with the real worker loop serving `workspaceIds`. */
async function loneEvents(options: { db: Database; label: string; busy: boolean }): Promise<{ latencies: number[]; lost: number; busyDelivered: number }> {
  const { db } = options;
  const quiet = await createTestOrganization({ db, name: `webhook-latency-quiet-${options.label}` });
  const quietReceiver = await startReceiver(0);
  await webhookFor(db, quiet, quietReceiver.url, 'quiet');
  const workspaceIds = [quiet.workspaceId];
  let busyReceiver: Receiver | null = null;
  if (options.busy) {
    const busy = await createTestOrganization({ db, name: `webhook-latency-busy-${options.label}` });
    busyReceiver = await startReceiver(SLOW_MS);
    await webhookFor(db, busy, busyReceiver.url, 'busy');
    // Queued before the lone events: older than each of them.
    for (let i = 0; i < BACKLOG; i += 100) {
      await db.prisma.$transaction(async (tx) => {
        for (let j = i; j < Math.min(i + 100, BACKLOG); j++) await emitWebhookEvent({ tx, workspaceId: busy.workspaceId, event: 'EMAIL_SENT', campaignId: null, fields: { n: `b${j}` }, now: new Date() });
      });
    }
    workspaceIds.push(busy.workspaceId);
  }
  const deps = testServiceDeps({ db, clock: systemClock, allowPrivateTargets: true });
  const worker = startWebhookWorker({ deps, intervalMs: INTERVAL_MS, workspaceIds });
  // Emitted one after another without waiting for the receiver, so that every one of them is
  // emitted while the busy webhook's backlog is still there.
  const emitted = new Map<string, number>();
  for (let i = 0; i < EVENTS; i++) {
    await new Promise((r) => setTimeout(r, Math.random() * INTERVAL_MS));
    const n = `e${i}`;
    emitted.set(n, performance.now());
    await emit(db, quiet.workspaceId, n);
  }
  const deadline = performance.now() + WAIT_MS;
  while (quietReceiver.arrivals.size < EVENTS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const latencies: number[] = [];
  let lost = 0;
  for (const [n, at] of emitted) {
    const arrived = quietReceiver.arrivals.get(n);
    if (arrived !== undefined && arrived - at <= WAIT_MS) latencies.push(arrived - at);
    else lost += 1;
  }
  await worker.stop();
  quietReceiver.close();
  busyReceiver?.close();
  return { latencies, lost, busyDelivered: busyReceiver?.arrivals.size ?? 0 };
}

/** Events a second: `DRAIN` queued events drained by the worker loop, and the same POSTs made bare. */
async function drain(options: { db: Database; label: string }): Promise<{ engine: number; raw: number }> {
  const { db } = options;
  const org = await createTestOrganization({ db, name: `webhook-latency-drain-${options.label}` });
  const receiver = await startReceiver(0);
  await webhookFor(db, org, receiver.url, 'drain');
  for (let i = 0; i < DRAIN; i += 500) {
    await db.prisma.$transaction(async (tx) => {
      for (let j = i; j < Math.min(i + 500, DRAIN); j++) await emitWebhookEvent({ tx, workspaceId: org.workspaceId, event: 'EMAIL_SENT', campaignId: null, fields: { n: `d${j}` }, now: new Date() });
    });
  }
  const deps = testServiceDeps({ db, clock: systemClock, allowPrivateTargets: true });
  const t0 = performance.now();
  const worker = startWebhookWorker({ deps, intervalMs: INTERVAL_MS, workspaceIds: [org.workspaceId] });
  while (receiver.arrivals.size < DRAIN) await new Promise((r) => setTimeout(r, 2));
  const engineMs = performance.now() - t0;
  await worker.stop();
  const body = JSON.stringify({ n: 'raw' });
  const t1 = performance.now();
  for (let i = 0; i < DRAIN; i++) {
    await deps.ports.webhookHttp.post({ url: receiver.url, body, headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) }, timeoutMs: 10_000 });
  }
  const rawMs = performance.now() - t1;
  receiver.close();
  return { engine: (DRAIN * 1000) / engineMs, raw: (DRAIN * 1000) / rawMs };
}

export async function webhookLatencyBench(options: { url: string | undefined; say: (line: string) => void }): Promise<string[]> {
  const db = options.url ? await createDatabase({ url: options.url, poolSize: 4 }) : await createDatabase({});
  await applyMigrations({ db });
  const on = options.url ? 'PostgreSQL' : 'PGlite';
  const label = Date.now().toString(36);
  const alone = await loneEvents({ db, label: `${label}-a`, busy: false });
  options.say(`webhook latency alone: median ${fmt(median(alone.latencies))} ms, max ${fmt(Math.max(...alone.latencies, 0))} ms, not delivered within 30 s: ${alone.lost}`);
  const busy = await loneEvents({ db, label: `${label}-b`, busy: true });
  options.say(
    `webhook latency beside a busy webhook (${BACKLOG} events queued, ${SLOW_MS} ms an answer): median ${fmt(median(busy.latencies))} ms, ` +
      `max ${fmt(Math.max(...busy.latencies, 0))} ms, not delivered within 30 s: ${busy.lost}; the busy webhook got ${busy.busyDelivered} meanwhile`,
  );
  const drained = await drain({ db, label });
  options.say(`webhook throughput, ${DRAIN} events to one receiver: worker loop ${fmt(drained.engine, 0)} events/s, the same POSTs bare ${fmt(drained.raw, 0)}/s`);
  await db.prisma.organization.deleteMany({ where: { name: { startsWith: `webhook-latency-` } } });
  await db.close();
  // An event not delivered counts as the wait given up on.
  const waits = (r: typeof alone) => [...r.latencies, ...Array.from({ length: r.lost }, () => WAIT_MS)];
  return [
    `webhook latency, ${EVENTS} lone events per case, worker interval ${INTERVAL_MS} ms, on ${on}: alone median ${fmt(median(waits(alone)))} ms (max ${fmt(Math.max(...waits(alone)))}), ` +
      `beside a busy webhook median ${fmt(median(waits(busy)))} ms (max ${fmt(Math.max(...waits(busy)))}, ${busy.lost} not within 30 s), ` +
      `ratio ${fmt(median(waits(busy)) / median(waits(alone)))} (busy over alone)`,
    `webhook throughput, ${DRAIN} events queued for one receiver on ${on}: worker loop ${fmt(drained.engine, 0)} events/s, bare POSTs ${fmt(drained.raw, 0)}/s, ratio ${fmt(drained.engine / drained.raw)}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = await webhookLatencyBench({ url: process.env['BENCH_DATABASE_URL'] ?? process.env['DATABASE_URL'], say: (line) => console.log(line) });
  for (const line of summary) console.log(line);
  process.exit(0);
}
