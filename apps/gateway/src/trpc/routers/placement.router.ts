import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const placementRouter = router({
  recipientProviders: procedureFor(operations.placement.recipientProviders),
});
