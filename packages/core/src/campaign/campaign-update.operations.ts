import { newId, type Prisma, type Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { conflict, invalid, invalidField } from '../shared/errors';
import { utcDayStart } from '../shared/time';
import { SetSchedulesInput, SuccessOutput, UpdateCampaignInput, UpdateCampaignOutput, type SequenceInput, type StoredSchedule } from './campaign.schemas';
import { campaignNotFound } from './campaign.queries';
import { planSequence, sequenceErrors } from './campaign.rules';

/**
 * Locks the campaign row for the rest of the transaction, so state checks and writes
 * see one status; 404 when it is not in the workspace.
 */
export async function lockCampaign(options: { tx: Tx; workspaceId: string; campaignId: string }) {
  const [row] = await options.tx.$queryRawUnsafe<{ id: string; status: string; type: string; name: string }[]>(
    'SELECT id, status::text AS status, type::text AS type, name FROM campaigns WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL FOR UPDATE',
    options.campaignId,
    options.workspaceId,
  );
  if (!row) throw campaignNotFound(options.campaignId, options.workspaceId);
  return row as { id: string; status: 'DRAFT' | 'ACTIVE' | 'PAUSED' | 'COMPLETED' | 'ARCHIVED'; type: 'parent' | 'subseq'; name: string };
}

const archived = () => conflict('campaign.archived', 'campaign is ARCHIVED; an archived campaign cannot be changed');

/** Replaces the campaign's sequence (see planSequence for what is kept). */
async function replaceSequence(options: { tx: Tx; workspaceId: string; campaignId: string; sequence: SequenceInput }) {
  const { tx, workspaceId, campaignId } = options;
  const stored = await tx.sequenceStep.findMany({
    where: { campaignId, workspaceId },
    select: { id: true, step: true, variations: { select: { id: true, label: true, _count: { select: { sentEmails: true } } } } },
  });
  const plan = planSequence({
    stored: stored.map((s) => ({ id: s.id, step: s.step, variations: s.variations.map((v) => ({ id: v.id, label: v.label, hasSends: v._count.sentEmails > 0 })) })),
    sequence: options.sequence,
  });
  if (plan.remove.length) await tx.variation.deleteMany({ where: { id: { in: plan.remove }, campaignId, workspaceId } });
  if (plan.markDeleted.length) await tx.variation.updateMany({ where: { id: { in: plan.markDeleted }, campaignId, workspaceId }, data: { isDeleted: true, isActive: false } });
  if (plan.removeSteps.length) await tx.sequenceStep.deleteMany({ where: { id: { in: plan.removeSteps }, campaignId, workspaceId } });
  const creates: Prisma.VariationCreateManyInput[] = [];
  for (const step of plan.steps) {
    let stepId = step.existingId;
    if (stepId) {
      await tx.sequenceStep.update({ where: { id: stepId }, data: { waitTime: step.waitTime } });
    } else {
      stepId = newId();
      await tx.sequenceStep.create({ data: { id: stepId, workspaceId, campaignId, step: step.step, waitTime: step.waitTime } });
    }
    for (const v of step.variations) {
      const content = { name: v.name, subject: v.subject, body: v.body };
      if (v.existingId) {
        await tx.variation.update({ where: { id: v.existingId }, data: { ...content, isDeleted: false, isActive: true } });
      } else {
        creates.push({ id: newId(), workspaceId, campaignId, stepId, label: v.label, ...content });
      }
    }
  }
  if (creates.length) await tx.variation.createMany({ data: creates });
}

export const updateCampaign = defineOperation({
  name: 'campaign.update',
  kind: 'mutation',
  summary: 'Update a campaign',
  description: [
    'Changes the given fields of a campaign or subsequence in one transaction; omitted fields keep their value. Allowed in every status except ARCHIVED (409 `campaign.archived`); an ACTIVE campaign may be edited, sequence included: leads already past a step are not affected, later steps follow the new sequence.',
    '`sequences` replaces the stored sequence: steps are numbered 1..n consecutively (any order in the array; a gap or a repeat is a 400 naming `sequences.<i>.step`); each step lists its variations with unique labels A, B, … (400 naming `sequences.<i>.variations.<j>.variation`). A variation that exists at the same step and label is updated in place (and becomes active again); a variation left out is marked deleted (and inactive) when it has sends, so its statistics survive, and removed otherwise; a step left out keeps its row only while it holds a variation with sends. A variation\'s `name` omitted or empty is stored as no name (reported as null here and "-" in variation stats).',
    '`schedules` (an object, or an array of one) replaces the schedule: `days` ("1" = Monday … "7" = Sunday, at least one true), `timezone` (IANA), `timing` { from, to } (HH:MM, from < to); `daily_limit`, `daily_limit_new_lead`, `start_date`, `end_date` in it set the campaign\'s own fields (`""` or null clears a date: `end_date: ""` means no end date).',
    'The flags (`send_as_txt`, `is_emailopened_tracking`, `is_unsubscribed_link`, `stop_on_lead_replied`, `is_pause_on_bouncerate`) take true/false, "yes"/"no", 1/0 or "true"/"false", as every boolean input.',
    '`email_accounts` replaces the mailboxes: addresses of mailboxes of the workspace, matched case-insensitively; an unknown one is a 400 naming `email_accounts.<i>`. `first_wait_time` (days before a subsequence\'s first step) applies to subsequences only (400 on a parent).',
    'Answers the campaign\'s `id`, `camp_name`, `status` and `updated_at` after the change. Another workspace\'s campaign answers 404 `campaign.not_found`.',
  ].join('\n\n'),
  input: UpdateCampaignInput,
  output: UpdateCampaignOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    if (input.sequences) {
      const errors = sequenceErrors(input.sequences);
      if (errors.length) throw invalid('campaign.invalid_sequence', errors.map((f) => `${f.field} ${f.message}`).join('; '), errors);
    }
    const schedule = Array.isArray(input.schedules) ? input.schedules[0] : input.schedules;
    const { workspace_id: workspaceId, campaign_id: campaignId } = input;
    return ctx.db.$transaction(async (tx) => {
      const campaign = await lockCampaign({ tx, workspaceId, campaignId });
      if (campaign.status === 'ARCHIVED') throw archived();
      if (input.first_wait_time !== undefined && campaign.type !== 'subseq') {
        throw invalidField('first_wait_time', 'applies to subsequences only');
      }
      let accountIds: string[] | undefined;
      if (input.email_accounts) {
        const wanted = input.email_accounts.map((e) => e.toLowerCase());
        const found = await tx.emailAccount.findMany({ where: { workspaceId, emailNormalized: { in: wanted } }, select: { id: true, emailNormalized: true } });
        const byEmail = new Map(found.map((a) => [a.emailNormalized, a.id]));
        const errors = wanted.flatMap((e, i) => (byEmail.has(e) ? [] : [{ field: `email_accounts.${i}`, message: `is not an email account of workspace ${workspaceId}` }]));
        if (errors.length) throw invalid('campaign.unknown_email_account', errors.map((f) => `${f.field} ${f.message}`).join('; '), errors);
        accountIds = [...new Set(wanted.map((e) => byEmail.get(e)!))];
      }
      const data: Prisma.CampaignUpdateInput = {
        ...(input.camp_name !== undefined ? { name: input.camp_name } : {}),
        ...(input.daily_limit !== undefined ? { dailyLimit: input.daily_limit } : {}),
        ...(input.interval_limit_in_min !== undefined ? { intervalLimitInMin: input.interval_limit_in_min } : {}),
        ...(input.send_as_txt !== undefined ? { sendAsText: input.send_as_txt } : {}),
        ...(input.is_emailopened_tracking !== undefined ? { openTracking: input.is_emailopened_tracking } : {}),
        ...(input.is_unsubscribed_link !== undefined ? { unsubscribeLink: input.is_unsubscribed_link } : {}),
        ...(input.stop_on_lead_replied !== undefined ? { stopOnLeadReplied: input.stop_on_lead_replied } : {}),
        ...(input.is_pause_on_bouncerate !== undefined ? { pauseOnBounceRate: input.is_pause_on_bouncerate } : {}),
        ...(input.bounce_rate_limit !== undefined ? { bounceRateLimit: input.bounce_rate_limit } : {}),
        ...(input.first_wait_time !== undefined ? { firstWaitTime: input.first_wait_time } : {}),
      };
      if (schedule) {
        const stored: StoredSchedule = { days: schedule.days, timezone: schedule.timezone, timing: schedule.timing };
        data.schedule = stored as unknown as Prisma.InputJsonValue;
        if (schedule.daily_limit !== undefined) data.dailyLimit = schedule.daily_limit;
        if (schedule.daily_limit_new_lead !== undefined) data.dailyLimitNewLead = schedule.daily_limit_new_lead;
        if (schedule.start_date !== undefined) data.startDate = schedule.start_date ? utcDayStart(schedule.start_date) : null;
        if (schedule.end_date !== undefined) data.endDate = schedule.end_date ? utcDayStart(schedule.end_date) : null;
      }
      if (accountIds) {
        await tx.campaignEmailAccount.deleteMany({ where: { campaignId } });
        await tx.campaignEmailAccount.createMany({ data: accountIds.map((emailAccountId) => ({ campaignId, emailAccountId })) });
      }
      if (input.sequences) await replaceSequence({ tx, workspaceId, campaignId, sequence: input.sequences });
      // Always written, so updated_at moves even when only relations changed.
      const updated = await tx.campaign.update({ where: { id: campaignId }, data: { ...data, updatedAt: new Date() }, select: { id: true, name: true, status: true, updatedAt: true } });
      return { id: updated.id, camp_name: updated.name, status: updated.status, updated_at: updated.updatedAt.toISOString() };
    });
  },
});

export const setCampaignSchedules = defineOperation({
  name: 'campaign.setSchedules',
  kind: 'mutation',
  summary: 'Set campaign schedules (deprecated)',
  description: [
    'Deprecated: use the update operation\'s `schedules`. Sets the campaign\'s sending window and dates: `start_date` (YYYY-MM-DD), `end_date` (optional; omitted, `""` or null clears the end date; not before `start_date`), and `schedules`, an array of exactly one entry (a campaign has one schedule): `days` ("1" = Monday … "7" = Sunday, at least one true), `timezone` (an IANA zone), `timing` { from, to } (HH:MM, from < to). `name` is accepted and not stored.',
    'Refused on an ARCHIVED campaign (409 `campaign.archived`). Another workspace\'s campaign answers 404 `campaign.not_found`.',
  ].join('\n\n'),
  input: SetSchedulesInput,
  output: SuccessOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const entry = input.schedules[0]!;
    const schedule: StoredSchedule = { days: entry.days, timezone: entry.timezone, timing: entry.timing };
    await ctx.db.$transaction(async (tx) => {
      const campaign = await lockCampaign({ tx, workspaceId: input.workspace_id, campaignId: input.campaign_id });
      if (campaign.status === 'ARCHIVED') throw archived();
      await tx.campaign.update({
        where: { id: campaign.id },
        data: {
          schedule: schedule as unknown as Prisma.InputJsonValue,
          startDate: utcDayStart(input.start_date),
          endDate: input.end_date ? utcDayStart(input.end_date) : null,
        },
      });
    });
    return { status: 'success' as const };
  },
});
