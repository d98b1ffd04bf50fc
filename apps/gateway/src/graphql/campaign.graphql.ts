// GraphQL fields of the campaign operations. Campaign is the type of campaign.listAll's
// rows (settings, schedule, sequence, subsequence events and counters), read again through
// that operation after every change.
import { operations } from '@outreach/core';
import { connectionField } from './connection';
import { entity, lookupField, nullWhen, operationField, run, typeOf } from './operation-field';
import { Workspace } from './workspace.graphql';
import { graphField, graphType } from './graph';

const ops = operations.campaign;
const names = {
  campaign_id: 'id',
  camp_name: 'name',
  parent_camp_id: 'parentId',
  campaign_type: 'type',
  modified_at: 'updatedAt',
  send_as_txt: 'sendAsText',
  is_emailopened_tracking: 'openTracking',
  is_unsubscribed_link: 'unsubscribeLink',
  is_pause_on_bouncerate: 'pauseOnBounceRate',
  is_del: 'isDeleted',
};
const types = { sequences: 'SequenceStep', variations: 'SequenceVariation', events: 'SubsequenceEvent', schedules: 'CampaignSchedule', timing: 'ScheduleTiming' };
const naming = { names, types };

export const Campaign = entity(typeOf(ops.listAll, 'Campaign', naming), {
  bind: { campaign_id: (c: { id: string }) => c.id },
  node: true,
  load: async (ctx, workspaceId, id) => (await run(ctx, ops.listAll, { workspace_id: workspaceId, campaign_id: id }))[0],
  // The list's counters cost a scan of the campaign's leads and sends: a lookup reads them only when asked.
  probe: (ctx, workspaceId, id) => nullWhen('not_found', run(ctx, ops.getName, { workspace_id: workspaceId, campaign_id: id }).then((found) => ({ id: found.campaign_id }))),
});
const returnsCampaign = { entity: Campaign, id: (out: { id?: string }, input: Record<string, unknown>) => out.id ?? input['campaign_id'] };

lookupField('campaign', Campaign, 'A campaign or subsequence of the workspace; null when the workspace has none with this id');
lookupField('parent', Campaign, 'The parent campaign of a subsequence; null for a parent campaign', Campaign, (c: { parent_camp_id: string }) => c.parent_camp_id);
connectionField('campaigns', ops.listAll, { on: Workspace, type: 'Campaign', names: { ...names, campaign_id: 'campaignId' } });
operationField('variationStats', ops.variationStats, { on: Campaign, names, type: 'StepVariationStats', types: { variations: 'VariationStats' } });
operationField('campaignStats', ops.statsAll, { on: Workspace, type: 'WorkspaceCampaignStats' });

operationField('createCampaign', ops.create, { ...naming, returns: returnsCampaign });
operationField('createSubsequence', ops.addSubsequence, { names: { parent_camp_id: 'parentCampaignId' }, types, returns: returnsCampaign });
operationField('renameCampaign', ops.setName, { ...naming, returns: returnsCampaign });
operationField('updateCampaign', ops.update, { ...naming, returns: returnsCampaign });
operationField('setCampaignSchedule', ops.setSchedules, { names, types: { ...types, schedules: 'Schedule' } });
operationField('launchCampaign', ops.launch, { ...naming, returns: returnsCampaign });
operationField('pauseCampaign', ops.pause, { ...naming, returns: returnsCampaign });
operationField('archiveCampaign', ops.delete, { ...naming, fixed: { is_archive: 'yes', is_save_lead_data: 'no' }, returns: returnsCampaign });
operationField('deleteCampaign', ops.delete, { ...naming, fixed: { is_archive: 'no', is_save_lead_data: 'no' } });
operationField('duplicateCampaign', ops.duplicate, { ...naming, returns: returnsCampaign });
operationField('assignCampaignTags', ops.bulkAssignTags, { result: 'updated_count' });
// The sequence editor's preview (a step composed for a lead as the engine would send it) and test send; GraphQL and tRPC only.
operationField('preview', ops.preview, { on: Campaign, names, type: 'CampaignStepPreview' });
operationField('sendCampaignTest', ops.sendTest, { type: 'CampaignTestSend' });

const Step = graphType('SequenceStep', 'CampaignStep', { description: 'A step of the sequence, as stored', relations: { variations: { orderBy: { label: 'asc' } } } });
graphType('Variation', 'StepVariation', { description: 'A variation of a step, as stored (a deleted one is kept, marked `isDeleted`, for its statistics)', relations: {} });
graphField(Campaign, 'steps', 'SequenceStep', (c: { id: string }) => ({ campaignId: c.id }), { orderBy: { step: 'asc' }, description: "The campaign's steps with their variations, first step first" });
