import { describe, expect, it } from 'vitest';
import {
  attemptMayStart,
  claimLeaseMs,
  deliveryHeaders,
  disablesWebhook,
  outcomeOfResponse,
  recordedError,
  responseText,
  retryAfterFailure,
  retryWindowStart,
  slowestAttemptMs,
  WEBHOOK_LEASE_MARGIN_MS,
  WEBHOOK_MAX_CONSECUTIVE_FAILURES,
  WEBHOOK_RETRY_CAP_MS,
  WEBHOOK_RETRY_WINDOW_MS,
  WEBHOOK_ROUND_BUDGET_MS,
  WEBHOOK_USER_AGENT,
  webhookRetryDelayMs,
  webhookTurns,
} from './webhook-delivery.rules';
import { SIGNATURE_HEADER, verifyWebhookSignature } from './webhook-signature.rules';

describe('webhook retry delay', () => {
  it('is full jitter over an exponential ceiling capped at an hour, at least a second, deterministic', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(WEBHOOK_RETRY_CAP_MS, 30_000 * 2 ** (attempt - 1));
      const delays = Array.from({ length: 200 }, (_, i) => webhookRetryDelayMs({ deliveryId: `d${i}`, attempt }));
      for (const d of delays) {
        expect(d).toBeGreaterThanOrEqual(1_000);
        expect(d).toBeLessThanOrEqual(ceiling);
      }
      // Spread over the whole range, not bunched.
      expect(Math.max(...delays)).toBeGreaterThan(ceiling * 0.9);
      expect(Math.min(...delays)).toBeLessThan(Math.max(1_000, ceiling * 0.1));
    }
    expect(webhookRetryDelayMs({ deliveryId: 'x', attempt: 3 })).toBe(webhookRetryDelayMs({ deliveryId: 'x', attempt: 3 }));
  });
});

describe('a claim\'s lease and a round\'s budget', () => {
  it('an attempt starts only within the round\'s first 5 s, and the slowest one started then ends within the lease', () => {
    expect(slowestAttemptMs(10_000)).toBe(10_000 + WEBHOOK_LEASE_MARGIN_MS);
    expect(WEBHOOK_ROUND_BUDGET_MS).toBe(5_000);
    const roundStart = new Date('2025-06-02T09:00:00.000Z');
    expect(attemptMayStart({ roundStart, now: roundStart })).toBe(true);
    expect(attemptMayStart({ roundStart, now: new Date('2025-06-02T09:00:04.999Z') })).toBe(true);
    expect(attemptMayStart({ roundStart, now: new Date('2025-06-02T09:00:05.000Z') })).toBe(false);
    // The last attempt may start at 4.999 s and take the timeout and the margin: 19.999 s.
    expect(claimLeaseMs(10_000)).toBe(20_000);
    expect(4_999 + slowestAttemptMs(10_000)).toBeLessThan(claimLeaseMs(10_000));
  });
});

describe('retry after a failure', () => {
  const createdAt = new Date('2025-06-02T09:00:00.000Z');

  it('is the backoff after now, and given up once it would pass the retry window of the event', () => {
    const now = new Date('2025-06-02T10:00:00.000Z');
    const wait = webhookRetryDelayMs({ deliveryId: 'd1', attempt: 3 });
    expect(retryAfterFailure({ deliveryId: 'd1', attempts: 3, now, createdAt })).toEqual({ nextAttemptAt: new Date(now.getTime() + wait), giveUp: false });
    const late = new Date(createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS - wait);
    expect(retryAfterFailure({ deliveryId: 'd1', attempts: 3, now: late, createdAt }).giveUp).toBe(false);
    expect(retryAfterFailure({ deliveryId: 'd1', attempts: 3, now: new Date(late.getTime() + 1), createdAt }).giveUp).toBe(true);
  });

  it('a held webhook gives up the events older than the retry window before its retry time', () => {
    expect(retryWindowStart(new Date('2025-06-03T09:00:00.000Z'))).toEqual(new Date('2025-06-02T09:00:00.000Z'));
  });

  it(`an ACTIVE webhook is disabled at ${WEBHOOK_MAX_CONSECUTIVE_FAILURES} consecutive failures`, () => {
    expect(disablesWebhook({ status: 'ACTIVE', failures: WEBHOOK_MAX_CONSECUTIVE_FAILURES - 1 })).toBe(false);
    expect(disablesWebhook({ status: 'ACTIVE', failures: WEBHOOK_MAX_CONSECUTIVE_FAILURES })).toBe(true);
    expect(disablesWebhook({ status: 'DISABLED', failures: WEBHOOK_MAX_CONSECUTIVE_FAILURES + 5 })).toBe(false);
  });
});

describe('webhookTurns', () => {
  const d = (id: string, webhook_id: string, created: string, due: string) => ({
    id,
    webhook_id,
    created_at: `2025-06-02T09:${created}.000Z`,
    next_attempt_at: new Date(`2025-06-02T09:${due}.000Z`),
  });

  it('groups by webhook, webhooks by their oldest due delivery, each webhook by event (ties by id), without touching its input', () => {
    const claimed = [d('c', 'B', '00:03', '00:30'), d('a', 'A', '00:05', '00:40'), d('b', 'A', '00:02', '00:50'), d('e', 'B', '00:01', '00:45'), d('d', 'B', '00:01', '00:10')];
    const copy = [...claimed];
    expect(webhookTurns(claimed).map((turn) => turn.map((x) => x.id))).toEqual([['d', 'e', 'c'], ['b', 'a']]);
    expect(claimed).toEqual(copy);
    expect(webhookTurns([])).toEqual([]);
  });
});

describe('a delivery request and its answer', () => {
  it('carries the event headers, signed when the webhook has a secret', () => {
    const body = '{"event_type":"EMAIL_SENT"}';
    const plain = deliveryHeaders({ deliveryId: 'del-1', event: 'EMAIL_SENT', body, timestamp: 1_748_854_800, secret: null });
    expect(plain).toEqual({
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      'User-Agent': WEBHOOK_USER_AGENT,
      'X-Outreach-Event-Id': 'del-1',
      'X-Outreach-Event': 'EMAIL_SENT',
      'X-Outreach-Timestamp': '1748854800',
    });
    const signed = deliveryHeaders({ deliveryId: 'del-1', event: 'EMAIL_SENT', body: 'é', timestamp: 1_748_854_800, secret: 'whsec_abc' });
    expect(signed['Content-Length']).toBe('2');
    expect(verifyWebhookSignature({ secret: 'whsec_abc', header: signed[SIGNATURE_HEADER], body: 'é', now: new Date(1_748_854_800_000) })).toBe(true);
    expect(signed['X-Outreach-Timestamp']).toBe('1748854800');
  });

  it('a 2xx delivers; any other status fails with the status and the start of the body', () => {
    expect(outcomeOfResponse({ status: 204, body: '' })).toEqual({ ok: true, status: 204, body: '' });
    expect(outcomeOfResponse({ status: 302, body: 'moved' })).toEqual({ ok: false, status: 302, error: '302 moved' });
    expect(outcomeOfResponse({ status: 500, body: 'x'.repeat(2048) })).toEqual({ ok: false, status: 500, error: `500 ${'x'.repeat(500)}` });
    expect(responseText({ status: 200, body: '' })).toBe('200');
    expect(recordedError('e'.repeat(1_500))).toHaveLength(1_000);
  });
});
