// What follows a lead's label change, in the transaction that changed it: the
// LEAD_MARKED_AS_<KEY> webhook event and enrolment into subsequences whose
// LEAD_LABEL_UPDATED trigger lists the new label. Used by the API (lead.updateData) and
// by reply classification (OUT_OF_OFFICE, AUTOMATIC_REPLY).
import type { Tx } from '@outreach/db';
import { emitWebhookEvent, LABEL_EVENT_PREFIX, labelEventFields, leadFields, type Sentiment } from '../webhook/index';
import { enrolOnTrigger } from './subsequence-enrolment.service';

interface LeadForEvent {
  id: string;
  organization_id: string;
  workspace_id: string;
  campaign_id: string;
  campaign_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  company_website: string | null;
  job_title: string | null;
  city: string | null;
  country: string | null;
  phone_number: string | null;
  custom_variables: Record<string, unknown> | null;
  sentiment: string | null;
  mailbox_email: string | null;
}

/** Reads leads with what their webhook payloads carry. */
export async function leadsForEvents(options: { tx: Tx; leadIds: string[] }): Promise<Map<string, LeadForEvent>> {
  const rows = await options.tx.$queryRawUnsafe<LeadForEvent[]>(
    `SELECT l.id, l.organization_id, l.workspace_id, l.campaign_id, c.name AS campaign_name, l.email, l.first_name, l.last_name,
            l.company_name, l.company_website, l.job_title, l.city, l.country, l.phone_number, l.custom_variables,
            ll.sentiment::text AS sentiment, ea.email AS mailbox_email
       FROM leads l JOIN campaigns c ON c.id = l.campaign_id
       LEFT JOIN lead_labels ll ON ll.workspace_id = l.workspace_id AND ll.key = l.label
       LEFT JOIN email_accounts ea ON ea.id = l.email_account_id
      WHERE l.id = ANY($1::text[])`,
    options.leadIds,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** The lead's fields at the top level of a payload, as the vendor sends them (custom variables never override them). */
export function leadPayloadFields(lead: LeadForEvent): Record<string, unknown> {
  return leadFields(lead, { id: lead.campaign_id, name: lead.campaign_name });
}

export interface LabelChange {
  leadId: string;
  from: string | null;
  to: string | null;
}

/**
 * For each change to a label (not to none): queues LEAD_MARKED_AS_<KEY> with the lead's
 * fields and its latest reply, and enrols the lead into the subsequences that wait for
 * that label. Returns the subsequence ids entered, per lead.
 */
export async function afterLabelChanged(options: { tx: Tx; changes: LabelChange[]; now: Date; defaultLeadAllowance: number }): Promise<Map<string, string[]>> {
  const { tx, now } = options;
  const changes = options.changes.filter((c) => c.to && c.to !== c.from);
  const entered = new Map<string, string[]>();
  if (!changes.length) return entered;
  const leads = await leadsForEvents({ tx, leadIds: changes.map((c) => c.leadId) });
  const lastReplies = await tx.$queryRawUnsafe<{ lead_id: string; id: string; thread_id: string; subject: string; html_body: string; text_body: string }[]>(
    `SELECT DISTINCT ON (lead_id) lead_id, id, thread_id, subject, html_body, text_body
       FROM unibox_messages WHERE lead_id = ANY($1::text[]) AND direction = 'IN'
      ORDER BY lead_id, received_at DESC, id DESC`,
    changes.map((c) => c.leadId),
  );
  const replyOf = new Map(lastReplies.map((r) => [r.lead_id, r]));
  for (const change of changes) {
    const lead = leads.get(change.leadId);
    if (!lead) continue;
    const reply = replyOf.get(lead.id);
    await emitWebhookEvent({
      tx,
      workspaceId: lead.workspace_id,
      event: `${LABEL_EVENT_PREFIX}${change.to}`,
      campaignId: lead.campaign_id,
      now,
      fields: {
        ...labelEventFields({
          lead,
          campaign: { id: lead.campaign_id, name: lead.campaign_name },
          label: change.to!,
          sentiment: lead.sentiment as Sentiment | null,
          lastReply: reply ?? null,
          mailboxEmail: lead.mailbox_email,
        }),
        previous_label: change.from ?? '',
        date: now.toISOString(),
      },
    });
    const subsequences = await enrolOnTrigger({
      tx,
      lead: { id: lead.id, campaignId: lead.campaign_id, workspaceId: lead.workspace_id, organizationId: lead.organization_id },
      event: { kind: 'label', label: change.to! },
      now,
      defaultLeadAllowance: options.defaultLeadAllowance,
    });
    if (subsequences.length) entered.set(lead.id, subsequences);
  }
  return entered;
}
