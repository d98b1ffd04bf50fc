import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { ObjectId, WorkspaceIdField } from '../shared/schemas';
import { IsoDate } from '../shared/time';

const CampaignIdField = ObjectId.describe('Campaign (or subsequence) identifier');
const StartDate = IsoDate.describe('Range start, YYYY-MM-DD (UTC), inclusive');
const EndDate = IsoDate.describe('Range end, YYYY-MM-DD (UTC), inclusive');
const Count = z.number().int();
const Percent = z.number().describe('Percentage rounded to 2 decimals; 0 when the base is 0');

export const CampaignSummaryInput = z.object({ workspace_id: WorkspaceIdField, campaign_id: CampaignIdField });
export type CampaignSummaryInput = z.infer<typeof CampaignSummaryInput>;

export const CampaignSummaryOutput = z.object({
  campaign_name: z.string(),
  completed: Count.describe('Leads marked completed (is_completed, or status COMPLETED)'),
  contacted: Count.describe('Distinct leads sent to'),
  leads_who_read: Count.describe('Distinct leads with an opened send'),
  leads_who_replied: Count.describe('Distinct leads with a replied send'),
  bounced: Count.describe('Distinct leads with a bounced send'),
  unsubscribed: Count.describe('Distinct leads with an unsubscribed send'),
  positive_reply_count: Count.describe('Replied leads whose current label has positive sentiment'),
  total_sent_emails: Count.describe('Sends'),
});
export type CampaignSummaryOutput = z.infer<typeof CampaignSummaryOutput>;

export const CampaignStatsInput = z.object({
  workspace_id: WorkspaceIdField,
  campaign_id: CampaignIdField.optional().describe('Only this campaign (or subsequence); omitted: every campaign of the workspace'),
  start_date: StartDate,
  end_date: EndDate.optional().describe('Range end, YYYY-MM-DD (UTC), inclusive; today (UTC) when omitted'),
});
export type CampaignStatsInput = z.infer<typeof CampaignStatsInput>;

export const DailyStats = z.object({
  date: IsoDate,
  sent_count: Count,
  opened_count: Count,
  replied_count: Count,
  bounced_count: Count,
  unsubscribed_count: Count,
});
export type DailyStats = z.infer<typeof DailyStats>;

/** One campaign's figures over the sends of a range (the list-all counters' definitions). */
export const CampaignRangeStats = z.object({
  campaign_id: z.string(),
  camp_name: z.string(),
  sent_count: Count.describe('Sends in the range'),
  replied_count: Count.describe('Distinct leads that replied to a send of the range'),
  bounced_count: Count.describe('Sends of the range that bounced'),
  positive_reply_count: Count.describe('Of those replied leads, the ones whose current label has positive sentiment'),
  opened_count: Count.describe('Sends of the range opened at least once'),
  unique_opened_count: Count.describe('Distinct leads with an opened send of the range'),
  lead_contacted_count: Count.describe('Distinct leads sent to in the range'),
});
export type CampaignRangeStats = z.infer<typeof CampaignRangeStats>;

export const CampaignStatsOutput = z.object({
  start_date: IsoDate,
  end_date: IsoDate,
  data: z
    .record(z.string(), CampaignRangeStats)
    .describe('One entry per campaign, keyed by campaign id (every value is a campaign\'s figures), newest campaign first'),
  daily: z.array(DailyStats).describe('One row per day of the range, oldest first, summed over the campaigns of `data`'),
});
export type CampaignStatsOutput = z.infer<typeof CampaignStatsOutput>;

export const CampaignCountInput = z.object({
  workspace_id: WorkspaceIdField,
  start_date: StartDate.optional(),
  end_date: EndDate.optional(),
});
export type CampaignCountInput = z.infer<typeof CampaignCountInput>;

export const CampaignCountOutput = z.object({
  total: Count,
  active: Count,
  paused: Count,
  completed: Count,
  archived: Count,
  draft: Count,
});
export type CampaignCountOutput = z.infer<typeof CampaignCountOutput>;

export const WorkspaceRangeInput = z.object({ workspace_id: WorkspaceIdField, start_date: StartDate, end_date: EndDate });
export type WorkspaceRangeInput = z.infer<typeof WorkspaceRangeInput>;

export const WorkspaceSummaryOutput = z.object({
  total_sent: Count,
  contacted: Count,
  opened: Count,
  replied: Count,
  positive_replies: Count,
  bounced: Count,
  unsubscribed: Count,
  open_rate: Percent,
  reply_rate: Percent,
  bounce_rate: Percent,
  active_campaigns: Count,
});
export type WorkspaceSummaryOutput = z.infer<typeof WorkspaceSummaryOutput>;

export const CampaignPerformance = z.object({
  campaign_id: z.string(),
  campaign_name: z.string(),
  status: z.enum(['DRAFT', 'ACTIVE', 'PAUSED', 'COMPLETED', 'ARCHIVED']),
  sent: Count,
  contacted: Count,
  opened: Count,
  replied: Count,
  positive_replies: Count,
  bounced: Count,
  open_rate: Percent,
  reply_rate: Percent,
});
export type CampaignPerformance = z.infer<typeof CampaignPerformance>;

export const WorkspacePerformanceOutput = z.array(CampaignPerformance);
export type WorkspacePerformanceOutput = z.infer<typeof WorkspacePerformanceOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(CampaignSummaryOutput, 'CampaignSummary');
nameApiSchema(DailyStats, 'DailyStats');
nameApiSchema(CampaignPerformance, 'CampaignPerformance');
nameApiSchema(WorkspaceSummaryOutput, 'WorkspaceSummary');
nameApiSchema(CampaignCountOutput, 'CampaignCount');
nameApiSchema(CampaignRangeStats, 'CampaignStats');
