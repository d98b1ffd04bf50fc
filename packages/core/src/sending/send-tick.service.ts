/**
 * A tick of the sending engine: a claim (scheduler.service.ts), its deliveries, and the end of
 * the tick (finished campaigns completed). A mailbox's sends go one after another in its lane
 * (createMailboxLanes), different mailboxes in parallel.
 */
import type { ServiceDeps } from '../shared/context';
import { untilClock } from '../shared/ports';
import { FINISH_TICK_SQL, RELEASE_CLAIMS_SQL } from './scheduler.queries';
import { claimDueSends, type ClaimResult } from './scheduler.service';
import type { ClaimedSend } from './send-decision.rules';
import { createDataMarker, deliverClaim, type DeliveryResult } from './send-delivery.service';
import { createSendRecorder } from './send-record.service';
import { createMailboxLanes, type MailboxLanes } from './mailbox-lanes.service';

export interface TickResult {
  claimed: number;
  sent: number;
  /** Recorded as sent with outcome unknown (an earlier worker died with the body going out); not sent again. */
  unconfirmed: number;
  bounced: number;
  deferred: number;
  disconnected: number;
  /** Claimed ahead and handed back unsent (the worker stopping, or the mailbox failing on an earlier send of the tick): due again. */
  released: number;
  stopped: number;
  waiting: number;
  completedCampaigns: string[];
}

export interface TickOptions {
  deps: ServiceDeps;
  maxSends?: number;
  /** Only these workspaces' campaigns (tests, a CLI run for one workspace); all when absent. */
  workspaceIds?: string[];
  /** How long a claim holds its lead; CLAIM_LEASE_MS when absent. */
  claimLeaseMs?: number;
  /** How far ahead a mailbox's later sends are claimed (claimDueSends' aheadMs); 0 when absent. */
  claimAheadMs?: number;
  /** Aborted: sends claimed ahead that have not started are handed back (the worker stops). */
  signal?: AbortSignal;
  /**
   * The caller's mailbox lanes (the sending worker's, shared by its ticks: mailbox-lanes.service.ts):
   * a mailbox's sends of this tick queue behind those of earlier ticks still being made, and a
   * mailbox whose lane is about to run out may be given more (claimDueSends' ownMailboxes). Lanes of
   * this tick's own when absent: a mailbox still sending from an earlier tick is busy.
   */
  lanes?: MailboxLanes;
}

/** A tick whose claim is committed and whose deliveries are under way. */
export interface StartedTick {
  /** Sends claimed (each being delivered). */
  claimed: number;
  /** Whether a mailbox has sends after its first (claimed ahead, each waiting for its time). */
  sendsLater: boolean;
  /**
   * Settles once each mailbox's first send of the tick is done: its body accepted (its record may
   * still be under way) or the send failed. Its later sends may still wait for their time.
   */
  firstSends: Promise<void>;
  /** Settles once every delivery is recorded and finished campaigns are completed. */
  finished: Promise<TickResult>;
}

/**
 * The first half of a tick: claims what may go now and starts delivering it; `finished` is the
 * rest. The sending worker claims its next tick while one delivers (worker.service.ts).
 */
export async function startSchedulerTick(options: TickOptions): Promise<StartedTick> {
  const { deps } = options;
  const now = deps.ports.clock.now();
  const lanes = options.lanes ?? createMailboxLanes({ clock: deps.ports.clock });
  const claim = await claimDueSends({
    deps,
    now,
    maxSends: options.maxSends ?? 100,
    workspaceIds: options.workspaceIds,
    leaseMs: options.claimLeaseMs,
    aheadMs: options.claimAheadMs,
    ownMailboxes: lanes.drained(),
  });
  const delivery = deliverTick({ deps, now, claim, lanes, workspaceIds: options.workspaceIds, signal: options.signal });
  return { claimed: claim.claims.length, ...delivery };
}

/**
 * One round of the engine: claim what may go now, deliver it (different mailboxes in parallel,
 * a mailbox's sends one after another, each at its time), then complete finished campaigns.
 */
export async function runSchedulerTick(options: TickOptions): Promise<TickResult> {
  return (await startSchedulerTick(options)).finished;
}

/**
 * What stops a mailbox's later sends in a tick (handed back, due again): its login refused, its
 * server unreachable or refusing for now, or a claim lost (the campaign or the mailbox paused, a
 * lead taken over): the next claim decides again rather than cutting off more bodies. The lost
 * claim goes back with them when its lead is still its own (no body went out). A send whose body
 * the server accepted does not end the chain, whatever its record finds: the mailbox's next send
 * starts while it is recorded.
 */
const ENDS_CHAIN: ReadonlySet<DeliveryResult> = new Set(['mailbox_disconnected', 'deferred', 'lost_claim']);

/**
 * Hands back claimed sends that were not made (RELEASE_CLAIMS_SQL): due again at their send time,
 * only those whose lead this claim still holds; the lead ids handed back.
 */
export async function releaseClaims(deps: ServiceDeps, claims: readonly ClaimedSend[]): Promise<Set<string>> {
  const released = await deps.db.$queryRawUnsafe<{ id: string }[]>(
    RELEASE_CLAIMS_SQL,
    claims.map((c) => c.leadId),
    claims.map((c) => c.sendId),
    claims.map((c) => c.claimedAt.toISOString()),
    claims.map((c) => c.sendAt.toISOString()),
    deps.ports.clock.now().toISOString(),
  );
  return new Set(released.map((r) => r.id));
}

/**
 * Delivers a tick's claims: each mailbox's sends (in the order claimed: their send times rise)
 * one after another in its lane (after those an earlier tick queued there), each not before its
 * time, different mailboxes in parallel. `firstSends` settles once each mailbox's first send is
 * done (or not made); `sendsLater`: a mailbox has more.
 */
function deliverTick(options: {
  deps: ServiceDeps;
  now: Date;
  claim: ClaimResult;
  lanes: MailboxLanes;
  workspaceIds?: string[];
  signal?: AbortSignal;
}): Pick<StartedTick, 'sendsLater' | 'firstSends' | 'finished'> {
  const { deps, claim } = options;
  const chains = new Map<string, ClaimedSend[]>();
  for (const c of claim.claims) {
    const chain = chains.get(c.mailbox.id);
    if (chain) chain.push(c);
    else chains.set(c.mailbox.id, [c]);
  }
  const firsts = [...chains.values()].map(() => Promise.withResolvers<void>());
  return {
    sendsLater: chains.size < claim.claims.length,
    firstSends: Promise.all(firsts.map((f) => f.promise)).then(() => undefined),
    finished: deliverChains({ ...options, chains: [...chains.values()], firstDone: firsts.map((f) => f.resolve) }),
  };
}

async function deliverChains(options: {
  deps: ServiceDeps;
  now: Date;
  claim: ClaimResult;
  lanes: MailboxLanes;
  chains: readonly (readonly ClaimedSend[])[];
  /** For each chain: called once its first send is done (or not made). */
  firstDone: readonly (() => void)[];
  workspaceIds?: string[];
  signal?: AbortSignal;
}): Promise<TickResult> {
  const { deps, now, claim } = options;
  // The tick's DATA marks and accepted sends are written in batches (send-delivery.service.ts, send-record.service.ts).
  const recorder = createSendRecorder({ deps });
  const marker = createDataMarker({ deps });
  const results = new Map<ClaimedSend, DeliveryResult | 'released'>();
  const unsent: ClaimedSend[] = [];
  /** Accepted sends being recorded: a mailbox's next send does not wait for its last one's record. */
  const recording: Promise<void>[] = [];
  /** A mailbox's sends one after another (in its lane, after those of earlier ticks). */
  const deliverChain = async (chain: readonly ClaimedSend[], firstDone: () => void, starting: () => () => void) => {
    try {
      for (const [i, c] of chain.entries()) {
        if (!(await untilClock(deps.ports.clock, c.sendAt, options.signal))) {
          unsent.push(...chain.slice(i));
          return;
        }
        const answered = starting();
        const accepted = Promise.withResolvers<'accepted'>();
        const delivered = deliverClaim({ deps, claim: c, recorder, marker, onAccepted: () => accepted.resolve('accepted') }).catch((error: unknown) => {
          // The lease hands the lead back to a later tick.
          deps.log.error({ err: error, leadId: c.leadId, sendId: c.sendId }, 'delivering a claimed send failed');
          return 'lost_claim' as const;
        });
        const recorded = delivered.then((result) => void results.set(c, result));
        // The server took the body: the next send starts while this one is recorded.
        const result = await Promise.race([accepted.promise, delivered]);
        answered();
        firstDone();
        if (result === 'accepted') {
          recording.push(recorded);
          continue;
        }
        await recorded;
        if (ENDS_CHAIN.has(result)) {
          // A claim lost before its body ended (nothing went out) goes back too, unless another claim holds its lead.
          unsent.push(...chain.slice(result === 'lost_claim' ? i : i + 1));
          return;
        }
      }
    } finally {
      firstDone();
    }
  };
  await Promise.all(
    options.chains.map((chain, k) =>
      options.lanes.run(chain, (starting) => deliverChain(chain, options.firstDone[k]!, starting), claim.readyAt.get(chain[0]!.mailbox.id)),
    ),
  );
  await Promise.all(recording);
  if (unsent.length) {
    const released = await releaseClaims(deps, unsent);
    for (const c of unsent) if (released.has(c.leadId)) results.set(c, 'released');
    deps.log.info({ released: released.size, unsent: unsent.length }, 'claimed sends not made handed back');
  }
  const outcome = (r: DeliveryResult | 'released') => claim.claims.filter((c) => results.get(c) === r).length;
  const sentFrom = [...new Set(claim.claims.filter((c) => ['sent', 'unconfirmed', 'bounced'].includes(results.get(c) ?? '')).map((c) => c.campaignId))];
  const completed = await completeFinishedCampaigns({ deps, now, workspaceIds: options.workspaceIds, sentFrom });
  return {
    claimed: claim.claims.length,
    sent: outcome('sent'),
    unconfirmed: outcome('unconfirmed'),
    bounced: outcome('bounced'),
    deferred: outcome('deferred'),
    disconnected: outcome('mailbox_disconnected'),
    released: outcome('released'),
    stopped: claim.stopped,
    waiting: claim.deferred,
    completedCampaigns: completed,
  };
}

/**
 * Moves ACTIVE campaigns with no unfinished lead to COMPLETED; their ids. `sentFrom`: the
 * campaigns a tick sent from, whose last send time becomes `now` in the same statement.
 */
export async function completeFinishedCampaigns(options: { deps: ServiceDeps; now: Date; workspaceIds?: string[]; sentFrom?: string[] }): Promise<string[]> {
  const rows = await options.deps.db.$queryRawUnsafe<{ id: string; name: string; completed: boolean }[]>(
    FINISH_TICK_SQL,
    options.workspaceIds ?? null,
    options.now.toISOString(),
    options.sentFrom ?? [],
  );
  const completed = rows.filter((row) => row.completed);
  for (const row of completed) options.deps.log.info({ campaignId: row.id, name: row.name }, 'campaign completed: every lead is finished');
  return completed.map((r) => r.id);
}

