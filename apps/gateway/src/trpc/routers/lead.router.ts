import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const leadRouter = router({
  add: procedureFor(operations.lead.add),
  get: procedureFor(operations.lead.get),
  workspaceLeads: procedureFor(operations.lead.workspaceLeads),
  countByStatus: procedureFor(operations.lead.countByStatus),
  updateData: procedureFor(operations.lead.updateData),
  updateStatus: procedureFor(operations.lead.updateStatus),
  delete: procedureFor(operations.lead.delete),
  addToSubsequence: procedureFor(operations.lead.addToSubsequence),
});
