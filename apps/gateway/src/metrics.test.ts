// The metrics module without a database: the token check, the observer the workers report to (a
// worker loop's failed round included), and the scrape-time gauges when their source fails or answers.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '@outreach/db';
import { startWorkerLoop, systemClock } from '@outreach/core';
import { silentLogger } from '@outreach/core/testing';
import { bearerMatches, createMetrics } from './metrics';

const TOKEN = 'a-token-of-32-characters-0123456';

function fakeDb(answer: () => Promise<unknown[]>): PrismaClient {
  return { $queryRawUnsafe: answer } as unknown as PrismaClient;
}

function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('bearerMatches', () => {
  const expected = createHash('sha256').update(TOKEN).digest();
  it('takes `Bearer <token>` (any case of the scheme) and nothing else', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, expected)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, expected)).toBe(true);
    for (const header of [undefined, '', TOKEN, `Bearer ${TOKEN.slice(1)}`, `Bearer ${TOKEN} extra`, `Basic ${TOKEN}`, 'Bearer ']) {
      expect(bearerMatches(header, expected), String(header)).toBe(false);
    }
  });
});

describe('createMetrics', () => {
  it('counts what the workers report, a failed worker round included', async () => {
    const metrics = createMetrics({ token: TOKEN, db: fakeDb(async () => [{ sends_due: 0, webhook_deliveries_pending: 0, deletes_pending: 0 }]), clock: systemClock, log: silentLogger });
    metrics.observer.onSent({ outcome: 'accepted' });
    metrics.observer.onSent({ outcome: 'bounced' });
    metrics.observer.onBounce({ kind: 'hard' });
    metrics.observer.onReply({ kind: 'out_of_office' });
    let rounds = 0;
    const loop = startWorkerLoop({
      log: silentLogger,
      name: 'test round',
      intervalMs: 100,
      worker: 'webhook',
      observer: metrics.observer,
      round: async () => {
        rounds += 1;
        if (rounds === 1) throw new Error('database restarting');
        return rounds;
      },
      more: () => false,
      report: () => null,
    });
    await loop.next();
    await loop.stop();
    const text = await metrics.registry.metrics();
    expect(valueOf(text, 'outreach_sends_total{outcome="accepted"}')).toBe(1);
    expect(valueOf(text, 'outreach_sends_total{outcome="bounced"}')).toBe(1);
    expect(valueOf(text, 'outreach_sends_total{outcome="unconfirmed"}')).toBe(0);
    expect(valueOf(text, 'outreach_bounces_total{kind="hard"}')).toBe(1);
    expect(valueOf(text, 'outreach_replies_total{kind="out_of_office"}')).toBe(1);
    expect(valueOf(text, 'outreach_worker_tick_failures_total{worker="webhook"}')).toBe(1);
    expect(valueOf(text, 'outreach_worker_tick_duration_seconds_count{worker="webhook"}')).toBeGreaterThanOrEqual(2);
    expect(valueOf(text, 'outreach_worker_tick_failures_total{worker="sending"}')).toBe(0);
  });

  it('reads the queues and the pool at each scrape; a failed read leaves the queue series out instead of failing the scrape', async () => {
    let down = false;
    let waiting = 0;
    const metrics = createMetrics({
      token: TOKEN,
      db: fakeDb(async () => {
        if (down) throw new Error('connection refused');
        return [{ sends_due: 7, webhook_deliveries_pending: 3, deletes_pending: 2 }];
      }),
      clock: systemClock,
      log: silentLogger,
      poolStats: () => ({ total: 4, idle: 1, waiting }),
    });
    let text = await metrics.registry.metrics();
    expect(valueOf(text, 'outreach_queue_depth{queue="sends_due"}')).toBe(7);
    expect(valueOf(text, 'outreach_queue_depth{queue="webhook_deliveries_pending"}')).toBe(3);
    expect(valueOf(text, 'outreach_queue_depth{queue="deletes_pending"}')).toBe(2);
    expect(valueOf(text, 'outreach_db_pool_clients{state="total"}')).toBe(4);
    down = true;
    waiting = 2;
    text = await metrics.registry.metrics();
    expect(valueOf(text, 'outreach_queue_depth{queue="sends_due"}')).toBeUndefined();
    expect(valueOf(text, 'outreach_db_pool_clients{state="waiting"}')).toBe(2);
  });

  it('keeps each instance’s registry apart, and exports no pool metrics without a pool', async () => {
    const db = fakeDb(async () => [{ sends_due: 0, webhook_deliveries_pending: 0, deletes_pending: 0 }]);
    const one = createMetrics({ token: TOKEN, db, clock: systemClock, log: silentLogger });
    const two = createMetrics({ token: TOKEN, db, clock: systemClock, log: silentLogger });
    one.observer.onSent({ outcome: 'accepted' });
    const text = await two.registry.metrics();
    expect(valueOf(text, 'outreach_sends_total{outcome="accepted"}')).toBe(0);
    expect(text).not.toContain('outreach_db_pool_clients');
  });
});
