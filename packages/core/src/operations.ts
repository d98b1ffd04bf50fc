// The registry of every operation, by domain. Transports build from it; adding an
// operation means defining it in its domain folder and listing it here.
import { createWorkspace, listWorkspaces } from './workspace/workspace.operations';
import { listLeadLabels } from './lead-label/lead-label.operations';
import { getVariationStats } from './campaign/variation-stats.operations';
import { createSubsequence } from './campaign/subsequence.operations';
import { listCampaignEmails } from './unibox/campaign-emails.operations';
import { addLeads } from './lead/lead-add.operations';
import { generateSenderIdentities } from './dfy/sender-identities.operations';
import { listRecipientProviders } from './placement/recipient-providers.operations';
import { checkDomainVitals } from './account/vitals.operations';

export const operations = {
  workspace: { list: listWorkspaces, create: createWorkspace },
  leadLabel: { list: listLeadLabels },
  campaign: { variationStats: getVariationStats, addSubsequence: createSubsequence },
  unibox: { campaignEmails: listCampaignEmails },
  lead: { add: addLeads },
  dfy: { generateSenderIdentities },
  placement: { recipientProviders: listRecipientProviders },
  account: { testVitals: checkDomainVitals },
} as const;

export type Operations = typeof operations;
