/** Event types every workspace has; `LEAD_MARKED_AS_<KEY>` adds one per lead label. */
export const FIXED_WEBHOOK_EVENTS = [
  'FIRST_EMAIL_REPLIES',
  'ALL_EMAIL_REPLIES',
  'ALL_POSITIVE_REPLIES',
  'EMAIL_SENT',
  'BOUNCED_EMAIL',
  'UNIBOX_EMAIL_SENT',
  'SYSTEM_ALERT',
] as const;

/** The event of a test delivery (`webhook.test`): sent to one webhook whatever it subscribes to. */
export const TEST_WEBHOOK_EVENT = 'WEBHOOK_TEST';

export const LABEL_EVENT_PREFIX = 'LEAD_MARKED_AS_';

/** `["ALL"]`: every campaign of the workspace, now and later. */
export const ALL_CAMPAIGNS = 'ALL';

/**
 * A webhook URL as it is shown: credentials in it (only webhooks added before they were
 * refused can have any) are never listed; the delivery still uses the stored URL.
 */
export function listedWebhookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
