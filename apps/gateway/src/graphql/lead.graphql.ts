// GraphQL fields of the lead operations. Lead is the type of the read operations' rows
// (hidden labels already applied by core); its campaign is read through campaign.listAll.
import { operations, type Ctx } from '@outreach/core';
import { Campaign } from './campaign.graphql';
import { connectionField } from './connection';
import { operationField, referenceField, run, typeOf, type Input, type Parent } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.lead;
const names = { '*': 'customVariables', modified_at: 'updatedAt', camp_name: 'campaignName', email_acc_name: 'emailAccountName', delete_list: 'emails', subseq_id: 'subsequenceId' };

export const Lead: Parent = { ref: typeOf(ops.get, 'Lead', { names }), bind: {} };

/** lead.countByStatus counts what the listing lists unless it filters by label or address. */
async function countLeads(ctx: Ctx, input: Input): Promise<number | null> {
  if (input['label'] !== undefined || input['email'] !== undefined) return null;
  const counts = await run<{ status: string; count: number }[]>(ctx, ops.countByStatus, { workspace_id: input['workspace_id'], campaign_id: input['campaign_id'] });
  return counts.filter((c) => input['status'] === undefined || c.status === input['status']).reduce((sum, c) => sum + c.count, 0);
}

referenceField(Lead, 'campaign', Campaign, (lead: { campaign_id: string }) => lead.campaign_id, 'The campaign (or subsequence) the lead is in');
connectionField('leads', ops.workspaceLeads, { on: Workspace, type: 'Lead', names, count: countLeads });
operationField('leadsByEmail', ops.get, { type: 'Lead', names });
operationField('leadCountsByStatus', ops.countByStatus, { on: Workspace, type: 'LeadStatusCount' });
operationField('addLeads', ops.add, { names, type: 'LeadUploadResult', types: { leads: 'Lead' } });
operationField('updateLeadData', ops.updateData, { names });
operationField('completeLead', ops.updateStatus, { names });
operationField('deleteLeads', ops.delete, { names });
operationField('addLeadsToSubsequence', ops.addToSubsequence, { names, type: 'SubsequenceEnrolResult' });
