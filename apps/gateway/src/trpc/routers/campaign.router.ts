import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const campaignRouter = router({
  variationStats: procedureFor(operations.campaign.variationStats),
  addSubsequence: procedureFor(operations.campaign.addSubsequence),
});
