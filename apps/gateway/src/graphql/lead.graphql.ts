// GraphQL fields of the lead operations. Lead is the type of the read operations' rows
// (hidden labels already applied by core); its campaign is read through the Campaign entity.
import { operations, type Ctx } from '@outreach/core';
import { Campaign } from './campaign.graphql';
import { connectionField } from './connection';
import { entity, lookupField, operationField, run, typeOf, type Input } from './operation-field';
import { Workspace } from './workspace.graphql';
import { graphField, graphType } from './graph';

const ops = operations.lead;
const names = { '*': 'customVariables', modified_at: 'updatedAt', camp_name: 'campaignName', email_acc_name: 'emailAccountName', delete_list: 'emails', subseq_id: 'subsequenceId' };

/** Read again through lead.workspaceLeads, by its `lead_id` filter. */
export const Lead = entity(typeOf(ops.get, 'Lead', { names }), {
  node: true,
  load: async (ctx, workspaceId, id) => (await run(ctx, ops.workspaceLeads, { workspace_id: workspaceId, lead_id: id, limit: 1 }))[0],
});

/** lead.countByStatus counts what the listing lists unless it filters by label, address or id. */
async function countLeads(ctx: Ctx, input: Input): Promise<number | null> {
  if (input['label'] !== undefined || input['email'] !== undefined || input['lead_id'] !== undefined) return null;
  const counts = await run<{ status: string; count: number }[]>(ctx, ops.countByStatus, { workspace_id: input['workspace_id'], campaign_id: input['campaign_id'] });
  return counts.filter((c) => input['status'] === undefined || c.status === input['status']).reduce((sum, c) => sum + c.count, 0);
}

lookupField('lead', Lead, 'A lead of the workspace by id; null when the workspace has none with this id');
lookupField('campaign', Campaign, 'The campaign (or subsequence) the lead is in', Lead, (lead: { campaign_id: string }) => lead.campaign_id);
connectionField('leads', ops.workspaceLeads, { on: Workspace, type: 'Lead', names, count: countLeads });
operationField('leadsByEmail', ops.get, { type: 'Lead', names });
operationField('leadCountsByStatus', ops.countByStatus, { on: Workspace, type: 'LeadStatusCount' });
operationField('addLeads', ops.add, { names, type: 'LeadUploadResult', types: { leads: 'Lead' } });
operationField('updateLeadData', ops.updateData, { names });
operationField('completeLead', ops.updateStatus, { names });
operationField('deleteLeads', ops.delete, { names });
operationField('addLeadsToSubsequence', ops.addToSubsequence, { names, type: 'SubsequenceEnrolResult' });

graphType('SentEmail', 'LeadMessage', { hide: ['organizationId'], description: 'An e-mail a campaign step sent to the lead, with its opens, clicks, reply, bounce and unsubscribe', relations: { events: { orderBy: { occurredAt: 'asc' } } } });
graphType('EmailEvent', 'LeadMessageEvent', { description: 'An open, click, reply, bounce or unsubscribe of a sent e-mail' });
graphField(Lead, 'messages', 'SentEmail', (lead: { _id: string }) => ({ leadId: lead._id }), { orderBy: { sentAt: 'asc' }, description: 'The e-mails the campaign sent to the lead, first sent first' });
