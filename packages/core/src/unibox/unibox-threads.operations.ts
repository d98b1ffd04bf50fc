import { defineOperation } from '../shared/operation';
import { decodeTimeTrail, timeTrailPage } from '../shared/pagination';
import { zeroOne } from '../shared/schemas';
import { toUniboxEmailRecord } from './unibox-read.operations';
import { ListUniboxThreadsInput, UniboxThreadsOutput } from './unibox-threads.schemas';
import { uniboxThreadRows } from './unibox-threads.queries';
import { assertCampaignOfWorkspace } from '../shared/tenancy';

export const listUniboxThreads = defineOperation({
  name: 'unibox.threads',
  kind: 'query',
  summary: 'Get email threads',
  description: [
    'The conversations of the unified inbox, latest activity first (`last_message_at`, then `thread_id`): each thread with its subject, lead, campaign, our mailbox (`eaccount`), how many e-mails it holds in the inbox, whether it has an unread received e-mail (`is_unread`: 1 or 0), its label (that of its latest labelled e-mail from the lead) and its latest e-mail (`last_message`, as `/unibox/emails` lists it). Threads holding only drafts, and the "others" folder, are not listed.',
    'Filters combine: `email_type` (`all` default; `received`: threads with an e-mail from the lead; `sent`: threads with an e-mail we sent), `lead` (address, case-insensitive), `campaign_id` (threads holding an e-mail of that campaign; 400 when not a campaign of the workspace), `label`, `thread_id`, and ours: `is_unread` (true: threads with an unread received e-mail; false: the others), `email_account_id` (the conversations of one mailbox) and `lead_label` (threads whose lead currently carries that label key, as the unibox sets it through /lead/data/update; `label` is the label of the e-mails). With `preview_only=true` the latest e-mail carries `content_preview` and no `body`. Absent links are `""`.',
    'Paging: `page_trail` is an opaque keyset cursor (latest activity, then thread id; not an offset) to pass back unchanged; it is `""` on the last page. 50 per page by default.',
  ].join('\n\n'),
  input: ListUniboxThreadsInput,
  output: UniboxThreadsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });
    const rows = await uniboxThreadRows({
      db: ctx.db,
      workspaceId,
      direction: input.email_type === 'received' ? 'IN' : input.email_type === 'sent' ? 'OUT' : null,
      leadEmail: input.lead ? input.lead.toLowerCase() : null,
      campaignId: input.campaign_id ?? null,
      label: input.label ?? null,
      threadId: input.thread_id ?? null,
      after: decodeTimeTrail(input.page_trail),
      take: input.limit + 1,
      previewOnly: input.preview_only,
      unread: input.is_unread ?? null,
      emailAccountId: input.email_account_id ?? null,
      leadLabel: input.lead_label ?? null,
    });
    const { shown, page_trail } = timeTrailPage(rows, input.limit, (r) => [r.t_last_message_at, r.thread_id]);
    return {
      page_trail,
      data: shown.map((r) => ({
        thread_id: r.thread_id,
        subject: r.t_subject,
        lead: r.t_lead,
        lead_id: r.t_lead_id,
        campaign_id: r.t_campaign_id,
        eaccount: r.t_eaccount,
        last_message_at: r.t_last_message_at.toISOString(),
        message_count: r.t_message_count,
        is_unread: zeroOne(r.t_is_unread),
        label: r.t_label,
        last_message: toUniboxEmailRecord(r, { previewOnly: input.preview_only }),
      })),
    };
  },
});
