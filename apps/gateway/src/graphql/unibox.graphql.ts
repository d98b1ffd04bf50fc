// GraphQL types and fields of the unibox (unified inbox) operations. Lists come from the
// operations in their vendor shape; mutations run the operation and re-read what it wrote
// as Prisma-backed UniboxMessage / UniboxThread objects.
import type { z } from 'zod';
import { operations, type CampaignEmailRecord } from '@outreach/core';
import { builder } from './builder';
import { guard, runOperation } from './run';

type UniboxEmailsOutput = z.output<(typeof operations.unibox.emails)['output']>;
type UniboxEmailRecord = UniboxEmailsOutput['data'][number];
interface Address {
  address: string;
  name: string;
}
interface Attachment {
  file_name: string;
  content_type: string;
  size: number;
}

/** Drops null and undefined values, so optional GraphQL arguments reach zod as absent. */
function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
}

function addressesOf(value: unknown): Address[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((a): a is { address: string; name?: unknown } => Boolean(a) && typeof a === 'object' && typeof (a as { address?: unknown }).address === 'string')
    .map((a) => ({ address: a.address, name: typeof a.name === 'string' ? a.name : '' }));
}

function attachmentsOf(value: unknown): Attachment[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((a): a is Record<string, unknown> => Boolean(a) && typeof a === 'object' && typeof (a as { file_name?: unknown }).file_name === 'string')
    .map((a) => ({
      file_name: a['file_name'] as string,
      content_type: typeof a['content_type'] === 'string' ? a['content_type'] : 'application/octet-stream',
      size: typeof a['size'] === 'number' ? a['size'] : 0,
    }));
}

// ─── campaign e-mails ─────────────────────────────────────────────────────────────

const CampaignEmailType = builder.objectRef<CampaignEmailRecord>('CampaignEmail').implement({
  description: 'An e-mail a campaign or subsequence sent to a lead',
  fields: (t) => ({
    id: t.exposeID('id'),
    leadId: t.exposeID('lead_id'),
    lead: t.exposeString('lead', { description: "Lead's address" }),
    eaccount: t.exposeString('eaccount', { description: 'Sending mailbox' }),
    campaignId: t.exposeID('campaign_id'),
    parentCampaignId: t.exposeString('parent_camp_id', { description: 'Parent campaign of a subsequence send; "" otherwise' }),
    step: t.exposeInt('current_step'),
    variation: t.exposeString('variation'),
    sentOn: t.exposeString('sent_on', { description: 'ISO 8601 UTC' }),
    messageId: t.exposeString('message_id'),
    subject: t.exposeString('subject'),
    body: t.exposeString('body'),
    isText: t.boolean({ resolve: (e) => e.is_text === 1 }),
  }),
});

const CampaignEmailPage = builder.objectRef<{ page_trail: string; data: CampaignEmailRecord[] }>('CampaignEmailPage').implement({
  fields: (t) => ({
    pageTrail: t.exposeString('page_trail', { description: 'Cursor for the next page; "" on the last page' }),
    emails: t.field({ type: [CampaignEmailType], resolve: (p) => p.data }),
  }),
});

builder.queryField('campaignEmails', (t) =>
  t.field({
    type: CampaignEmailPage,
    description: "A lead's campaign e-mails, newest first (parent campaign and subsequences unless campaignId narrows them)",
    args: {
      workspaceId: t.arg.id({ required: true }),
      lead: t.arg.string({ required: true }),
      campaignId: t.arg.id(),
      pageTrail: t.arg.string(),
      limit: t.arg.int(),
    },
    resolve: (_root, args, { ctx }) =>
      runOperation({
        op: operations.unibox.campaignEmails,
        ctx,
        input: {
          workspace_id: String(args.workspaceId),
          lead: args.lead,
          ...(args.campaignId ? { campaign_id: String(args.campaignId) } : {}),
          ...(args.pageTrail ? { page_trail: args.pageTrail } : {}),
          ...(args.limit != null ? { limit: args.limit } : {}),
        },
      }),
  }),
);

// ─── shared types ─────────────────────────────────────────────────────────────────

const UniboxDirection = builder.enumType('UniboxDirection', { values: ['IN', 'OUT'] as const });
const UniboxFolder = builder.enumType('UniboxFolder', { values: ['INBOX', 'OTHERS', 'DRAFTS'] as const });
const UniboxEmailKind = builder.enumType('UniboxEmailType', {
  values: { ALL: { value: 'all' }, RECEIVED: { value: 'received' }, SENT: { value: 'sent' } } as const,
});

const UniboxAddressType = builder.objectRef<Address>('UniboxAddress').implement({
  fields: (t) => ({ address: t.exposeString('address'), name: t.exposeString('name') }),
});

const UniboxAttachmentType = builder.objectRef<Attachment>('UniboxAttachment').implement({
  description: 'Metadata of an attachment (the unibox does not keep contents)',
  fields: (t) => ({ fileName: t.exposeString('file_name'), contentType: t.exposeString('content_type'), size: t.exposeInt('size') }),
});

const UniboxAttachmentInput = builder.inputType('UniboxAttachmentInput', {
  fields: (t) => ({
    fileName: t.string({ required: true }),
    content: t.string({ required: true, description: 'Base64-encoded contents' }),
    contentType: t.string(),
  }),
});

const attachmentInputs = (list: readonly { fileName: string; content: string; contentType?: string | null }[] | null | undefined) =>
  list?.map((a) => defined({ file_name: a.fileName, content: a.content, content_type: a.contentType }));

// ─── lists (vendor shape) ─────────────────────────────────────────────────────────

const UniboxEmailObject = builder.objectRef<UniboxEmailRecord>('UniboxEmail').implement({
  description: 'An e-mail of the unified inbox as the REST list returns it',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Unibox id (usable as replyToId)' }),
    messageId: t.exposeString('message_id', { description: 'Message-ID in angle brackets' }),
    threadId: t.exposeID('thread_id'),
    direction: t.field({ type: UniboxDirection, resolve: (e) => e.direction }),
    isUnread: t.exposeBoolean('is_unread'),
    label: t.exposeString('label', { description: '"" when none' }),
    lead: t.exposeString('lead', { description: 'Lead address; "" when not linked' }),
    leadId: t.exposeString('lead_id', { description: '"" when not linked' }),
    campaignId: t.exposeString('campaign_id', { description: '"" when not linked' }),
    eaccount: t.exposeString('eaccount', { description: 'Our mailbox' }),
    fromAddress: t.exposeString('from_address_email'),
    from: t.field({ type: [UniboxAddressType], resolve: (e) => e.from_address_json }),
    to: t.field({ type: [UniboxAddressType], resolve: (e) => e.to_address_json }),
    cc: t.field({ type: [UniboxAddressType], resolve: (e) => e.cc_address_json }),
    bcc: t.field({ type: [UniboxAddressType], resolve: (e) => e.bcc_address_json }),
    subject: t.exposeString('subject'),
    contentPreview: t.exposeString('content_preview'),
    html: t.string({ nullable: true, description: 'Null when previewOnly', resolve: (e) => e.body?.html ?? null }),
    text: t.string({ nullable: true, description: 'Null when previewOnly', resolve: (e) => e.body?.text ?? null }),
    attachments: t.field({ type: [UniboxAttachmentType], resolve: (e) => e.attachments }),
    timestampCreated: t.exposeString('timestamp_created', { description: 'ISO 8601 UTC' }),
  }),
});

const UniboxEmailPage = builder.objectRef<UniboxEmailsOutput>('UniboxEmailPage').implement({
  fields: (t) => ({
    pageTrail: t.exposeString('page_trail', { description: 'Cursor for the next page; "" on the last page' }),
    emails: t.field({ type: [UniboxEmailObject], resolve: (p) => p.data }),
  }),
});

builder.queryField('uniboxEmails', (t) =>
  t.field({
    type: UniboxEmailPage,
    description: 'E-mails of the unified inbox (conversations with leads), newest first',
    args: {
      workspaceId: t.arg.id({ required: true }),
      emailType: t.arg({ type: UniboxEmailKind }),
      lead: t.arg.string(),
      campaignId: t.arg.id(),
      label: t.arg.string(),
      threadId: t.arg.id(),
      previewOnly: t.arg.boolean(),
      pageTrail: t.arg.string(),
      limit: t.arg.int(),
    },
    resolve: (_root, args, { ctx }) =>
      runOperation({
        op: operations.unibox.emails,
        ctx,
        input: defined({
          workspace_id: String(args.workspaceId),
          email_type: args.emailType,
          lead: args.lead,
          campaign_id: args.campaignId == null ? null : String(args.campaignId),
          label: args.label,
          thread_id: args.threadId == null ? null : String(args.threadId),
          preview_only: args.previewOnly,
          page_trail: args.pageTrail || null,
          limit: args.limit,
        }),
      }),
  }),
);

builder.queryField('uniboxOtherEmails', (t) =>
  t.field({
    type: UniboxEmailPage,
    description: 'Mail that is not part of a conversation with a lead (bounces, unknown senders), newest first',
    args: { workspaceId: t.arg.id({ required: true }), previewOnly: t.arg.boolean(), pageTrail: t.arg.string(), limit: t.arg.int() },
    resolve: (_root, args, { ctx }) =>
      runOperation({
        op: operations.unibox.otherEmails,
        ctx,
        input: defined({ workspace_id: String(args.workspaceId), preview_only: args.previewOnly, page_trail: args.pageTrail || null, limit: args.limit }),
      }),
  }),
);

builder.queryField('uniboxUnreadCount', (t) =>
  t.int({
    description: 'Unread received e-mails of the inbox',
    args: { workspaceId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => (await runOperation({ op: operations.unibox.unreadCount, ctx, input: { workspace_id: String(args.workspaceId) } })).count,
  }),
);

// ─── Prisma-backed objects (what mutations answer) ──────────────────────────────────

builder.prismaObject('UniboxMessage', {
  description: 'A stored e-mail of the unified inbox',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Unibox id (usable as replyToId)' }),
    messageId: t.string({ description: 'Message-ID in angle brackets', resolve: (m) => `<${m.messageId}>` }),
    threadId: t.exposeID('threadId'),
    thread: t.relation('thread'),
    direction: t.expose('direction', { type: UniboxDirection }),
    folder: t.expose('folder', { type: UniboxFolder }),
    isUnread: t.exposeBoolean('isUnread'),
    label: t.exposeString('label', { nullable: true }),
    leadId: t.exposeID('leadId', { nullable: true }),
    campaignId: t.exposeID('campaignId', { nullable: true }),
    eaccount: t.string({
      nullable: true,
      description: 'Address of the mailbox (its settings are read through emailAccounts, which needs EMAILACCOUNT_LIST)',
      select: { emailAccount: { select: { email: true } } },
      resolve: (row) => row.emailAccount?.email ?? null,
    }),
    fromAddress: t.exposeString('fromAddress'),
    from: t.field({ type: [UniboxAddressType], resolve: (m) => addressesOf(m.fromJson) }),
    to: t.field({ type: [UniboxAddressType], resolve: (m) => addressesOf(m.toJson) }),
    cc: t.field({ type: [UniboxAddressType], resolve: (m) => addressesOf(m.ccJson) }),
    bcc: t.field({ type: [UniboxAddressType], resolve: (m) => addressesOf(m.bccJson) }),
    inReplyTo: t.string({ nullable: true, resolve: (m) => (m.inReplyTo ? `<${m.inReplyTo}>` : null) }),
    references: t.stringList({ resolve: (m) => (m.references ?? []).map((id) => `<${id}>`) }),
    subject: t.exposeString('subject'),
    textBody: t.exposeString('textBody'),
    htmlBody: t.exposeString('htmlBody'),
    attachments: t.field({ type: [UniboxAttachmentType], resolve: (m) => attachmentsOf(m.attachments) }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime', description: 'When it was received, sent or (a draft) saved' }),
  }),
});

builder.prismaObject('UniboxThread', {
  description: 'A conversation of the unified inbox',
  fields: (t) => ({
    id: t.exposeID('id'),
    subject: t.exposeString('subject'),
    isUnread: t.exposeBoolean('isUnread'),
    lastMessageAt: t.expose('lastMessageAt', { type: 'DateTime' }),
    leadId: t.exposeID('leadId', { nullable: true }),
    campaignId: t.exposeID('campaignId', { nullable: true }),
    eaccount: t.string({
      nullable: true,
      description: 'Address of the mailbox (its settings are read through emailAccounts, which needs EMAILACCOUNT_LIST)',
      select: { emailAccount: { select: { email: true } } },
      resolve: (row) => row.emailAccount?.email ?? null,
    }),
    messages: t.relation('messages', { description: 'Oldest first, drafts included', query: { orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }] } }),
  }),
});

// ─── mutations ────────────────────────────────────────────────────────────────────

builder.mutationField('markUniboxThreadRead', (t) =>
  t.prismaField({
    type: 'UniboxThread',
    description: operations.unibox.markThreadRead.description,
    args: { workspaceId: t.arg.id({ required: true }), threadId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, { ctx }) => {
      await runOperation({ op: operations.unibox.markThreadRead, ctx, input: { workspace_id: String(args.workspaceId), thread_id: String(args.threadId) } });
      return guard(ctx, () => ctx.db.uniboxThread.findFirstOrThrow({ ...query, where: { id: String(args.threadId), workspaceId: String(args.workspaceId) } }));
    },
  }),
);

builder.mutationField('deleteUniboxThread', (t) =>
  t.boolean({
    description: operations.unibox.deleteThread.description,
    args: { workspaceId: t.arg.id({ required: true }), threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({ op: operations.unibox.deleteThread, ctx, input: { workspace_id: String(args.workspaceId), thread_id: String(args.threadId) } });
      return true;
    },
  }),
);

builder.mutationField('deleteUniboxEmail', (t) =>
  t.boolean({
    description: operations.unibox.deleteEmail.description,
    args: { workspaceId: t.arg.id({ required: true }), messageId: t.arg.string({ required: true, description: 'Message-ID (with or without angle brackets) or unibox id' }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({ op: operations.unibox.deleteEmail, ctx, input: { workspace_id: String(args.workspaceId), message_id: args.messageId } });
      return true;
    },
  }),
);

/** Re-reads the e-mail a sending operation wrote, with the GraphQL selection. */
function sentMessage(options: { query: object; ctx: Parameters<typeof guard>[0]; workspaceId: string; id: string }) {
  return guard(options.ctx, () => options.ctx.db.uniboxMessage.findFirstOrThrow({ ...options.query, where: { id: options.id, workspaceId: options.workspaceId } }));
}

builder.mutationField('replyToUniboxEmail', (t) =>
  t.prismaField({
    type: 'UniboxMessage',
    description: operations.unibox.reply.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      replyToId: t.arg.string({ required: true, description: 'Unibox id or Message-ID of the e-mail answered' }),
      body: t.arg.string({ required: true, description: 'HTML' }),
      subject: t.arg.string(),
      from: t.arg.string(),
      to: t.arg.stringList(),
      cc: t.arg.stringList(),
      bcc: t.arg.stringList(),
      attachments: t.arg({ type: [UniboxAttachmentInput] }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const workspaceId = String(args.workspaceId);
      const sent = await runOperation({
        op: operations.unibox.reply,
        ctx,
        input: defined({ workspace_id: workspaceId, reply_to_id: args.replyToId, body: args.body, subject: args.subject, from: args.from, to: args.to, cc: args.cc, bcc: args.bcc, attachments: attachmentInputs(args.attachments) }),
      });
      return sentMessage({ query, ctx, workspaceId, id: sent.id });
    },
  }),
);

builder.mutationField('forwardUniboxEmail', (t) =>
  t.prismaField({
    type: 'UniboxMessage',
    description: operations.unibox.forward.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      replyToId: t.arg.string({ required: true, description: 'Unibox id or Message-ID of the e-mail forwarded' }),
      to: t.arg.stringList({ required: true }),
      body: t.arg.string({ description: 'HTML above the forwarded e-mail' }),
      subject: t.arg.string(),
      from: t.arg.string(),
      cc: t.arg.stringList(),
      bcc: t.arg.stringList(),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const workspaceId = String(args.workspaceId);
      const sent = await runOperation({
        op: operations.unibox.forward,
        ctx,
        input: defined({ workspace_id: workspaceId, reply_to_id: args.replyToId, to: args.to, body: args.body, subject: args.subject, from: args.from, cc: args.cc, bcc: args.bcc }),
      });
      return sentMessage({ query, ctx, workspaceId, id: sent.id });
    },
  }),
);

builder.mutationField('composeUniboxEmail', (t) =>
  t.prismaField({
    type: 'UniboxMessage',
    description: operations.unibox.compose.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      leadId: t.arg.id({ required: true }),
      campaignId: t.arg.id(),
      subject: t.arg.string({ required: true }),
      body: t.arg.string({ required: true, description: 'HTML' }),
      from: t.arg.string(),
      cc: t.arg.stringList(),
      bcc: t.arg.stringList(),
      attachments: t.arg({ type: [UniboxAttachmentInput] }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const workspaceId = String(args.workspaceId);
      const sent = await runOperation({
        op: operations.unibox.compose,
        ctx,
        input: defined({
          workspace_id: workspaceId,
          lead_id: String(args.leadId),
          camp_id: args.campaignId == null ? null : String(args.campaignId),
          subject: args.subject,
          body: args.body,
          from: args.from,
          cc: args.cc,
          bcc: args.bcc,
          attachments: attachmentInputs(args.attachments),
        }),
      });
      return sentMessage({ query, ctx, workspaceId, id: sent.id });
    },
  }),
);

builder.mutationField('sendUniboxEmail', (t) =>
  t.prismaField({
    type: 'UniboxMessage',
    description: operations.unibox.send.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      from: t.arg.string({ required: true }),
      to: t.arg.stringList({ required: true }),
      subject: t.arg.string({ required: true }),
      body: t.arg.string({ required: true, description: 'HTML' }),
      cc: t.arg.stringList(),
      bcc: t.arg.stringList(),
      attachments: t.arg({ type: [UniboxAttachmentInput] }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const workspaceId = String(args.workspaceId);
      const sent = await runOperation({
        op: operations.unibox.send,
        ctx,
        input: defined({ workspace_id: workspaceId, from: args.from, to: args.to, subject: args.subject, body: args.body, cc: args.cc, bcc: args.bcc, attachments: attachmentInputs(args.attachments) }),
      });
      return sentMessage({ query, ctx, workspaceId, id: sent.id });
    },
  }),
);

builder.mutationField('saveUniboxDraft', (t) =>
  t.prismaField({
    type: 'UniboxMessage',
    description: operations.unibox.saveDraft.description,
    args: {
      workspaceId: t.arg.id({ required: true }),
      from: t.arg.string({ required: true }),
      parentMessageId: t.arg.string({ description: 'Unibox id or Message-ID of the e-mail the draft answers' }),
      to: t.arg.stringList(),
      cc: t.arg.stringList(),
      bcc: t.arg.stringList(),
      subject: t.arg.string(),
      body: t.arg.string({ description: 'HTML' }),
    },
    resolve: async (query, _root, args, { ctx }) => {
      const workspaceId = String(args.workspaceId);
      const saved = await runOperation({
        op: operations.unibox.saveDraft,
        ctx,
        input: defined({ workspace_id: workspaceId, from: args.from, parent_message_id: args.parentMessageId, to: args.to, cc: args.cc, bcc: args.bcc, subject: args.subject, body: args.body }),
      });
      return sentMessage({ query, ctx, workspaceId, id: saved.id });
    },
  }),
);
