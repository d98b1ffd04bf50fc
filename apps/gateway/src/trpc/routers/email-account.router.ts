import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

const ops = operations.emailAccount;

export const emailAccountRouter = router({
  bulkAdd: procedureFor(ops.bulkAdd),
  list: procedureFor(ops.list),
  status: procedureFor(ops.status),
  delete: procedureFor(ops.delete),
  enableWarmup: procedureFor(ops.enableWarmup),
  pauseWarmup: procedureFor(ops.pauseWarmup),
  bulkUpdate: procedureFor(ops.bulkUpdate),
  bulkUpdateWarmup: procedureFor(ops.bulkUpdateWarmup),
  bulkAssignTags: procedureFor(ops.bulkAssignTags),
  bulkSetSending: procedureFor(ops.bulkSetSending),
  bulkReconnect: procedureFor(ops.bulkReconnect),
  moveWorkspace: procedureFor(ops.moveWorkspace),
  emailStats: procedureFor(ops.emailStats),
  emailStatsBulk: procedureFor(ops.emailStatsBulk),
  warmupStats: procedureFor(ops.warmupStats),
  oauthGoogleStart: procedureFor(ops.oauthGoogleStart),
  oauthMicrosoftStart: procedureFor(ops.oauthMicrosoftStart),
  oauthProviders: procedureFor(ops.oauthProviders),
});
