/**
 * What happens to one message read from a mailbox's INBOX: it is parsed, recognised
 * (bounce, out-of-office, automatic reply, reply), matched to what we sent, stored in the
 * unified inbox, and acted on (lead status, sequence stop, statistics, subsequence
 * enrolment, webhook events), all in one transaction. Storing is idempotent on the
 * Message-ID: a message read twice (a restart, a UIDVALIDITY reset, two workers) is
 * stored and acted on once.
 */
import { createHash } from 'node:crypto';
import { newId, type Prisma, type Tx } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { observerOf } from '../shared/observer';
import { afterLabelChanged, enrolOnTrigger, leadsForEvents } from '../lead/index';
import { bouncedEmailFields, emitSystemAlert, emitWebhookEvent, replyEventFields, type ReplyKind, type Sentiment } from '../webhook/index';
import { pauseOnBounceRate } from '../shared/bounce-protection.service';
import { isWarmupMail } from '../shared/warmup-code';
import { classifyIncoming, type Classification } from './incoming.rules';
import { stripQuotedReply } from './quoted-reply.rules';
import { parseIncoming, storableText, type ParsedIncoming } from './parse-incoming';
import { isReadable } from './readable-mailbox.rules';
import { COPY_CAMPAIGN_SENDS_SQL, LEAD_THREAD_SQL } from '../unibox/index';

/** Free-mail domains: a sender there is never taken for a colleague of a lead at the same domain. */
export const SHARED_MAIL_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.com', 'gmx.de', 'gmx.net',
  'web.de', 'mail.com', 'yandex.com', 'yandex.ru', 'zoho.com', 'fastmail.com', 'hey.com', 'qq.com', '163.com',
]);

export interface IngestMailbox {
  id: string;
  workspaceId: string;
  organizationId: string;
  email: string;
}

export type IngestResult =
  | { status: 'stored'; messageId: string; kind: Classification['kind'] | 'unparsed'; matched: boolean; leadId: string | null; unibox_id: string }
  | { status: 'duplicate' | 'own' | 'warmup'; messageId: string }
  /** The mailbox was deleted, paused or disconnected (its workspace deleted) as the message was to be stored: nothing was. */
  | { status: 'not_read'; messageId: string };

/**
 * Holds the mailbox for the transaction storing a message (FOR SHARE: a change of its status, its
 * workspace's deletion disconnecting it, waits for the message, or the message for it) and answers
 * whether it is still one the reader reads: a workspace deleted while a message of it was being
 * stored got the message after the delete had answered. Taken after the campaign and lead, the order
 * in which a workspace's deletion takes its campaigns and then its mailboxes.
 */
async function holdReadableMailbox(tx: Tx, mailboxId: string): Promise<boolean> {
  const [row] = await tx.$queryRawUnsafe<{ status: string; disconnect_reason: string | null }[]>(
    'SELECT status::text AS status, disconnect_reason FROM email_accounts WHERE id = $1 FOR SHARE',
    mailboxId,
  );
  return row !== undefined && isReadable(row);
}

interface Match {
  leadId: string | null;
  /** The send this message answers (or bounces). */
  sentEmailId: string | null;
  /** An existing unibox thread it belongs to. */
  threadId: string | null;
  fromOtherAddress: boolean;
}

interface LeadRow {
  id: string;
  campaign_id: string;
  status: string;
  label: string | null;
  is_completed: boolean;
  source_lead_id: string | null;
  stop_on_lead_replied: boolean;
}

const bare = (id: string) => id.trim().replace(/^<+/, '').replace(/>+$/, '').trim();

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** Finds the lead and send a message is about: In-Reply-To, then References, then the sender, then the sender's domain. */
async function matchMessage(options: { tx: Tx; mailbox: IngestMailbox; message: ParsedIncoming; classification: Classification }): Promise<Match> {
  const { tx, mailbox, message, classification } = options;
  const none: Match = { leadId: null, sentEmailId: null, threadId: null, fromOtherAddress: false };
  const ids: string[] = [];
  if (classification.kind === 'bounce' && classification.originalMessageId) ids.push(bare(classification.originalMessageId));
  if (message.inReplyTo) ids.push(bare(message.inReplyTo));
  ids.push(...[...message.references].reverse().map(bare));
  for (const id of ids.filter(Boolean)) {
    const [sent] = await tx.$queryRawUnsafe<{ id: string; lead_id: string }[]>(
      'SELECT id, lead_id FROM sent_emails WHERE workspace_id = $1 AND message_id = $2',
      mailbox.workspaceId,
      id,
    );
    const [known] = await tx.$queryRawUnsafe<{ thread_id: string; lead_id: string | null; sent_email_id: string | null }[]>(
      'SELECT thread_id, lead_id, sent_email_id FROM unibox_messages WHERE workspace_id = $1 AND message_id = $2',
      mailbox.workspaceId,
      id,
    );
    if (sent || known) {
      const leadId = sent?.lead_id ?? known?.lead_id ?? null;
      const from = message.from[0]?.address ?? '';
      let fromOther = false;
      if (leadId && from && classification.kind !== 'bounce') {
        const [lead] = await tx.$queryRawUnsafe<{ email_normalized: string }[]>('SELECT email_normalized FROM leads WHERE id = $1', leadId);
        fromOther = Boolean(lead && lead.email_normalized !== from);
      }
      return { leadId, sentEmailId: sent?.id ?? known?.sent_email_id ?? null, threadId: known?.thread_id ?? null, fromOtherAddress: fromOther };
    }
  }
  // A bounce without the original's id: the failed recipient among the leads this mailbox wrote to.
  const address = classification.kind === 'bounce' ? classification.failedRecipient?.toLowerCase() : message.from[0]?.address;
  if (!address) return none;
  const [byAddress] = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM leads WHERE email_account_id = $1 AND email_normalized = $2 AND current_step > 0
      ORDER BY last_sent_at DESC NULLS LAST, id DESC LIMIT 1`,
    mailbox.id,
    address,
  );
  if (byAddress) return { leadId: byAddress.id, sentEmailId: null, threadId: null, fromOtherAddress: false };
  if (classification.kind === 'bounce') return none;
  const domain = domainOf(address);
  if (!domain || SHARED_MAIL_DOMAINS.has(domain)) return none;
  // A colleague answering: the latest lead at the same domain this mailbox wrote to.
  const [byDomain] = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM leads WHERE email_account_id = $1 AND split_part(email_normalized, '@', 2) = $2 AND current_step > 0
      ORDER BY last_sent_at DESC NULLS LAST, id DESC LIMIT 1`,
    mailbox.id,
    domain,
  );
  return byDomain ? { leadId: byDomain.id, sentEmailId: null, threadId: null, fromOtherAddress: true } : none;
}

/** The thread for a lead's conversation with a mailbox; a new one carries our campaign e-mails to the lead as its first messages. */
async function threadForLead(options: { tx: Tx; mailbox: IngestMailbox; leadId: string; campaignId: string; subject: string; at: Date }): Promise<string> {
  const { tx, mailbox, leadId } = options;
  const [existing] = await tx.$queryRawUnsafe<{ id: string }[]>(LEAD_THREAD_SQL, mailbox.workspaceId, leadId);
  if (existing) return existing.id;
  const threadId = newId(options.at.getTime());
  await tx.uniboxThread.create({
    data: { id: threadId, workspaceId: mailbox.workspaceId, emailAccountId: mailbox.id, leadId, campaignId: options.campaignId, subject: options.subject, lastMessageAt: options.at },
  });
  // Our side of the conversation: the campaign e-mails to this lead (and to its parent-campaign lead).
  await tx.$executeRawUnsafe(COPY_CAMPAIGN_SENDS_SQL, threadId, leadId, null);
  return threadId;
}

/**
 * Keeps a message that cannot be taken in (unreadable, or its ingestion keeps failing) as
 * it came, with the error, in "others": nothing is lost, and the mailbox reads on. Once per
 * message (its digest is its Message-ID here).
 */
export async function keepUnreadable(options: { deps: ServiceDeps; mailbox: IngestMailbox; raw: Buffer; uid?: bigint | null; receivedAt?: Date | null; error: string }): Promise<IngestResult> {
  const { deps, mailbox, raw } = options;
  const now = deps.ports.clock.now();
  const digest = createHash('sha256').update(raw).digest('hex').slice(0, 32);
  const messageId = `unparsed-${digest}@${domainOf(mailbox.email) || 'localhost'}`;
  return deps.db.$transaction(async (tx): Promise<IngestResult> => {
    const exists = await tx.uniboxMessage.findUnique({ where: { workspaceId_messageId: { workspaceId: mailbox.workspaceId, messageId } }, select: { id: true } });
    if (exists) return { status: 'duplicate' as const, messageId };
    if (!(await holdReadableMailbox(tx, mailbox.id))) return { status: 'not_read', messageId };
    const threadId = newId(now.getTime());
    const id = newId(now.getTime());
    await tx.uniboxThread.create({ data: { id: threadId, workspaceId: mailbox.workspaceId, emailAccountId: mailbox.id, subject: '', isUnread: true, lastMessageAt: now } });
    await tx.uniboxMessage.create({
      data: {
        id, workspaceId: mailbox.workspaceId, threadId, emailAccountId: mailbox.id, direction: 'IN', folder: 'OTHERS', messageId,
        fromAddress: '', isUnread: true, raw: storableText(raw.toString('utf8')), parseError: storableText(options.error.slice(0, 2000)),
        imapUid: options.uid ?? null, receivedAt: options.receivedAt ?? now, classification: 'UNPARSED',
      },
    });
    return { status: 'stored' as const, messageId, kind: 'unparsed' as const, matched: false, leadId: null, unibox_id: id };
  });
}

/** Parses, recognises, matches, stores and acts on one raw message read from `mailbox`. */
export async function ingestMessage(options: { deps: ServiceDeps; mailbox: IngestMailbox; raw: Buffer; uid?: bigint | null; receivedAt?: Date | null }): Promise<IngestResult> {
  const { deps, mailbox, raw } = options;
  const now = deps.ports.clock.now();
  const parsed = await parseIncoming(raw);
  const digest = createHash('sha256').update(raw).digest('hex').slice(0, 32);

  if (!parsed.ok) return keepUnreadable({ deps, mailbox, raw, uid: options.uid, receivedAt: options.receivedAt, error: parsed.error });

  const message = parsed.message;
  const messageId = message.messageId ? bare(message.messageId) : `generated-${digest}@${domainOf(mailbox.email) || 'localhost'}`;
  const from = message.from[0]?.address ?? '';
  const classification = classifyIncoming(message);
  const receivedAt = options.receivedAt ?? message.date ?? now;

  const result = await deps.db.$transaction(async (tx): Promise<IngestResult> => {
    const exists = await tx.uniboxMessage.findUnique({ where: { workspaceId_messageId: { workspaceId: mailbox.workspaceId, messageId } }, select: { id: true } });
    if (exists) return { status: 'duplicate', messageId };
    // Our own e-mails (a copy of a send, or a message between two of our mailboxes we wrote) are not replies.
    const [own] = await tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM sent_emails WHERE workspace_id = $1 AND message_id = $2', mailbox.workspaceId, messageId);
    if (own || from === mailbox.email.toLowerCase()) return { status: 'own', messageId };
    // Warmup e-mails (the code in their body) are the warmup engine's: never a reply, a lead's or the unibox's.
    if (await isWarmupMail({ db: tx, text: `${message.text}\n${message.html}` })) return { status: 'warmup', messageId };

    const match = await matchMessage({ tx, mailbox, message, classification });
    // The lead's campaign first, then the lead: the order in which deleting the campaign takes
    // them (the campaign, then its leads), or the two deadlock (the campaign is updated below).
    if (match.leadId) {
      await tx.$queryRawUnsafe('SELECT c.id FROM campaigns c JOIN leads l ON l.campaign_id = c.id WHERE l.id = $1 FOR NO KEY UPDATE OF c', match.leadId);
    }
    const [lead] = match.leadId
      ? await tx.$queryRawUnsafe<LeadRow[]>(
          `SELECT l.id, l.campaign_id, l.status::text AS status, l.label, l.is_completed, l.source_lead_id, c.stop_on_lead_replied
             FROM leads l JOIN campaigns c ON c.id = l.campaign_id WHERE l.id = $1 FOR UPDATE OF l`,
          match.leadId,
        )
      : [];
    if (!(await holdReadableMailbox(tx, mailbox.id))) return { status: 'not_read', messageId };
    // The send it answers: the matched one, else the lead's latest.
    let sentEmailId = match.sentEmailId;
    if (lead && !sentEmailId) {
      const [latest] = await tx.$queryRawUnsafe<{ id: string }[]>(
        'SELECT id FROM sent_emails WHERE lead_id = $1 ORDER BY sent_at DESC, id DESC LIMIT 1',
        lead.id,
      );
      sentEmailId = latest?.id ?? null;
    }

    const kindLabel = classification.kind === 'out_of_office' ? 'OUT_OF_OFFICE' : classification.kind === 'automatic_reply' ? 'AUTOMATIC_REPLY' : null;
    // Bounces and unmatched mail go to "others"; conversations with leads to the inbox.
    const folder = lead && classification.kind !== 'bounce' ? 'INBOX' : 'OTHERS';
    const threadId =
      match.threadId ??
      (lead && classification.kind !== 'bounce'
        ? await threadForLead({ tx, mailbox, leadId: lead.id, campaignId: lead.campaign_id, subject: message.subject, at: receivedAt })
        : null) ??
      newId(now.getTime());
    if (!match.threadId && !(lead && classification.kind !== 'bounce')) {
      await tx.uniboxThread.create({
        data: { id: threadId, workspaceId: mailbox.workspaceId, emailAccountId: mailbox.id, leadId: lead?.id ?? null, campaignId: lead?.campaign_id ?? null, subject: message.subject, lastMessageAt: receivedAt },
      });
    }
    const id = newId(now.getTime());
    const classificationName = { bounce: 'BOUNCE', out_of_office: 'OUT_OF_OFFICE', automatic_reply: 'AUTOMATIC_REPLY', reply: lead ? 'REPLY' : 'OTHER' }[classification.kind];
    await tx.uniboxMessage.create({
      data: {
        id,
        workspaceId: mailbox.workspaceId,
        threadId,
        emailAccountId: mailbox.id,
        leadId: lead?.id ?? null,
        campaignId: lead?.campaign_id ?? null,
        sentEmailId,
        direction: 'IN',
        folder,
        messageId,
        inReplyTo: message.inReplyTo ? bare(message.inReplyTo) : null,
        references: message.references.map(bare),
        fromAddress: from,
        fromJson: message.from as unknown as Prisma.InputJsonValue,
        toJson: message.to as unknown as Prisma.InputJsonValue,
        ccJson: message.cc as unknown as Prisma.InputJsonValue,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html,
        isUnread: true,
        label: kindLabel ?? lead?.label ?? null,
        classification: classificationName,
        fromOtherAddress: match.fromOtherAddress,
        attachments: message.attachments.map((a) => ({ file_name: a.fileName, content_type: a.contentType, size: a.size })),
        imapUid: options.uid ?? null,
        receivedAt,
      },
    });
    await tx.uniboxThread.update({ where: { id: threadId }, data: { isUnread: true, lastMessageAt: receivedAt } });
    const stored: IngestResult = { status: 'stored', messageId, kind: classification.kind, matched: Boolean(lead), leadId: lead?.id ?? null, unibox_id: id };
    if (!lead) return stored;

    let eventLead: Awaited<ReturnType<typeof leadsForEvents>> extends Map<string, infer L> ? L | undefined : never;
    const payloadLead = async () => (eventLead ??= (await leadsForEvents({ tx, leadIds: [lead.id] })).get(lead.id));
    const campaignOf = async () => {
      const row = await payloadLead();
      return { id: lead.campaign_id, name: row?.campaign_name ?? '' };
    };
    const replyFields = (options: { label: string | null; extra?: Record<string, unknown> }) => async () => ({
      ...replyEventFields({
        lead: (await payloadLead()) ?? { id: lead.id, email: from },
        campaign: await campaignOf(),
        reply: {
          id,
          from_email: from,
          to_email: message.to.map((t) => t.address),
          email_account_name: mailbox.email,
          cc: message.cc.map((t) => t.address),
          subject: message.subject,
          text_body: message.text,
          html_body: message.html,
          snippet_text: newText,
          replied_at: receivedAt,
          thread_id: threadId,
          message_id: messageId,
          in_reply_to: message.inReplyTo,
        },
        label: options.label,
        sentiment: ((await payloadLead())?.sentiment ?? null) as Sentiment | null,
      }),
      ...options.extra,
    });
    const newText = stripQuotedReply(message.text);
    const leadEvent = (type: string, data: Record<string, unknown>) =>
      tx.leadEvent.create({ data: { id: newId(now.getTime()), workspaceId: mailbox.workspaceId, leadId: lead.id, campaignId: lead.campaign_id, type, data: data as object, occurredAt: now } });

    if (classification.kind === 'bounce') {
      if (sentEmailId) {
        await tx.sentEmail.updateMany({ where: { id: sentEmailId, bouncedAt: null }, data: { bouncedAt: now } });
        await tx.emailEvent.create({
          data: { id: newId(now.getTime()), workspaceId: mailbox.workspaceId, sentEmailId, campaignId: lead.campaign_id, leadId: lead.id, type: 'BOUNCE', data: { kind: 'dsn', status: classification.status, message: classification.diagnostic, unibox_id: id }, occurredAt: now },
        });
      }
      await tx.$executeRawUnsafe(
        `UPDATE leads SET status = 'BOUNCED', bounce_msg = $2, status_reason = $2, next_send_at = NULL, is_completed = true, claimed_at = NULL, updated_at = $3::timestamptz WHERE id = $1`,
        lead.id,
        classification.diagnostic.slice(0, 1000),
        now.toISOString(),
      );
      if (lead.status !== 'BOUNCED') await leadEvent('STATUS_CHANGED', { from: lead.status, to: 'BOUNCED', reason: classification.diagnostic, kind: 'dsn' });
      const paused = await pauseOnBounceRate({ tx, campaignId: lead.campaign_id, now });
      await emitWebhookEvent({
        tx,
        workspaceId: mailbox.workspaceId,
        event: 'BOUNCED_EMAIL',
        campaignId: lead.campaign_id,
        now,
        fields: async () =>
          bouncedEmailFields({
            lead: (await payloadLead()) ?? { id: lead.id, email: from },
            campaign: await campaignOf(),
            bounce: { at: now, sender_email: mailbox.email, message: classification.diagnostic, bounce_type: 'dsn', campaign_paused: paused !== null },
          }),
      });
      if (paused) {
        await emitSystemAlert({
          tx, workspaceId: mailbox.workspaceId, now,
          alert: async () => {
            const campaign = await campaignOf();
            return { alert_type: 'CAMPAIGN_AUTO_PAUSED', message: `campaign "${campaign.name}" paused: ${paused}`, camp_id: campaign.id, campaign_name: campaign.name };
          },
        });
      }
      return stored;
    }

    const replyKind: ReplyKind = classification.kind === 'reply' ? 'reply' : classification.kind;
    if (replyKind === 'reply') {
      // A reply: counted on its send (the first reply only), the lead becomes REPLIED, and its sequence stops when the campaign says so.
      const [firstReply] = await tx.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM unibox_messages WHERE lead_id = $1 AND direction = 'IN' AND classification = 'REPLY' AND id <> $2`,
        lead.id,
        id,
      );
      if (sentEmailId) {
        await tx.sentEmail.updateMany({ where: { id: sentEmailId, repliedAt: null }, data: { repliedAt: now } });
        await tx.emailEvent.create({
          data: { id: newId(now.getTime()), workspaceId: mailbox.workspaceId, sentEmailId, campaignId: lead.campaign_id, leadId: lead.id, type: 'REPLY', data: { unibox_id: id, from, from_other_address: match.fromOtherAddress }, occurredAt: now },
        });
      }
      const becomesReplied = !['BOUNCED', 'UNSUBSCRIBED'].includes(lead.status);
      await tx.$executeRawUnsafe(
        `UPDATE leads SET status = CASE WHEN $2 THEN 'REPLIED'::"LeadStatus" ELSE status END,
                next_send_at = CASE WHEN $3 THEN NULL ELSE next_send_at END,
                is_completed = is_completed OR $3, updated_at = $4::timestamptz
          WHERE id = $1`,
        lead.id,
        becomesReplied,
        lead.stop_on_lead_replied,
        now.toISOString(),
      );
      await tx.campaign.update({ where: { id: lead.campaign_id }, data: { lastLeadRepliedAt: now } });
      if (becomesReplied && lead.status !== 'REPLIED') await leadEvent('STATUS_CHANGED', { from: lead.status, to: 'REPLIED', unibox_id: id });
      const events = [...((firstReply?.n ?? 0) === 0 ? ['FIRST_EMAIL_REPLIES'] : []), 'ALL_EMAIL_REPLIES'];
      const [positive] = lead.label
        ? await tx.$queryRawUnsafe<{ n: number }[]>(
            `SELECT count(*)::int AS n FROM lead_labels WHERE workspace_id = $1 AND key = $2 AND sentiment = 'POSITIVE'`,
            mailbox.workspaceId,
            lead.label,
          )
        : [];
      if ((positive?.n ?? 0) > 0) events.push('ALL_POSITIVE_REPLIES');
      const fields = replyFields({ label: lead.label, extra: { reply_type: replyKind, from_other_address: match.fromOtherAddress } });
      for (const event of events) await emitWebhookEvent({ tx, workspaceId: mailbox.workspaceId, event, campaignId: lead.campaign_id, now, fields, replyKind });
    } else {
      // Out-of-office and automatic replies: labelled, not counted as replies, the sequence goes on.
      await emitWebhookEvent({
        tx, workspaceId: mailbox.workspaceId, event: 'ALL_EMAIL_REPLIES', campaignId: lead.campaign_id, now, replyKind,
        fields: replyFields({ label: kindLabel, extra: { reply_type: replyKind, from_other_address: match.fromOtherAddress } }),
      });
      if (kindLabel && lead.label !== kindLabel) {
        const [known] = await tx.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM lead_labels WHERE workspace_id = $1 AND key = $2', mailbox.workspaceId, kindLabel);
        if ((known?.n ?? 0) > 0) {
          await tx.lead.update({ where: { id: lead.id }, data: { label: kindLabel } });
          await leadEvent('LABEL_CHANGED', { from: lead.label, to: kindLabel, by: 'classification' });
          await afterLabelChanged({ tx, changes: [{ leadId: lead.id, from: lead.label, to: kindLabel }], now, defaultLeadAllowance: deps.settings.defaultLeadAllowance });
        }
      }
    }
    // Reply triggers of subsequences (LEAD_REPLY_ALL, …_EXCEPT_OOO_AUTOMATIC_REPLY, LEAD_REPLY_CONTENT).
    const [org] = await tx.$queryRawUnsafe<{ organization_id: string }[]>('SELECT organization_id FROM leads WHERE id = $1', lead.id);
    await enrolOnTrigger({
      tx,
      lead: { id: lead.id, campaignId: lead.campaign_id, workspaceId: mailbox.workspaceId, organizationId: org?.organization_id ?? mailbox.organizationId },
      event: { kind: 'reply', replyKind, text: newText },
      now,
      defaultLeadAllowance: deps.settings.defaultLeadAllowance,
    });
    return stored;
  });
  // Committed: a bounce or a reply from a lead (each message once, as storage is idempotent).
  if (result.status === 'stored' && result.matched) {
    if (result.kind === 'bounce') observerOf(deps).onBounce({ kind: 'dsn' });
    else if (result.kind !== 'unparsed') observerOf(deps).onReply({ kind: result.kind });
  }
  return result;
}
