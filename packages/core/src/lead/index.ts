// The operations of this domain, keyed as their tRPC procedures are (`lead.<key>`).
import { addLeads } from './lead-add.operations';
import { countLeadsByStatus, getLead, listWorkspaceLeads } from './lead-read.operations';
import { deleteLeads, updateLeadData, updateLeadStatus } from './lead-write.operations';
import { addLeadsToSubsequence } from './lead-subsequence.operations';

// What other domains use of lead: the consequences of a label change (its webhook event and
// subsequence enrolment) and the lead rows events carry (replies, sending, unibox), enrolment on a
// reply (replies), the copied lead columns (additional-field), reply-content trigger matching.
export { afterLabelChanged, leadsForEvents, type LabelChange } from './label-change.service';
export { enrolOnTrigger, type TriggerEvent } from './subsequence-enrolment.service';
export { LEAD_COLUMNS } from './lead-add.rules';
export { matchesReplyContent } from './reply-content.rules';

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
