import type { Ctx } from '../shared/context';
import { defineOperation } from '../shared/operation';
import { invalidField, notFound } from '../shared/errors';
import { ComposeInput, ForwardInput, ReplyInput, SaveDraftInput, SendInput, SentEmailOutput } from './unibox.schemas';
import { emailNotFound, findMessageId } from './unibox-manage.operations';
import { decodeAttachments, resolveMailbox, saveUniboxDraft, sendUniboxEmail } from './unibox-send.service';
import { forwardBody, forwardSubject, replyHeaders, replySubject, storedAddresses, storedAttachments } from './unibox.rules';
import { LEAD_THREAD_SQL } from './unibox.queries';

const SENDING = [
  'Sending: `from` must be the address of an email account of the workspace (400 otherwise). The mailbox must be ACTIVE (400 `unibox.mailbox_disconnected` or `unibox.mailbox_not_active`) and under its `daily_limit`, which counts its campaign sends and its unibox sends since midnight in the workspace\'s time zone (429 `unibox.daily_limit_reached` with Retry-After). The e-mail goes out through the mailbox\'s SMTP server at once; if the server refuses it the answer is 400 `unibox.send_failed` with the server\'s reply, and nothing is recorded.',
  'A sent e-mail is recorded as an OUT e-mail of its thread (listed by `/unibox/emails`) with Message-ID `<id@mailbox-domain>`, and UNIBOX_EMAIL_SENT is queued for the webhooks subscribed to it. The answer carries its unibox `id` (usable as `reply_to_id`), `thread_id` and `message_id`.',
].join('\n\n');

const ATTACHMENTS = '`attachments`: `[{ file_name, content, content_type? }]` with base64 `content`, at most 10 MB in total once decoded (400 naming `attachments`).';

interface Original {
  id: string;
  threadId: string;
  emailAccountId: string | null;
  leadId: string | null;
  campaignId: string | null;
  direction: 'IN' | 'OUT';
  messageId: string;
  references: string[];
  fromAddress: string;
  fromJson: unknown;
  toJson: unknown;
  ccJson: unknown;
  subject: string;
  textBody: string;
  htmlBody: string;
  attachments: unknown;
  receivedAt: Date;
  thread: { emailAccountId: string | null; leadId: string | null; campaignId: string | null };
}

/** A sent or received e-mail of the workspace (not a draft), by our id or its Message-ID; 404 naming `field` otherwise. */
async function findOriginal(options: { ctx: Ctx; workspaceId: string; ref: string; field: string }): Promise<Original> {
  const { ctx, workspaceId, ref, field } = options;
  const id = await findMessageId({ db: ctx.db, workspaceId, ref });
  const found = id
    ? await ctx.db.uniboxMessage.findFirst({
        where: { id, workspaceId, folder: { not: 'DRAFTS' } },
        select: {
          id: true,
          threadId: true,
          emailAccountId: true,
          leadId: true,
          campaignId: true,
          direction: true,
          messageId: true,
          references: true,
          fromAddress: true,
          fromJson: true,
          toJson: true,
          ccJson: true,
          subject: true,
          textBody: true,
          htmlBody: true,
          attachments: true,
          receivedAt: true,
          thread: { select: { emailAccountId: true, leadId: true, campaignId: true } },
        },
      })
    : null;
  if (!found) throw emailNotFound(field, ref);
  return found;
}

/** Who a reply goes to by default: the sender of a received e-mail, the recipients of one we sent. */
function defaultReplyRecipients(original: Original): string[] {
  if (original.direction === 'IN') {
    const from = original.fromAddress || storedAddresses(original.fromJson)[0]?.address || '';
    return from ? [from.toLowerCase()] : [];
  }
  return storedAddresses(original.toJson).map((a) => a.address.toLowerCase());
}

export const replyToEmail = defineOperation({
  name: 'unibox.reply',
  kind: 'mutation',
  summary: 'Reply to an email',
  description: [
    'Answers an e-mail of the unibox in its thread. `reply_to_id` is the unibox `id` of the e-mail (e.g. `last_email_id` of a reply webhook) or its Message-ID, with or without angle brackets (404 `unibox.email_not_found` otherwise).',
    'Defaults: `subject` "Re: <original subject>" (no second "Re:"), `from` the thread\'s mailbox, `to` the sender of the e-mail answered (its recipients when it was ours). The reply carries `In-Reply-To` (the Message-ID answered) and `References` (its References, then its Message-ID), so it lands in the lead\'s conversation.',
    ATTACHMENTS,
    SENDING,
  ].join('\n\n'),
  input: ReplyInput,
  output: SentEmailOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const attachments = decodeAttachments(input.attachments);
    const original = await findOriginal({ ctx, workspaceId, ref: input.reply_to_id, field: 'reply_to_id' });
    const mailbox = await resolveMailbox({ ctx, workspaceId, from: input.from, fallbackId: original.thread.emailAccountId ?? original.emailAccountId });
    const to = input.to ?? defaultReplyRecipients(original);
    if (!to.length) throw invalidField('to', 'is required: the e-mail answered has no address to reply to');
    return sendUniboxEmail({
      ctx,
      send: {
        workspaceId,
        mailbox,
        to,
        cc: input.cc ?? [],
        bcc: input.bcc ?? [],
        subject: input.subject?.trim() ? input.subject.trim() : replySubject(original.subject),
        html: input.body,
        attachments,
        threading: replyHeaders({ messageId: original.messageId, references: original.references }),
        thread: { kind: 'existing', id: original.threadId },
        leadId: original.thread.leadId ?? original.leadId,
        campaignId: original.thread.campaignId ?? original.campaignId,
      },
    });
  },
});

export const forwardEmail = defineOperation({
  name: 'unibox.forward',
  kind: 'mutation',
  summary: 'Forward an existing email',
  description: [
    'Forwards an e-mail of the unibox (`reply_to_id`: its unibox `id` or Message-ID) to `to` (and `cc`, `bcc`). `body` is written above the original, which is quoted below a "Forwarded message" block (From, Date, Subject, To, Cc). Attachment contents are not kept by the unibox, so the original\'s attachments are named in that block, not attached.',
    'Defaults: `subject` "Fwd: <original subject>", `from` the thread\'s mailbox. The forward is recorded in the original\'s thread.',
    SENDING,
  ].join('\n\n'),
  input: ForwardInput,
  output: SentEmailOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const original = await findOriginal({ ctx, workspaceId, ref: input.reply_to_id, field: 'reply_to_id' });
    const mailbox = await resolveMailbox({ ctx, workspaceId, from: input.from, fallbackId: original.thread.emailAccountId ?? original.emailAccountId });
    return sendUniboxEmail({
      ctx,
      send: {
        workspaceId,
        mailbox,
        to: input.to,
        cc: input.cc ?? [],
        bcc: input.bcc ?? [],
        subject: input.subject?.trim() ? input.subject.trim() : forwardSubject(original.subject),
        html: forwardBody({
          body: input.body,
          original: {
            from: storedAddresses(original.fromJson),
            to: storedAddresses(original.toJson),
            cc: storedAddresses(original.ccJson),
            subject: original.subject,
            date: original.receivedAt,
            html: original.htmlBody,
            text: original.textBody,
            attachments: storedAttachments(original.attachments),
          },
        }),
        attachments: [],
        threading: null,
        thread: { kind: 'existing', id: original.threadId },
        leadId: original.thread.leadId ?? original.leadId,
        campaignId: original.thread.campaignId ?? original.campaignId,
      },
    });
  },
});

export const composeEmail = defineOperation({
  name: 'unibox.compose',
  kind: 'mutation',
  summary: 'Compose New Email',
  description: [
    'Writes a new e-mail to a lead (`lead_id`; 404 `lead.not_found` when not a lead of the workspace). `camp_id`, when given, must be the lead\'s campaign (400 otherwise). It is recorded in the lead\'s conversation: its latest thread, or a new one linked to the lead and campaign that starts with our campaign e-mails to the lead.',
    'Default `from`: the mailbox that has been writing to the lead.',
    ATTACHMENTS,
    SENDING,
  ].join('\n\n'),
  input: ComposeInput,
  output: SentEmailOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const attachments = decodeAttachments(input.attachments);
    const lead = await ctx.db.lead.findFirst({ where: { id: input.lead_id, workspaceId }, select: { id: true, email: true, campaignId: true, emailAccountId: true } });
    if (!lead) throw notFound('lead.not_found', `lead_id ${input.lead_id} is not a lead of this workspace`);
    if (input.camp_id && input.camp_id !== lead.campaignId) throw invalidField('camp_id', "is not the lead's campaign", 'campaign.not_found');
    // The lead's conversation, or its parent-campaign lead's (a subsequence lead continues it), as the engine finds it.
    const [found] = await ctx.db.$queryRawUnsafe<{ id: string }[]>(LEAD_THREAD_SQL, workspaceId, lead.id);
    const thread = found ? await ctx.db.uniboxThread.findFirst({ where: { id: found.id, workspaceId }, select: { id: true, emailAccountId: true } }) : null;
    const mailbox = await resolveMailbox({ ctx, workspaceId, from: input.from, fallbackId: lead.emailAccountId ?? thread?.emailAccountId ?? null });
    return sendUniboxEmail({
      ctx,
      send: {
        workspaceId,
        mailbox,
        to: [lead.email.toLowerCase()],
        cc: input.cc ?? [],
        bcc: input.bcc ?? [],
        subject: input.subject,
        html: input.body,
        attachments,
        threading: null,
        thread: thread ? { kind: 'existing', id: thread.id } : { kind: 'new', subject: input.subject, copyCampaignSends: true },
        leadId: lead.id,
        campaignId: lead.campaignId,
      },
    });
  },
});

export const sendEmail = defineOperation({
  name: 'unibox.send',
  kind: 'mutation',
  summary: 'Send to any address',
  description: [
    'Sends a new e-mail from a mailbox of the workspace to any addresses, in a new thread. When the first recipient is a lead of the workspace, the e-mail and the thread are linked to that lead (its most recently updated row) and campaign.',
    ATTACHMENTS,
    SENDING,
  ].join('\n\n'),
  input: SendInput,
  output: SentEmailOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const attachments = decodeAttachments(input.attachments);
    const mailbox = await resolveMailbox({ ctx, workspaceId, from: input.from, fallbackId: null });
    const lead = await ctx.db.lead.findFirst({
      where: { workspaceId, emailNormalized: input.to[0]! },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      select: { id: true, campaignId: true },
    });
    return sendUniboxEmail({
      ctx,
      send: {
        workspaceId,
        mailbox,
        to: input.to,
        cc: input.cc ?? [],
        bcc: input.bcc ?? [],
        subject: input.subject,
        html: input.body,
        attachments,
        threading: null,
        thread: { kind: 'new', subject: input.subject, copyCampaignSends: false },
        leadId: lead?.id ?? null,
        campaignId: lead?.campaignId ?? null,
      },
    });
  },
});

export const saveDraft = defineOperation({
  name: 'unibox.saveDraft',
  kind: 'mutation',
  summary: 'Save Email as Draft',
  description: [
    'Stores an e-mail without sending it (folder DRAFTS; not listed by `/unibox/emails`, not counted against any limit). With `parent_message_id` (a unibox id or Message-ID; 404 when unknown) the draft is an answer in that e-mail\'s thread, with its threading headers and, by default, its reply recipients; otherwise it opens a new thread.',
    '`from` must be the address of an email account of the workspace (400 otherwise); the mailbox need not be ACTIVE.',
  ].join('\n\n'),
  input: SaveDraftInput,
  output: SentEmailOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const parent = input.parent_message_id ? await findOriginal({ ctx, workspaceId, ref: input.parent_message_id, field: 'parent_message_id' }) : null;
    const mailbox = await resolveMailbox({ ctx, workspaceId, from: input.from, fallbackId: null });
    return saveUniboxDraft({
      ctx,
      send: {
        workspaceId,
        mailbox,
        to: input.to ?? (parent ? defaultReplyRecipients(parent) : []),
        cc: input.cc ?? [],
        bcc: input.bcc ?? [],
        subject: input.subject.trim() || (parent ? replySubject(parent.subject) : ''),
        html: input.body,
        threading: parent ? replyHeaders({ messageId: parent.messageId, references: parent.references }) : null,
        thread: parent ? { kind: 'existing', id: parent.threadId } : { kind: 'new', subject: input.subject, copyCampaignSends: false },
        leadId: parent ? (parent.thread.leadId ?? parent.leadId) : null,
        campaignId: parent ? (parent.thread.campaignId ?? parent.campaignId) : null,
      },
    });
  },
});
