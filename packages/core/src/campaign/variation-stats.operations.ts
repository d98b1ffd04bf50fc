import { defineOperation } from '../shared/operation';
import { DomainError, invalid } from '../shared/errors';
import { assertWorkspaceAccess } from '../shared/tenancy';
import { utcDayEnd, utcDayStart } from '../shared/time';
import { VariationStatsInput, VariationStatsOutput, type VariationStepStats } from './variation-stats.schemas';
import { campaignVariations, variationCounts } from './variation-stats.queries';

export const getVariationStats = defineOperation({
  name: 'campaign.variationStats',
  kind: 'query',
  summary: 'Get campaign variation stats',
  description: [
    'Variation-level statistics for each step of a campaign (or subsequence).',
    'Range: `start_date` and `end_date` are inclusive UTC days; with both, only sends inside the range count; with neither, all time; with only one, the range is open-ended (from that day on, or up to that day).',
    'What counts: a send is attributed to the variation that produced it; an open or a reply is attributed to the send it answers, so `open` and `reply` count sends of the variation that were opened by a person (machine opens excluded) or replied to (auto-replies excluded), within the range of their send time. `pos_reply` counts replied sends whose lead currently carries a label of positive sentiment. `open` is 0 for every variation when open tracking is off for the campaign.',
    'Grouping: every step of the sequence in step order; each step lists its variations in label order (A, B, …), including deleted variations that have sends in the range (or ever, for all time). `name` is the custom name or `-`.',
    'Errors answer 400 `{ message }`: a malformed or impossible date, `start_date` after `end_date`, or an unknown or foreign campaign or workspace.',
  ].join('\n\n'),
  input: VariationStatsInput,
  output: VariationStatsOutput,
  // Scoped in run: the spec answers an unknown or foreign workspace with 400, not 403.
  workspace: 'none',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    // Answered from memory after the first request for a workspace (see tenancy.ts).
    await assertWorkspaceAccess({ ctx, workspaceId: input.workspace_id, permission: 'CAMPAIGN_LIST' }).catch((error: unknown) => {
      throw error instanceof DomainError && error.code === 'auth.workspace_forbidden'
        ? invalid('campaign.invalid_workspace', `workspace_id ${input.workspace_id} is not a workspace of this API key`)
        : error;
    });
    // The campaign and its counts are read concurrently; counts of a campaign that turns
    // out not to be in this workspace are discarded unread.
    const [rows, counts] = await Promise.all([
      campaignVariations({ db: ctx.db, campaignId: input.campaign_id, workspaceId: input.workspace_id }),
      variationCounts({
        db: ctx.db,
        campaignId: input.campaign_id,
        workspaceId: input.workspace_id,
        from: input.start_date ? utcDayStart(input.start_date) : null,
        to: input.end_date ? utcDayEnd(input.end_date) : null,
      }),
    ]);
    if (!rows.length) throw invalid('campaign.not_found', `campaign_id ${input.campaign_id} is not a campaign of workspace ${input.workspace_id}`);
    const openTracking = rows[0]!.open_tracking;
    const byVariation = new Map(counts.map((c) => [c.variation_id, c]));
    const steps: VariationStepStats[] = [];
    for (const row of rows) {
      if (row.step === null) continue;
      let step = steps[steps.length - 1];
      if (step?.step !== row.step) {
        step = { step: row.step, variations: [] };
        steps.push(step);
      }
      if (row.variation_id === null || row.label === null) continue;
      const c = byVariation.get(row.variation_id);
      // Deleted variations are reported only when they have sends in the range.
      if (row.is_deleted && !c?.sent) continue;
      step.variations.push({
        variation: row.label,
        sent: c?.sent ?? 0,
        open: openTracking ? (c?.open ?? 0) : 0,
        reply: c?.reply ?? 0,
        pos_reply: c?.pos_reply ?? 0,
        name: row.name?.trim() ? row.name : '-',
        is_active: Boolean(row.is_active) && !row.is_deleted,
        is_del: Boolean(row.is_deleted),
      });
    }
    return steps;
  },
});
