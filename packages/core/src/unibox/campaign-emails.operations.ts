import { zeroOne } from '../shared/schemas';
import { defineOperation } from '../shared/operation';
import { decodeTimeTrail, timeTrailPage } from '../shared/pagination';
import { CampaignEmailsInput, CampaignEmailsOutput } from './campaign-emails.schemas';
import { campaignEmailRows } from './campaign-emails.queries';
import { assertCampaignOfWorkspace } from '../shared/tenancy';

export const listCampaignEmails = defineOperation({
  name: 'unibox.campaignEmails',
  kind: 'query',
  summary: 'Get campaign emails of a lead',
  description: [
    'The e-mails campaigns sent to a lead, newest first (send time, then id).',
    '`lead` is matched case-insensitively. With `campaign_id` of a parent campaign, only that campaign\'s own sends; with a subsequence\'s id, only that subsequence\'s sends; without it, the lead\'s parent-campaign and subsequence sends in one list. Subsequence sends carry `parent_camp_id`; every other send `""`. An id that is not a campaign of the workspace is 400.',
    'Paging: `page_trail` is an opaque keyset cursor (not an offset) to pass back unchanged; it is `""` on the last page. 50 per page by default, `limit` up to 1,000 (a larger limit is read as 1,000).',
  ].join('\n\n'),
  input: CampaignEmailsInput,
  output: CampaignEmailsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });
    const rows = await campaignEmailRows({
      db: ctx.db,
      workspaceId,
      email: input.lead.toLowerCase(),
      campaignId: input.campaign_id ?? null,
      after: decodeTimeTrail(input.page_trail),
      take: input.limit + 1,
    });
    const { shown, page_trail } = timeTrailPage(rows, input.limit, (r) => [r.sent_at, r.id]);
    return {
      page_trail,
      data: shown.map((r) => ({
        id: r.id,
        organization_id: r.organization_id,
        workspace_id: r.workspace_id,
        lead_id: r.lead_id,
        lead: r.lead,
        eaccount: r.eaccount,
        campaign_id: r.campaign_id,
        parent_camp_id: r.parent_camp_id,
        current_step: r.current_step,
        variation: r.variation,
        sent_on: r.sent_at.toISOString(),
        message_id: `<${r.message_id}>`,
        subject: r.subject,
        body: r.body,
        is_text: zeroOne(r.is_text),
      })),
    };
  },
});
