// One file per core domain (packages/core/src/<domain>), each building its fields from
// the domain's operations with operationField / connectionField.
import { builder, Node } from './builder';
import { lookupField } from './operation-field';
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
import './partner.graphql';
import './account-automation.graphql';
import './people.graphql';
import './api-key.graphql';

lookupField('node', Node, 'An object of the workspace by id, whatever its type (a Node: workspace, campaign, lead, unibox thread, tag, webhook, mailbox, automation rule); null when the workspace has none');

export const schema = builder.toSchema({ sortSchema: true });
