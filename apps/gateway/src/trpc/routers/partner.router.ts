import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

const ops = operations.partner;

export const partnerRouter = router({
  workspaces: procedureFor(ops.workspaces),
  accountList: procedureFor(ops.accountList),
  accountExists: procedureFor(ops.accountExists),
  uploadAccounts: procedureFor(ops.uploadAccounts),
  createKey: procedureFor(ops.createKey),
  listKeys: procedureFor(ops.listKeys),
  revokeKey: procedureFor(ops.revokeKey),
  grantWorkspace: procedureFor(ops.grantWorkspace),
  revokeGrant: procedureFor(ops.revokeGrant),
  activity: procedureFor(ops.activity),
});
