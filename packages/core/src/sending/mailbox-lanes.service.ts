/**
 * A sending worker's mailbox lanes: each mailbox's sends one after another, whichever tick
 * claimed them. A tick's chain of sends for a mailbox waits for the chains queued before it, so
 * no two sends of a mailbox are ever under way at once, even when a later tick gives it more
 * while an earlier one is still sending from it.
 *
 * A mailbox behind its times (its sends' times have passed before they start: the server takes
 * longer than the pauses) would otherwise sit idle between chains: its next sends are claimed
 * only once its chain is done, and the claim comes at the worker's next tick. With lanes, a
 * mailbox whose lane is about to run out (`drained`: at most DRAINED_AT sends left to start) may
 * be claimed again by its own worker (claimDueSends' ownMailboxes: its held claims are this
 * worker's, queued in this lane), and a lane running out behind its times (the pause after its
 * last send ended before that send starts: its mailbox may be given more now) calls `onBehind`:
 * the worker claims at once instead of after its pause. A mailbox sending on time (its pause still
 * to come) waits for the worker's next tick, as before lanes. Every other worker still sees the
 * mailbox as busy (HELD_CLAIMS).
 *
 * Only while its server keeps answering: a lane whose send under way has taken longer than
 * SLOW_SEND_FACTOR times its last send (and SLOW_SEND_FLOOR_MS), or whose first send is under way,
 * is not drained, so a server holding an answer gathers no more sends behind it than it had: due
 * leads go to other mailboxes meanwhile. These are real milliseconds (the server's), not the clock's.
 */
import type { Clock } from '../shared/ports';
import type { ClaimedSend } from './send-decision.rules';

/** A lane with this many sends or fewer left to start is about to run out: its mailbox may be claimed again. */
const DRAINED_AT = 1;
/** A send under way longer than this many times the lane's last one (real time) is slow: no more sends queue behind it. */
const SLOW_SEND_FACTOR = 3;
/** Nor is a send under way for less than this slow (real ms). */
export const SLOW_SEND_FLOOR_MS = 100;

export interface MailboxLanes {
  /** Mailboxes with a lane about to run out (at most DRAINED_AT sends left to start) whose server keeps answering. */
  drained(): string[];
  /**
   * Runs `deliver` (the sends of `chain`, one mailbox's, in order) once the mailbox's earlier
   * chains are done. `deliver` calls `starting` as each send starts, and the function it returns
   * once the send is done (the server answered, or it failed); sends it gives up count as started
   * once it settles. `readyAt`: when the mailbox may be given more after this chain (ms on the
   * clock: the pause after its last send ends, ClaimResult's readyAt); its last send's time when absent.
   */
  run<T>(chain: readonly ClaimedSend[], deliver: (starting: () => () => void) => Promise<T>, readyAt?: number): Promise<T>;
}

interface Lane {
  /** Settles when the lane's last queued chain is done. */
  tail: Promise<void>;
  /** Sends queued and not yet started. */
  toStart: number;
  /** When its mailbox may be given more after the chains queued (ms on the clock). */
  readyAt: number;
  /** When the send under way started (performance.now()), null when none is. */
  sendingSince: number | null;
}

export function createMailboxLanes(options: {
  clock: Clock;
  /** Called when a lane is about to run out with its mailbox's pause after it already over: claiming now keeps its mailbox busy. */
  onBehind?: () => void;
}): MailboxLanes {
  const lanes = new Map<string, Lane>();
  /** How long each mailbox's last send took (real ms), kept when its lane empties; none before its first is done. */
  const lastSendMs = new Map<string, number>();
  const ignore = () => undefined;
  /** Whether a lane may take more sends: about to run out, and its server answering (see the file's comment). */
  const isDrained = (mailboxId: string, lane: Lane, at: number) => {
    if (lane.toStart > DRAINED_AT) return false;
    if (lane.sendingSince === null) return true;
    const last = lastSendMs.get(mailboxId);
    return last !== undefined && at - lane.sendingSince <= Math.max(SLOW_SEND_FLOOR_MS, SLOW_SEND_FACTOR * last);
  };
  return {
    drained: () => {
      const at = performance.now();
      return [...lanes].filter(([id, lane]) => isDrained(id, lane, at)).map(([id]) => id);
    },
    run(chain, deliver, readyAt) {
      const mailboxId = chain[0]!.mailbox.id;
      let lane = lanes.get(mailboxId);
      if (!lane) lanes.set(mailboxId, (lane = { tail: Promise.resolve(), toStart: 0, readyAt: 0, sendingSince: null }));
      const own = lane;
      own.toStart += chain.length;
      own.readyAt = Math.max(own.readyAt, readyAt ?? Math.max(...chain.map((c) => c.sendAt.getTime())));
      let left = chain.length;
      const starting = () => {
        if (left > 0) {
          left -= 1;
          own.toStart -= 1;
        }
        const since = performance.now();
        own.sendingSince = since;
        if (own.toStart <= DRAINED_AT && options.clock.now().getTime() >= own.readyAt) options.onBehind?.();
        return () => {
          if (own.sendingSince !== since) return;
          lastSendMs.set(mailboxId, performance.now() - since);
          own.sendingSince = null;
        };
      };
      const result = own.tail.then(() => deliver(starting)).finally(() => {
        // What the chain gave up counts as started; none of its sends is under way any more.
        own.toStart -= left;
        left = 0;
        own.sendingSince = null;
      });
      const tail = result.then(ignore, ignore);
      own.tail = tail;
      void tail.then(() => {
        if (own.tail === tail) lanes.delete(mailboxId);
      });
      return result;
    },
  };
}
