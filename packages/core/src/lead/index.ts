// The operations of this domain, keyed as their tRPC procedures are (`lead.<key>`).
import { addLeads } from './lead-add.operations';
import { countLeadsByStatus, getLead, listWorkspaceLeads } from './lead-read.operations';
import { deleteLeads, updateLeadData, updateLeadStatus } from './lead-write.operations';
import { addLeadsToSubsequence } from './lead-subsequence.operations';

export const leadOperations = {
  add: addLeads,
  get: getLead,
  workspaceLeads: listWorkspaceLeads,
  countByStatus: countLeadsByStatus,
  updateData: updateLeadData,
  updateStatus: updateLeadStatus,
  delete: deleteLeads,
  addToSubsequence: addLeadsToSubsequence,
} as const;
