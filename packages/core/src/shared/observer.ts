/**
 * What the workers report as they go, for the gateway's metrics (`/metrics`, docs/operations.md,
 * "Metrics"): a port, so core names no metrics library. Each call is made after the fact it
 * reports has been committed, is synchronous, and must not throw. Without one in the service deps
 * (`observer`), nothing is observed.
 */
export interface Observer {
  /**
   * A campaign e-mail recorded as sent (a new `sent_emails` row): accepted by the server, recorded with
   * outcome unknown (a claim taken over after its body went out), or refused by the server (a bounce at
   * send time, counted as sent and bounced, as the statistics do).
   */
  onSent(event: { outcome: 'accepted' | 'unconfirmed' | 'bounced' }): void;
  /**
   * A bounce recognised: `hard`, a 5xx refusal while sending; `soft`, retries exhausted; `dsn`, a
   * delivery status notification read from a mailbox and matched to a lead.
   */
  onBounce(event: { kind: 'hard' | 'soft' | 'dsn' }): void;
  /** A message from a lead stored by the reply reader, by its classification. */
  onReply(event: { kind: 'reply' | 'out_of_office' | 'automatic_reply' }): void;
  /**
   * A worker's round ended (the sending tick, a webhook, warmup or automation round, one mailbox read
   * by the reply worker), after `ms`; `failed` when it threw.
   */
  onTick(event: { worker: WorkerName; ms: number; failed: boolean }): void;
}

/** The workers, as the metrics name them. */
export type WorkerName = 'sending' | 'reply' | 'webhook' | 'warmup' | 'automation' | 'purge';
export const WORKER_NAMES: readonly WorkerName[] = ['sending', 'reply', 'webhook', 'warmup', 'automation', 'purge'];

export const NO_OBSERVER: Observer = Object.freeze({
  onSent: () => undefined,
  onBounce: () => undefined,
  onReply: () => undefined,
  onTick: () => undefined,
});

/** The observer of these service deps, or one that observes nothing. */
export function observerOf(deps: { observer?: Observer }): Observer {
  return deps.observer ?? NO_OBSERVER;
}
