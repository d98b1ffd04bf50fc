import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const workspaceRouter = router({
  list: procedureFor(operations.workspace.list),
  create: procedureFor(operations.workspace.create),
});
