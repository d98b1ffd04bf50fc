/**
 * Recording what a delivery did: a send accepted, bounced, or sent with outcome unknown, and
 * the lead moved on (send-delivery.service.ts decides which).
 *
 * Accepted sends (and those recorded with outcome unknown) of a tick are recorded together
 * (createSendRecorder): a batch is one set-based statement (RECORD_SENTS_SQL: the sends, their
 * leads, mailboxes and unibox threads), or, when a webhook listens for EMAIL_SENT, one
 * transaction of that statement and the events, instead of one transaction of about five round
 * trips per e-mail. A batch goes when it is full or at the next turn of the
 * event loop when none is being written, so a lone send is not held back, and sends answered
 * while one batch is written go together in the next one. A batch that fails is recorded
 * send by send (recordSend), so one bad row loses no other. Bounces are recorded one by one.
 */
import { newId } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { createBatcher, type Pending } from '../shared/batcher';
import { runRetryingConcurrentChanges } from '../shared/operation-retry';
import { observerOf } from '../shared/observer';
import { bouncedEmailFields, emailSentFields, emitSystemAlert, emitWebhookEvent, emitWebhookEvents, type PayloadLead } from '../webhook/index';
import { leadsForEvents } from '../lead/index';
import { RECORD_SENT_SQL } from './scheduler.queries';
import { RECORD_SENTS_SQL, type SentRow } from './send-record.queries';
import { COPY_SENDS_INTO_THREADS_SQL } from '../unibox/index';
import { pauseOnBounceRate } from '../shared/bounce-protection.service';
import { evaluateMailboxRules } from '../account-automation/index';
import type { ClaimedSend } from './send-decision.rules';

/** An e-mail the server accepted, or one recorded without its answer (outcome unknown). */
export interface AcceptedSend {
  claim: ClaimedSend;
  now: Date;
  outcomeUnknown: boolean;
}

export interface SendRecorder {
  /** Records an accepted send with others; true when this claim still held the lead. */
  record(send: AcceptedSend): Promise<boolean>;
}

/** How many sends a batch records at most. */
export const SEND_BATCH_SIZE = 50;

type Waiting = Pending<AcceptedSend, boolean>;

/**
 * A recorder of accepted sends in batches (one per tick: a batch holds at most one send per lead).
 * A batch goes out when it reaches `batchSize`, or at the next turn of the event loop when no
 * batch is being written; sends arriving while one is go together once it is done (shared/batcher.ts).
 */
export function createSendRecorder(options: { deps: ServiceDeps; batchSize?: number }): SendRecorder {
  const { deps } = options;
  const record = createBatcher<AcceptedSend, boolean>({ size: options.batchSize ?? SEND_BATCH_SIZE, write: (batch) => recordBatch(deps, batch) });
  return { record };
}

/** The send's part of an EMAIL_SENT payload. */
const sendFields = (claim: ClaimedSend, now: Date) => ({
  sender_email: claim.mailbox.email,
  subject: claim.message.subject,
  body: claim.message.html ?? claim.message.text,
  step: claim.step,
  variation: claim.variationLabel,
  message_id: claim.message.messageId,
  sent_at: now,
});

const sentRow = ({ claim, now, outcomeUnknown }: AcceptedSend): SentRow => ({
  id: claim.sendId,
  organization_id: claim.organizationId,
  workspace_id: claim.workspaceId,
  campaign_id: claim.campaignId,
  parent_campaign_id: claim.parentCampaignId,
  lead_id: claim.leadId,
  email_account_id: claim.mailbox.id,
  step: claim.step,
  variation_id: claim.variationId,
  variation_label: claim.variationLabel,
  message_id: claim.message.messageId,
  subject: claim.message.subject,
  body: claim.message.html ?? claim.message.text,
  is_text: claim.message.html === null,
  sent_at: now.toISOString(),
  next_due_at: claim.nextDueAt?.toISOString() ?? null,
  outcome_unknown: outcomeUnknown,
});

/** `gone`: the send's lead or campaign was deleted while its e-mail went out; nothing was written for it. */
type RecordedRow = { id: string; inserted: boolean; lead_status: string | null; listened: boolean; gone: boolean };

/** Logs the sends that went out to a lead, or from a campaign, deleted meanwhile (not recorded). */
function logGone(deps: ServiceDeps, claims: readonly ClaimedSend[]): void {
  if (!claims.length) return;
  deps.log.info(
    { sends: claims.map((c) => ({ sendId: c.sendId, leadId: c.leadId, campaignId: c.campaignId, messageId: c.message.messageId })) },
    'sent, not recorded: the lead or its campaign was deleted while the e-mail went out',
  );
}

/**
 * Records a batch, or, should that fail, each send on its own; settles every send's promise.
 * When no EMAIL_SENT webhook listened at the claim (ClaimedSend.emailSentWebhook) the batch is
 * one statement outside a transaction (RECORD_SENTS_SQL with $2 true: one round trip instead of
 * five); a webhook that started listening since writes nothing there, and the batch is recorded
 * again in a transaction with its events, as a batch with a listener is at once. A batch that
 * met a concurrent change (a deadlock with a delete) is written again first
 * (runRetryingConcurrentChanges): its e-mails have left, whatever changed around them.
 */
async function recordBatch(deps: ServiceDeps, batch: Waiting[]): Promise<void> {
  let rows: Map<string, RecordedRow>;
  const json = JSON.stringify(batch.map((p) => sentRow(p.item)));
  try {
    rows = await runRetryingConcurrentChanges({ name: 'sending.recordSends', ctx: deps, run: (attemptDeps) => writeBatch(attemptDeps, batch, json) });
  } catch (error) {
    deps.log.warn({ err: error, sends: batch.length }, 'recording a batch of sends failed; recording each on its own');
    await Promise.all(
      batch.map(({ item: s, resolve, reject }) => recordSend({ deps, claim: s.claim, now: s.now, bounce: null, outcomeUnknown: s.outcomeUnknown }).then(resolve, reject)),
    );
    return;
  }
  // Committed: new send rows (a send recorded twice, under the same Message-ID, is counted once).
  const observer = observerOf(deps);
  for (const { item: s, resolve } of batch) {
    const row = rows.get(s.claim.sendId);
    if (row?.inserted) observer.onSent({ outcome: s.outcomeUnknown ? 'unconfirmed' : 'accepted' });
    resolve(row?.lead_status !== null && row?.lead_status !== undefined);
  }
  logGone(deps, batch.filter((p) => rows.get(p.item.claim.sendId)?.gone).map((p) => p.item.claim));
}

/** One attempt at writing a batch (recordBatch); its rows by send id. */
async function writeBatch(deps: ServiceDeps, batch: Waiting[], json: string): Promise<Map<string, RecordedRow>> {
  let alone: RecordedRow[] | null = null;
  if (!batch.some((p) => p.item.claim.emailSentWebhook)) {
    const recorded = await deps.db.$queryRawUnsafe<RecordedRow[]>(RECORD_SENTS_SQL, json, true);
    if (!recorded.some((r) => r.listened)) alone = recorded;
  }
  if (alone) return new Map(alone.map((r) => [r.id, r]));
  return deps.db.$transaction(async (tx) => {
    const recorded = await tx.$queryRawUnsafe<RecordedRow[]>(RECORD_SENTS_SQL, json, false);
    const byId = new Map(recorded.map((r) => [r.id, r]));
    const fresh = batch.map((p) => p.item).filter((s) => byId.get(s.claim.sendId)?.inserted);
    await emitWebhookEvents({
      tx,
      event: 'EMAIL_SENT',
      items: fresh.map((s) => ({ ...s, workspaceId: s.claim.workspaceId, campaignId: s.claim.campaignId })),
      fields: async (subscribed) => {
        const leads = await leadsForEvents({ tx, leadIds: subscribed.map((s) => s.claim.leadId) });
        return subscribed.map(({ claim, now }) =>
          emailSentFields({
            lead: leads.get(claim.leadId) ?? { id: claim.leadId, email: claim.leadEmail },
            campaign: { id: claim.campaignId, name: claim.campaignName },
            send: sendFields(claim, now),
          }),
        );
      },
    });
    return byId;
  });
}

/** Records a send (accepted, bounced, or outcome unknown) and moves the lead on; true when this claim still held the lead. */
export async function recordSend(options: {
  deps: ServiceDeps;
  claim: ClaimedSend;
  now: Date;
  bounce: { kind: 'hard' | 'soft'; code: number | null; message: string } | null;
  outcomeUnknown?: boolean;
}): Promise<boolean> {
  const { deps, claim, bounce } = options;
  // Again after a deadlock with a delete: the e-mail has left (or bounced), whatever changed around it.
  const result = await runRetryingConcurrentChanges({ name: 'sending.recordSend', ctx: deps, run: (attemptDeps) => writeSend({ ...options, deps: attemptDeps }) });
  // Committed: a new send row (a send recorded twice, under the same Message-ID, is counted once).
  if (result.inserted) {
    const observer = observerOf(deps);
    observer.onSent({ outcome: bounce ? 'bounced' : options.outcomeUnknown ? 'unconfirmed' : 'accepted' });
    if (bounce) observer.onBounce({ kind: bounce.kind });
  }
  if (result.paused) deps.log.warn({ campaignId: claim.campaignId, reason: result.paused }, 'campaign paused by bounce protection');
  if (result.gone) logGone(deps, [claim]);
  return result.held;
}

/** One attempt at recordSend, in one transaction. */
async function writeSend(options: Parameters<typeof recordSend>[0]): Promise<{ held: boolean; inserted: boolean; paused: string | null; gone: boolean }> {
  const { deps, claim, now, bounce } = options;
  const nowIso = now.toISOString();
  return deps.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRawUnsafe<{ inserted: number; lead_status: string | null; gone: boolean }[]>(
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
    // The lead or its campaign deleted while the e-mail went out: nothing to record it with.
    if (row?.gone) return { held, inserted, paused: null, gone: true };
    const payloadLead = async (): Promise<PayloadLead> =>
      (await leadsForEvents({ tx, leadIds: [claim.leadId] })).get(claim.leadId) ?? { id: claim.leadId, email: claim.leadEmail };
    const campaign = { id: claim.campaignId, name: claim.campaignName };
    if (!bounce) {
      if (row?.inserted) {
        // A conversation already in the unified inbox (the lead, or its parent-campaign lead, wrote back) shows this send too.
        await tx.$queryRawUnsafe(COPY_SENDS_INTO_THREADS_SQL, [claim.sendId]);
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
              send: sendFields(claim, now),
            }),
        });
      }
      return { held, inserted, paused: null, gone: false };
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
      await emitSystemAlert({
        tx,
        workspaceId: claim.workspaceId,
        now,
        alert: { alert_type: 'CAMPAIGN_AUTO_PAUSED', message: `campaign "${claim.campaignName}" paused: ${paused}`, camp_id: claim.campaignId, campaign_name: claim.campaignName },
      });
    }
    // The mailbox's automation rules see this bounce at once: one pausing it takes it out of
    // the rotation before the next claim (account-automation/, evaluateMailboxRules).
    await evaluateMailboxRules({ tx, emailAccountId: claim.mailbox.id, now, log: deps.log });
    return { held, inserted, paused, gone: false };
  });
}
