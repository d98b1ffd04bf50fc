import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const leadLabelRouter = router({
  list: procedureFor(operations.leadLabel.list),
});
