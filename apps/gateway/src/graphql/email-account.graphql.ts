// GraphQL fields of the email-account (sending mailbox) operations. Passwords and login
// usernames are in no output schema, so in no type.
import { operations } from '@outreach/core';
import { connectionField } from './connection';
import { operationField, typeOf, type Parent } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.emailAccount;
const names = { cmps: 'campaignIds', tags: 'tagIds', email_acc_id: 'emailAccountId', to_workspace_id: 'toWorkspaceId' };

const EmailAccount: Parent = { ref: typeOf(ops.list, 'EmailAccount', { names }, 'accounts'), bind: { email: (a: { email: string }) => a.email } };

connectionField('emailAccounts', ops.list, { on: Workspace, result: 'accounts', type: 'EmailAccount', names });
operationField('health', ops.status, { on: EmailAccount, type: 'EmailAccountStatus', description: 'Connection state of the mailbox: status, last error, last INBOX read' });
operationField('emailStats', ops.emailStats, { on: Workspace, names, type: 'EmailStats' });
operationField('addEmailAccounts', ops.bulkAdd, { type: 'AddEmailAccountsResult', types: { accounts: 'NewEmailAccount' } });
operationField('deleteEmailAccount', ops.delete);
operationField('enableEmailAccountWarmup', ops.enableWarmup, { type: 'EmailAccountWarmup' });
operationField('pauseEmailAccountWarmup', ops.pauseWarmup, { type: 'EmailAccountWarmup' });
operationField('updateEmailAccounts', ops.bulkUpdate, { type: 'EmailAccountsUpdated' });
operationField('setEmailAccountsWarmup', ops.bulkUpdateWarmup, { result: 'updated_count' });
operationField('assignEmailAccountTag', ops.bulkAssignTags, { result: 'updated_count' });
operationField('reconnectEmailAccounts', ops.bulkReconnect, { result: 'results', type: 'EmailAccountReconnected' });
operationField('moveEmailAccounts', ops.moveWorkspace, { names, result: 'moved' });
