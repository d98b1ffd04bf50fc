// The operations of this domain, keyed as their tRPC procedures are (`lead.<key>`).
import { addLeads } from './lead-add.operations';

export const leadOperations = {
  add: addLeads,
} as const;
