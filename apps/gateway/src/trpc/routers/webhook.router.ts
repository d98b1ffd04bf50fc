import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const webhookRouter = router({
  list: procedureFor(operations.webhook.list),
  add: procedureFor(operations.webhook.add),
  delete: procedureFor(operations.webhook.delete),
  test: procedureFor(operations.webhook.test),
});
