import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const additionalFieldRouter = router({
  list: procedureFor(operations.additionalField.list),
  create: procedureFor(operations.additionalField.create),
  update: procedureFor(operations.additionalField.update),
  delete: procedureFor(operations.additionalField.delete),
});
