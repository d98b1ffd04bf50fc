// The operations of this domain, keyed as their tRPC procedures are (`emailAccount.<key>`).
import { accountStatus, listAccounts } from './email-account-read.operations';
import { emailStats, emailStatsBulk } from './email-stats.operations';
import { warmupStatsOperation } from './warmup-stats.operations';
import { bulkAddAccounts, bulkReconnect, deleteAccount } from './email-account-connect.operations';
import { bulkAssignTags, bulkSetSending, bulkUpdateAccounts, bulkUpdateWarmup, enableWarmup, moveWorkspace, pauseWarmup } from './email-account-bulk.operations';
import { oauthGoogleStart, oauthMicrosoftStart, oauthProviders } from './email-account-oauth.operations';

export { completeOAuthCallback, type OAuthCallbackResult } from './email-account-oauth.service';

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
  bulkSetSending,
  bulkReconnect,
  moveWorkspace,
  emailStats,
  emailStatsBulk,
  warmupStats: warmupStatsOperation,
  oauthGoogleStart,
  oauthMicrosoftStart,
  oauthProviders,
} as const;

// What the partner operations reuse: the bulk add itself, and address normalisation.
export { addRegularAccounts } from './email-account-connect.operations';
export { normalizeEmail } from './email-account.rules';

// Mailbox health (the warmup worker refreshes the day's snapshots; account automation reads scores).
export { computeHealth, currentHealthScores, refreshHealthSnapshots, type MailboxHealth } from './mailbox-health.service';
export { healthScore, scoreOf } from './mailbox-health.rules';

// The access tokens of XOAUTH2 mailboxes, for the domains that log in to mailboxes (sending, replies, unibox).
export {
  ACCESS_TOKEN_MARGIN_MS,
  MailboxOAuthRevokedError,
  MailboxTokenUnavailableError,
  OAUTH_REVOKED_REASON,
  type MailboxLogin,
  accessTokenFor,
  refreshAfterAuthFailure,
  withMailboxLogin,
} from './oauth-token.service';
