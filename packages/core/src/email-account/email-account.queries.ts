import type { PrismaClient } from '@outreach/db';
import { notFound } from '../shared/errors';
import { normalizeEmail } from './email-account.rules';

export interface DayCounts {
  date: string;
  sent_count: number;
  reply_count: number;
  open_count: number;
  bounce_count: number;
}

/**
 * Sends of a workspace (optionally one mailbox) grouped by UTC day of sending; a send's
 * first open, reply and bounce count on the day it was sent. Rides (workspace_id …) rows
 * through the (email_account_id, sent_at) index when a mailbox is given.
 */
export const EMAIL_DAY_COUNTS_SQL = `
SELECT to_char(date_trunc('day', s.sent_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS date,
       count(*)::int AS sent_count,
       count(s.replied_at)::int AS reply_count,
       count(s.opened_at)::int AS open_count,
       count(s.bounced_at)::int AS bounce_count
FROM sent_emails s
WHERE s.workspace_id = $1 AND s.sent_at >= $2 AND s.sent_at < $3
  AND ($4::text IS NULL OR s.email_account_id = $4::text)
GROUP BY 1
ORDER BY 1`;

/** Distinct leads sent to in the range, and of those the completed ones and the positive repliers. */
export const EMAIL_LEAD_COUNTS_SQL = `
SELECT count(*)::int AS contacted,
       count(*) FILTER (WHERE l.is_completed)::int AS completed,
       count(*) FILTER (WHERE x.replied AND l.label = ANY($5::text[]))::int AS pos_replied
FROM (
  SELECT s.lead_id, bool_or(s.replied_at IS NOT NULL) AS replied
  FROM sent_emails s
  WHERE s.workspace_id = $1 AND s.sent_at >= $2 AND s.sent_at < $3
    AND ($4::text IS NULL OR s.email_account_id = $4::text)
  GROUP BY s.lead_id
) x JOIN leads l ON l.id = x.lead_id`;

/** Lead labels counted as a positive reply. */
export const POSITIVE_LABELS = ['INTERESTED', 'MEETING_BOOKED', 'MEETING_COMPLETED', 'CLOSED'];

export async function emailDayCounts(options: { db: PrismaClient; workspaceId: string; from: Date; to: Date; emailAccountId: string | null }) {
  return options.db.$queryRawUnsafe<DayCounts[]>(EMAIL_DAY_COUNTS_SQL, options.workspaceId, options.from, options.to, options.emailAccountId);
}

export async function emailLeadCounts(options: { db: PrismaClient; workspaceId: string; from: Date; to: Date; emailAccountId: string | null }) {
  const [row] = await options.db.$queryRawUnsafe<{ contacted: number; completed: number; pos_replied: number }[]>(
    EMAIL_LEAD_COUNTS_SQL,
    options.workspaceId,
    options.from,
    options.to,
    options.emailAccountId,
    POSITIVE_LABELS,
  );
  return row ?? { contacted: 0, completed: 0, pos_replied: 0 };
}

/** A mailbox of the workspace by address (case-insensitively), with what its status shows; 404 when there is none. */
export async function findAccountByEmail(options: { db: PrismaClient; workspaceId: string; email: string }) {
  const row = await options.db.emailAccount.findUnique({
    where: { workspaceId_emailNormalized: { workspaceId: options.workspaceId, emailNormalized: normalizeEmail(options.email) } },
    select: { id: true, email: true, status: true, warmupStatus: true, lastError: true, disconnectReason: true, imapSyncedAt: true },
  });
  if (!row) throw notFound('email_account.not_found', `email account ${options.email} not found in this workspace`);
  return row;
}
