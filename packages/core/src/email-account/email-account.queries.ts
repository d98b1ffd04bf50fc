import type { PrismaClient } from '@outreach/db';
import { notFound } from '../shared/errors';
import { normalizeEmail } from './email-account.rules';
import type { MailboxActivity } from './mailbox-health.rules';

/**
 * The recent activity of a page of mailboxes, in one statement (docs/api.md, "Mailbox health"):
 * their sends of the last 7 days (one range of the (email_account_id, sent_at) index each), and the
 * replies they received since `$2` ((email_account_id, direction, received_at)). A reply or an
 * out-of-office answer to a send of the window was received in the window too.
 * $1 mailbox ids, $2 7 days ago, $3 the start of the workspace's day, $4 3 days ago.
 */
export const MAILBOX_ACTIVITY_SQL = `
WITH sends AS (
  SELECT s.email_account_id AS id,
         count(*) FILTER (WHERE s.sent_at >= $3::timestamptz)::int AS sent_today,
         count(*) FILTER (WHERE s.bounced_at >= $3::timestamptz)::int AS bounced_today,
         count(*)::int AS sent_7d,
         count(s.replied_at)::int AS replied_7d,
         count(s.bounced_at)::int AS bounced_7d,
         count(*) FILTER (WHERE s.sent_at >= $4::timestamptz)::int AS sent_3d,
         count(s.bounced_at) FILTER (WHERE s.sent_at >= $4::timestamptz)::int AS bounced_3d
    FROM sent_emails s
   WHERE s.email_account_id = ANY($1::text[]) AND s.sent_at >= $2::timestamptz
   GROUP BY 1
),
inbox AS (
  SELECT u.email_account_id AS id,
         count(*) FILTER (WHERE u.classification = 'REPLY' AND u.received_at >= $3::timestamptz)::int AS replied_today,
         count(DISTINCT u.sent_email_id) FILTER (WHERE u.classification = 'OUT_OF_OFFICE' AND s.email_account_id = u.email_account_id AND s.sent_at >= $2::timestamptz)::int AS ooo_7d
    FROM unibox_messages u
    LEFT JOIN sent_emails s ON s.id = u.sent_email_id
   WHERE u.email_account_id = ANY($1::text[]) AND u.direction = 'IN' AND u.received_at >= LEAST($2::timestamptz, $3::timestamptz)
   GROUP BY 1
)
SELECT a.id,
       COALESCE(sends.sent_today, 0) AS sent_today, COALESCE(sends.bounced_today, 0) AS bounced_today,
       COALESCE(sends.sent_7d, 0) AS sent_7d, COALESCE(sends.replied_7d, 0) AS replied_7d, COALESCE(sends.bounced_7d, 0) AS bounced_7d,
       COALESCE(sends.sent_3d, 0) AS sent_3d, COALESCE(sends.bounced_3d, 0) AS bounced_3d,
       COALESCE(inbox.replied_today, 0) AS replied_today, COALESCE(inbox.ooo_7d, 0) AS ooo_7d
  FROM unnest($1::text[]) AS a(id)
  LEFT JOIN sends ON sends.id = a.id
  LEFT JOIN inbox ON inbox.id = a.id`;

type ActivityRow = Omit<MailboxActivity, 'unibox_sent_today'> & { id: string };

/** MAILBOX_ACTIVITY_SQL for `ids` at `now`, the day starting at `dayStart`: mailbox id → its activity (unibox sends not included). */
export async function mailboxActivity(options: { db: PrismaClient; ids: string[]; now: Date; dayStart: Date }): Promise<Map<string, Omit<MailboxActivity, 'unibox_sent_today'>>> {
  if (!options.ids.length) return new Map();
  const ago = (days: number) => new Date(options.now.getTime() - days * 86_400_000).toISOString();
  const rows = await options.db.$queryRawUnsafe<ActivityRow[]>(MAILBOX_ACTIVITY_SQL, options.ids, ago(7), options.dayStart.toISOString(), ago(3));
  return new Map(rows.map(({ id, ...activity }) => [id, activity]));
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
