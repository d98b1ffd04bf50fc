import { describe, expect, it } from 'vitest';
import {
  type MailboxCandidate,
  type Variation,
  mailboxesInPickOrder,
  pickMailbox,
  pickVariation,
  remainingToday,
  sendingGapWithJitter,
  retryDelayMs,
  pickLeastAssignedVariation,
} from './pacing.rules';

const variation = (id: string, label: string, extra: Partial<Variation> = {}): Variation => ({ id, label, isActive: true, isDeleted: false, ...extra });

describe('pickVariation', () => {
  const three = [variation('v-a', 'A'), variation('v-b', 'B'), variation('v-c', 'C')];

  it('spreads 3,000 leads evenly over 3 variations (each 30–37%)', () => {
    for (const step of [1, 2]) {
      const counts = new Map<string | null, number>();
      for (let i = 0; i < 3000; i++) {
        const id = pickVariation({ variations: three, leadId: `lead_${i}`, step });
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      expect([...counts.keys()].sort()).toEqual(['v-a', 'v-b', 'v-c']);
      for (const count of counts.values()) {
        expect(count / 3000).toBeGreaterThanOrEqual(0.3);
        expect(count / 3000).toBeLessThanOrEqual(0.37);
      }
    }
  });

  it('is deterministic and independent of the input order', () => {
    for (let i = 0; i < 50; i++) {
      const leadId = `lead_${i}`;
      const picked = pickVariation({ variations: three, leadId, step: 1 });
      expect(pickVariation({ variations: [...three].reverse(), leadId, step: 1 })).toBe(picked);
      expect(pickVariation({ variations: [three[1]!, three[2]!, three[0]!], leadId, step: 1 })).toBe(picked);
    }
  });

  it('varies with the step, so a lead does not get variation A in every step', () => {
    const perStep = [1, 2, 3, 4, 5, 6, 7, 8].map((step) => pickVariation({ variations: three, leadId: 'lead_1', step }));
    expect(new Set(perStep).size).toBeGreaterThan(1);
  });

  it('only considers active, non-deleted variations', () => {
    const variations = [variation('v-a', 'A', { isActive: false }), variation('v-b', 'B'), variation('v-c', 'C', { isDeleted: true })];
    for (let i = 0; i < 100; i++) expect(pickVariation({ variations, leadId: `lead_${i}`, step: 1 })).toBe('v-b');
    expect(pickVariation({ variations: [variation('v-a', 'A', { isActive: false })], leadId: 'l', step: 1 })).toBeNull();
    expect(pickVariation({ variations: [], leadId: 'l', step: 1 })).toBeNull();
  });
});

describe('sendingGapWithJitter', () => {
  it('stays within −15%..+25% of the gap, and uses the whole range', () => {
    const values: number[] = [];
    for (let i = 0; i < 2000; i++) values.push(sendingGapWithJitter({ gapMinutes: 10, seed: `send-${i}` }));
    for (const v of values) {
      expect(v).toBeGreaterThanOrEqual(510_000);
      expect(v).toBeLessThanOrEqual(750_000);
      expect(Number.isInteger(v)).toBe(true);
    }
    expect(Math.min(...values)).toBeLessThan(520_000);
    expect(Math.max(...values)).toBeGreaterThan(740_000);
    // Below and above the gap both happen: not always slower, not always faster.
    expect(values.filter((v) => v < 600_000).length).toBeGreaterThan(500);
    expect(values.filter((v) => v > 600_000).length).toBeGreaterThan(1000);
  });

  it('is deterministic per seed and differs between seeds', () => {
    expect(sendingGapWithJitter({ gapMinutes: 7, seed: 'abc' })).toBe(sendingGapWithJitter({ gapMinutes: 7, seed: 'abc' }));
    const distinct = new Set(Array.from({ length: 20 }, (_, i) => sendingGapWithJitter({ gapMinutes: 7, seed: `s${i}` })));
    expect(distinct.size).toBeGreaterThan(15);
  });

  it('jitters a zero gap over 0..60 s', () => {
    const values = Array.from({ length: 1000 }, (_, i) => sendingGapWithJitter({ gapMinutes: 0, seed: `z${i}` }));
    for (const v of values) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(60_000);
    }
    expect(Math.max(...values)).toBeGreaterThan(55_000);
    expect(Math.min(...values)).toBeLessThan(5_000);
  });

  it('never goes negative on a bad gap', () => {
    for (const gapMinutes of [-5, Number.NaN, Number.NEGATIVE_INFINITY]) {
      const v = sendingGapWithJitter({ gapMinutes, seed: 'x' });
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(60_000);
    }
  });

  it('handles fractional minutes', () => {
    const v = sendingGapWithJitter({ gapMinutes: 0.5, seed: 'f' });
    expect(v).toBeGreaterThanOrEqual(25_500);
    expect(v).toBeLessThanOrEqual(37_500);
  });
});

describe('remainingToday', () => {
  it('never goes negative', () => {
    expect(remainingToday({ limit: 50, sentToday: 20 })).toBe(30);
    expect(remainingToday({ limit: 50, sentToday: 50 })).toBe(0);
    expect(remainingToday({ limit: 30, sentToday: 50 })).toBe(0);
    expect(remainingToday({ limit: 0, sentToday: 0 })).toBe(0);
  });
});

describe('pickMailbox', () => {
  const now = new Date('2025-06-04T10:00:00Z');
  const mailbox = (id: string, extra: Partial<MailboxCandidate> = {}): MailboxCandidate => ({
    id,
    sentToday: 0,
    dailyLimit: 50,
    nextAllowedAt: null,
    status: 'ACTIVE',
    ...extra,
  });

  it('picks the least-used eligible mailbox', () => {
    const mailboxes = [mailbox('a', { sentToday: 12 }), mailbox('b', { sentToday: 3 }), mailbox('c', { sentToday: 7 })];
    expect(pickMailbox({ mailboxes, now })).toBe('b');
  });

  it('breaks ties by id whatever the input order', () => {
    const mailboxes = [mailbox('m3', { sentToday: 2 }), mailbox('m1', { sentToday: 2 }), mailbox('m2', { sentToday: 2 })];
    expect(pickMailbox({ mailboxes, now })).toBe('m1');
    expect(pickMailbox({ mailboxes: [...mailboxes].reverse(), now })).toBe('m1');
  });

  it('skips mailboxes that are not active, at their limit, or still in their gap', () => {
    const mailboxes = [
      mailbox('paused', { status: 'PAUSED' }),
      mailbox('disconnected', { status: 'DISCONNECTED' }),
      mailbox('full', { sentToday: 50, dailyLimit: 50 }),
      mailbox('over', { sentToday: 60, dailyLimit: 50 }),
      mailbox('waiting', { nextAllowedAt: new Date(now.getTime() + 1) }),
      mailbox('ready', { sentToday: 40, nextAllowedAt: now }),
    ];
    expect(pickMailbox({ mailboxes, now })).toBe('ready');
    expect(pickMailbox({ mailboxes: mailboxes.slice(0, 5), now })).toBeNull();
  });

  it('returns null for no mailboxes', () => {
    expect(pickMailbox({ mailboxes: [], now })).toBeNull();
  });

  it('orders every eligible mailbox the way it picks them, for a claim to take them in turn', () => {
    const mailboxes = [
      mailbox('m4', { sentToday: 9 }),
      mailbox('full', { sentToday: 50 }),
      mailbox('m2', { sentToday: 1 }),
      mailbox('paused', { status: 'PAUSED' }),
      mailbox('m3', { sentToday: 1 }),
      mailbox('m1', { sentToday: 0 }),
    ];
    expect(mailboxesInPickOrder({ mailboxes, now })).toEqual(['m1', 'm2', 'm3', 'm4']);
    // Taking the first away leaves pickMailbox's next choice first.
    expect(pickMailbox({ mailboxes: mailboxes.filter((m) => m.id !== 'm1'), now })).toBe('m2');
  });
});

describe('retryDelayMs', () => {
  it('waits 5 then 30 minutes, stretched by a per-send jitter of under 50%', () => {
    const first = Array.from({ length: 200 }, (_, i) => retryDelayMs({ attempt: 1, seed: `s${i}` }));
    const second = Array.from({ length: 200 }, (_, i) => retryDelayMs({ attempt: 2, seed: `s${i}` }));
    for (const d of first) expect(d >= 300_000 && d < 450_000).toBe(true);
    for (const d of second) expect(d >= 1_800_000 && d < 2_700_000).toBe(true);
    expect(new Set(first).size).toBeGreaterThan(150);
    expect(retryDelayMs({ attempt: 1, seed: 'x' })).toBe(retryDelayMs({ attempt: 1, seed: 'x' }));
    // Past the table the last delay repeats; nonsense attempts clamp to the first.
    expect(retryDelayMs({ attempt: 7, seed: 'x' })).toBeGreaterThanOrEqual(1_800_000);
    expect(retryDelayMs({ attempt: 0, seed: 'x' })).toBeLessThan(450_000);
  });
});

describe('pickLeastAssignedVariation', () => {
  const v = (label: string, assignedCount: number, extra: { isActive?: boolean; isDeleted?: boolean } = {}) => ({
    id: `id-${label}`,
    label,
    assignedCount,
    isActive: extra.isActive ?? true,
    isDeleted: extra.isDeleted ?? false,
  });
  it('splits leads exactly evenly: each lead gets the usable variation given to the fewest so far', () => {
    const variations = [v('A', 0), v('B', 0), v('C', 0, { isActive: false }), v('D', 0, { isDeleted: true })];
    const given: string[] = [];
    for (let i = 0; i < 9; i++) {
      const id = pickLeastAssignedVariation({ variations })!;
      given.push(id);
      variations.find((x) => x.id === id)!.assignedCount += 1;
    }
    expect(given.filter((id) => id === 'id-A')).toHaveLength(5);
    expect(given.filter((id) => id === 'id-B')).toHaveLength(4);
    expect(given).not.toContain('id-C');
    expect(given).not.toContain('id-D');
  });
  it('lets a variation added later catch up, and answers null when none is usable', () => {
    expect(pickLeastAssignedVariation({ variations: [v('A', 40), v('B', 38), v('C', 0)] })).toBe('id-C');
    expect(pickLeastAssignedVariation({ variations: [v('A', 1, { isActive: false })] })).toBeNull();
  });
});
