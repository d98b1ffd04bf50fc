import { defineOperation } from '../shared/operation';
import { DomainError, invalid } from '../shared/errors';
import { assertWorkspaceAccess } from '../shared/tenancy';
import { utcDayEnd, utcDayStart } from '../shared/time';
import { VariationStatsInput, VariationStatsOutput, type VariationStepStats } from './variation-stats.schemas';
import { variationCounts } from './variation-stats.queries';

/** A, B, …, Z, AA, AB: shorter labels first, then alphabetical. */
export function compareLabels(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

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
    const [campaign, counts] = await Promise.all([
      ctx.db.campaign.findFirst({
        where: { id: input.campaign_id, workspaceId: input.workspace_id },
        select: {
          openTracking: true,
          steps: {
            orderBy: { step: 'asc' },
            select: { step: true, variations: { select: { id: true, label: true, name: true, isActive: true, isDeleted: true } } },
          },
        },
      }),
      variationCounts({
        db: ctx.db,
        campaignId: input.campaign_id,
        workspaceId: input.workspace_id,
        from: input.start_date ? utcDayStart(input.start_date) : null,
        to: input.end_date ? utcDayEnd(input.end_date) : null,
      }),
    ]);
    if (!campaign) throw invalid('campaign.not_found', `campaign_id ${input.campaign_id} is not a campaign of workspace ${input.workspace_id}`);
    const byVariation = new Map(counts.map((c) => [c.variation_id, c]));
    return campaign.steps.map(
      (step): VariationStepStats => ({
        step: step.step,
        variations: step.variations
          // Deleted variations are reported only when they have sends in the range.
          .filter((v) => !v.isDeleted || (byVariation.get(v.id)?.sent ?? 0) > 0)
          .sort((a, b) => compareLabels(a.label, b.label))
          .map((v) => {
            const c = byVariation.get(v.id);
            return {
              variation: v.label,
              sent: c?.sent ?? 0,
              open: campaign.openTracking ? (c?.open ?? 0) : 0,
              reply: c?.reply ?? 0,
              pos_reply: c?.pos_reply ?? 0,
              name: v.name?.trim() ? v.name : '-',
              is_active: v.isActive && !v.isDeleted,
              is_del: v.isDeleted,
            };
          }),
      }),
    );
  },
});
