// GraphQL fields of partner access: the partner's operations (a partner key) and the
// organization's management of partner keys, grants and activity.
import { operations } from '@outreach/core';
import { connectionField } from './connection';
import { operationField } from './operation-field';

const ops = operations.partner;
// The mailbox rows and the bulk add's types are email-account.graphql's (the same schemas).
const accounts = { names: { cmps: 'campaignIds', tags: 'tagIds', email_acc_id: 'emailAccountId', '7d_replyrate': 'replyRate7d', '7d_ooo_replyrate': 'oooReplyRate7d' }, hide: ['id'] };

operationField('partnerWorkspaces', ops.workspaces, { result: 'workspaces', type: 'Workspace', description: 'Workspaces that grant the calling partner key (partner keys only)' });
connectionField('partnerEmailAccounts', ops.accountList, { ...accounts, result: 'accounts', type: 'EmailAccount' });
operationField('partnerEmailAccountExists', ops.accountExists, { type: 'PartnerEmailAccountExists' });
operationField('partnerUploadEmailAccounts', ops.uploadAccounts, { ...accounts, type: 'AddEmailAccountsResult', types: { accounts: 'NewEmailAccount' } });

operationField('createPartnerKey', ops.createKey, { type: 'CreatePartnerKeyResult' });
operationField('partnerKeys', ops.listKeys, { result: 'partner_keys', type: 'PartnerKey' });
operationField('revokePartnerKey', ops.revokeKey);
operationField('grantPartnerWorkspace', ops.grantWorkspace);
operationField('revokePartnerGrant', ops.revokeGrant);
connectionField('partnerActivity', ops.activity, { result: 'activity', type: 'PartnerActivity' });
