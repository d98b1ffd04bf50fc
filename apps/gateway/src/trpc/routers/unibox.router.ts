import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const uniboxRouter = router({
  campaignEmails: procedureFor(operations.unibox.campaignEmails),
});
