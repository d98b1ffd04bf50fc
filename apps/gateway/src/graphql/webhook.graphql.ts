// GraphQL fields of the webhook operations. The secret stays out of GraphQL (a selection
// set is too easy to log): the type says whether there is one.
import { operations } from '@outreach/core';
import { builder } from './builder';
import { entity, operationField, run, typeOf } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.webhook;
const naming = { names: { camp_ids: 'campaignIds', evt_types: 'eventTypes', last_resp: 'lastResponse', modified_at: 'updatedAt' }, hide: ['secret'] };

const Webhook = entity(typeOf(ops.list, 'Webhook', naming, 'hooks'), {
  node: true,
  load: async (ctx, workspaceId, id) => (await run(ctx, ops.list, { workspace_id: workspaceId })).hooks.find((h: { _id: string }) => h._id === id),
});
builder.objectField(Webhook.ref, 'hasSecret', (t) => t.boolean({ resolve: (hook: { secret: string }) => hook.secret !== '' }));

operationField('webhooks', ops.list, { on: Workspace, result: 'hooks', type: 'Webhook', ...naming });
operationField('addWebhook', ops.add, { ...naming, returns: { entity: Webhook, id: (out) => out._id } });
operationField('deleteWebhooks', ops.delete, { result: 'deleted_count' });
operationField('sendWebhookTestEvent', ops.test, { result: 'delivery_id' });
