// The operations of this domain, keyed as their tRPC procedures are (`leadLabel.<key>`).
import { addLeadLabel, deleteLeadLabels, listLeadLabels } from './lead-label.operations';

export const leadLabelOperations = {
  list: listLeadLabels,
  add: addLeadLabel,
  delete: deleteLeadLabels,
} as const;
