import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const blocklistRouter = router({
  list: procedureFor(operations.blocklist.list),
  addEntries: procedureFor(operations.blocklist.addEntries),
  deleteEntries: procedureFor(operations.blocklist.deleteEntries),
});
