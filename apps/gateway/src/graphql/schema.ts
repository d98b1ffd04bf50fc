// One file per core domain (packages/core/src/<domain>), each building its fields from
// the domain's operations with operationField / connectionField.
import { builder } from './builder';
import './workspace.graphql';
import './workspace-settings.graphql';
import './additional-field.graphql';
import './lead-label.graphql';
import './campaign.graphql';
import './lead.graphql';
import './unibox.graphql';
import './dfy.graphql';
import './placement.graphql';
import './account.graphql';
import './blocklist.graphql';
import './tag.graphql';
import './webhook.graphql';
import './client.graphql';
import './email-account.graphql';
import './analytics.graphql';

export const schema = builder.toSchema({ sortSchema: true });
