import { defineOperation } from '../shared/operation';
import { invalid, invalidField } from '../shared/errors';
import { LEAD_COLUMNS } from './lead-add.rules';
import { AddToSubsequenceInput, AddToSubsequenceOutput } from './lead.schemas';
import { enrolLeads } from './subsequence-enrolment.service';

export const addLeadsToSubsequence = defineOperation({
  name: 'lead.addToSubsequence',
  kind: 'mutation',
  summary: 'Add leads to a subsequence',
  description: [
    '`subseq_id` must be a subsequence of the workspace (400 naming `subseq_id` otherwise); each of `parent_lead_ids` (1 to 10,000) must be a lead of its parent campaign (400 naming `parent_lead_ids.<index>` for each that is not; nothing is added then). A repeated id counts once.',
    'Each parent lead becomes a new lead of the subsequence with its contact fields, custom variables, label and mailbox (`email_account_id`: the subsequence keeps writing from the mailbox that wrote to the lead), `source_lead_id` pointing back to it, status NOT_CONTACTED and step 0. A lead whose address is already in the subsequence is skipped (not counted in `inserted`).',
    "The parent lead's own sequence stops once its address is in the subsequence: nothing more is due to it and `is_completed` is true, but its status is kept (a replied lead stays REPLIED). Parent leads left out by the allowance keep running.",
    "Plan allowance, as for /lead/add: the organization may hold as many leads as its allowance; leads beyond it are not added and count in `overflowed`. The organization's lead count grows by `inserted` in the same transaction.",
  ].join('\n\n'),
  input: AddToSubsequenceInput,
  output: AddToSubsequenceOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const ids = [...new Set(input.parent_lead_ids)];
    return ctx.db.$transaction(
      async (tx) => {
        // Serialised with uploads and deletes on the organization row, so the allowance holds.
        const [org] = await tx.$queryRawUnsafe<{ lead_allowance: number | null; lead_count: number }[]>(
          'SELECT lead_allowance, lead_count FROM organizations WHERE id = $1 FOR UPDATE',
          ctx.actor.organizationId,
        );
        const subsequence = await tx.campaign.findFirst({ where: { id: input.subseq_id, workspaceId, deletedAt: null }, select: { id: true, type: true, parentId: true } });
        if (!org || !subsequence) throw invalidField('subseq_id', `is not a campaign of workspace ${workspaceId}`, 'campaign.not_found');
        if (subsequence.type !== 'subseq' || !subsequence.parentId) throw invalidField('subseq_id', 'is not a subsequence', 'campaign.not_a_subsequence');
        const parentId = subsequence.parentId;

        const known = new Set(
          (await tx.lead.findMany({ where: { id: { in: ids }, campaignId: parentId, workspaceId }, select: { id: true } })).map((l) => l.id),
        );
        const fieldErrors = input.parent_lead_ids.flatMap((id, i) =>
          known.has(id) ? [] : [{ field: `parent_lead_ids.${i}`, message: `is not a lead of the parent campaign ${parentId}` }],
        );
        if (fieldErrors.length) {
          const shown = fieldErrors.slice(0, 20).map((f) => `${f.field} ${f.message}`).join('; ');
          throw invalid('lead.not_in_parent', fieldErrors.length > 20 ? `${shown}; and ${fieldErrors.length - 20} more` : shown, fieldErrors);
        }

        const allowance = org.lead_allowance ?? ctx.settings.defaultLeadAllowance;
        const { inserted, eligible } = await enrolLeads({
          tx,
          organizationId: ctx.actor.organizationId,
          workspaceId,
          parentId,
          subsequenceId: subsequence.id,
          parentLeadIds: ids,
          room: Math.max(0, allowance - org.lead_count),
          now: ctx.ports.clock.now(),
          via: 'API',
        });
        return { status: 'success' as const, inserted, overflowed: eligible - inserted };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  },
});
