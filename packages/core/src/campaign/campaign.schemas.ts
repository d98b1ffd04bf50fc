import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { BoolInput, ObjectId, SkipLimit, StatusSuccess, WorkspaceIdField, intParam, sortParams, requiredOr } from '../shared/schemas';
import { IsoDate } from '../shared/time';

export const CAMPAIGN_STATUSES = ['DRAFT', 'ACTIVE', 'PAUSED', 'COMPLETED', 'ARCHIVED'] as const;
export const CampaignStatus = z.enum(CAMPAIGN_STATUSES, { error: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` });
export type CampaignStatus = z.infer<typeof CampaignStatus>;

const text = (what = 'a string') => z.string({ error: requiredOr(what) });

export const CampaignName = text()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

const CampaignRef = {
  workspace_id: WorkspaceIdField,
  campaign_id: ObjectId.describe('Campaign identifier (24 hex characters)'),
};

export const CampaignRefInput = z.object(CampaignRef);
export type CampaignRefInput = z.infer<typeof CampaignRefInput>;

// --- schedule -------------------------------------------------------------------------

const DAY_KEYS = ['1', '2', '3', '4', '5', '6', '7'] as const;
/** Day names of the read shape, Monday first: the write shape's "1" … "7". */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const ScheduleDays = z
  .record(z.string(), BoolInput, { error: 'must be an object of days ("1" = Monday … "7" = Sunday) to true or false' })
  .superRefine((days, ctx) => {
    const unknown = Object.keys(days).filter((k) => !(DAY_KEYS as readonly string[]).includes(k));
    for (const key of unknown) ctx.addIssue({ code: 'custom', path: [key], message: 'is not a day: days are "1" (Monday) to "7" (Sunday)' });
    if (!unknown.length && !Object.values(days).some(Boolean)) ctx.addIssue({ code: 'custom', message: 'must enable at least one day' });
  })
  .transform((days) => days as Partial<Record<(typeof DAY_KEYS)[number], boolean>>);
export type ScheduleDays = z.infer<typeof ScheduleDays>;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = text().refine(isTimeZone, 'must be an IANA time zone (e.g. Europe/Paris)');

const HOUR_MINUTE = /^([01]\d|2[0-3]):[0-5]\d$/;
const HourMinute = text('a time in HH:MM format').regex(HOUR_MINUTE, 'must be a time in HH:MM format (00:00 to 23:59)');

export const ScheduleTiming = z
  .object({ from: HourMinute, to: HourMinute })
  .refine((t) => !HOUR_MINUTE.test(t.from) || !HOUR_MINUTE.test(t.to) || t.from < t.to, { message: 'must end after it starts (from < to)', path: ['to'] });
export type ScheduleTiming = z.infer<typeof ScheduleTiming>;

/** What the campaign row's `schedule` column stores. */
export interface StoredSchedule {
  days: ScheduleDays;
  timezone: string;
  timing: ScheduleTiming;
}

/** A schedule's optional day: `""` and null both mean none (clients send either for "no end date"). */
const OptionalDay = z.preprocess((v) => (v === '' ? null : v), IsoDate.nullable());

export const SetSchedulesInput = z
  .object({
    ...CampaignRef,
    start_date: IsoDate.describe('First sending day (YYYY-MM-DD)'),
    end_date: OptionalDay.optional().describe('Last sending day (YYYY-MM-DD); omitted, "" or null: no end'),
    schedules: z
      .array(z.object({ name: z.string().optional(), days: ScheduleDays, timezone: TimeZone, timing: ScheduleTiming }))
      .min(1, 'must list one schedule')
      .max(1, 'must list one schedule (a campaign has one schedule)'),
  })
  .refine((i) => !i.end_date || i.end_date >= i.start_date, { message: 'must not be before start_date', path: ['end_date'] });
export type SetSchedulesInput = z.infer<typeof SetSchedulesInput>;

const WriteSchedule = z
  .object({
    days: ScheduleDays,
    timezone: TimeZone,
    timing: ScheduleTiming,
    daily_limit: intParam({ min: 1 }).optional(),
    daily_limit_new_lead: intParam({ min: 0 }).nullable().optional(),
    start_date: OptionalDay.optional().describe('First sending day (YYYY-MM-DD); "" or null clears it'),
    end_date: OptionalDay.optional().describe('Last sending day (YYYY-MM-DD); "" or null: no end date'),
  })
  .refine((s) => !s.start_date || !s.end_date || s.end_date >= s.start_date, { message: 'must not be before start_date', path: ['end_date'] });

/** A day of the read shape: its English name (any case, "Mon" too) or its ISO number (1 = Monday … 7 = Sunday). */
const ReadShapeDay = z.union([z.string(), z.number()]).transform((day, ctx) => {
  const text = String(day).trim().toLowerCase();
  const index = /^[1-7]$/.test(text) ? Number(text) - 1 : WEEKDAYS.findIndex((name) => text.length >= 3 && name.toLowerCase().startsWith(text));
  if (index < 0) {
    ctx.addIssue({ code: 'custom', message: 'is not a day: a day name (Monday … Sunday) or 1 (Monday) to 7 (Sunday)' });
    return z.NEVER;
  }
  return String(index + 1) as (typeof DAY_KEYS)[number];
});

/**
 * The schedule as campaign reads answer it (`days` by name, `from_time`, `to_time`, `tz`),
 * accepted on writes too, so that a client can send back what it read.
 */
const ReadShapeSchedule = z
  .object({
    days: z.array(ReadShapeDay).min(1, 'must enable at least one day'),
    from_time: HourMinute,
    to_time: HourMinute,
    tz: TimeZone.optional(),
    timezone: TimeZone.optional(),
    daily_limit: intParam({ min: 1 }).optional(),
    daily_limit_new_lead: intParam({ min: 0 }).nullable().optional(),
    start_date: OptionalDay.optional(),
    end_date: OptionalDay.optional(),
  })
  .refine((s) => s.tz !== undefined || s.timezone !== undefined, { message: 'is required (an IANA time zone)', path: ['tz'] })
  .refine((s) => !HOUR_MINUTE.test(s.from_time) || !HOUR_MINUTE.test(s.to_time) || s.from_time < s.to_time, { message: 'must end after it starts (from_time < to_time)', path: ['to_time'] })
  .refine((s) => !s.start_date || !s.end_date || s.end_date >= s.start_date, { message: 'must not be before start_date', path: ['end_date'] })
  .transform(({ days, from_time, to_time, tz, timezone, ...rest }) => ({
    ...rest,
    days: Object.fromEntries(days.map((d) => [d, true])) as ScheduleDays,
    timezone: (timezone ?? tz) as string,
    timing: { from: from_time, to: to_time },
  }));

/** A schedule on writes: the write shape (`days` {"1": true}, `timing`), or the read shape sent back. */
const UpdateSchedule = z.union([WriteSchedule, ReadShapeSchedule]);
export type UpdateSchedule = z.infer<typeof UpdateSchedule>;

// --- sequence -------------------------------------------------------------------------

export const SequenceVariationInput = z.object({
  variation: text().regex(/^[A-Z]{1,3}$/, 'must be a variation label: A, B, …, Z, AA, …'),
  name: z.string({ error: 'must be a string' }).nullable().optional(),
  subject: z.string({ error: 'must be a string' }).max(1000, 'must be at most 1000 characters'),
  body: z.string({ error: 'must be a string' }).max(200_000, 'must be at most 200000 characters'),
});
export type SequenceVariationInput = z.infer<typeof SequenceVariationInput>;

export const SequenceStepInput = z.object({
  step: intParam({ min: 1 }),
  wait_time: intParam({ min: 0, max: 365 }).default(0),
  variations: z.array(SequenceVariationInput).min(1, 'must list at least one variation'),
});
export type SequenceStepInput = z.infer<typeof SequenceStepInput>;

export const SequenceInput = z.array(SequenceStepInput).max(50, 'must have at most 50 steps');
export type SequenceInput = z.infer<typeof SequenceInput>;

// --- update ---------------------------------------------------------------------------

export const UpdateCampaignInput = z.object({
  ...CampaignRef,
  camp_name: CampaignName.optional(),
  sequences: SequenceInput.optional().describe('Replaces the stored sequence'),
  schedules: z.union([UpdateSchedule, z.array(UpdateSchedule).length(1, 'must list exactly one schedule')]).optional(),
  email_accounts: z.array(text('an e-mail address').trim().min(3, 'must be an e-mail address')).max(1000).optional(),
  daily_limit: intParam({ min: 1, max: 100_000 }).optional(),
  interval_limit_in_min: intParam({ min: 0, max: 1440 }).optional(),
  send_as_txt: BoolInput.optional(),
  is_emailopened_tracking: BoolInput.optional(),
  is_unsubscribed_link: BoolInput.optional(),
  stop_on_lead_replied: BoolInput.optional(),
  is_pause_on_bouncerate: BoolInput.optional(),
  bounce_rate_limit: z.coerce.number({ error: 'must be a number' }).min(0, 'must be at least 0').max(100, 'must be at most 100').optional(),
  first_wait_time: intParam({ min: 0, max: 365 }).optional().describe('Subsequences only: days before the first step'),
});
export type UpdateCampaignInput = z.infer<typeof UpdateCampaignInput>;

export const UpdateCampaignOutput = z.object({
  id: z.string(),
  camp_name: z.string(),
  status: CampaignStatus,
  updated_at: z.string().describe('ISO 8601 timestamp'),
});
export type UpdateCampaignOutput = z.infer<typeof UpdateCampaignOutput>;

// --- create, names, small reads -------------------------------------------------------

export const CreateCampaignInput = z.object({ workspace_id: WorkspaceIdField, camp_name: CampaignName });
export type CreateCampaignInput = z.infer<typeof CreateCampaignInput>;

export const IdOutput = z.object({ status: StatusSuccess, id: z.string() });
export type IdOutput = z.infer<typeof IdOutput>;

export const SuccessOutput = z.object({ status: StatusSuccess });
export type SuccessOutput = z.infer<typeof SuccessOutput>;

export const CampaignNameOutput = z.object({ campaign_id: z.string(), campaign_name: z.string() });
export type CampaignNameOutput = z.infer<typeof CampaignNameOutput>;

export const CampaignStatusOutput = z.object({ campaign_id: z.string(), status: CampaignStatus });
export type CampaignStatusOutput = z.infer<typeof CampaignStatusOutput>;

export const CampaignAccountsOutput = z.array(z.string());
export type CampaignAccountsOutput = z.infer<typeof CampaignAccountsOutput>;

export const SetNameInput = z.object({ ...CampaignRef, name: CampaignName });
export type SetNameInput = z.infer<typeof SetNameInput>;

export const TransitionOutput = z.object({ status: StatusSuccess, campaign_id: z.string(), campaign_status: CampaignStatus });
export type TransitionOutput = z.infer<typeof TransitionOutput>;

export const DeleteCampaignInput = z.object({
  ...CampaignRef,
  is_archive: BoolInput.describe('"yes" (true): archive (keep everything); "no" (false): delete'),
  is_save_lead_data: BoolInput.default(false).describe('"yes" (true) keeps lead data, which only archiving does: the campaign is archived instead of deleted'),
});
export type DeleteCampaignInput = z.infer<typeof DeleteCampaignInput>;

export const DuplicateCampaignInput = z.object({
  ...CampaignRef,
  camp_name: CampaignName,
  duplicate_subsequences: BoolInput.default(false).describe('"yes" (true): copy the subsequences too'),
});
export type DuplicateCampaignInput = z.infer<typeof DuplicateCampaignInput>;

export const BulkTagsInput = z.object({
  workspace_id: WorkspaceIdField,
  ids: z.array(ObjectId).min(1, 'must list at least one campaign').max(1000, 'must list at most 1000 campaigns'),
  tag_id: ObjectId,
  action: z.enum(['ASSIGN', 'UNASSIGN'], { error: requiredOr('ASSIGN or UNASSIGN') }),
});
export type BulkTagsInput = z.infer<typeof BulkTagsInput>;

export const BulkTagsOutput = z.object({ status: StatusSuccess, updated_count: z.number().int() });
export type BulkTagsOutput = z.infer<typeof BulkTagsOutput>;

// --- lists ----------------------------------------------------------------------------

export const ListCampaignsInput = z.object({ workspace_id: WorkspaceIdField, ...SkipLimit });
export type ListCampaignsInput = z.infer<typeof ListCampaignsInput>;

export const CampaignSummary = z.object({
  id: z.string(),
  status: CampaignStatus,
  name: z.string(),
  tags: z.array(z.string()),
  last_lead_sent: z.string().nullable(),
  last_lead_replied: z.string().nullable(),
});
export type CampaignSummary = z.infer<typeof CampaignSummary>;
export const ListCampaignsOutput = z.array(CampaignSummary);

export const ListAllCampaignsInput = z.object({
  workspace_id: WorkspaceIdField,
  campaign_id: ObjectId.optional(),
  status: CampaignStatus.optional(),
  campaign_type: z.enum(['all', 'parent', 'subseq'], { error: 'must be all, parent or subseq' }).default('all'),
  parent_camp_id: ObjectId.optional().describe('Only the subsequences of this parent campaign (our addition)'),
  name: z.string({ error: 'must be a string' }).trim().optional().describe('Substring of the campaign name, case-insensitive'),
  ...sortParams(['created_at', 'modified_at', 'camp_name'], 'desc'),
  ...SkipLimit,
});
export type ListAllCampaignsInput = z.infer<typeof ListAllCampaignsInput>;

export const CampaignCounters = z.object({
  lead_count: z.number().int().describe('Leads in the campaign'),
  completed_lead_count: z.number().int().describe('Leads whose sequence is completed (is_completed)'),
  lead_contacted_count: z.number().int().describe('Distinct leads with at least one send'),
  sent_count: z.number().int().describe('Sends'),
  opened_count: z.number().int().describe('Sends opened at least once'),
  unique_opened_count: z.number().int().describe('Distinct leads with an opened send'),
  replied_count: z.number().int().describe('Distinct leads that replied to a send'),
  bounced_count: z.number().int().describe('Sends that bounced'),
  unsubscribed_count: z.number().int().describe('Distinct leads that unsubscribed from a send'),
  positive_reply_count: z.number().int().describe('Replied leads whose label has positive sentiment'),
  negative_reply_count: z.number().int().describe('Replied leads whose label has negative sentiment'),
  neutral_reply_count: z.number().int().describe('Replied leads whose label has neutral sentiment'),
  email_sent_today: z.number().int().describe('Sends since 00:00 UTC today'),
  open_rate: z.number().describe('unique_opened_count / lead_contacted_count × 100, 2 decimals; 0 when none'),
  replied_rate: z.number().describe('replied_count / lead_contacted_count × 100, 2 decimals; 0 when none'),
});
export type CampaignCounters = z.infer<typeof CampaignCounters>;

/**
 * The schedule as the vendor's reads answer it (its write shape, `days` {"1": true} and
 * `timing` {from, to}, is what the update and set-schedules operations take).
 */
export const CampaignScheduleOutput = z.object({
  days: z.array(z.enum(WEEKDAYS)).describe('Sending days by English name, Monday first'),
  from_time: z.string().describe('Start of the daily sending window, HH:MM (24 h) in `tz`'),
  to_time: z.string().describe('End of the daily sending window, HH:MM (24 h) in `tz`'),
  tz: z.string().describe('IANA time zone of the window'),
  timezone: z.string().describe('Same as `tz`'),
  daily_limit: z.number().int(),
  daily_limit_new_lead: z.number().int().nullable(),
  start_date: z.string().nullable().describe('Same as the campaign\'s camp_st_date'),
  end_date: z.string().nullable().describe('Same as the campaign\'s camp_end_date'),
});
export type CampaignScheduleOutput = z.infer<typeof CampaignScheduleOutput>;

export const CampaignObjectOutput = z.object({
  id: z.string(),
  camp_name: z.string(),
  parent_camp_id: z.string().describe('"" for parent campaigns'),
  campaign_type: z.enum(['parent', 'subseq']),
  organization_id: z.string(),
  workspace_id: z.string(),
  status: CampaignStatus,
  tags: z.array(z.string()),
  created_at: z.string(),
  modified_at: z.string(),
  email_accounts: z.array(z.string()),
  daily_limit: z.number().int(),
  interval_limit_in_min: z.number().int(),
  send_as_txt: z.boolean(),
  is_emailopened_tracking: z.boolean(),
  is_unsubscribed_link: z.boolean(),
  stop_on_lead_replied: z.boolean(),
  is_pause_on_bouncerate: z.boolean(),
  bounce_rate_limit: z.number(),
  paused_reason: z.string().nullable().describe('Why the engine paused the campaign (bounce protection); null when paused by hand or not paused'),
  paused_at: z.string().nullable(),
  schedule: CampaignScheduleOutput.nullable(),
  first_wait_time: z.number().int(),
  camp_st_date: z.string().nullable(),
  camp_end_date: z.string().nullable(),
  events: z.array(
    z.object({ name: z.string(), val: z.array(z.string()).optional(), include_text: z.string().optional(), exclude_text: z.string().optional() }),
  ),
  sequences: z.array(
    z.object({
      step: z.number().int(),
      wait_time: z.number().int(),
      variations: z.array(z.object({ variation: z.string(), name: z.string().nullable(), subject: z.string(), body: z.string() })),
    }),
  ),
  ...CampaignCounters.shape,
});
export type CampaignObjectOutput = z.infer<typeof CampaignObjectOutput>;
export const ListAllCampaignsOutput = z.array(CampaignObjectOutput);

export const AllStatsInput = z
  .object({ workspace_id: WorkspaceIdField, start_date: IsoDate, end_date: IsoDate.optional() })
  .refine((i) => !i.end_date || i.end_date >= i.start_date, { message: 'must not be before start_date', path: ['end_date'] });
export type AllStatsInput = z.infer<typeof AllStatsInput>;

export const AllStatsOutput = z.object({
  lead_count: z.number().int(),
  contacted_count: z.number().int(),
  sent_count: z.number().int(),
  unique_opened_count: z.number().int(),
  replied_count: z.number().int(),
  bounced_count: z.number().int(),
  unsubscribed_count: z.number().int(),
  positive_reply_count: z.number().int(),
  open_rate: z.number(),
  reply_rate: z.number(),
  bounce_rate: z.number(),
});
export type AllStatsOutput = z.infer<typeof AllStatsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(CampaignObjectOutput, 'Campaign');
nameApiSchema(CampaignSummary, 'CampaignListItem');
nameApiSchema(CampaignScheduleOutput, 'CampaignSchedule');
nameApiSchema(SequenceStepInput, 'SequenceStep');
nameApiSchema(SequenceVariationInput, 'SequenceVariation');
