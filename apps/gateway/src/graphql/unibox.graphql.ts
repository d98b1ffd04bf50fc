import { operations, type CampaignEmailRecord } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';

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
