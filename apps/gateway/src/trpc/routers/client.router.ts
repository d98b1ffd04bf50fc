import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const clientRouter = router({
  list: procedureFor(operations.client.list),
  create: procedureFor(operations.client.create),
  updatePermissions: procedureFor(operations.client.updatePermissions),
  setStatus: procedureFor(operations.client.setStatus),
  delete: procedureFor(operations.client.delete),
});
