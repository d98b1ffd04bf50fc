import { defineOperation } from '../shared/operation';
import { invalidField } from '../shared/errors';
import { decodeCursor, encodeCursor } from '../shared/pagination';
import { CampaignEmailsInput, CampaignEmailsOutput } from './campaign-emails.schemas';

export const listCampaignEmails = defineOperation({
  name: 'unibox.campaignEmails',
  kind: 'query',
  summary: 'Get campaign emails of a lead',
  description: [
    'The e-mails campaigns sent to a lead, newest first (send time, then id).',
    '`lead` is matched case-insensitively. With `campaign_id` of a parent campaign, only that campaign\'s own sends; with a subsequence\'s id, only that subsequence\'s sends; without it, the lead\'s parent-campaign and subsequence sends in one list. Subsequence sends carry `parent_camp_id`; every other send `""`. An id that is not a campaign of the workspace is 400.',
    'Paging: `page_trail` is an opaque keyset cursor (not an offset) to pass back unchanged; it is `""` on the last page. 50 per page by default, `limit` up to 100.',
  ].join('\n\n'),
  input: CampaignEmailsInput,
  output: CampaignEmailsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    if (input.campaign_id) {
      const found = await ctx.db.campaign.findFirst({ where: { id: input.campaign_id, workspaceId }, select: { id: true } });
      if (!found) throw invalidField('campaign_id', `is not a campaign of workspace ${workspaceId}`, 'campaign.not_found');
    }
    const leads = await ctx.db.lead.findMany({
      where: { workspaceId, emailNormalized: input.lead.toLowerCase() },
      select: { id: true },
    });
    if (!leads.length) return { page_trail: '', data: [] };

    let after: { sentAt: Date; id: string } | undefined;
    if (input.page_trail) {
      const [sentAt, id] = decodeCursor({ cursor: input.page_trail, field: 'page_trail', shape: ['string', 'string'] }) as [string, string];
      const date = new Date(sentAt);
      if (Number.isNaN(date.getTime())) throw invalidField('page_trail', 'is not a page_trail returned by this API');
      after = { sentAt: date, id };
    }
    const rows = await ctx.db.sentEmail.findMany({
      where: {
        workspaceId,
        leadId: { in: leads.map((l) => l.id) },
        ...(input.campaign_id ? { campaignId: input.campaign_id } : {}),
        ...(after
          ? { OR: [{ sentAt: { lt: after.sentAt } }, { sentAt: after.sentAt, id: { lt: after.id } }] }
          : {}),
      },
      orderBy: [{ sentAt: 'desc' }, { id: 'desc' }],
      take: input.limit + 1,
      select: {
        id: true,
        organizationId: true,
        workspaceId: true,
        leadId: true,
        campaignId: true,
        parentCampaignId: true,
        step: true,
        variationLabel: true,
        sentAt: true,
        messageId: true,
        subject: true,
        body: true,
        isText: true,
        lead: { select: { email: true } },
        emailAccount: { select: { email: true } },
      },
    });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      page_trail: rows.length > input.limit && last ? encodeCursor([last.sentAt.toISOString(), last.id]) : '',
      data: page.map((r) => ({
        id: r.id,
        organization_id: r.organizationId,
        workspace_id: r.workspaceId,
        lead_id: r.leadId,
        lead: r.lead.email,
        eaccount: r.emailAccount?.email ?? '',
        campaign_id: r.campaignId,
        parent_camp_id: r.parentCampaignId ?? '',
        current_step: r.step,
        variation: r.variationLabel,
        sent_on: r.sentAt.toISOString(),
        message_id: `<${r.messageId}>`,
        subject: r.subject,
        body: r.body,
        is_text: r.isText ? 1 : 0,
      })),
    };
  },
});
