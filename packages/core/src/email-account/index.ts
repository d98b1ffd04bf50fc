// The operations of this domain, keyed as their tRPC procedures are (`emailAccount.<key>`).
import { accountStatus, listAccounts } from './email-account-read.operations';
import { emailStats, emailStatsBulk } from './email-stats.operations';
import { bulkAddAccounts, bulkReconnect, deleteAccount } from './email-account-connect.operations';
import { bulkAssignTags, bulkUpdateAccounts, bulkUpdateWarmup, enableWarmup, moveWorkspace, pauseWarmup } from './email-account-bulk.operations';

export const emailAccountOperations = {
  bulkAdd: bulkAddAccounts,
  list: listAccounts,
  status: accountStatus,
  delete: deleteAccount,
  enableWarmup,
  pauseWarmup,
  bulkUpdate: bulkUpdateAccounts,
  bulkUpdateWarmup,
  bulkAssignTags,
  bulkReconnect,
  moveWorkspace,
  emailStats,
  emailStatsBulk,
} as const;
