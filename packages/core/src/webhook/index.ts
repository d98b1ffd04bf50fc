// The operations of this domain, keyed as their tRPC procedures are (`webhook.<key>`).
import { addWebhook, deleteWebhooks, listWebhooks, testWebhook } from './webhook.operations';

// Emitting events, for the domains whose changes trigger webhooks (lead, replies, sending, unibox):
// the outbox and the payload builders, so every event of a kind carries the same fields.
export { emitSystemAlert, emitWebhookEvent, emitWebhookEvents, webhookListensSql, type ReplyKind, type SystemAlertEvent } from './webhook-outbox.service';
export {
  type PayloadLead,
  type Sentiment,
  bouncedEmailFields,
  emailSentFields,
  labelEventFields,
  leadFields,
  replyEventFields,
  uniboxEmailSentFields,
} from './webhook-payload.rules';
export { LABEL_EVENT_PREFIX } from './webhook.rules';

export const webhookOperations = {
  list: listWebhooks,
  add: addWebhook,
  delete: deleteWebhooks,
  test: testWebhook,
} as const;
