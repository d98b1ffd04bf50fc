import { newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { invalidField } from '../shared/errors';
import { AddLeadsInput, AddLeadsOutput } from './lead-add.schemas';
import { inSlices, slicesOf, yieldToEventLoop } from '../shared/event-loop';
import { createUploadPlanner } from './lead-add.rules';
import { insertLeads, overwriteLeads, uploadStatementLeads, type SkipRule } from './lead-add.queries';

export const addLeads = defineOperation({
  name: 'lead.add',
  kind: 'mutation',
  summary: 'Add leads to a campaign',
  description: [
    'Adds 1 to 10,000 leads to a campaign in one transaction: a failure leaves no lead of the request behind.',
    'Addresses are trimmed and compared case-insensitively. A missing or malformed address counts in `invalid_email_count`; a repeat of an address earlier in the request counts in `duplicate_email_count` (the first is kept). Every lead field of the spec is accepted (also the vendor\'s `linkedin_person_url` / `linkedin_company_url`); unknown keys are kept as custom variables; `custom_variables` values must be strings. A `custom_<name>` key (top-level or in `custom_variables`) is the variable `<name>`: when one lead names a variable both ways the unprefixed key wins, and `custom_variables` wins over a top-level key.',
    'Skipped (`skipped`): addresses on the workspace blocklist or at a blocklisted domain; with `skip_if_in_workspace`, addresses in any other campaign of the workspace; with `skip_lead_in_active_pause_camp`, in an active or paused one; with `skip_lead_for_active_only_camp`, in an active one. An address already in this campaign counts in `already_in_campaign`, or with `is_overwrite` has its given fields updated (custom variables merged) and counts in `leads_uploaded`.',
    "Plan allowance: an organization may hold as many leads as its allowance (set per organization with the CLI; the default comes from `DEFAULT_LEAD_ALLOWANCE`). Leads beyond it are not added and count in `overflowed_lead_count`; `remaining_in_plan` is what is left after this upload. Deleting leads frees room.",
    '`resume_camp_if_completed` sets a completed campaign back to active when at least one lead was added. `crm_sync` is stored on the upload record; there is no CRM integration yet. Flags default to false and also accept "true"/"false".',
    'The counts add up: total_sent = leads_uploaded + duplicate_email_count + already_in_campaign + invalid_email_count + skipped + overflowed_lead_count.',
  ].join('\n\n'),
  input: AddLeadsInput,
  output: AddLeadsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    // Planned a slice at a time and written a statement a slice, with the event loop let
    // through in between (see uploadStatementLeads), in one transaction. Without is_overwrite,
    // a slice is planned while the database writes the one before; an overwrite needs every
    // planned lead first.
    const statementLeads = uploadStatementLeads(ctx.settings);
    const planner = createUploadPlanner();
    if (input.is_overwrite) await inSlices(input.leads, statementLeads.next, (slice) => void planner.add(slice));
    function* plannedSlices() {
      for (const slice of slicesOf(input.leads, statementLeads.next, statementLeads.first)) yield planner.add(slice);
    }
    const skip: SkipRule = input.skip_if_in_workspace
      ? 'any_campaign'
      : input.skip_lead_in_active_pause_camp
        ? 'active_or_paused'
        : input.skip_lead_for_active_only_camp
          ? 'active'
          : 'none';

    // The request's body was parsed and validated on this turn of the event loop (5,000 leads:
    // 10-50 ms); on the embedded database the transaction's first statements would follow on the
    // same turn, so other requests wait for the two together unless they are let through here.
    if (ctx.settings.embeddedDatabase !== false) await yieldToEventLoop();
    return ctx.db.$transaction(
      async (tx) => {
        // Uploads of one organization are serialised on its row, so the allowance holds.
        const [org] = await tx.$queryRawUnsafe<{ lead_allowance: number | null; lead_count: number }[]>(
          'SELECT lead_allowance, lead_count FROM organizations WHERE id = $1 FOR UPDATE',
          ctx.actor.organizationId,
        );
        const campaign = await tx.campaign.findFirst({
          where: { id: input.campaign_id, workspaceId: input.workspace_id, deletedAt: null },
          select: { id: true, type: true, status: true },
        });
        if (!org || !campaign) throw invalidField('campaign_id', `is not a campaign of workspace ${input.workspace_id}`, 'campaign.not_found');
        if (campaign.type !== 'parent') {
          throw invalidField('campaign_id', 'is a subsequence: add its leads with /lead/add-lead-in-subseq', 'campaign.is_subsequence');
        }
        if (campaign.status === 'ARCHIVED') throw invalidField('campaign_id', 'is archived', 'campaign.archived');

        const allowance = org.lead_allowance ?? ctx.settings.defaultLeadAllowance;
        const room = Math.max(0, allowance - org.lead_count);
        const uploadId = newId();
        // Overwrite first, so that only leads that were in the campaign before this upload are updated.
        const planned = input.is_overwrite ? planner.plan().leads : [];
        const overwritten = planned.length ? await overwriteLeads({ tx, workspaceId: input.workspace_id, campaignId: campaign.id, leads: planned, statementLeads: statementLeads.next }) : 0;
        const counts = await insertLeads({
          tx,
          organizationId: ctx.actor.organizationId,
          workspaceId: input.workspace_id,
          campaignId: campaign.id,
          uploadId,
          slices: input.is_overwrite ? slicesOf(planned, statementLeads.next, statementLeads.first) : plannedSlices(),
          skip,
          room,
        });
        const plan = planner.plan();
        if (counts.inserted) {
          await tx.organization.update({ where: { id: ctx.actor.organizationId }, data: { leadCount: { increment: counts.inserted } } });
        }
        if (input.resume_camp_if_completed && counts.inserted && campaign.status === 'COMPLETED') {
          await tx.campaign.update({ where: { id: campaign.id }, data: { status: 'ACTIVE' } });
        }
        const result = {
          status: 'success' as const,
          total_sent: input.leads.length,
          leads_uploaded: counts.inserted + overwritten,
          duplicate_email_count: plan.duplicates,
          already_in_campaign: counts.alreadyInCampaign - overwritten,
          invalid_email_count: plan.invalid,
          skipped: counts.skipped,
          remaining_in_plan: room - counts.inserted,
          overflowed_lead_count: counts.eligible - counts.inserted,
        };
        await tx.leadUpload.create({
          data: {
            id: uploadId,
            workspaceId: input.workspace_id,
            campaignId: campaign.id,
            crmSync: input.crm_sync,
            flags: {
              skip_if_in_workspace: input.skip_if_in_workspace,
              skip_lead_in_active_pause_camp: input.skip_lead_in_active_pause_camp,
              skip_lead_for_active_only_camp: input.skip_lead_for_active_only_camp,
              resume_camp_if_completed: input.resume_camp_if_completed,
              is_overwrite: input.is_overwrite,
            },
            totalSent: result.total_sent,
            leadsUploaded: result.leads_uploaded,
            duplicateEmailCount: result.duplicate_email_count,
            alreadyInCampaign: result.already_in_campaign,
            invalidEmailCount: result.invalid_email_count,
            skipped: result.skipped,
            overflowedLeadCount: result.overflowed_lead_count,
          },
        });
        return result;
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  },
});
