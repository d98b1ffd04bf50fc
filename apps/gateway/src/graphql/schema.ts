import { builder } from './builder';
import './workspace.graphql';
import './lead-label.graphql';
import './campaign.graphql';
import './unibox.graphql';
import './lead.graphql';
import './dfy.graphql';
import './placement.graphql';
import './vitals.graphql';
import './blocklist.graphql';
import './tag.graphql';
import './webhook.graphql';
import './client.graphql';
import './workspace-settings.graphql';
import './catalog-extras.graphql';
import './email-account.graphql';
import './analytics.graphql';

export const schema = builder.toSchema({ sortSchema: true });
