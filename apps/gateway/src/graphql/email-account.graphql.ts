// GraphQL fields of the email-account (sending mailbox) operations. Passwords and login
// usernames are in no output schema, so in no type.
import { operations } from '@outreach/core';
import { connectionField } from './connection';
import { entity, operationField, run, typeOf } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.emailAccount;
const names = {
  cmps: 'campaignIds',
  tags: 'tagIds',
  email_acc_id: 'emailAccountId',
  email_acc_ids: 'emailAccountIds',
  to_workspace_id: 'toWorkspaceId',
  // payload.analytics: the vendor's keys start with their window (GraphQL names end with it).
  '7d_replyrate': 'replyRate7d',
  '7d_ooo_replyrate': 'oooReplyRate7d',
};
// REST answers a mailbox's id as `_id` and `id`: GraphQL has it once, as `id`.
const naming = { names, hide: ['id'] };

const EmailAccount = entity(typeOf(ops.list, 'EmailAccount', naming, 'accounts'), {
  bind: { email: (a: { email: string }) => a.email },
  node: true,
  load: async (ctx, workspaceId, id) => (await run(ctx, ops.list, { workspace_id: workspaceId, email_acc_id: id })).accounts[0],
});

connectionField('emailAccounts', ops.list, { on: Workspace, result: 'accounts', type: 'EmailAccount', ...naming });
operationField('health', ops.status, { on: EmailAccount, type: 'EmailAccountStatus', description: 'Connection state of the mailbox: status, last error, last INBOX read' });
operationField('emailStats', ops.emailStats, { on: Workspace, names, type: 'EmailStats' });
operationField('emailStatsBulk', ops.emailStatsBulk, { on: Workspace, names, type: 'EmailStatsBulk' });
operationField('warmupStats', ops.warmupStats, { on: Workspace, names, result: 'emailAcc', type: 'WarmupStats' });
operationField('addEmailAccounts', ops.bulkAdd, { ...naming, type: 'AddEmailAccountsResult', types: { accounts: 'NewEmailAccount' } });
operationField('deleteEmailAccount', ops.delete);
operationField('enableEmailAccountWarmup', ops.enableWarmup, { type: 'EmailAccountWarmup' });
operationField('pauseEmailAccountWarmup', ops.pauseWarmup, { type: 'EmailAccountWarmup' });
operationField('updateEmailAccounts', ops.bulkUpdate, { type: 'EmailAccountsUpdated' });
operationField('setEmailAccountsWarmup', ops.bulkUpdateWarmup, { result: 'updated_count' });
operationField('setEmailAccountsSending', ops.bulkSetSending, { type: 'EmailAccountsSendingSet' });
operationField('assignEmailAccountTag', ops.bulkAssignTags, { result: 'updated_count' });
operationField('reconnectEmailAccounts', ops.bulkReconnect, { ...naming, result: 'results', type: 'EmailAccountReconnected' });
operationField('moveEmailAccounts', ops.moveWorkspace, { names, result: 'moved' });
// `redirect` is REST's (a 302): GraphQL answers the URL.
operationField('startGoogleOAuth', ops.oauthGoogleStart, { result: 'url', fixed: { redirect: false } });
operationField('startMicrosoftOAuth', ops.oauthMicrosoftStart, { result: 'url', fixed: { redirect: false } });
operationField('oauthProviders', ops.oauthProviders, { on: Workspace, type: 'OAuthProviders' });
