import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const leadRouter = router({
  add: procedureFor(operations.lead.add),
});
