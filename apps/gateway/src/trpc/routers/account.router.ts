import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const accountRouter = router({
  testVitals: procedureFor(operations.account.testVitals),
});
