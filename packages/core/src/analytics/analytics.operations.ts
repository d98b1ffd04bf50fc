import { defineOperation } from '../shared/operation';
import { utcDayEnd, utcDayStart } from '../shared/time';
import { campaignNotFound, OPEN_RANGE, rate } from '../campaign/index';
import { MAX_RANGE_DAYS, rangeError, utcIsoDay } from './analytics.rules';
import {
  CampaignCountInput,
  CampaignCountOutput,
  CampaignStatsInput,
  CampaignStatsOutput,
  CampaignSummaryInput,
  CampaignSummaryOutput,
  WorkspacePerformanceOutput,
  WorkspaceRangeInput,
  WorkspaceSummaryOutput,
} from './analytics.schemas';
import { campaignCount, campaignRangeStats, campaignSummary, workspacePerformance, workspaceSummary } from './analytics.queries';

const RANGE_RULES = `Dates are inclusive UTC days (\`YYYY-MM-DD\`). \`start_date\` after \`end_date\` is 400 naming start_date; a range longer than ${MAX_RANGE_DAYS} days (inclusive) is 400 naming end_date.`;

function assertRange(options: { start?: string; end?: string; limitSpan: boolean }): void {
  const error = rangeError(options);
  if (error) throw error;
}

export const getCampaignSummary = defineOperation({
  name: 'analytics.campaignSummary',
  kind: 'query',
  summary: 'Get campaign summary',
  description: [
    'Counters of one campaign (or subsequence) over its whole life, each computed in SQL over its sends and leads.',
    '`completed` leads of the campaign with `is_completed` set or status COMPLETED; `contacted` distinct leads sent to; `leads_who_read` distinct leads with at least one opened send (a lead that opened two sends counts once); `leads_who_replied` distinct leads with a replied send; `bounced` distinct leads with a bounced send; `unsubscribed` distinct leads with an unsubscribed send; `positive_reply_count` replied leads whose current label has positive sentiment; `total_sent_emails` every send.',
    'An unknown campaign, or one of another workspace, is 404.',
  ].join('\n\n'),
  input: CampaignSummaryInput,
  output: CampaignSummaryOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const row = await campaignSummary({ db: ctx.db, workspaceId: input.workspace_id, campaignId: input.campaign_id });
    if (!row) throw campaignNotFound(input.campaign_id, input.workspace_id);
    return row;
  },
});

export const getCampaignStats = defineOperation({
  name: 'analytics.campaignStats',
  kind: 'query',
  summary: 'Get campaign stats',
  description: [
    'Per-campaign statistics over the sends of a range: `data` holds one entry per campaign of the workspace (parents and subsequences, newest first, campaigns without sends in the range with zeros), or only the campaign `campaign_id` names, keyed by campaign id, so every value of `data` is one campaign\'s figures. `end_date` defaults to today (UTC).',
    'Each entry: `campaign_id`, `camp_name`, and the counters of the campaign list over the sends whose send time is in the range (with their opens, replies and bounces whenever they happened): `sent_count` sends; `lead_contacted_count` distinct leads sent to; `opened_count` sends opened; `unique_opened_count` distinct leads with an opened send; `replied_count` distinct leads that replied; `bounced_count` sends that bounced; `positive_reply_count` replied leads whose current label has positive sentiment.',
    '`daily`, beside `data`: one row per day of the range, oldest first, days without sends included with zeros, summed over the same campaigns. Counted by send day: each send counts on the UTC day it was sent, with its open, reply, bounce and unsubscribe on that same row whenever they happened. These counts are of sends (not distinct leads), so the days add up to the sends of the range: `sent_count` sends; `opened_count` sends opened; `replied_count` sends replied to; `bounced_count` sends that bounced; `unsubscribed_count` sends that led to an unsubscribe.',
    RANGE_RULES,
    'A `campaign_id` that is not a campaign of the workspace is 404.',
  ].join('\n\n'),
  input: CampaignStatsInput,
  output: CampaignStatsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const endDay = input.end_date ?? utcIsoDay(ctx.ports.clock.now());
    assertRange({ start: input.start_date, end: endDay, limitSpan: true });
    const campaignId = input.campaign_id ?? null;
    // The campaigns (which also tell whether the one asked for is in the workspace), then their
    // kept day statistics by campaign and by day, side by side.
    const { rows, daily } = await campaignRangeStats({ db: ctx.db, workspaceId: input.workspace_id, campaignId, firstDay: input.start_date, lastDay: endDay });
    if (campaignId && rows.length === 0) throw campaignNotFound(campaignId, input.workspace_id);
    const data: Record<string, (typeof rows)[number]> = {};
    for (const row of rows) data[row.campaign_id] = row;
    return { start_date: input.start_date, end_date: endDay, data, daily };
  },
});

export const getCampaignCount = defineOperation({
  name: 'analytics.campaignCount',
  kind: 'query',
  summary: 'Count campaigns by status (deprecated)',
  description: [
    'Deprecated by the vendor; kept for compatibility.',
    'Campaigns of the workspace by current status; subsequences are not counted (they are part of their parent campaign). `start_date` and `end_date` bound the campaigns\' creation time (inclusive UTC days); either may be omitted for an open-ended range. `start_date` after `end_date` is 400 naming start_date; the span is not limited, the count being one indexed scan of the workspace\'s campaigns.',
  ].join('\n\n'),
  input: CampaignCountInput,
  output: CampaignCountOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    assertRange({ start: input.start_date, end: input.end_date, limitSpan: false });
    return campaignCount({
      db: ctx.db,
      workspaceId: input.workspace_id,
      from: input.start_date ? utcDayStart(input.start_date) : OPEN_RANGE.from,
      to: input.end_date ? utcDayEnd(input.end_date) : OPEN_RANGE.to,
    });
  },
});

export const getWorkspaceSummary = defineOperation({
  name: 'analytics.workspaceSummary',
  kind: 'query',
  summary: 'Get workspace summary',
  description: [
    'Totals over the workspace\'s sends whose send time is in the range (campaigns and subsequences), with their opens, replies, bounces and unsubscribes whenever they happened.',
    '`total_sent` sends; `contacted` distinct leads sent to; `opened` distinct leads with an opened send; `replied` distinct leads with a replied send; `positive_replies` replied leads whose current label has positive sentiment; `bounced` sends that bounced (sends, like its rate\'s base, as in the all-campaign stats); `unsubscribed` distinct leads with an unsubscribed send; `active_campaigns` campaigns (not subsequences) ACTIVE now, whatever the range.',
    'Rates are percentages rounded to 2 decimals, 0 when the base is 0: `open_rate` = opened / contacted; `reply_rate` = replied / contacted; `bounce_rate` = bounced / total_sent.',
    RANGE_RULES,
  ].join('\n\n'),
  input: WorkspaceRangeInput,
  output: WorkspaceSummaryOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    assertRange({ start: input.start_date, end: input.end_date, limitSpan: true });
    const s = await workspaceSummary({ db: ctx.db, workspaceId: input.workspace_id, firstDay: input.start_date, lastDay: input.end_date });
    return {
      ...s,
      open_rate: rate({ count: s.opened, base: s.contacted }),
      reply_rate: rate({ count: s.replied, base: s.contacted }),
      bounce_rate: rate({ count: s.bounced, base: s.total_sent }),
    };
  },
});

export const getWorkspacePerformance = defineOperation({
  name: 'analytics.workspacePerformance',
  kind: 'query',
  summary: 'Get campaign performance of a workspace',
  description: [
    'One row per campaign (or subsequence) with at least one send in the range, ordered by `sent` descending, then by name (then id). Campaigns without sends in the range are left out.',
    'Counters are those of the workspace summary restricted to the campaign: `sent` sends; `contacted`, `opened`, `replied`, `positive_replies` distinct leads; `bounced` sends that bounced. `open_rate` = opened / contacted and `reply_rate` = replied / contacted, percentages rounded to 2 decimals, 0 when the base is 0. `status` is the campaign\'s current status.',
    RANGE_RULES,
  ].join('\n\n'),
  input: WorkspaceRangeInput,
  output: WorkspacePerformanceOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    assertRange({ start: input.start_date, end: input.end_date, limitSpan: true });
    const rows = await workspacePerformance({ db: ctx.db, workspaceId: input.workspace_id, firstDay: input.start_date, lastDay: input.end_date });
    return rows.map((r) => ({
      ...r,
      open_rate: rate({ count: r.opened, base: r.contacted }),
      reply_rate: rate({ count: r.replied, base: r.contacted }),
    }));
  },
});
