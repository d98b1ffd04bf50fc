/**
 * Delivery of a claimed send: it goes out through its mailbox's SMTP server and the outcome
 * is recorded (the send, its bounce, the lead moved on, webhook events, the unified inbox).
 *
 * While the body goes out (the server accepted the envelope and DATA) the lead is marked
 * (pending_data_at), committed before the body's final "." is sent. A claim taken over
 * without the mark is sent again (at-least-once); one with it is recorded as sent with
 * outcome unknown and not sent again (at-most-once from the end of the body on).
 */
import { newId, type Tx } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { observerOf } from '../shared/observer';
import type { SendOutcome } from '../shared/mail-sender';
import { bouncedEmailFields, emailSentFields, emitWebhookEvent, systemAlertFields, type PayloadLead } from '../webhook/index';
import { leadsForEvents } from '../lead/index';
import { MailboxOAuthRevokedError, MailboxTokenUnavailableError, withMailboxLogin } from '../email-account/index';
import { MAX_SEND_ATTEMPTS, retryDelayMs } from './pacing.rules';
import { MARK_DATA_SQL, RECORD_SENT_SQL } from './scheduler.queries';
import { COPY_CAMPAIGN_SENDS_SQL, LEAD_THREAD_SQL } from '../unibox/index';
import { pauseOnBounceRate } from '../shared/bounce-protection.service';
import { evaluateMailboxRules } from '../account-automation/index';
import type { ClaimedSend } from './send-decision.rules';

export type DeliveryResult = 'sent' | 'unconfirmed' | 'bounced' | 'deferred' | 'mailbox_disconnected' | 'lost_claim';

/**
 * Sends one claimed e-mail and records the outcome in one transaction. While the body goes
 * out (the server accepted the envelope and DATA), the lead is marked (MARK_DATA_SQL), and
 * the body's end waits for the mark; only while this claim still holds the lead: a claim
 * lost meanwhile (taken over after its lease, the lead stopped) sends no complete body. Then:
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
export async function deliverClaim(options: { deps: ServiceDeps; claim: ClaimedSend }): Promise<DeliveryResult> {
  const { deps, claim } = options;
  const log = deps.log.child({ sendId: claim.sendId, leadId: claim.leadId, campaignId: claim.campaignId, mailbox: claim.mailbox.email });
  if (claim.dataStartedAt) {
    const recorded = await recordSend({ deps, claim, now: deps.ports.clock.now(), bounce: null, outcomeUnknown: true });
    log.warn(
      { messageId: claim.message.messageId, step: claim.step, dataStartedAt: claim.dataStartedAt },
      'recorded as sent, outcome unknown: the worker sending this e-mail stopped after handing its body to the SMTP server; not sent again',
    );
    return recorded ? 'unconfirmed' : 'lost_claim';
  }
  let lost = false;
  const beforeEndOfData = async () => {
    const marked = await deps.db.$executeRawUnsafe(MARK_DATA_SQL, claim.leadId, claim.sendId, claim.claimedAt.toISOString(), deps.ports.clock.now().toISOString());
    if (marked === 0) {
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
    log.info({ messageId: claim.message.messageId }, 'claim lost before the end of the body (taken over or the lead stopped): nothing sent');
    return 'lost_claim';
  }

  switch (outcome.status) {
    case 'sent': {
      const recorded = await recordSend({ deps, claim, now, bounce: null });
      log.debug({ messageId: claim.message.messageId, step: claim.step }, 'sent');
      return recorded ? 'sent' : 'lost_claim';
    }
    case 'rejected': {
      await recordSend({ deps, claim, now, bounce: { kind: 'hard', code: outcome.code, message: outcome.message } });
      log.info({ code: outcome.code, response: outcome.message }, 'hard bounce');
      return 'bounced';
    }
    case 'deferred': {
      const attempts = claim.attempts + 1;
      if (attempts >= MAX_SEND_ATTEMPTS) {
        await recordSend({ deps, claim, now, bounce: { kind: 'soft', code: outcome.code, message: `${attempts} attempts failed; last: ${outcome.message}` } });
        log.info({ code: outcome.code, response: outcome.message, attempts }, 'soft bounce: retries exhausted');
        return 'bounced';
      }
      const retry = new Date(now.getTime() + retryDelayMs({ attempt: attempts, seed: claim.sendId }));
      await deps.db.lead.updateMany({
        where: { id: claim.leadId, pendingSendId: claim.sendId },
        // The server refused the body or the connection failed: the mark, if any, goes (the retry sends again).
        data: { claimedAt: null, pendingDataAt: null, sendAttempts: attempts, nextSendAt: retry, statusReason: `attempt ${attempts} deferred: ${outcome.message}`.slice(0, 500) },
      });
      log.info({ code: outcome.code, response: outcome.message, attempts, retryAt: retry }, 'send deferred; will retry');
      return 'deferred';
    }
    case 'auth': {
      await deps.db.$transaction(async (tx) => {
        if (revoked) {
          await releaseLead(tx, claim, now);
          return;
        }
        const before = await tx.emailAccount.update({
          where: { id: claim.mailbox.id },
          data: { status: 'DISCONNECTED', disconnectReason: 'smtp_auth', lastError: outcome.message.slice(0, 500) },
          select: { id: true },
        });
        await emitWebhookEvent({
          tx,
          workspaceId: claim.workspaceId,
          event: 'SYSTEM_ALERT',
          campaignId: null,
          now,
          fields: systemAlertFields({
            alert_type: 'MAILBOX_DISCONNECTED',
            message: `mailbox ${claim.mailbox.email} was disconnected: its SMTP login was refused (${outcome.message})`,
            at: now,
            email_account_id: before.id,
            email: claim.mailbox.email,
          }),
        });
        await releaseLead(tx, claim, now);
      });
      if (revoked) log.warn('the mailbox\'s OAuth grant is revoked: it is DISCONNECTED, its sends stop');
      else log.warn({ response: outcome.message }, 'mailbox login refused: marked DISCONNECTED, its sends stop');
      return 'mailbox_disconnected';
    }
  }
}

/** The lead of a claim whose mailbox is disconnected waits (a first step is free to go out from another mailbox). */
async function releaseLead(tx: Tx, claim: ClaimedSend, now: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE leads SET claimed_at = NULL, next_send_at = $3::timestamptz, updated_at = $3::timestamptz,
            email_account_id = CASE WHEN current_step = 0 THEN NULL ELSE email_account_id END
      WHERE id = $1 AND pending_send_id = $2`,
    claim.leadId,
    claim.sendId,
    now.toISOString(),
  );
}

/** Records a send (accepted, bounced, or outcome unknown) and moves the lead on; true when this claim still held the lead. */
async function recordSend(options: {
  deps: ServiceDeps;
  claim: ClaimedSend;
  now: Date;
  bounce: { kind: 'hard' | 'soft'; code: number | null; message: string } | null;
  outcomeUnknown?: boolean;
}): Promise<boolean> {
  const { deps, claim, now, bounce } = options;
  const nowIso = now.toISOString();
  const result = await deps.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRawUnsafe<{ inserted: number; lead_status: string | null }[]>(
      RECORD_SENT_SQL,
      claim.sendId,
      claim.organizationId,
      claim.workspaceId,
      claim.campaignId,
      claim.parentCampaignId,
      claim.leadId,
      claim.mailbox.id,
      claim.step,
      claim.variationId,
      claim.variationLabel,
      claim.message.messageId,
      claim.message.subject,
      claim.message.html ?? claim.message.text,
      claim.message.html === null,
      nowIso,
      bounce ? nowIso : null,
      bounce ? 'BOUNCED' : null,
      bounce ? null : (claim.nextDueAt?.toISOString() ?? null),
      bounce ? bounce.message.slice(0, 1000) : null,
      options.outcomeUnknown ?? false,
    );
    const held = row?.lead_status !== null && row?.lead_status !== undefined;
    const inserted = Boolean(row?.inserted);
    const payloadLead = async (): Promise<PayloadLead> =>
      (await leadsForEvents({ tx, leadIds: [claim.leadId] })).get(claim.leadId) ?? { id: claim.leadId, email: claim.leadEmail };
    const campaign = { id: claim.campaignId, name: claim.campaignName };
    if (!bounce) {
      if (row?.inserted) {
        // A conversation already in the unified inbox (the lead, or its parent-campaign lead, wrote back) shows this send too.
        const [thread] = await tx.$queryRawUnsafe<{ id: string }[]>(LEAD_THREAD_SQL, claim.workspaceId, claim.leadId);
        if (thread) {
          await tx.$executeRawUnsafe(COPY_CAMPAIGN_SENDS_SQL, thread.id, claim.leadId, claim.sendId);
          await tx.uniboxThread.update({ where: { id: thread.id }, data: { lastMessageAt: now } });
        }
        await emitWebhookEvent({
          tx,
          workspaceId: claim.workspaceId,
          event: 'EMAIL_SENT',
          campaignId: claim.campaignId,
          now,
          fields: async () =>
            emailSentFields({
              lead: await payloadLead(),
              campaign,
              send: {
                sender_email: claim.mailbox.email,
                subject: claim.message.subject,
                body: claim.message.html ?? claim.message.text,
                step: claim.step,
                variation: claim.variationLabel,
                message_id: claim.message.messageId,
                sent_at: now,
              },
            }),
        });
      }
      return { held, inserted, paused: null };
    }
    await tx.emailEvent.create({
      data: {
        id: newId(now.getTime()),
        workspaceId: claim.workspaceId,
        sentEmailId: claim.sendId,
        campaignId: claim.campaignId,
        leadId: claim.leadId,
        type: 'BOUNCE',
        data: { kind: bounce.kind, code: bounce.code, message: bounce.message, mailbox: claim.mailbox.email },
        occurredAt: now,
      },
    });
    if (row?.lead_status === 'BOUNCED') {
      await tx.leadEvent.create({
        data: {
          id: newId(now.getTime()),
          workspaceId: claim.workspaceId,
          leadId: claim.leadId,
          campaignId: claim.campaignId,
          type: 'STATUS_CHANGED',
          data: { to: 'BOUNCED', reason: bounce.message, code: bounce.code, kind: bounce.kind },
          occurredAt: now,
        },
      });
    }
    const paused = await pauseOnBounceRate({ tx, campaignId: claim.campaignId, now });
    await emitWebhookEvent({
      tx,
      workspaceId: claim.workspaceId,
      event: 'BOUNCED_EMAIL',
      campaignId: claim.campaignId,
      now,
      fields: async () =>
        bouncedEmailFields({
          lead: await payloadLead(),
          campaign,
          bounce: { at: now, sender_email: claim.mailbox.email, message: bounce.message, bounce_type: bounce.kind, campaign_paused: paused !== null },
        }),
    });
    if (paused) {
      await emitWebhookEvent({
        tx,
        workspaceId: claim.workspaceId,
        event: 'SYSTEM_ALERT',
        campaignId: null,
        now,
        fields: systemAlertFields({ alert_type: 'CAMPAIGN_AUTO_PAUSED', message: `campaign "${claim.campaignName}" paused: ${paused}`, at: now, camp_id: claim.campaignId, campaign_name: claim.campaignName }),
      });
    }
    // The mailbox's automation rules see this bounce at once: one pausing it takes it out of
    // the rotation before the next claim (account-automation/, evaluateMailboxRules).
    await evaluateMailboxRules({ tx, emailAccountId: claim.mailbox.id, now, log: deps.log });
    return { held, inserted, paused };
  });
  // Committed: a new send row (a send recorded twice, under the same Message-ID, is counted once).
  if (result.inserted) {
    const observer = observerOf(deps);
    observer.onSent({ outcome: bounce ? 'bounced' : options.outcomeUnknown ? 'unconfirmed' : 'accepted' });
    if (bounce) observer.onBounce({ kind: bounce.kind });
  }
  if (result.paused) deps.log.warn({ campaignId: claim.campaignId, reason: result.paused }, 'campaign paused by bounce protection');
  return result.held;
}
