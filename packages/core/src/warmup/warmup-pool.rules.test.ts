import { describe, expect, it } from 'vitest';
import { answers, pickRecipient, poolFor, providerOfMx, rampTarget, type PoolMailbox } from './warmup-pool.rules';

const start = new Date('2026-03-02T08:00:00Z');
const at = (days: number, hours = 0) => new Date(start.getTime() + days * 86_400_000 + hours * 3_600_000);

describe('warmup ramp-up', () => {
  it('sends `increment` on the first day, one more increment each day, up to the limit', () => {
    const target = (days: number, hours = 0) => rampTarget({ startedAt: start, now: at(days, hours), limit: 10, increment: 3 });
    expect([target(0), target(0, 23), target(1), target(2), target(3), target(30)]).toEqual([3, 3, 6, 9, 10, 10]);
  });

  it('has no ramp-up with an increment of 0, and sends nothing with a limit of 0', () => {
    expect(rampTarget({ startedAt: start, now: at(0), limit: 12, increment: 0 })).toBe(12);
    expect(rampTarget({ startedAt: start, now: at(5), limit: 0, increment: 2 })).toBe(0);
  });
});

const m = (id: string, email: string, organizationId = 'org1', sharedPool = false): PoolMailbox => ({ id, email, organizationId, sharedPool });

describe('warmup pool', () => {
  const a = m('a', 'ann@alpha.test');
  const a2 = m('a2', 'al@ALPHA.test');
  const b = m('b', 'bob@beta.test');
  const c = m('c', 'cy@gamma.test');
  const other = m('x', 'xe@other.test', 'org2', true);
  const otherClosed = m('y', 'yo@closed.test', 'org3', false);

  it('pairs a mailbox only with mailboxes of other domains of its organization', () => {
    expect(poolFor({ sender: a, pool: [a, a2, b, c, other], sharedPool: false }).map((p) => p.id)).toEqual(['b', 'c']);
  });

  it('widens to organizations that opted in, only when the installation shares the pool and the sender opted in', () => {
    const opted = { ...a, sharedPool: true };
    const pool = [opted, b, other, otherClosed];
    expect(poolFor({ sender: opted, pool, sharedPool: true }).map((p) => p.id)).toEqual(['b', 'x']);
    expect(poolFor({ sender: opted, pool, sharedPool: false }).map((p) => p.id)).toEqual(['b']);
    expect(poolFor({ sender: a, pool, sharedPool: true }).map((p) => p.id)).toEqual(['b']);
  });

  it('writes to the mailbox it wrote to least today', () => {
    const picked = pickRecipient({ candidates: [b, c], sentTodayTo: new Map([['b', 2], ['c', 1]]), seed: 's' });
    expect(picked?.id).toBe('c');
    expect(pickRecipient({ candidates: [], sentTodayTo: new Map(), seed: 's' })).toBeNull();
    // Ties spread over the pool with the seed.
    const firsts = new Set(Array.from({ length: 20 }, (_, i) => pickRecipient({ candidates: [b, c], sentTodayTo: new Map(), seed: `s${i}` })?.id));
    expect(firsts).toEqual(new Set(['b', 'c']));
  });

  it('among mailboxes it wrote to equally, writes to the one the pool wrote to least, so none is left out', () => {
    expect(pickRecipient({ candidates: [b, c], sentTodayTo: new Map(), receivedToday: new Map([['b', 1]]), seed: 's' })?.id).toBe('c');
    // Its own spread comes first: it does not write twice to c while b waits for its first.
    expect(pickRecipient({ candidates: [b, c], sentTodayTo: new Map([['c', 1]]), receivedToday: new Map([['b', 5]]), seed: 's' })?.id).toBe('b');
    // A day of two e-mails each in a pool of five on four domains, whatever the ids: everyone receives.
    for (let run = 0; run < 300; run++) {
      const box = ['ann@alpha.test', 'al@alpha.test', 'bob@beta.test', 'cy@gamma.test', 'dan@delta.test'].map((email, i) => m(`r${run}m${i}`, email));
      const received = new Map<string, number>();
      const sentTo = new Map<string, Map<string, number>>();
      for (let round = 0; round < 2; round++) {
        for (const sender of box) {
          const own = sentTo.get(sender.id) ?? sentTo.set(sender.id, new Map()).get(sender.id)!;
          const to = pickRecipient({ candidates: poolFor({ sender, pool: box, sharedPool: false }), sentTodayTo: own, receivedToday: received, seed: `${sender.id}:${run}:${round}` })!;
          own.set(to.id, (own.get(to.id) ?? 0) + 1);
          received.set(to.id, (received.get(to.id) ?? 0) + 1);
        }
      }
      for (const mailbox of box) expect(received.get(mailbox.id) ?? 0, `${mailbox.email} in run ${run}`).toBeGreaterThan(0);
    }
  });
});

describe('reply rate', () => {
  const answered = (rate: number, n: number) => Array.from({ length: n }, (_, index) => answers({ index, replyRate: rate })).filter(Boolean).length;

  it('answers exactly the rate over any run of e-mails, spread evenly', () => {
    expect(answered(50, 10)).toBe(5);
    expect(answered(30, 10)).toBe(3);
    expect(answered(100, 7)).toBe(7);
    expect(answered(0, 7)).toBe(0);
    expect(Array.from({ length: 4 }, (_, index) => answers({ index, replyRate: 50 }))).toEqual([false, true, false, true]);
  });
});

describe('recipient provider', () => {
  it('tells Google and Microsoft from their MX hosts', () => {
    expect(providerOfMx(['aspmx.l.google.com.', 'alt1.aspmx.l.google.com'])).toBe('GOOGLE');
    expect(providerOfMx(['example-com.mail.protection.outlook.com'])).toBe('MICROSOFT');
    expect(providerOfMx(['mx.example.test'])).toBe('OTHER');
    expect(providerOfMx(['google.com.evil.test'])).toBe('OTHER');
    expect(providerOfMx([])).toBe('OTHER');
  });
});
