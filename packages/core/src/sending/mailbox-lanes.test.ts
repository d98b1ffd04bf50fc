import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestClock } from '../testing/sending-fixture';
import { createMailboxLanes, SLOW_SEND_FLOOR_MS } from './mailbox-lanes.service';
import type { ClaimedSend } from './send-decision.rules';

const START = Date.parse('2026-11-25T10:00:00Z');

/** A chain of `n` sends of one mailbox, a minute apart from `fromMs` (only what the lanes read of a claim). */
const chainOf = (mailboxId: string, n: number, fromMs = START) =>
  Array.from({ length: n }, (_, i) => ({ mailbox: { id: mailboxId }, sendAt: new Date(fromMs + i * 60_000) }) as unknown as ClaimedSend);

/** A promise the test settles. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Real time as the lanes see it (performance.now), moved by the test. */
function realTime() {
  let at = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => at);
  return { advance: (ms: number) => void (at += ms) };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

afterEach(() => vi.restoreAllMocks());

describe('mailbox lanes', () => {
  it('runs the chains of one mailbox one after another, whichever tick gave them, and different mailboxes at once', async () => {
    const lanes = createMailboxLanes({ clock: new TestClock(new Date(START)) });
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    /** Each send logs its start and end and waits for the test to let it finish. */
    const deliver = (name: string, n: number) => async (starting: () => () => void) => {
      for (let i = 0; i < n; i++) {
        const done = starting();
        log.push(`${name}${i} start`);
        const g = gate();
        gates.set(`${name}${i}`, g);
        await g.promise;
        done();
        log.push(`${name}${i} end`);
      }
      return name;
    };
    const first = lanes.run(chainOf('a', 2), deliver('a', 2));
    const second = lanes.run(chainOf('a', 1), deliver('A', 1));
    const other = lanes.run(chainOf('b', 1), deliver('b', 1));
    await turns();
    // A's second chain waits; B's starts beside A's first.
    expect(log).toEqual(['a0 start', 'b0 start']);
    gates.get('a0')!.open();
    await turns();
    expect(log).toEqual(['a0 start', 'b0 start', 'a0 end', 'a1 start']);
    gates.get('a1')!.open();
    gates.get('b0')!.open();
    await turns();
    expect(log.slice(3)).toEqual(['a1 start', 'a1 end', 'b0 end', 'A0 start']);
    gates.get('A0')!.open();
    expect(await Promise.all([first, second, other])).toEqual(['a', 'A', 'b']);
  });

  it('is drained once at most one send is left to start and its server answers as fast as before; not while a send hangs, nor behind a first send', async () => {
    const time = realTime();
    const lanes = createMailboxLanes({ clock: new TestClock(new Date(START)) });
    const steps: (() => void)[] = [];
    /** Sends that the test finishes one at a time (steps.shift()()). */
    const deliver = (n: number) => async (starting: () => () => void) => {
      for (let i = 0; i < n; i++) {
        const done = starting();
        await new Promise<void>((r) => steps.push(r));
        done();
      }
    };
    const running = lanes.run(chainOf('a', 3), deliver(3));
    await turns();
    // The first of three under way, two to start; and this mailbox's first send ever: no measure of its server yet.
    expect(lanes.drained()).toEqual([]);
    time.advance(20);
    steps.shift()!();
    await turns();
    // The second under way (20 ms so far), one left to start; the last send took 20 ms.
    time.advance(20);
    expect(lanes.drained()).toEqual(['a']);
    // The same send, still under way past the floor and three times the last: the server hangs.
    time.advance(SLOW_SEND_FLOOR_MS);
    expect(lanes.drained()).toEqual([]);
    steps.shift()!();
    await turns();
    // The last under way, nothing left to start: drained again.
    expect(lanes.drained()).toEqual(['a']);
    steps.shift()!();
    await running;
    await turns();
    // The lane is gone with its last chain.
    expect(lanes.drained()).toEqual([]);
  });

  it('tells the worker when a lane about to run out is behind its times, not while its mailbox sends on time', async () => {
    const clock = new TestClock(new Date(START));
    let behind = 0;
    const lanes = createMailboxLanes({ clock, onBehind: () => void (behind += 1) });
    /** Sends each at its time, or at once when that has passed. */
    const onTime = (chain: readonly ClaimedSend[]) => async (starting: () => () => void) => {
      for (const c of chain) {
        if (clock.now() < c.sendAt) clock.at = c.sendAt;
        starting()();
      }
    };
    // Sends a minute apart from a minute from now, each started at its time; the mailbox's pause
    // after the last ends five minutes later: on time, the worker's next tick gives it more.
    const ahead = chainOf('a', 2, START + 60_000);
    await lanes.run(ahead, onTime(ahead), START + 2 * 60_000 + 5 * 60_000);
    expect(behind).toBe(0);
    // A chain whose pause after its last send ended before its sends start (its server took longer
    // than the pauses): behind, once as each send leaves one or none to start.
    clock.advance(60 * 60_000);
    const late = chainOf('a', 2, START + 10 * 60_000);
    await lanes.run(late, onTime(late), START + 20 * 60_000);
    expect(behind).toBe(2);
  });
});
