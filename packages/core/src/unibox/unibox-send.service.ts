// Sending from the unified inbox: which mailbox, whether it may send now (ACTIVE, under
// its daily limit), the SMTP send itself (outside any transaction: a slow server must not
// hold locks), then one transaction that records the e-mail as an OUT message of its
// thread and queues UNIBOX_EMAIL_SENT.
import { newId, type Prisma, type Tx } from '@outreach/db';
import type { Ctx } from '../shared/context';
import { DomainError, invalidField, preconditionFailed } from '../shared/errors';
import { domainOf, type OutgoingMessage, type SendOutcome } from '../shared/mail-sender';
import { runRetryingConcurrentChanges } from '../shared/operation-retry';
import { htmlToText } from '../shared/mail-html';
import { dayBounds } from '../shared/zoned-time';
import { leadsForEvents } from '../lead/index';
import { MailboxOAuthRevokedError, MailboxTokenUnavailableError, withMailboxLogin } from '../email-account/index';
import { emitWebhookEvent, uniboxEmailSentFields } from '../webhook/index';
import { COPY_CAMPAIGN_SENDS_SQL, RELEASE_UNIBOX_SEND_SQL, RESERVE_UNIBOX_SEND_SQL } from './unibox.queries';
import { contentTypeOf, MAX_ATTACHMENT_BYTES, senderName, type StoredAddress, type StoredAttachment } from './unibox.rules';
import type { AttachmentInput } from './unibox.schemas';


export interface UniboxMailbox {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: 'ACTIVE' | 'DISCONNECTED' | 'PAUSED';
  dailyLimit: number;
  smtpHost: string;
  smtpPort: number;
  smtpUsername: string;
  smtpPasswordEnc: string;
  /** PASSWORD or XOAUTH2 (the access token is fetched at send time). */
  authType: string;
  replyTo: string | null;
  updatedAt: Date;
}

const MAILBOX_SELECT = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  status: true,
  dailyLimit: true,
  smtpHost: true,
  smtpPort: true,
  smtpUsername: true,
  smtpPasswordEnc: true,
  authType: true,
  replyTo: true,
  updatedAt: true,
} as const;

/**
 * The mailbox to send from: the `from` address when given (it must be an email account of
 * the workspace), else the fallback (the thread's mailbox). 400 naming `from` otherwise.
 */
export async function resolveMailbox(options: { ctx: Ctx; workspaceId: string; from: string | undefined; fallbackId: string | null }): Promise<UniboxMailbox> {
  const { ctx, workspaceId, from } = options;
  if (from) {
    const found = await ctx.db.emailAccount.findFirst({ where: { workspaceId, emailNormalized: from.toLowerCase() }, select: MAILBOX_SELECT });
    if (!found) throw invalidField('from', 'is not an email account of this workspace', 'unibox.unknown_mailbox');
    return found;
  }
  const fallback = options.fallbackId
    ? await ctx.db.emailAccount.findFirst({ where: { id: options.fallbackId, workspaceId }, select: MAILBOX_SELECT })
    : null;
  if (!fallback) throw invalidField('from', 'is required: there is no mailbox to send from by default', 'unibox.unknown_mailbox');
  return fallback;
}

/**
 * Sends through the mailbox's SMTP server with its password, or XOAUTH2 with its current
 * access token (once more with a new token when the login is refused). A changed mailbox (new
 * credentials) replaces its pooled connection, as the scheduler's sends do.
 */
async function sendFromMailbox(options: { ctx: Ctx; mailbox: UniboxMailbox; message: OutgoingMessage }): Promise<SendOutcome> {
  const { ctx, mailbox, message } = options;
  try {
    return await withMailboxLogin({
      deps: ctx,
      mailbox: { id: mailbox.id, authType: mailbox.authType, host: mailbox.smtpHost, port: mailbox.smtpPort, username: mailbox.smtpUsername, passwordEnc: mailbox.smtpPasswordEnc },
      attempt: (smtp) => ctx.ports.smtp.send({ mailboxId: mailbox.id, version: mailbox.updatedAt.toISOString(), smtp, message }),
      refused: (outcome) => outcome.status === 'auth',
    });
  } catch (error) {
    // The grant is revoked (the mailbox was just disconnected): as a refused login.
    if (error instanceof MailboxOAuthRevokedError) return { status: 'auth', code: null, message: 'its OAuth grant was revoked or has expired; authorize the mailbox again' };
    if (error instanceof MailboxTokenUnavailableError) return { status: 'deferred', code: null, message: error.message };
    // The password cannot be decrypted (another key): nothing works until it is re-entered.
    return { status: 'auth', code: null, message: `cannot read the mailbox password: ${(error as Error).message}` };
  }
}

/** Midnight of `at`'s day in the workspace's zone, and of the day after (UTC when the zone is unknown). */
function workspaceDay(options: { timezone: string; at: Date }): { start: Date; next: Date } {
  try {
    return dayBounds(options);
  } catch {
    return dayBounds({ timezone: 'UTC', at: options.at });
  }
}

/**
 * Takes one of the mailbox's sends for today, or refuses the send: the mailbox must be
 * ACTIVE and under its daily limit, which counts its campaign sends (recorded and claimed)
 * and its unibox sends since midnight in the workspace's zone, as the scheduler does. The
 * mailbox row is locked while counting, so concurrent unibox sends and the scheduler's
 * claims cannot both take its last send. Returns how to give the send back when the
 * e-mail does not leave.
 */
export async function reserveMailboxSend(options: { ctx: Ctx; workspaceId: string; mailbox: UniboxMailbox; now: Date }): Promise<{ release: () => Promise<void> }> {
  const { ctx, mailbox, now } = options;
  if (mailbox.status === 'DISCONNECTED') {
    throw preconditionFailed('unibox.mailbox_disconnected', `mailbox ${mailbox.email} is disconnected: reconnect it (its login was refused) before sending`);
  }
  if (mailbox.status !== 'ACTIVE') throw preconditionFailed('unibox.mailbox_not_active', `mailbox ${mailbox.email} is ${mailbox.status}: only ACTIVE mailboxes send`);
  const workspace = await ctx.db.workspace.findUniqueOrThrow({ where: { id: options.workspaceId }, select: { timezone: true } });
  const { start, next } = workspaceDay({ timezone: workspace.timezone, at: now });
  const reserved = await ctx.db.$transaction(async (tx) => {
    // Locked first, counted after: the count's snapshot then includes whatever the lock waited for.
    await tx.$queryRawUnsafe('SELECT 1 FROM email_accounts WHERE id = $1 AND workspace_id = $2 FOR UPDATE', mailbox.id, options.workspaceId);
    const rows = await tx.$queryRawUnsafe<unknown[]>(RESERVE_UNIBOX_SEND_SQL, mailbox.id, start.toISOString());
    return rows.length > 0;
  });
  if (!reserved) {
    throw new DomainError({
      kind: 'rate_limited',
      code: 'unibox.daily_limit_reached',
      message: `mailbox ${mailbox.email} has reached its daily limit of ${mailbox.dailyLimit} e-mails (campaign and unibox sends); it can send again after midnight (${workspace.timezone})`,
      retryAfter: Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000)),
    });
  }
  return {
    release: async () => {
      await ctx.db.$executeRawUnsafe(RELEASE_UNIBOX_SEND_SQL, mailbox.id, start.toISOString());
    },
  };
}

export interface DecodedAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** Base64 attachments decoded, at most 10 MB in total (400 naming `attachments` otherwise). */
export function decodeAttachments(attachments: readonly AttachmentInput[] | undefined): DecodedAttachment[] {
  const decoded = (attachments ?? []).map((a) => ({
    filename: a.file_name,
    content: Buffer.from(a.content.replace(/\s+/g, ''), 'base64'),
    contentType: a.content_type ?? contentTypeOf(a.file_name),
  }));
  const total = decoded.reduce((n, a) => n + a.content.length, 0);
  if (total > MAX_ATTACHMENT_BYTES) throw invalidField('attachments', `must be at most 10 MB in total (decoded); got ${(total / 1_048_576).toFixed(1)} MB`, 'unibox.attachments_too_large');
  return decoded;
}

/** Where the sent e-mail goes: an existing thread, or a new one (for a lead, it starts with our campaign e-mails to it). */
export type ThreadTarget =
  | { kind: 'existing'; id: string }
  | { kind: 'new'; subject: string; copyCampaignSends: boolean };

export interface UniboxSend {
  workspaceId: string;
  mailbox: UniboxMailbox;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  html: string;
  attachments: DecodedAttachment[];
  /** Threading headers (angle brackets) and their stored, bare forms. */
  threading: { inReplyTo: string; references: string; stored: { inReplyTo: string; references: string[] } } | null;
  thread: ThreadTarget;
  leadId: string | null;
  campaignId: string | null;
}

const addresses = (list: readonly string[]): StoredAddress[] => list.map((address) => ({ address, name: '' }));

/**
 * Writes the thread (when new) and the message row; returns the thread id. `emailAccountId` is
 * the sending mailbox's (null: deleted while its e-mail was on its way; the e-mail is kept without it).
 */
async function storeMessage(options: {
  tx: Tx;
  send: Omit<UniboxSend, 'attachments'> & { attachments: StoredAttachment[] };
  emailAccountId: string | null;
  id: string;
  messageId: string;
  folder: 'INBOX' | 'DRAFTS';
  at: Date;
}): Promise<string> {
  const { tx, send, id, at, emailAccountId } = options;
  let threadId: string;
  const createThread = async (threadIdToUse: string, subject: string, copy: boolean) => {
    await tx.uniboxThread.create({
      data: { id: threadIdToUse, workspaceId: send.workspaceId, emailAccountId, leadId: send.leadId, campaignId: send.campaignId, subject, isUnread: false, lastMessageAt: at },
    });
    if (copy && send.leadId) await tx.$executeRawUnsafe(COPY_CAMPAIGN_SENDS_SQL, threadIdToUse, send.leadId, null);
  };
  if (send.thread.kind === 'existing') {
    threadId = send.thread.id;
    const [held] = await tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM unibox_threads WHERE id = $1 AND workspace_id = $2 FOR UPDATE', threadId, send.workspaceId);
    // Deleted while the e-mail was on its way: it still went out, so it gets a thread again.
    if (!held) await createThread(threadId, send.subject, send.leadId !== null);
  } else {
    threadId = newId(at.getTime());
    await createThread(threadId, send.thread.subject, send.thread.copyCampaignSends);
  }
  await tx.uniboxMessage.create({
    data: {
      id,
      workspaceId: send.workspaceId,
      threadId,
      emailAccountId,
      leadId: send.leadId,
      campaignId: send.campaignId,
      sentEmailId: null,
      direction: 'OUT',
      folder: options.folder,
      messageId: options.messageId,
      inReplyTo: send.threading?.stored.inReplyTo ?? null,
      references: send.threading?.stored.references ?? [],
      fromAddress: send.mailbox.email.toLowerCase(),
      fromJson: [{ address: send.mailbox.email, name: senderName(send.mailbox) }] as Prisma.InputJsonValue,
      toJson: addresses(send.to) as unknown as Prisma.InputJsonValue,
      ccJson: addresses(send.cc) as unknown as Prisma.InputJsonValue,
      bccJson: addresses(send.bcc) as unknown as Prisma.InputJsonValue,
      subject: send.subject,
      textBody: htmlToText(send.html),
      htmlBody: send.html,
      isUnread: false,
      attachments: send.attachments as unknown as Prisma.InputJsonValue,
      receivedAt: at,
    },
  });
  if (options.folder === 'INBOX') {
    // Only a sent e-mail moves the thread's latest time (a draft is not a message yet).
    await tx.$executeRawUnsafe('UPDATE unibox_threads SET last_message_at = GREATEST(last_message_at, $2::timestamptz) WHERE id = $1', threadId, at.toISOString());
  }
  return threadId;
}

function sendFailure(outcome: Exclude<SendOutcome, { status: 'sent' }>, mailbox: UniboxMailbox): DomainError {
  if (outcome.status === 'auth') {
    return preconditionFailed('unibox.mailbox_disconnected', `mailbox ${mailbox.email} could not log in to its SMTP server: ${outcome.message}`);
  }
  const code = outcome.code === null ? '' : `${outcome.code} `;
  return preconditionFailed('unibox.send_failed', `the SMTP server did not accept the e-mail: ${code}${outcome.message}`);
}

/**
 * Checks the mailbox may send, sends through its SMTP server, and records the sent
 * e-mail with its UNIBOX_EMAIL_SENT event in one transaction. A refused or deferred
 * send records nothing and is `unibox.send_failed`; a refused login,
 * `unibox.mailbox_disconnected` (the mailbox itself is left as it is).
 */
export async function sendUniboxEmail(options: { ctx: Ctx; send: UniboxSend }): Promise<{ status: 'success'; id: string; thread_id: string; message_id: string }> {
  const { ctx, send } = options;
  const { mailbox } = send;
  const reservation = await reserveMailboxSend({ ctx, workspaceId: send.workspaceId, mailbox, now: ctx.ports.clock.now() });

  const id = newId(ctx.ports.clock.now().getTime());
  const messageId = `${id}@${domainOf(mailbox.email)}`;
  const message: OutgoingMessage = {
    from: { name: senderName(mailbox), address: mailbox.email },
    to: send.to.join(', '),
    ...(send.cc.length ? { cc: send.cc } : {}),
    ...(send.bcc.length ? { bcc: send.bcc } : {}),
    replyTo: mailbox.replyTo,
    subject: send.subject,
    html: send.html,
    text: htmlToText(send.html),
    messageId,
    ...(send.threading ? { inReplyTo: send.threading.inReplyTo, references: send.threading.references } : {}),
    ...(send.attachments.length ? { attachments: send.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })) } : {}),
  };
  const outcome = await sendFromMailbox({ ctx, mailbox, message });
  const log = ctx.log.child({ mailbox: mailbox.email, messageId });
  if (outcome.status !== 'sent') {
    log.info({ outcome: outcome.status, code: outcome.code, response: outcome.message }, 'unibox send failed');
    await reservation.release().catch((error: unknown) => log.error({ err: error }, 'giving back the reserved send failed'));
    throw sendFailure(outcome, mailbox);
  }

  const now = ctx.ports.clock.now();
  const stored = send.attachments.map((a) => ({ file_name: a.filename, content_type: a.contentType, size: a.content.length }));
  // The e-mail has left: from here on, a failure must not invite the caller to send it again.
  let threadId: string;
  try {
    // Again after a deadlock: the e-mail has left, so it is recorded however the rows around it changed.
    threadId = await runRetryingConcurrentChanges({
      name: 'unibox.recordSent',
      ctx,
      run: (attemptCtx) => recordSent({ ctx: attemptCtx, send: { ...send, attachments: stored }, id, messageId, now }),
    });
  } catch (error) {
    log.error({ err: error }, 'the e-mail was sent, but recording it failed: it is missing from the unified inbox');
    return { status: 'success', id, thread_id: '', message_id: `<${messageId}>` };
  }
  log.debug({ threadId }, 'unibox e-mail sent');
  return { status: 'success', id, thread_id: threadId, message_id: `<${messageId}>` };
}

/** Records a sent unibox e-mail and its UNIBOX_EMAIL_SENT event in one transaction; the thread id. */
async function recordSent(options: { ctx: Ctx; send: Omit<UniboxSend, 'attachments'> & { attachments: StoredAttachment[] }; id: string; messageId: string; now: Date }): Promise<string> {
  const { ctx, send, id, messageId, now } = options;
  const { mailbox } = send;
  return ctx.db.$transaction(async (tx) => {
    // The mailbox is held until the record commits; deleted while the e-mail was on its way, the
    // e-mail is kept without it (as its deletion leaves its other e-mails).
    const [held] = await tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM email_accounts WHERE id = $1 FOR KEY SHARE', mailbox.id);
    const emailAccountId = held ? mailbox.id : null;
    const threadId = await storeMessage({ tx, send, emailAccountId, id, messageId, folder: 'INBOX', at: now });
    await emitWebhookEvent({
      tx,
      workspaceId: send.workspaceId,
      event: 'UNIBOX_EMAIL_SENT',
      campaignId: send.campaignId,
      now,
      fields: async () => {
        const lead = send.leadId ? ((await leadsForEvents({ tx, leadIds: [send.leadId] })).get(send.leadId) ?? null) : null;
        const campaign = lead ? { id: lead.campaign_id, name: lead.campaign_name } : null;
        return {
          ...uniboxEmailSentFields({
            lead,
            campaign,
            message: {
              from_email: mailbox.email,
              to_email: send.to,
              cc: send.cc,
              subject: send.subject,
              body: send.html,
              thread_id: threadId,
              // Bare, as the other webhook events carry Message-IDs.
              message_id: messageId,
              sent_at: now,
            },
          }),
          email_account_id: mailbox.id,
          email_account_name: mailbox.email,
          // Our id of the sent e-mail, usable as reply_to_id.
          last_email_id: id,
        };
      },
    });
    return threadId;
  });
}

/** Stores a draft (DRAFTS folder, OUT, never sent, not counted against any limit). */
export async function saveUniboxDraft(options: { ctx: Ctx; send: Omit<UniboxSend, 'attachments'> }): Promise<{ status: 'success'; id: string; thread_id: string; message_id: string }> {
  const { ctx, send } = options;
  const now = ctx.ports.clock.now();
  const id = newId(now.getTime());
  const messageId = `${id}@${domainOf(send.mailbox.email)}`;
  const threadId = await ctx.db.$transaction((tx) => storeMessage({ tx, send: { ...send, attachments: [] }, emailAccountId: send.mailbox.id, id, messageId, folder: 'DRAFTS', at: now }));
  return { status: 'success', id, thread_id: threadId, message_id: `<${messageId}>` };
}
