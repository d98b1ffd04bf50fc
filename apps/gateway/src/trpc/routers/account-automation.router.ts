import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

const ops = operations.accountAutomation;

export const accountAutomationRouter = router({
  list: procedureFor(ops.list),
  create: procedureFor(ops.create),
  update: procedureFor(ops.update),
  delete: procedureFor(ops.delete),
  get: procedureFor(ops.get),
  status: procedureFor(ops.status),
  duplicate: procedureFor(ops.duplicate),
});
