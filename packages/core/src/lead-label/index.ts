// The operations of this domain, keyed as their tRPC procedures are (`leadLabel.<key>`).
import { listLeadLabels } from './lead-label.operations';

export const leadLabelOperations = {
  list: listLeadLabels,
} as const;
