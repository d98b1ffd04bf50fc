import { operations } from '@outreach/core';
import { route, type Route } from './route';

/** Every REST operation: method, vendor path (under /api/v1), operation. */
export const routes: Route[] = [
  route('GET', '/authenticate', operations.workspace.list),
  route('GET', '/workspaces', operations.workspace.list),
  route('POST', '/workspaces/add', operations.workspace.create),
  route('GET', '/workspace-settings/lead-labels', operations.leadLabel.list),
  // The seven operations the interface spec gives in full.
  route('GET', '/campaign/get/variation-stats', operations.campaign.variationStats, { errorShape: 'message' }),
  route('GET', '/unibox/campaign-emails', operations.unibox.campaignEmails),
  route('POST', '/lead/add', operations.lead.add),
  route('POST', '/campaign/add/subsequence', operations.campaign.addSubsequence),
  route('POST', '/dfy/generate-sender-identities', operations.dfy.generateSenderIdentities),
  route('GET', '/email-placement/get/recipient-providers', operations.placement.recipientProviders),
  route('POST', '/account/test/vitals', operations.account.testVitals),
];
