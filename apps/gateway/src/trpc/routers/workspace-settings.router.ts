import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const workspaceSettingsRouter = router({
  get: procedureFor(operations.workspaceSettings.get),
  update: procedureFor(operations.workspaceSettings.update),
});
