// The operations of this domain, keyed as their tRPC procedures are (`emailAccount.<key>`).
import {
  accountStatus,
  bulkAddAccounts,
  bulkAssignTags,
  bulkReconnect,
  bulkUpdateAccounts,
  bulkUpdateWarmup,
  deleteAccount,
  emailStats,
  enableWarmup,
  listAccounts,
  moveWorkspace,
  pauseWarmup,
} from './email-account.operations';

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
} as const;
