/**
 * What the engine would send to one lead for one step and variation, without sending it:
 * the same compose() with the same merge fields (leadVariables), spintax seed
 * (`<lead id>:<step>`), follow-up subject, unsubscribe link and open pixel as
 * send-decision.rules.ts. Read-only: nothing is claimed, counted or recorded.
 */
import { newId } from '@outreach/db';
import type { Ctx } from '../shared/context';
import { invalidField } from '../shared/errors';
import { trackingLinks } from '../tracking/index';
import { compose, type ComposeResult } from './compose.rules';
import { leadVariables } from './merge-fields.rules';
import { canonicalVariableName } from './personalize.rules';
import { ADDITIONAL_FIELDS_SQL, CAMPAIGN_MAILBOXES_SQL, THREAD_HISTORY_SQL, type CampaignRow, type LeadRow, type MailboxRow } from './scheduler.queries';
import { FIRST_LEAD_SQL, PREVIEW_CAMPAIGN_SQL, PREVIEW_LEAD_SQL } from './preview.queries';

/** The values a preview "with sample values" fills the lead's fields with. */
export const SAMPLE_LEAD = {
  email: 'alex.sample@example.com',
  first_name: 'Alex',
  last_name: 'Sample',
  company_name: 'Example Inc',
  company_website: 'https://example.com',
  job_title: 'Head of Sales',
  city: 'Oslo',
  country: 'Norway',
} as const;

const BLANK_MAILBOX: MailboxRow = {
  id: '',
  workspace_id: '',
  email: '',
  first_name: '',
  last_name: '',
  status: 'ACTIVE',
  daily_limit: 0,
  sending_gap: 0,
  next_send_allowed_at: null,
  smtp_host: '',
  smtp_port: 0,
  smtp_username: '',
  smtp_password_enc: '',
  signature: '',
  reply_to: null,
  updated_at: new Date(0),
  auth_type: 'PASSWORD',
};

function sampleLead(campaign: CampaignRow): LeadRow {
  const nulls = { phone_number: null, address_line: null, state: null, country_code: null, network_person_url: null, network_company_url: null };
  return {
    id: '',
    campaign_id: campaign.id,
    workspace_id: campaign.workspace_id,
    current_step: 0,
    status: 'NOT_CONTACTED',
    is_completed: false,
    email_account_id: null,
    email_normalized: SAMPLE_LEAD.email,
    ...SAMPLE_LEAD,
    ...nulls,
    custom_variables: {},
    pending_send_id: null,
    pending_variation_id: null,
    send_attempts: 0,
    claimed_at: null,
    pending_data_at: null,
    source_lead_id: null,
    next_send_at: new Date(0),
    blocked: false,
  } as LeadRow;
}

export interface ComposedPreview {
  subject: string;
  html: string | null;
  text: string;
  headers: Record<string, string>;
  inReplyTo?: string;
  references?: string;
  missing: string[];
  lead: LeadRow | null;
  /** The mailbox whose fields filled the sender variables (null: none). */
  mailbox: MailboxRow | null;
}

/**
 * Composes step `step`, variation `variation` of a campaign for a lead (or sample values).
 * The sender fields come from `mailbox` when given (a test send's), else the lead's own
 * mailbox when it is one of the campaign's, else the campaign's first. A merge field with
 * no value does not fail the preview: it is listed in `missing` and left as `{{name}}`
 * (the engine would skip the lead).
 */
export async function composePreview(options: {
  ctx: Ctx;
  workspaceId: string;
  campaignId: string;
  step: number;
  variation: string;
  leadId?: string;
  sample?: boolean;
  mailbox?: MailboxRow;
}): Promise<ComposedPreview> {
  const { ctx, workspaceId, campaignId } = options;
  const db = ctx.db;
  const [campaign] = await db.$queryRawUnsafe<CampaignRow[]>(PREVIEW_CAMPAIGN_SQL, campaignId, workspaceId);
  if (!campaign) throw invalidField('campaign_id', `${campaignId} is not a campaign of workspace ${workspaceId}`, 'campaign.not_found');
  const step = campaign.steps.find((s) => s.step === options.step);
  if (!step) throw invalidField('step', `the campaign has no step ${options.step} (it has ${campaign.steps.length})`, 'campaign.step_not_found');
  const variation = step.variations.find((v) => v.label.toUpperCase() === options.variation && !v.is_deleted);
  if (!variation) throw invalidField('variation', `step ${options.step} has no variation ${options.variation}`, 'campaign.variation_not_found');

  let lead: LeadRow | null = null;
  if (options.leadId) {
    lead = (await db.$queryRawUnsafe<LeadRow[]>(PREVIEW_LEAD_SQL, campaignId, options.leadId))[0] ?? null;
    if (!lead) throw invalidField('lead_id', `${options.leadId} is not a lead of this campaign`, 'lead.not_found');
  } else if (!options.sample) {
    lead = (await db.$queryRawUnsafe<LeadRow[]>(FIRST_LEAD_SQL, campaignId))[0] ?? null;
  }

  let mailbox = options.mailbox ?? null;
  if (!mailbox) {
    const mailboxId = lead?.email_account_id && campaign.mailbox_ids.includes(lead.email_account_id) ? lead.email_account_id : campaign.mailbox_ids[0];
    if (mailboxId) mailbox = (await db.$queryRawUnsafe<MailboxRow[]>(CAMPAIGN_MAILBOXES_SQL, [mailboxId]))[0] ?? null;
  }
  const fieldRows = await db.$queryRawUnsafe<{ name: string; default_value: string }[]>(ADDITIONAL_FIELDS_SQL, [workspaceId]);
  const additional = new Map(fieldRows.map((f) => [f.name, f.default_value]));

  // The thread so far, as the engine reads it (the parent-campaign lead's first); a
  // follow-up of a lead with none yet follows the earlier steps' subjects as composed now.
  let previous: { subject: string; messageIds: string[] } | null = null;
  if (lead && options.step > 1) {
    const ids = lead.source_lead_id ? [lead.source_lead_id, lead.id] : [lead.id];
    const rows = await db.$queryRawUnsafe<{ lead_id: string; message_id: string; subject: string }[]>(THREAD_HISTORY_SQL, ids);
    const ordered = [...rows.filter((r) => r.lead_id !== lead!.id), ...rows.filter((r) => r.lead_id === lead!.id)];
    if (ordered.length) previous = { subject: ordered[ordered.length - 1]!.subject, messageIds: ordered.map((r) => r.message_id) };
  }

  const subjectLead = lead ?? sampleLead(campaign);
  const variables = leadVariables({ lead: subjectLead, mailbox: mailbox ?? BLANK_MAILBOX, additional });
  const seedOf = (n: number) => `${lead?.id ?? 'sample'}:${n}`;
  if (!previous && options.step > 1) {
    // Earlier steps' first usable variation, each following the one before.
    for (const earlier of campaign.steps.filter((s) => s.step < options.step)) {
      const v = earlier.variations.find((x) => x.is_active && !x.is_deleted) ?? earlier.variations.find((x) => !x.is_deleted);
      if (!v) continue;
      const c = compose({ subject: v.subject, body: '', variables: fill(variables, v.subject), seed: seedOf(earlier.step), sendAsText: true, previous, pixelUrl: null, unsubscribe: null });
      if (c.ok) previous = { subject: c.subject, messageIds: [] };
    }
  }

  const links = trackingLinks({ secrets: ctx.secrets, publicUrl: ctx.settings.publicUrl, sendId: newId(ctx.ports.clock.now().getTime()) });
  const composeWith = (vars: Record<string, string | null | undefined>): ComposeResult =>
    compose({
      subject: variation.subject,
      body: variation.body,
      variables: vars,
      seed: seedOf(options.step),
      sendAsText: campaign.send_as_txt,
      previous,
      pixelUrl: campaign.open_tracking && !campaign.send_as_txt ? links.pixelUrl : null,
      unsubscribe: campaign.unsubscribe_link ? { url: links.unsubscribeUrl, text: campaign.unsubscribe_text?.trim() || 'Unsubscribe' } : null,
    });
  let composed = composeWith(variables);
  let missing: string[] = [];
  if (!composed.ok) {
    missing = composed.missing;
    // Shown as written: `{{name}}` (escaped for spintax so spin() gives it back as is).
    const shown = { ...variables };
    for (const name of missing) Object.defineProperty(shown, name, { value: `{{${name}}}`, enumerable: true, writable: true, configurable: true });
    composed = composeWith(shown);
    if (!composed.ok) throw new Error(`composing with placeholders failed: ${composed.reason}`);
  }
  return {
    subject: composed.subject,
    html: composed.html,
    text: composed.text,
    headers: composed.headers,
    inReplyTo: composed.inReplyTo,
    references: composed.references,
    missing,
    lead,
    mailbox,
  };
}

/** The variables with `{{name}}` for each one `template` uses and has no value for. */
function fill(variables: Record<string, string | null | undefined>, template: string): Record<string, string | null | undefined> {
  const out = { ...variables };
  for (const match of template.matchAll(/\{\{\s*([^{}|]+?)\s*(?:\|[^{}]*)?\}\}/g)) {
    const name = canonicalVariableName(match[1]!);
    const value = Object.hasOwn(out, name) ? out[name] : undefined;
    if (typeof value !== 'string' || !value.trim()) Object.defineProperty(out, name, { value: `{{${name}}}`, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
