// The organization's API keys over tRPC (apiKey.list, apiKey.create, apiKey.revoke); no REST path (not a vendor operation).
import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const apiKeyRouter = router({
  list: procedureFor(operations.apiKey.list),
  create: procedureFor(operations.apiKey.create),
  revoke: procedureFor(operations.apiKey.revoke),
});
