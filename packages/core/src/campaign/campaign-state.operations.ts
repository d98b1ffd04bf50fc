import type { Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { conflict, preconditionFailed } from '../shared/errors';
import { CampaignRefInput, DeleteCampaignInput, SuccessOutput, TransitionOutput } from './campaign.schemas';
import { launchBlockers, nextStatus, transitionRefusal, type CampaignAction } from './campaign.rules';
import { lockCampaign } from './campaign-update.operations';
import { countCampaignLeads } from './campaign-counters.queries';
import { detachInboxFromLeads, SYNC_DELETE_MAX_LEADS, tombstoneCampaign } from '../purge/index';

const invalidTransition = (options: { from: Parameters<typeof nextStatus>[0]['from']; action: CampaignAction }) =>
  conflict('campaign.invalid_transition', transitionRefusal(options));

async function checkLaunchable(options: { tx: Tx; workspaceId: string; campaignId: string }) {
  const { tx, workspaceId, campaignId } = options;
  const [sendableSteps, emailAccounts, campaign] = await Promise.all([
    tx.sequenceStep.count({
      where: { campaignId, workspaceId, variations: { some: { isActive: true, isDeleted: false, subject: { not: '' }, body: { not: '' } } } },
    }),
    tx.campaignEmailAccount.count({ where: { campaignId } }),
    tx.campaign.findFirstOrThrow({ where: { id: campaignId, workspaceId }, select: { schedule: true } }),
  ]);
  const blockers = launchBlockers({ sendableSteps, emailAccounts, hasSchedule: campaign.schedule !== null });
  if (blockers.length) {
    throw preconditionFailed('campaign.not_launchable', `campaign cannot be launched: ${blockers.map((b) => `${b.field} ${b.message}`).join('; ')}`, blockers);
  }
}

export const launchCampaign = defineOperation({
  name: 'campaign.launch',
  kind: 'mutation',
  summary: 'Launch a campaign',
  description: [
    'Moves a DRAFT, PAUSED or COMPLETED campaign (or subsequence) to ACTIVE; a COMPLETED one resumes (leads added since it completed are sent to).',
    'Launching needs at least one step with an active, non-deleted variation that has a subject and a body, at least one email account, and a schedule; otherwise 400 `campaign.not_launchable` with one field error per missing piece (`sequences`, `email_accounts`, `schedules`).',
    'An ACTIVE campaign answers 409 `campaign.invalid_transition` ("campaign is already ACTIVE"), an ARCHIVED one 409 as well (an archived campaign cannot be launched). The status is checked and changed under a lock on the campaign row, so concurrent launches and pauses are serialised. Another workspace\'s campaign answers 404 `campaign.not_found`.',
  ].join('\n\n'),
  input: CampaignRefInput,
  output: TransitionOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    return ctx.db.$transaction(async (tx) => {
      const campaign = await lockCampaign({ tx, workspaceId: input.workspace_id, campaignId: input.campaign_id });
      const to = nextStatus({ from: campaign.status, action: 'launch' });
      if (!to) throw invalidTransition({ from: campaign.status, action: 'launch' });
      await checkLaunchable({ tx, workspaceId: input.workspace_id, campaignId: campaign.id });
      await tx.campaign.update({ where: { id: campaign.id }, data: { status: to, pausedReason: null, pausedAt: to === 'PAUSED' ? ctx.ports.clock.now() : null } });
      return { status: 'success' as const, campaign_id: campaign.id, campaign_status: to };
    });
  },
});

export const pauseCampaign = defineOperation({
  name: 'campaign.pause',
  kind: 'mutation',
  summary: 'Pause a campaign',
  description: [
    'Moves an ACTIVE campaign (or subsequence) to PAUSED; nothing more is sent until it is launched again. Any other status answers 409 `campaign.invalid_transition` naming it. The status is checked and changed under a lock on the campaign row. Another workspace\'s campaign answers 404 `campaign.not_found`.',
  ].join('\n\n'),
  input: CampaignRefInput,
  output: TransitionOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    return ctx.db.$transaction(async (tx) => {
      const campaign = await lockCampaign({ tx, workspaceId: input.workspace_id, campaignId: input.campaign_id });
      const to = nextStatus({ from: campaign.status, action: 'pause' });
      if (!to) throw invalidTransition({ from: campaign.status, action: 'pause' });
      await tx.campaign.update({ where: { id: campaign.id }, data: { status: to, pausedReason: null, pausedAt: to === 'PAUSED' ? ctx.ports.clock.now() : null } });
      return { status: 'success' as const, campaign_id: campaign.id, campaign_status: to };
    });
  },
});

export const deleteCampaign = defineOperation({
  name: 'campaign.delete',
  kind: 'mutation',
  summary: 'Delete or archive a campaign',
  description: [
    '`is_archive` "yes" archives: the status becomes ARCHIVED (from any status; archiving an archived campaign succeeds) and everything is kept (sequence, leads, sends, statistics); an archived campaign cannot be launched or edited. Its subsequences keep their own status.',
    '`is_archive` "no" deletes the campaign with its steps, variations, leads, sends and subsequences (theirs too); its leads\' conversations stay in the unified inbox, no longer linked to them. Lead data is kept only by archiving: `is_save_lead_data` "yes" with `is_archive` "no" archives the campaign instead of deleting it. `is_save_lead_data` defaults to "no".',
    'Deleting decrements the organization\'s lead counter by the leads removed, in the same transaction, under the lock lead uploads take on the organization row. Another workspace\'s campaign answers 404 `campaign.not_found`.',
    'A campaign of more than 1,000 leads (with its subsequences\') answers at once as well: it is gone from every read from then on (404 `campaign.not_found`, absent from lists, its leads from lead searches) and nothing more is sent for it, while the worker role removes its sends and leads in the background, a few thousand rows at a time.',
  ].join('\n\n'),
  input: DeleteCampaignInput,
  output: SuccessOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_DELETE',
  async run(ctx, input) {
    const archive = input.is_archive || input.is_save_lead_data;
    await ctx.db.$transaction(async (tx) => {
      if (archive) {
        const campaign = await lockCampaign({ tx, workspaceId: input.workspace_id, campaignId: input.campaign_id });
        await tx.campaign.update({ where: { id: campaign.id }, data: { status: 'ARCHIVED' } });
        return;
      }
      // Same lock order as lead uploads (organization, then campaign), so the two never deadlock.
      await tx.$queryRawUnsafe('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', ctx.actor.organizationId);
      const campaign = await lockCampaign({ tx, workspaceId: input.workspace_id, campaignId: input.campaign_id });
      // The kept counters (campaign-counters.queries.ts) give the leads without reading them: with
      // the organization locked no upload adds any meanwhile, and their pending deltas are counted.
      // A subsequence deleted before had its leads taken off then; still there, it is the purge's.
      const tree = await tx.campaign.findMany({ where: { workspaceId: input.workspace_id, OR: [{ id: campaign.id }, { parentId: campaign.id }] }, select: { id: true, deletedAt: true } });
      const live = tree.filter((c) => !c.deletedAt).map((c) => c.id);
      const leads = await countCampaignLeads({ db: tx, workspaceId: input.workspace_id, campaignIds: live });
      // A large campaign is hidden now and purged in bounded batches later (purge/): deleting its
      // rows here would hold the organization's lock, and the rows' locks, for seconds or minutes.
      if (leads > SYNC_DELETE_MAX_LEADS || live.length < tree.length) await tombstoneCampaign({ tx, campaignId: campaign.id, now: ctx.ports.clock.now() });
      else {
        await detachInboxFromLeads({ tx, campaignIds: live });
        await tx.campaign.delete({ where: { id: campaign.id } });
      }
      if (leads) await tx.organization.update({ where: { id: ctx.actor.organizationId }, data: { leadCount: { decrement: leads } } });
    });
    return { status: 'success' as const };
  },
});
