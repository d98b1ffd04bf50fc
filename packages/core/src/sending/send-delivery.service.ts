/**
 * Delivery of a claimed send: it goes out through its mailbox's SMTP server and the outcome
 * is recorded (the send, its bounce, the lead moved on, webhook events, the unified inbox).
 *
 * While the body goes out (the server accepted the envelope and DATA) the lead is marked
 * (pending_data_at), committed before the body's final "." is sent. A claim taken over
 * without the mark is sent again (at-least-once); one with it is recorded as sent with
 * outcome unknown and not sent again (at-most-once from the end of the body on).
 */
import type { Tx } from '@outreach/db';
import { createBatcher } from '../shared/batcher';
import type { ServiceDeps } from '../shared/context';
import type { SendOutcome } from '../shared/mail-sender';
import { emitSystemAlert } from '../webhook/index';
import { MailboxOAuthRevokedError, MailboxTokenUnavailableError, withMailboxLogin } from '../email-account/index';
import { MAX_SEND_ATTEMPTS, retryDelayMs } from './pacing.rules';
import { MARK_DATA_SQL, RELEASE_CLAIMS_SQL } from './scheduler.queries';
import type { ClaimedSend } from './send-decision.rules';
import { recordSend, type AcceptedSend, type SendRecorder } from './send-record.service';

export type DeliveryResult = 'sent' | 'unconfirmed' | 'bounced' | 'deferred' | 'mailbox_disconnected' | 'lost_claim';

export interface DataMarker {
  /** Marks the claim's lead (MARK_DATA_SQL) and commits; false when the claim no longer holds it. */
  mark(claim: ClaimedSend): Promise<boolean>;
}

/** How many sends one DATA mark statement marks at most. */
export const MARK_BATCH_SIZE = 100;

/**
 * DATA marks in batches (one marker per tick): the sends of a tick reach DATA within a few ms
 * of each other, and each used to commit its mark on its own, a statement and a commit per
 * e-mail on the way to its end of body. A mark goes at the next turn of the event loop, with
 * the marks asked for while another batch is written (shared/batcher.ts); each body still ends
 * only after its own mark is committed.
 */
export function createDataMarker(options: { deps: ServiceDeps; batchSize?: number }): DataMarker {
  const { deps } = options;
  const mark = createBatcher<ClaimedSend, boolean>({
    size: options.batchSize ?? MARK_BATCH_SIZE,
    write: async (batch) => {
      const claims = batch.map((p) => p.item);
      const marked = await deps.db.$queryRawUnsafe<{ id: string }[]>(
        MARK_DATA_SQL,
        claims.map((c) => c.leadId),
        claims.map((c) => c.sendId),
        claims.map((c) => c.claimedAt.toISOString()),
        deps.ports.clock.now().toISOString(),
      );
      const ids = new Set(marked.map((r) => r.id));
      for (const p of batch) p.resolve(ids.has(p.item.leadId));
    },
  });
  return { mark };
}

/**
 * Sends one claimed e-mail and records the outcome (send-record.service.ts). While the body goes
 * out (the server accepted the envelope and DATA), the lead is marked (MARK_DATA_SQL, with the
 * tick's other marks: createDataMarker), and the body's end waits for the mark; only while this
 * claim still holds the lead: a claim lost meanwhile (taken over after its lease, the lead
 * stopped) sends no complete body. Then:
 * - accepted: the send is recorded, the lead moves to its next step (or completes);
 * - 5xx: a hard bounce, recorded as a send with its bounce; the lead becomes BOUNCED;
 * - 4xx / connection failure: retried later with backoff, a bounce after 3 failures;
 * - login refused: the mailbox is marked DISCONNECTED and the lead waits (a first step
 *   is free to go out from another mailbox). An XOAUTH2 mailbox logs in with its current
 *   access token and, refused, once more with a new one; a revoked grant has disconnected it
 *   already (oauth-token.service), and the lead waits the same way.
 * A bounce may pause the campaign (bounce protection), and the mailbox's automation rules are
 * evaluated in the transaction that records it (a rule may pause the mailbox).
 * A claim whose earlier attempt died with its body going out (dataStartedAt) is not sent:
 * it is recorded as sent, outcome unknown (`unconfirmed`), and logged at warn.
 */
export async function deliverClaim(options: {
  deps: ServiceDeps;
  claim: ClaimedSend;
  /** Records accepted sends together with others of the tick (send-record.service.ts); each on its own when absent. */
  recorder?: SendRecorder;
  /** Marks DATA together with others of the tick (createDataMarker); on its own when absent. */
  marker?: DataMarker;
  /**
   * Called once the server has accepted the body, before the send is recorded: the mailbox's next
   * send may start while this one is written (a tick's chain: send-tick.service.ts).
   */
  onAccepted?: () => void;
}): Promise<DeliveryResult> {
  const { deps, claim } = options;
  const marker = options.marker ?? createDataMarker({ deps, batchSize: 1 });
  const recordAccepted = (send: AcceptedSend) =>
    options.recorder ? options.recorder.record(send) : recordSend({ deps, claim: send.claim, now: send.now, bounce: null, outcomeUnknown: send.outcomeUnknown });
  // Made when first used: most sends log nothing above debug, and a child logger serialises its fields when made.
  let child: ServiceDeps['log'] | null = null;
  const log = () => (child ??= deps.log.child({ sendId: claim.sendId, leadId: claim.leadId, campaignId: claim.campaignId, mailbox: claim.mailbox.email }));
  if (claim.dataStartedAt) {
    const recorded = await recordAccepted({ claim, now: deps.ports.clock.now(), outcomeUnknown: true });
    log().warn(
      { messageId: claim.message.messageId, step: claim.step, dataStartedAt: claim.dataStartedAt },
      'recorded as sent, outcome unknown: the worker sending this e-mail stopped after handing its body to the SMTP server; not sent again',
    );
    return recorded ? 'unconfirmed' : 'lost_claim';
  }
  let lost = false;
  const beforeEndOfData = async () => {
    if (!(await marker.mark(claim))) {
      lost = true;
      throw new Error('the claim was taken over or the lead stopped: the body is cut off');
    }
  };
  let outcome: SendOutcome;
  /** The OAuth grant is gone: the mailbox is already disconnected (and the alert emitted). */
  let revoked = false;
  try {
    // XOAUTH2 mailboxes log in with their current access token, and once more with a new one when it is refused.
    outcome = await withMailboxLogin({
      deps,
      mailbox: { id: claim.mailbox.id, authType: claim.mailbox.authType, host: claim.mailbox.smtpHost, port: claim.mailbox.smtpPort, username: claim.mailbox.smtpUsername, passwordEnc: claim.mailbox.smtpPasswordEnc },
      attempt: (smtp) => deps.ports.smtp.send({ mailboxId: claim.mailbox.id, version: claim.mailbox.version, smtp, message: claim.message, beforeEndOfData }),
      refused: (result) => result.status === 'auth' && !lost,
    });
  } catch (error) {
    if (error instanceof MailboxOAuthRevokedError) {
      revoked = true;
      outcome = { status: 'auth', code: null, message: error.message };
    } else if (error instanceof MailboxTokenUnavailableError) {
      // No access token now (the provider unreachable): as a server that could not be reached.
      outcome = { status: 'deferred', code: null, message: error.message };
    } else {
      // The password cannot be decrypted (another key): nothing will work until it is re-entered.
      outcome = { status: 'auth', code: null, message: `cannot read the mailbox password: ${(error as Error).message}` };
    }
  }
  const now = deps.ports.clock.now();
  if (lost) {
    log().info({ messageId: claim.message.messageId }, 'claim lost before the end of the body (taken over or the lead stopped): nothing sent');
    return 'lost_claim';
  }

  switch (outcome.status) {
    case 'sent': {
      options.onAccepted?.();
      const recorded = await recordAccepted({ claim, now, outcomeUnknown: false });
      if (deps.log.isLevelEnabled('debug')) log().debug({ messageId: claim.message.messageId, step: claim.step }, 'sent');
      return recorded ? 'sent' : 'lost_claim';
    }
    case 'rejected': {
      await recordSend({ deps, claim, now, bounce: { kind: 'hard', code: outcome.code, message: outcome.message } });
      log().info({ code: outcome.code, response: outcome.message }, 'hard bounce');
      return 'bounced';
    }
    case 'deferred': {
      const attempts = claim.attempts + 1;
      if (attempts >= MAX_SEND_ATTEMPTS) {
        await recordSend({ deps, claim, now, bounce: { kind: 'soft', code: outcome.code, message: `${attempts} attempts failed; last: ${outcome.message}` } });
        log().info({ code: outcome.code, response: outcome.message, attempts }, 'soft bounce: retries exhausted');
        return 'bounced';
      }
      const retry = new Date(now.getTime() + retryDelayMs({ attempt: attempts, seed: claim.sendId }));
      await deps.db.lead.updateMany({
        where: { id: claim.leadId, pendingSendId: claim.sendId },
        // The server refused the body or the connection failed: the mark, if any, goes (the retry sends again).
        data: { claimedAt: null, pendingDataAt: null, sendAttempts: attempts, nextSendAt: retry, statusReason: `attempt ${attempts} deferred: ${outcome.message}`.slice(0, 500) },
      });
      log().info({ code: outcome.code, response: outcome.message, attempts, retryAt: retry }, 'send deferred; will retry');
      return 'deferred';
    }
    case 'auth': {
      const marked = await deps.db.$transaction(async (tx) => {
        if (revoked) {
          await releaseLead(tx, claim, now);
          return true;
        }
        // A mailbox deleted meanwhile has nothing left to disconnect (nor anyone to alert about it).
        const disconnected = await tx.emailAccount.updateMany({
          where: { id: claim.mailbox.id },
          data: { status: 'DISCONNECTED', disconnectReason: 'smtp_auth', lastError: outcome.message.slice(0, 500) },
        });
        if (disconnected.count) {
          await emitSystemAlert({
            tx,
            workspaceId: claim.workspaceId,
            now,
            alert: {
              alert_type: 'MAILBOX_DISCONNECTED',
              message: `mailbox ${claim.mailbox.email} was disconnected: its SMTP login was refused (${outcome.message})`,
              email_account_id: claim.mailbox.id,
              email: claim.mailbox.email,
            },
          });
        }
        await releaseLead(tx, claim, now);
        return disconnected.count > 0;
      });
      if (revoked) log().warn('the mailbox\'s OAuth grant is revoked: it is DISCONNECTED, its sends stop');
      else if (marked) log().warn({ response: outcome.message }, 'mailbox login refused: marked DISCONNECTED, its sends stop');
      else log().info({ response: outcome.message }, 'mailbox login refused, and the mailbox was deleted meanwhile: its lead waits for another');
      return 'mailbox_disconnected';
    }
  }
}

/**
 * The lead of a claim whose mailbox is disconnected waits, due now (a first step is free to go
 * out from another mailbox): handed back as a tick hands back the sends it did not make.
 */
async function releaseLead(tx: Tx, claim: ClaimedSend, now: Date): Promise<void> {
  const nowIso = now.toISOString();
  await tx.$queryRawUnsafe(RELEASE_CLAIMS_SQL, [claim.leadId], [claim.sendId], [claim.claimedAt.toISOString()], [nowIso], nowIso);
}
