// The registry of every operation, by domain. Each domain lists its operations in
// its own index.ts; transports build from this registry.
import { organizationOperations, workspaceOperations } from './workspace/index';
import { leadLabelOperations } from './lead-label/index';
import { campaignOperations } from './campaign/index';
import { uniboxOperations } from './unibox/index';
import { leadOperations } from './lead/index';
import { dfyOperations } from './dfy/index';
import { placementOperations } from './placement/index';
import { accountOperations } from './account/index';
import { blocklistOperations } from './blocklist/index';
import { tagOperations } from './tag/index';
import { webhookOperations } from './webhook/index';
import { clientOperations } from './client/index';
import { workspaceSettingsOperations } from './workspace-settings/index';
import { additionalFieldOperations } from './additional-field/index';
import { emailAccountOperations } from './email-account/index';
import { analyticsOperations } from './analytics/index';
import { partnerOperations } from './partner/index';
import { accountAutomationOperations } from './account-automation/index';
import { peopleOperations } from './people/index';
import { apiKeyOperations } from './auth/index';

export const operations = {
  workspace: workspaceOperations,
  organization: organizationOperations,
  leadLabel: leadLabelOperations,
  campaign: campaignOperations,
  unibox: uniboxOperations,
  lead: leadOperations,
  dfy: dfyOperations,
  placement: placementOperations,
  account: accountOperations,
  blocklist: blocklistOperations,
  tag: tagOperations,
  webhook: webhookOperations,
  client: clientOperations,
  workspaceSettings: workspaceSettingsOperations,
  additionalField: additionalFieldOperations,
  emailAccount: emailAccountOperations,
  analytics: analyticsOperations,
  partner: partnerOperations,
  accountAutomation: accountAutomationOperations,
  people: peopleOperations,
  apiKey: apiKeyOperations,
} as const;

export type Operations = typeof operations;
