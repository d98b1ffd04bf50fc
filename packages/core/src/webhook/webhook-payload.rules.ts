// The `fields` of each webhook event family, in the vendor's flat style: the lead's fields
// at the top level (custom variables flattened beside them, never overriding a built-in),
// `camp_id` and `campaign_name`, then the event's own fields. emitWebhookEvent adds the
// envelope (`webhook_id`, `webhook_name`, `webhook_event`, `workspace_id`, `workspace_name`).
// Pure: inputs are small plain objects, dates become ISO strings, absent values "".
import { LABEL_EVENT_PREFIX } from './webhook.rules';

export type PayloadFields = Record<string, unknown>;

export type Sentiment = 'POSITIVE' | 'NEGATIVE' | 'NEUTRAL';

export interface PayloadLead {
  id: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  company_name?: string | null;
  company_website?: string | null;
  job_title?: string | null;
  city?: string | null;
  country?: string | null;
  phone_number?: string | null;
  /** Flattened to the top level; a variable named like a built-in field is dropped. */
  custom_variables?: Record<string, unknown> | null;
}

export interface PayloadCampaign {
  id: string;
  name: string;
}

/** One address or several (joined with ", "). */
type Addresses = string | readonly string[] | null | undefined;

const SNIPPET_LENGTH = 200;

const text = (value: string | null | undefined): string => value ?? '';
const addresses = (value: Addresses): string => (typeof value === 'string' ? value : (value ?? []).join(', '));
const iso = (value: Date | string): string => (typeof value === 'string' ? new Date(value).toISOString() : value.toISOString());

/** The first 200 characters of a text, whitespace collapsed (never splitting a surrogate pair). */
export function snippetOf(body: string | null | undefined): string {
  return Array.from(text(body).replace(/\s+/g, ' ').trim()).slice(0, SNIPPET_LENGTH).join('');
}

/** The event a label change fires: `LEAD_MARKED_AS_<KEY>`. */
export function labelEventName(labelKey: string): string {
  return `${LABEL_EVENT_PREFIX}${labelKey}`;
}

/**
 * The lead's fields and its campaign's, flat. Custom variables come first and every
 * built-in key (and the envelope's keys) wins over a variable of the same name.
 */
export function leadFields(lead: PayloadLead, campaign: PayloadCampaign | null): PayloadFields {
  const builtIn: PayloadFields = {
    lead_id: lead.id,
    email: lead.email,
    lead_email: lead.email,
    first_name: text(lead.first_name),
    last_name: text(lead.last_name),
    company_name: text(lead.company_name),
    company_website: text(lead.company_website),
    job_title: text(lead.job_title),
    city: text(lead.city),
    country: text(lead.country),
    phone_number: text(lead.phone_number),
    camp_id: campaign?.id ?? '',
    campaign_name: campaign?.name ?? '',
  };
  const custom: PayloadFields = {};
  for (const [key, value] of Object.entries(lead.custom_variables ?? {})) {
    if (!(key in builtIn) && !RESERVED.has(key)) custom[key] = value;
  }
  return { ...custom, ...builtIn };
}

/** Keys emitWebhookEvent sets; a custom variable must not appear to be one of them. */
const RESERVED: ReadonlySet<string> = new Set(['webhook_id', 'webhook_name', 'webhook_event', 'workspace_id', 'workspace_name', '__proto__']);

/** FIRST_EMAIL_REPLIES, ALL_EMAIL_REPLIES, ALL_POSITIVE_REPLIES. */
export function replyEventFields(input: {
  lead: PayloadLead;
  campaign: PayloadCampaign | null;
  reply: {
    /** Our unibox message id of the reply (`last_email_id`, usable as `reply_to_id`). */
    id: string;
    from_email: string;
    to_email: Addresses;
    /** Our mailbox that received it. */
    email_account_name: string;
    cc?: Addresses;
    subject: string;
    text_body: string;
    html_body?: string | null;
    /** The text the snippet is cut from (the reply without its quoted history); text_body by default. */
    snippet_text?: string | null;
    replied_at: Date | string;
    thread_id: string;
    message_id: string;
    in_reply_to?: string | null;
  };
  label: string | null;
  sentiment: Sentiment | null;
}): PayloadFields {
  const { reply } = input;
  return {
    ...leadFields(input.lead, input.campaign),
    from_email: reply.from_email,
    to_email: addresses(reply.to_email),
    email_account_name: reply.email_account_name,
    cc: addresses(reply.cc),
    subject: reply.subject,
    text_body: reply.text_body,
    body: reply.html_body || reply.text_body,
    snippet: snippetOf(reply.snippet_text ?? reply.text_body),
    label: text(input.label),
    sentiment: text(input.sentiment),
    replied_date: iso(reply.replied_at),
    thread_id: reply.thread_id,
    message_id: reply.message_id,
    in_reply_to: text(reply.in_reply_to),
    last_email_id: reply.id,
  };
}

/** LEAD_MARKED_AS_<KEY> (see labelEventName). */
export function labelEventFields(input: {
  lead: PayloadLead;
  campaign: PayloadCampaign | null;
  label: string;
  sentiment: Sentiment | null;
  /** The lead's latest reply, when it has one. */
  lastReply: { id: string; thread_id: string; subject: string; html_body?: string | null; text_body: string } | null;
  /** Our mailbox the lead replied to (or is sent from). */
  mailboxEmail: string | null;
}): PayloadFields {
  const reply = input.lastReply;
  return {
    ...leadFields(input.lead, input.campaign),
    label: input.label,
    sentiment: text(input.sentiment),
    last_lead_reply: reply ? reply.html_body || reply.text_body : '',
    last_lead_reply_subject: reply?.subject ?? '',
    actual_replied_from: text(input.mailboxEmail),
    last_email_id: reply?.id ?? '',
    last_thread_id: reply?.thread_id ?? '',
    campaign_id: input.campaign?.id ?? '',
  };
}

/** EMAIL_SENT: one campaign send. */
export function emailSentFields(input: {
  lead: PayloadLead;
  campaign: PayloadCampaign;
  send: { sender_email: string; subject: string; body: string; step: number; variation: string | null; message_id: string; sent_at: Date | string };
}): PayloadFields {
  const { send } = input;
  return {
    ...leadFields(input.lead, input.campaign),
    sender_email: send.sender_email,
    lead_email: input.lead.email,
    subject: send.subject,
    body: send.body,
    step: send.step,
    variation: text(send.variation),
    message_id: send.message_id,
    sent_date: iso(send.sent_at),
  };
}

export type BounceType = 'hard' | 'soft' | 'dsn';

/** BOUNCED_EMAIL: an SMTP rejection (hard, or soft with retries exhausted) or a bounce report (dsn). */
export function bouncedEmailFields(input: {
  lead: PayloadLead;
  campaign: PayloadCampaign;
  bounce: { at: Date | string; sender_email: string; message: string; bounce_type: BounceType; campaign_paused: boolean };
}): PayloadFields {
  const { bounce } = input;
  return {
    ...leadFields(input.lead, input.campaign),
    date: iso(bounce.at),
    sender_email: bounce.sender_email,
    lead_email: input.lead.email,
    msg: bounce.message,
    is_camp_paused: bounce.campaign_paused,
    bounce_type: bounce.bounce_type,
  };
}

/** UNIBOX_EMAIL_SENT: a reply or message sent from the unibox. The lead is known when the recipient is one. */
export function uniboxEmailSentFields(input: {
  lead: PayloadLead | null;
  campaign: PayloadCampaign | null;
  message: { from_email: string; to_email: Addresses; cc?: Addresses; subject: string; body: string; thread_id: string; message_id: string; sent_at: Date | string };
}): PayloadFields {
  const { message } = input;
  return {
    ...(input.lead ? leadFields(input.lead, input.campaign) : { camp_id: input.campaign?.id ?? '', campaign_name: input.campaign?.name ?? '' }),
    from_email: message.from_email,
    to_email: addresses(message.to_email),
    cc: addresses(message.cc),
    subject: message.subject,
    body: message.body,
    thread_id: message.thread_id,
    message_id: message.message_id,
    sent_date: iso(message.sent_at),
  };
}

export type SystemAlert =
  | { alert_type: 'MAILBOX_DISCONNECTED'; email_account_id: string; email: string }
  /** An OAuth mailbox whose grant is revoked or expired: it needs a new authorization (bulk-reconnect). */
  | { alert_type: 'ACCOUNT_DISCONNECTED'; email_account_id: string; email: string; provider: string; disconnect_reason: string }
  | { alert_type: 'CAMPAIGN_AUTO_PAUSED'; camp_id: string; campaign_name: string }
  | { alert_type: 'WEBHOOK_DISABLED'; disabled_webhook_id: string; disabled_webhook_url: string }
  /** An email-account automation rule with a NOTIFY action fired for a mailbox (account-automation/). */
  | {
      alert_type: 'AUTOMATION_RULE_FIRED';
      rule_id: string;
      rule_name: string;
      email_account_id: string;
      email: string;
      metric: string;
      value: number;
      operator: string;
      threshold: number;
      window_days: number;
      /** The rule's action types, in order. */
      actions: string[];
    };

export type SystemAlertType = SystemAlert['alert_type'];

/** SYSTEM_ALERT: something needs a person (emitted with no campaign, so every subscriber gets it). */
export function systemAlertFields(input: SystemAlert & { message: string; at: Date | string }): PayloadFields {
  const common = { alert_type: input.alert_type, message: input.message, date: iso(input.at) };
  switch (input.alert_type) {
    case 'MAILBOX_DISCONNECTED':
      return { ...common, email_account_id: input.email_account_id, email: input.email };
    case 'ACCOUNT_DISCONNECTED':
      return { ...common, email_account_id: input.email_account_id, email: input.email, provider: input.provider, disconnect_reason: input.disconnect_reason };
    case 'CAMPAIGN_AUTO_PAUSED':
      return { ...common, camp_id: input.camp_id, campaign_name: input.campaign_name };
    case 'WEBHOOK_DISABLED':
      return { ...common, disabled_webhook_id: input.disabled_webhook_id, disabled_webhook_url: input.disabled_webhook_url };
    case 'AUTOMATION_RULE_FIRED':
      return {
        ...common,
        rule_id: input.rule_id,
        rule_name: input.rule_name,
        email_account_id: input.email_account_id,
        email: input.email,
        metric: input.metric,
        value: input.value,
        operator: input.operator,
        threshold: input.threshold,
        window_days: input.window_days,
        actions: input.actions,
      };
  }
}
