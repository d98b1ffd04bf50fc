import { newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { invalidField, notFound } from '../shared/errors';
import { assertCampaignOfWorkspace } from '../shared/tenancy';
import { detachInboxFromLeads } from '../purge/index';
import { hiddenLabelsOf } from './lead.rules';
import { afterLabelChanged } from './label-change.service';
import { planVariables } from './lead-variables.rules';
import {
  DeleteLeadsInput,
  DeleteLeadsOutput,
  StatusOnly,
  UpdateLeadDataInput,
  UpdateLeadDataOutput,
  UpdateLeadStatusInput,
} from './lead.schemas';

export const LABEL_CHANGED = 'LABEL_CHANGED';

export const updateLeadData = defineOperation({
  name: 'lead.updateData',
  kind: 'mutation',
  summary: 'Update the variables and label of a lead',
  description: [
    'Updates the lead with this address (case-insensitive) in every campaign and subsequence of the workspace it is in, or only in `campaign_id`; `updated` counts the lead rows changed. An address in none of them is 404.',
    '`variables` (string values): a key naming a lead field (`first_name`, `city`, …, also `linkedin_person_url` / `linkedin_company_url` for the `network_*_url` fields) sets that field ("" clears it); any other key is merged into the custom variables (other custom variables are kept), `custom_<name>` as `<name>` (the unprefixed key wins when both are given). `email` cannot be changed here, and the lead object\'s read-only keys (`status`, `label`, `_id`, counters, …) are refused as variables: each is a 400 naming `variables.<key>`.',
    '`label`: a label key of the workspace (400 otherwise, also for a label hidden from a client key); `null` or "" clears it. Each lead whose label changes gets a `LABEL_CHANGED` lead event with `{ from, to }` in the same transaction; a change to a label also queues the `LEAD_MARKED_AS_<KEY>` webhook event and enrols the lead into its campaign\'s subsequences whose `LEAD_LABEL_UPDATED` trigger lists the label (once per subsequence; the lead\'s own sequence stops), all in that transaction.',
    'At least one of `variables` and `label` is required (400).',
  ].join('\n\n'),
  input: UpdateLeadDataInput,
  output: UpdateLeadDataOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const plan = planVariables({ variables: input.variables ?? {} });
    const label = input.label === undefined ? undefined : input.label === null || input.label === '' ? null : input.label;
    if (label) {
      const known = await ctx.db.leadLabel.findFirst({ where: { workspaceId, key: label }, select: { id: true } });
      if (!known || hiddenLabelsOf({ ctx, workspaceId }).includes(label)) {
        throw invalidField('label', `is not a lead label of workspace ${workspaceId}`, 'lead_label.not_found');
      }
    }
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });

    const params: unknown[] = [workspaceId, input.email.toLowerCase(), input.campaign_id ?? null];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const sets = Object.entries(plan.columns).map(([column, value]) => `${column} = ${param(value)}`);
    if (Object.keys(plan.custom).length) sets.push(`custom_variables = l.custom_variables || ${param(JSON.stringify(plan.custom))}::jsonb`);
    if (label !== undefined) sets.push(`label = ${param(label)}`);
    sets.push('updated_at = now()');

    return ctx.db.$transaction(async (tx) => {
      // The old label is read under the row lock, so that concurrent changes each log what they replaced.
      const changed = await tx.$queryRawUnsafe<{ id: string; campaign_id: string; old_label: string | null; new_label: string | null }[]>(
        `UPDATE leads l SET ${sets.join(', ')}
           FROM (SELECT id, label AS old_label FROM leads
                  WHERE workspace_id = $1 AND email_normalized = $2 AND ($3::text IS NULL OR campaign_id = $3)
                  FOR UPDATE) o
          WHERE l.id = o.id
          RETURNING l.id, l.campaign_id, o.old_label, l.label AS new_label`,
        ...params,
      );
      if (!changed.length) throw notFound('lead.not_found', `no lead with address ${input.email} in ${input.campaign_id ? `campaign ${input.campaign_id}` : `workspace ${workspaceId}`}`);
      const occurredAt = ctx.ports.clock.now();
      const events = changed
        .filter((c) => c.old_label !== c.new_label)
        .map((c) => ({
          id: newId(),
          workspaceId,
          leadId: c.id,
          campaignId: c.campaign_id,
          type: LABEL_CHANGED,
          data: { from: c.old_label, to: c.new_label },
          occurredAt,
        }));
      if (events.length) await tx.leadEvent.createMany({ data: events });
      // Webhooks (LEAD_MARKED_AS_<KEY>) and subsequence enrolment (LEAD_LABEL_UPDATED), in this transaction.
      await afterLabelChanged({
        tx,
        changes: changed.map((c) => ({ leadId: c.id, from: c.old_label, to: c.new_label })),
        now: occurredAt,
        defaultLeadAllowance: ctx.settings.defaultLeadAllowance,
      });
      return { status: 'success' as const, updated: changed.length };
    });
  },
});

export const updateLeadStatus = defineOperation({
  name: 'lead.updateStatus',
  kind: 'mutation',
  summary: 'Mark a lead as completed',
  description: [
    'Only `new_status: "COMPLETED"` is accepted, as the vendor does (any other value is 400 naming `new_status`).',
    'Marks the lead with this address (case-insensitive) in `campaign_id` as completed: status COMPLETED, `is_completed` true, and nothing more is due to it (its sequence stops). A lead that is not in that campaign of the workspace is 404.',
  ].join('\n\n'),
  input: UpdateLeadStatusInput,
  output: StatusOnly,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const updated = await ctx.db.lead.updateMany({
      where: { workspaceId: input.workspace_id, campaignId: input.campaign_id, emailNormalized: input.email.toLowerCase() },
      data: { status: 'COMPLETED', isCompleted: true, nextSendAt: null },
    });
    if (!updated.count) throw notFound('lead.not_found', `no lead with address ${input.email} in campaign ${input.campaign_id}`);
    return { status: 'success' as const };
  },
});

export const deleteLeads = defineOperation({
  name: 'lead.delete',
  kind: 'mutation',
  summary: 'Delete leads from a campaign',
  description: [
    'Deletes the leads with the listed addresses (1 to 10,000, case-insensitive) from `campaign_id`, or without it from every campaign and subsequence of the workspace. `deleted` counts the lead rows removed; an address in no campaign is not an error. A `campaign_id` that is not a campaign of the workspace is 400.',
    "A lead's sends and events go with it (campaign statistics no longer count them); its conversations stay in the unified inbox, no longer linked to the lead, its campaign or its sends. The organization's lead count drops by `deleted` in the same transaction, which frees room in the plan allowance.",
  ].join('\n\n'),
  input: DeleteLeadsInput,
  output: DeleteLeadsOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_DELETE',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });
    const addresses = [...new Set(input.delete_list.map((a) => a.toLowerCase()))];
    return ctx.db.$transaction(
      async (tx) => {
        // Same lock as uploads take, so the count and the allowance check stay in step.
        await tx.$queryRawUnsafe('SELECT lead_count FROM organizations WHERE id = $1 FOR UPDATE', ctx.actor.organizationId);
        const gone = await tx.$queryRawUnsafe<{ id: string }[]>(
          `DELETE FROM leads
            WHERE workspace_id = $1 AND email_normalized = ANY($2::text[]) AND ($3::text IS NULL OR campaign_id = $3)
          RETURNING id`,
          workspaceId,
          addresses,
          input.campaign_id ?? null,
        );
        const deleted = gone.length;
        await detachInboxFromLeads({ tx, leadIds: gone.map((l) => l.id) });
        if (deleted) {
          await tx.$executeRawUnsafe('UPDATE organizations SET lead_count = GREATEST(0, lead_count - $2), updated_at = now() WHERE id = $1', ctx.actor.organizationId, deleted);
        }
        return { status: 'success' as const, deleted };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  },
});
