// What the tracking links of a sent e-mail do when followed: the open pixel records an
// open, the unsubscribe link (RFC 8058 one-click, or the confirmation page's button)
// stops every e-mail to the address in the workspace. The callers are anonymous (mail
// clients, image proxies, the recipient's browser), so nothing here trusts the request:
// the token's MAC is what names the send, and a bad token is an answer, never an error.
import { newId } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import { classifyOpen } from './open.rules';
import { readTrackingToken } from './tracking-token';

type TrackingDeps = Pick<ServiceDeps, 'db' | 'ports' | 'secrets'>;

/** The longest user agent stored with an open; longer ones are cut (headers may be up to 16 KB). */
export const MAX_STORED_USER_AGENT = 512;

export const UNSUBSCRIBED_LEAD_EVENT = 'UNSUBSCRIBED';
export const UNSUBSCRIBE_BLOCKLIST_LABEL = 'UNSUBSCRIBE';
export const UNSUBSCRIBED_REASON = 'unsubscribed by the recipient';
export const UNSUBSCRIBED_ELSEWHERE_REASON = 'unsubscribed by the recipient from another campaign';

/**
 * Records one fetch of the open pixel: an OPEN e-mail event (machine or human, see
 * classifyOpen) and, for the first human open, the send's `opened_at`. 'ignored' when the
 * token is forged or malformed or its send no longer exists.
 */
export async function recordOpen(options: {
  deps: TrackingDeps;
  token: string;
  userAgent?: string | null;
  ip?: string | null;
}): Promise<'recorded' | 'ignored'> {
  const { deps } = options;
  const sendId = readTrackingToken({ secrets: deps.secrets, purpose: 'open', token: options.token });
  if (!sendId) return 'ignored';
  const occurredAt = deps.ports.clock.now();
  const userAgent = options.userAgent ? options.userAgent.slice(0, MAX_STORED_USER_AGENT) : null;
  return deps.db.$transaction(async (tx): Promise<'recorded' | 'ignored'> => {
    // KEY SHARE keeps the send (and so the event's foreign key) from being deleted under us.
    const [send] = await tx.$queryRawUnsafe<{ workspace_id: string; campaign_id: string; lead_id: string; sent_at: Date }[]>(
      'SELECT workspace_id, campaign_id, lead_id, sent_at FROM sent_emails WHERE id = $1 FOR KEY SHARE',
      sendId,
    );
    if (!send) return 'ignored';
    const { machine, reason } = classifyOpen({ sentAt: send.sent_at, openedAt: occurredAt, userAgent });
    await tx.emailEvent.create({
      data: {
        id: newId(),
        workspaceId: send.workspace_id,
        sentEmailId: sendId,
        campaignId: send.campaign_id,
        leadId: send.lead_id,
        type: 'OPEN',
        isMachine: machine,
        data: { user_agent: userAgent, ip: options.ip ?? null, reason },
        occurredAt,
      },
    });
    // Only the first human open is denormalised onto the send.
    if (!machine) await tx.sentEmail.updateMany({ where: { id: sendId, openedAt: null }, data: { openedAt: occurredAt } });
    return 'recorded';
  });
}

export interface UnsubscribeResult {
  status: 'unsubscribed' | 'already_unsubscribed' | 'invalid';
  /** The lead's address as given (absent when the token is invalid). */
  email?: string;
}

/**
 * Unsubscribes the recipient of a send, in one transaction:
 * - the send's `unsubscribed_at` and an UNSUBSCRIBE e-mail event;
 * - the lead: status UNSUBSCRIBED, completed, nothing due, claim released, an
 *   UNSUBSCRIBED lead event `{ sent_email_id }`;
 * - the address on the workspace blocklist (label UNSUBSCRIBE; kept if already there);
 * - every unfinished lead with the same address in other campaigns of the workspace is
 *   stopped the same way (the address is blocklisted now), each with its own lead event
 *   `{ sent_email_id, via_lead_id }`. A lead is unfinished while something is due to it
 *   (`next_send_at` set), or while it is not completed and its status is NOT_CONTACTED,
 *   CONTACTED or RESCHEDULED; finished leads (replied, bounced, completed…) keep their status.
 *
 * Idempotent: when the send is already unsubscribed or its lead already is UNSUBSCRIBED
 * (also when it was stopped through another campaign's link), the answer is
 * 'already_unsubscribed' and nothing changes. Concurrent calls for the same address
 * serialise on the address's lead rows, locked in id order (so two campaigns' links
 * followed at once cannot deadlock).
 */
export async function unsubscribeByToken(options: { deps: TrackingDeps; token: string }): Promise<UnsubscribeResult> {
  const { deps } = options;
  const sendId = readTrackingToken({ secrets: deps.secrets, purpose: 'unsubscribe', token: options.token });
  if (!sendId) return { status: 'invalid' };
  const now = deps.ports.clock.now();
  return deps.db.$transaction(async (tx): Promise<UnsubscribeResult> => {
    const [send] = await tx.$queryRawUnsafe<{ lead_id: string; workspace_id: string; campaign_id: string; email_normalized: string }[]>(
      `SELECT s.lead_id, s.workspace_id, s.campaign_id, l.email_normalized
         FROM sent_emails s JOIN leads l ON l.id = s.lead_id
        WHERE s.id = $1`,
      sendId,
    );
    if (!send) return { status: 'invalid' };
    const { workspace_id: workspaceId, email_normalized: address } = send;

    // The lead and every other lead of the address, locked before anything is read or written.
    const leads = await tx.$queryRawUnsafe<{ id: string; email: string; status: string }[]>(
      `SELECT id, email, status::text AS status FROM leads
        WHERE workspace_id = $1 AND email_normalized = $2
        ORDER BY id
          FOR UPDATE`,
      workspaceId,
      address,
    );
    const lead = leads.find((l) => l.id === send.lead_id);
    if (!lead) return { status: 'invalid' };
    // Read after the lock, so a concurrent unsubscribe of the same send is seen committed.
    const [current] = await tx.$queryRawUnsafe<{ unsubscribed_at: Date | null }[]>('SELECT unsubscribed_at FROM sent_emails WHERE id = $1', sendId);
    if (!current) return { status: 'invalid' };
    if (current.unsubscribed_at !== null || lead.status === 'UNSUBSCRIBED') return { status: 'already_unsubscribed', email: lead.email };

    await tx.sentEmail.update({ where: { id: sendId }, data: { unsubscribedAt: now } });
    await tx.emailEvent.create({
      data: {
        id: newId(),
        workspaceId,
        sentEmailId: sendId,
        campaignId: send.campaign_id,
        leadId: lead.id,
        type: 'UNSUBSCRIBE',
        isMachine: false,
        data: {},
        occurredAt: now,
      },
    });
    await tx.lead.update({
      where: { id: lead.id },
      data: { status: 'UNSUBSCRIBED', isCompleted: true, nextSendAt: null, claimedAt: null, statusReason: UNSUBSCRIBED_REASON },
    });
    await tx.$executeRawUnsafe(
      `INSERT INTO blocklist_entries (id, workspace_id, value, is_domain, created_by_label, created_at)
       VALUES ($1, $2, $3, false, $4, $5)
       ON CONFLICT (workspace_id, value) DO NOTHING`,
      newId(),
      workspaceId,
      address,
      UNSUBSCRIBE_BLOCKLIST_LABEL,
      now,
    );
    const stopped = await tx.$queryRawUnsafe<{ id: string; campaign_id: string }[]>(
      `UPDATE leads
          SET status = 'UNSUBSCRIBED', is_completed = true, next_send_at = NULL, claimed_at = NULL,
              status_reason = $4, updated_at = now()
        WHERE workspace_id = $1 AND email_normalized = $2 AND id <> $3
          AND (next_send_at IS NOT NULL
               OR (NOT is_completed AND status::text IN ('NOT_CONTACTED', 'CONTACTED', 'RESCHEDULED')))
        RETURNING id, campaign_id`,
      workspaceId,
      address,
      lead.id,
      UNSUBSCRIBED_ELSEWHERE_REASON,
    );
    await tx.leadEvent.createMany({
      data: [
        { id: newId(), workspaceId, leadId: lead.id, campaignId: send.campaign_id, type: UNSUBSCRIBED_LEAD_EVENT, data: { sent_email_id: sendId }, occurredAt: now },
        ...stopped.map((s) => ({
          id: newId(),
          workspaceId,
          leadId: s.id,
          campaignId: s.campaign_id,
          type: UNSUBSCRIBED_LEAD_EVENT,
          data: { sent_email_id: sendId, via_lead_id: lead.id },
          occurredAt: now,
        })),
      ],
    });
    return { status: 'unsubscribed', email: lead.email };
  });
}

/**
 * `john@example.com` → `j***@example.com`: enough for the recipient to recognise the
 * address on the confirmation page, not enough to harvest it from a leaked link.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  const first = Array.from(local)[0] ?? '';
  return at < 0 ? `${first}***` : `${first}***${email.slice(at)}`;
}

export interface UnsubscribeDescription {
  valid: boolean;
  /** The recipient's address, masked (only when valid). */
  maskedEmail?: string;
  /** Whether the recipient is unsubscribed already (only when valid). */
  alreadyUnsubscribed?: boolean;
}

/** What the confirmation page shows for an unsubscribe link; reads only. */
export async function describeUnsubscribe(options: { deps: TrackingDeps; token: string }): Promise<UnsubscribeDescription> {
  const { deps } = options;
  const sendId = readTrackingToken({ secrets: deps.secrets, purpose: 'unsubscribe', token: options.token });
  if (!sendId) return { valid: false };
  const [row] = await deps.db.$queryRawUnsafe<{ email: string; status: string; unsubscribed_at: Date | null }[]>(
    `SELECT l.email, l.status::text AS status, s.unsubscribed_at
       FROM sent_emails s JOIN leads l ON l.id = s.lead_id
      WHERE s.id = $1`,
    sendId,
  );
  if (!row) return { valid: false };
  return { valid: true, maskedEmail: maskEmail(row.email), alreadyUnsubscribed: row.unsubscribed_at !== null || row.status === 'UNSUBSCRIBED' };
}
