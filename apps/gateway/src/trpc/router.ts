import { router } from './trpc';
import { workspaceRouter } from './routers/workspace.router';
import { organizationRouter } from './routers/organization.router';
import { leadLabelRouter } from './routers/lead-label.router';
import { campaignRouter } from './routers/campaign.router';
import { uniboxRouter } from './routers/unibox.router';
import { leadRouter } from './routers/lead.router';
import { dfyRouter } from './routers/dfy.router';
import { placementRouter } from './routers/placement.router';
import { accountRouter } from './routers/account.router';
import { blocklistRouter } from './routers/blocklist.router';
import { tagRouter } from './routers/tag.router';
import { webhookRouter } from './routers/webhook.router';
import { clientRouter } from './routers/client.router';
import { workspaceSettingsRouter } from './routers/workspace-settings.router';
import { additionalFieldRouter } from './routers/additional-field.router';
import { emailAccountRouter } from './routers/email-account.router';
import { analyticsRouter } from './routers/analytics.router';
import { partnerRouter } from './routers/partner.router';
import { accountAutomationRouter } from './routers/account-automation.router';
import { peopleRouter } from './routers/people.router';
import { apiKeyRouter } from './routers/api-key.router';

/** Mirrors the operation registry by domain: `workspace.list`, `campaign.launch`, … */
export const appRouter = router({
  workspace: workspaceRouter,
  organization: organizationRouter,
  leadLabel: leadLabelRouter,
  campaign: campaignRouter,
  unibox: uniboxRouter,
  lead: leadRouter,
  dfy: dfyRouter,
  placement: placementRouter,
  account: accountRouter,
  blocklist: blocklistRouter,
  tag: tagRouter,
  webhook: webhookRouter,
  client: clientRouter,
  workspaceSettings: workspaceSettingsRouter,
  additionalField: additionalFieldRouter,
  emailAccount: emailAccountRouter,
  analytics: analyticsRouter,
  partner: partnerRouter,
  accountAutomation: accountAutomationRouter,
  people: peopleRouter,
  apiKey: apiKeyRouter,
});

export type AppRouter = typeof appRouter;
