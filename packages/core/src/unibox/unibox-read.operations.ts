import { defineOperation } from '../shared/operation';
import { decodeTimeTrail, timeTrailPage } from '../shared/pagination';
import { zeroOne } from '../shared/schemas';
import type { Ctx } from '../shared/context';
import {
  ListOtherEmailsInput,
  ListUniboxEmailsInput,
  UniboxEmailsOutput,
  UnreadCountInput,
  UnreadCountOutput,
  type UniboxEmailRecord,
} from './unibox.schemas';
import { UNREAD_COUNT_SQL, uniboxEmailRows, type UniboxEmailRow } from './unibox.queries';
import { addressList, contentPreview, storedAddresses, storedAttachments } from './unibox.rules';
import { assertCampaignOfWorkspace } from '../shared/tenancy';

const PAGING =
  'Paging: `page_trail` is an opaque keyset cursor (received time, then id; not an offset) to pass back unchanged; it is `""` on the last page. 50 per page by default, `limit` up to 1,000 (a larger limit is read as 1,000).';

/** A stored message in the vendor's unibox e-mail shape. */
export function toUniboxEmailRecord(r: UniboxEmailRow, options: { previewOnly: boolean }): UniboxEmailRecord {
  const from = storedAddresses(r.from_json);
  const to = storedAddresses(r.to_json);
  const cc = storedAddresses(r.cc_json);
  const bcc = storedAddresses(r.bcc_json);
  const refs = (r.refs ?? []).filter(Boolean);
  const headers: Record<string, string> = { 'Message-ID': `<${r.message_id}>` };
  if (r.in_reply_to) headers['In-Reply-To'] = `<${r.in_reply_to}>`;
  if (refs.length) headers['References'] = refs.map((id) => `<${id}>`).join(' ');
  return {
    id: r.id,
    message_id: `<${r.message_id}>`,
    thread_id: r.thread_id,
    direction: r.direction,
    is_unread: zeroOne(r.is_unread),
    label: r.label,
    lead: r.lead,
    lead_id: r.lead_id,
    campaign_id: r.campaign_id,
    eaccount: r.eaccount,
    from_address_email: r.from_address || from[0]?.address || '',
    from_address_json: from,
    to_address_email_list: addressList(to),
    to_address_json: to,
    cc_address_email_list: addressList(cc),
    cc_address_json: cc,
    bcc_address_email_list: addressList(bcc),
    bcc_address_json: bcc,
    subject: r.subject,
    content_preview: contentPreview({ text: r.text_body, html: r.html_body }),
    ...(options.previewOnly ? {} : { body: { html: r.html_body, text: r.text_body } }),
    headers,
    attachments: storedAttachments(r.attachments),
    timestamp_created: r.received_at.toISOString(),
    source_modified_at: r.created_at.toISOString(),
  };
}

async function page(options: {
  ctx: Ctx;
  workspaceId: string;
  folder: 'INBOX' | 'OTHERS';
  direction: 'IN' | 'OUT' | null;
  leadEmail: string | null;
  campaignId: string | null;
  label: string | null;
  threadId: string | null;
  pageTrail: string | undefined;
  limit: number;
  previewOnly: boolean;
}) {
  const rows = await uniboxEmailRows({
    db: options.ctx.db,
    workspaceId: options.workspaceId,
    folder: options.folder,
    direction: options.direction,
    leadEmail: options.leadEmail,
    campaignId: options.campaignId,
    label: options.label,
    threadId: options.threadId,
    after: decodeTimeTrail(options.pageTrail),
    take: options.limit + 1,
    previewOnly: options.previewOnly,
  });
  const { shown, page_trail } = timeTrailPage(rows, options.limit, (r) => [r.received_at, r.id]);
  return {
    page_trail,
    data: shown.map((r) => toUniboxEmailRecord(r, { previewOnly: options.previewOnly })),
  };
}

export const listUniboxEmails = defineOperation({
  name: 'unibox.emails',
  kind: 'query',
  summary: 'Get emails',
  description: [
    'The e-mails of the unified inbox, newest first: replies and other mail from leads (direction IN) and what we sent them, campaign sends and e-mails sent from the unibox (OUT). Mail that matched no lead is under `/unibox/other-emails`; drafts are not listed.',
    '`email_type`: `all` (default), `received` (IN) or `sent` (OUT). Filters combine: `lead` (address, case-insensitive), `campaign_id` (400 when not a campaign of the workspace), `label` (e.g. INTERESTED, OUT_OF_OFFICE), `thread_id`. With `preview_only=true` each e-mail carries `content_preview` (first 200 characters, whitespace collapsed) and no `body`.',
    'Addresses come as JSON (`*_address_json`: `[{address, name}]`) and as comma-joined strings (`*_address_email_list`). `message_id` is in angle brackets; `id` is usable as `reply_to_id`. Absent links (`lead`, `lead_id`, `campaign_id`, `label`) are `""`. `attachments` is metadata only.',
    PAGING,
  ].join('\n\n'),
  input: ListUniboxEmailsInput,
  output: UniboxEmailsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });
    return page({
      ctx,
      workspaceId,
      folder: 'INBOX',
      direction: input.email_type === 'received' ? 'IN' : input.email_type === 'sent' ? 'OUT' : null,
      leadEmail: input.lead ? input.lead.toLowerCase() : null,
      campaignId: input.campaign_id ?? null,
      label: input.label ?? null,
      threadId: input.thread_id ?? null,
      pageTrail: input.page_trail,
      limit: input.limit,
      previewOnly: input.preview_only,
    });
  },
});

export const listOtherEmails = defineOperation({
  name: 'unibox.otherEmails',
  kind: 'query',
  summary: 'Get emails in Others folder',
  description: [
    'Mail read from the workspace\'s mailboxes that is not part of a conversation with a lead, newest first: bounce reports, mail from unknown senders, and messages that could not be parsed (kept with their raw text). Same e-mail shape as `/unibox/emails`.',
    PAGING,
  ].join('\n\n'),
  input: ListOtherEmailsInput,
  output: UniboxEmailsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    return page({
      ctx,
      workspaceId: input.workspace_id,
      folder: 'OTHERS',
      direction: null,
      leadEmail: null,
      campaignId: null,
      label: null,
      threadId: null,
      pageTrail: input.page_trail,
      limit: input.limit,
      previewOnly: input.preview_only,
    });
  },
});

export const countUnreadEmails = defineOperation({
  name: 'unibox.unreadCount',
  kind: 'query',
  summary: 'Get count of unread emails',
  description: 'How many received e-mails of the inbox (not "others") are unread.',
  input: UnreadCountInput,
  output: UnreadCountOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const [row] = await ctx.db.$queryRawUnsafe<{ count: number }[]>(UNREAD_COUNT_SQL, input.workspace_id);
    return { count: row?.count ?? 0 };
  },
});
