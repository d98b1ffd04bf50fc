import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const tagRouter = router({
  list: procedureFor(operations.tag.list),
  create: procedureFor(operations.tag.create),
  update: procedureFor(operations.tag.update),
  delete: procedureFor(operations.tag.delete),
});
