// The organization's own operations over tRPC (organization.delete, for its owner); no REST path (not a vendor operation).
import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const organizationRouter = router({
  delete: procedureFor(operations.organization.delete),
});
