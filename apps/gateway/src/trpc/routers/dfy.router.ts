import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const dfyRouter = router({
  generateSenderIdentities: procedureFor(operations.dfy.generateSenderIdentities),
});
