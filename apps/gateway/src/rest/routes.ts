import { workspaceRoutes } from './routes/workspace.routes';
import { leadLabelRoutes } from './routes/lead-label.routes';
import { campaignRoutes } from './routes/campaign.routes';
import { uniboxRoutes } from './routes/unibox.routes';
import { leadRoutes } from './routes/lead.routes';
import { dfyRoutes } from './routes/dfy.routes';
import { placementRoutes } from './routes/placement.routes';
import { accountRoutes } from './routes/account.routes';
import { blocklistRoutes } from './routes/blocklist.routes';
import { tagRoutes } from './routes/tag.routes';
import { webhookRoutes } from './routes/webhook.routes';
import { clientRoutes } from './routes/client.routes';
import { workspaceSettingsRoutes } from './routes/workspace-settings.routes';
import { additionalFieldRoutes } from './routes/additional-field.routes';
import { emailAccountRoutes } from './routes/email-account.routes';
import { analyticsRoutes } from './routes/analytics.routes';
import { partnerRoutes } from './routes/partner.routes';
import { accountAutomationRoutes } from './routes/account-automation.routes';
import type { Route } from './route';

/** Every REST operation, from the per-domain route files. */
export const routes: Route[] = [
  ...workspaceRoutes,
  ...leadLabelRoutes,
  ...campaignRoutes,
  ...uniboxRoutes,
  ...leadRoutes,
  ...dfyRoutes,
  ...placementRoutes,
  ...accountRoutes,
  ...blocklistRoutes,
  ...tagRoutes,
  ...webhookRoutes,
  ...clientRoutes,
  ...workspaceSettingsRoutes,
  ...additionalFieldRoutes,
  ...emailAccountRoutes,
  ...analyticsRoutes,
  ...partnerRoutes,
  ...accountAutomationRoutes,
];
