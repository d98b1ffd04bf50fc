// The operations of this domain, keyed as their tRPC procedures are (`partner.<key>`).
import { partnerAccountExists, partnerAccountList, partnerWorkspaces, uploadPartnerAccounts } from './partner.operations';
import { createPartnerKeyOperation, grantPartnerWorkspace, listPartnerActivity, listPartnerKeys, revokePartnerGrant, revokePartnerKey } from './partner-admin.operations';

// Issuing a partner key with its grants (the CLI's `keys create --partner`).
export { createPartnerKey } from './partner-key.service';

export const partnerOperations = {
  workspaces: partnerWorkspaces,
  accountList: partnerAccountList,
  accountExists: partnerAccountExists,
  uploadAccounts: uploadPartnerAccounts,
  createKey: createPartnerKeyOperation,
  listKeys: listPartnerKeys,
  revokeKey: revokePartnerKey,
  grantWorkspace: grantPartnerWorkspace,
  revokeGrant: revokePartnerGrant,
  activity: listPartnerActivity,
} as const;
