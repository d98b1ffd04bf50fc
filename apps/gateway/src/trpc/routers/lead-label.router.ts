import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const leadLabelRouter = router({
  list: procedureFor(operations.leadLabel.list),
  add: procedureFor(operations.leadLabel.add),
  delete: procedureFor(operations.leadLabel.delete),
});
