// The operations of this domain, keyed as their tRPC procedures are (`webhook.<key>`).
import { addWebhook, deleteWebhooks, listWebhooks } from './webhook.operations';

export const webhookOperations = {
  list: listWebhooks,
  add: addWebhook,
  delete: deleteWebhooks,
} as const;
