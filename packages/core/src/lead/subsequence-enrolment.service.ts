// Moving parent-campaign leads into a subsequence: by the API (lead.addToSubsequence) and
// by the subsequence's trigger events (a label change, a reply), always inside the
// transaction of the change that caused it.
import { newId, type Tx } from '@outreach/db';
import { LEAD_COLUMNS } from './lead-add.rules';
import { matchesReplyContent } from './reply-content.rules';

const COPIED = LEAD_COLUMNS.join(', ');

/**
 * Copies the eligible parent leads into the subsequence in one statement: a parent lead
 * whose address is already in the subsequence is not eligible (a lead enters a given
 * subsequence at most once), nor is one that BOUNCED or UNSUBSCRIBED; the eligible ones are inserted in request order up to `room`
 * (the allowance left). The copy keeps the mailbox (the thread goes on from the same
 * sender) and points back to its parent lead (`source_lead_id`: the engine threads the
 * subsequence's first e-mail after the parent's); its first step waits first_wait_time days.
 * $1 workspace, $2 parent campaign, $3 subsequence, $4 room, $5 [{parent_id,new_id,ord}], $6 now.
 */
const ENROL_SQL = `
  WITH t AS (SELECT * FROM json_to_recordset($5::json) AS t(parent_id text, new_id text, ord int)),
  el AS (
    SELECT t.new_id, t.ord, p.*
      FROM t JOIN leads p ON p.id = t.parent_id AND p.campaign_id = $2 AND p.workspace_id = $1
     WHERE NOT EXISTS (SELECT 1 FROM leads s WHERE s.campaign_id = $3 AND s.email_normalized = p.email_normalized)
       -- An address that bounced or unsubscribed is never written to again.
       AND p.status NOT IN ('BOUNCED', 'UNSUBSCRIBED')
  ),
  e AS (SELECT * FROM el ORDER BY ord LIMIT $4::int),
  ins AS (
    INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, ${COPIED},
                       custom_variables, label, email_account_id, source_lead_id, created_at, updated_at, next_send_at)
    SELECT new_id, organization_id, workspace_id, $3, email, email_normalized, ${COPIED},
           custom_variables, label, email_account_id, id, $6::timestamptz, $6::timestamptz,
           $6::timestamptz + make_interval(days => (SELECT first_wait_time FROM campaigns WHERE id = $3))
      FROM e
    ON CONFLICT (campaign_id, email_normalized) DO NOTHING
    RETURNING id, source_lead_id
  )
  SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM el)::int AS eligible,
         COALESCE((SELECT json_agg(json_build_object('id', id, 'parent_id', source_lead_id)) FROM ins), '[]') AS enrolled`;

/**
 * Enrols parent leads into a subsequence: inserts the copies, stops the parents' own
 * sequence (nothing more due, `is_completed`; their status is kept), writes an ENROLLED
 * lead event on each parent, and grows the organization's lead count. The caller holds
 * the organization row lock when the allowance matters (`room`).
 */
export async function enrolLeads(options: {
  tx: Tx;
  organizationId: string;
  workspaceId: string;
  parentId: string;
  subsequenceId: string;
  parentLeadIds: string[];
  room: number;
  now: Date;
  /** What caused it, recorded on the lead event: 'API' or the trigger event. */
  via: string;
}): Promise<{ inserted: number; eligible: number; enrolled: { id: string; parent_id: string }[] }> {
  const { tx, workspaceId, parentId, subsequenceId, now } = options;
  const [counts] = await tx.$queryRawUnsafe<{ inserted: number; eligible: number; enrolled: { id: string; parent_id: string }[] }[]>(
    ENROL_SQL,
    workspaceId,
    parentId,
    subsequenceId,
    options.room,
    JSON.stringify(options.parentLeadIds.map((id, ord) => ({ parent_id: id, new_id: newId(), ord }))),
    now.toISOString(),
  );
  const enrolled = counts?.enrolled ?? [];
  await tx.$executeRawUnsafe(
    `UPDATE leads p SET next_send_at = NULL, is_completed = true, claimed_at = NULL, updated_at = $5::timestamptz
      WHERE p.campaign_id = $1 AND p.workspace_id = $2 AND p.id = ANY($3::text[])
        AND EXISTS (SELECT 1 FROM leads s WHERE s.campaign_id = $4 AND s.email_normalized = p.email_normalized)`,
    parentId,
    workspaceId,
    options.parentLeadIds,
    subsequenceId,
    now.toISOString(),
  );
  if (enrolled.length) {
    await tx.leadEvent.createMany({
      data: enrolled.map((e) => ({
        id: newId(now.getTime()),
        workspaceId,
        leadId: e.parent_id,
        campaignId: parentId,
        type: 'ENROLLED',
        data: { subsequence_id: subsequenceId, subsequence_lead_id: e.id, via: options.via },
        occurredAt: now,
      })),
    });
    await tx.organization.update({ where: { id: options.organizationId }, data: { leadCount: { increment: enrolled.length } } });
  }
  return { inserted: counts?.inserted ?? 0, eligible: counts?.eligible ?? 0, enrolled };
}

/** What happened to a parent-campaign lead that may enrol it into subsequences. */
export type TriggerEvent =
  | { kind: 'label'; label: string }
  | { kind: 'reply'; replyKind: 'reply' | 'out_of_office' | 'automatic_reply'; text: string };

interface TriggerRow {
  subsequence_id: string;
  event: 'LEAD_LABEL_UPDATED' | 'LEAD_REPLY_CONTENT' | 'LEAD_REPLY_ALL' | 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY';
  labels: string[];
  include_text: string[];
  exclude_text: string[];
}

/** Whether a trigger fires for an event (spec, "States and transitions"). */
export function triggerFires(options: { trigger: Pick<TriggerRow, 'event' | 'labels' | 'include_text' | 'exclude_text'>; event: TriggerEvent }): boolean {
  const { trigger, event } = options;
  switch (trigger.event) {
    case 'LEAD_LABEL_UPDATED':
      return event.kind === 'label' && trigger.labels.includes(event.label);
    case 'LEAD_REPLY_ALL':
      return event.kind === 'reply';
    case 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY':
      return event.kind === 'reply' && event.replyKind === 'reply';
    case 'LEAD_REPLY_CONTENT':
      return event.kind === 'reply' && matchesReplyContent({ text: event.text, include: trigger.include_text, exclude: trigger.exclude_text });
  }
}

/**
 * Enrols a lead into every subsequence of its campaign whose triggers fire for the event
 * (each subsequence once, the allowance checked under the organization's row lock).
 * Archived subsequences take no one. Returns the subsequence ids the lead entered.
 */
export async function enrolOnTrigger(options: {
  tx: Tx;
  lead: { id: string; campaignId: string; workspaceId: string; organizationId: string };
  event: TriggerEvent;
  now: Date;
  defaultLeadAllowance: number;
}): Promise<string[]> {
  const { tx, lead, event, now } = options;
  const triggers = await tx.$queryRawUnsafe<TriggerRow[]>(
    `SELECT t.subsequence_id, t.event::text AS event, t.labels, t.include_text, t.exclude_text
       FROM subsequence_triggers t JOIN campaigns s ON s.id = t.subsequence_id
      WHERE t.parent_campaign_id = $1 AND s.status <> 'ARCHIVED'
      ORDER BY s.created_at, t.subsequence_id, t.position`,
    lead.campaignId,
  );
  const targets = [...new Set(triggers.filter((trigger) => triggerFires({ trigger, event })).map((t) => t.subsequence_id))];
  if (!targets.length) return [];
  const [org] = await tx.$queryRawUnsafe<{ lead_allowance: number | null; lead_count: number }[]>(
    'SELECT lead_allowance, lead_count FROM organizations WHERE id = $1 FOR UPDATE',
    lead.organizationId,
  );
  let room = Math.max(0, (org?.lead_allowance ?? options.defaultLeadAllowance) - (org?.lead_count ?? 0));
  const entered: string[] = [];
  for (const subsequenceId of targets) {
    const { enrolled } = await enrolLeads({
      tx,
      organizationId: lead.organizationId,
      workspaceId: lead.workspaceId,
      parentId: lead.campaignId,
      subsequenceId,
      parentLeadIds: [lead.id],
      room,
      now,
      via: event.kind === 'label' ? 'LEAD_LABEL_UPDATED' : 'REPLY',
    });
    room -= enrolled.length;
    if (enrolled.length) entered.push(subsequenceId);
  }
  return entered;
}
