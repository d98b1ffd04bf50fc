import type { PrismaClient, Tx } from '@outreach/db';
import { notFound } from '../shared/errors';
import { normalizeEmail } from './email-account.rules';
import type { DnsVerdict, MailboxActivity } from './mailbox-health.rules';

/**
 * The recent activity of a page of mailboxes, in one statement (docs/api.md, "Mailbox health"):
 * their sends of the last 7 days (one range of the (email_account_id, sent_at) index each), and the
 * replies they received since `$2` ((email_account_id, direction, received_at)). A reply or an
 * out-of-office answer to a send of the window was received in the window too.
 * Warmup e-mails it sent (warmup_messages, (sender_account_id, sent_at)) by placement, overall and by
 * the recipient's provider, and the DNS verdict of its latest health snapshot.
 * $1 mailbox ids, $2 7 days ago, $3 the start of the workspace's day, $4 3 days ago, $5 24 hours ago.
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
),
warm AS (
  SELECT w.sender_account_id AS id,
         count(*) FILTER (WHERE w.sent_at >= $3::timestamptz)::int AS warmup_sent_today,
         json_build_object('inbox', count(*) FILTER (WHERE w.placement = 'INBOX' AND w.sent_at >= $2::timestamptz), 'spam', count(*) FILTER (WHERE w.placement = 'SPAM' AND w.sent_at >= $2::timestamptz), 'promotions', count(*) FILTER (WHERE w.placement = 'PROMOTIONS' AND w.sent_at >= $2::timestamptz), 'missing', count(*) FILTER (WHERE w.placement = 'MISSING' AND w.sent_at >= $2::timestamptz)) AS warmup_7d,
         json_build_object('inbox', count(*) FILTER (WHERE w.placement = 'INBOX' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'GOOGLE'), 'spam', count(*) FILTER (WHERE w.placement = 'SPAM' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'GOOGLE'), 'promotions', count(*) FILTER (WHERE w.placement = 'PROMOTIONS' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'GOOGLE'), 'missing', count(*) FILTER (WHERE w.placement = 'MISSING' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'GOOGLE')) AS warmup_google_7d,
         json_build_object('inbox', count(*) FILTER (WHERE w.placement = 'INBOX' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'MICROSOFT'), 'spam', count(*) FILTER (WHERE w.placement = 'SPAM' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'MICROSOFT'), 'promotions', count(*) FILTER (WHERE w.placement = 'PROMOTIONS' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'MICROSOFT'), 'missing', count(*) FILTER (WHERE w.placement = 'MISSING' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'MICROSOFT')) AS warmup_microsoft_7d,
         json_build_object('inbox', count(*) FILTER (WHERE w.placement = 'INBOX' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'OTHER'), 'spam', count(*) FILTER (WHERE w.placement = 'SPAM' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'OTHER'), 'promotions', count(*) FILTER (WHERE w.placement = 'PROMOTIONS' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'OTHER'), 'missing', count(*) FILTER (WHERE w.placement = 'MISSING' AND w.sent_at >= $2::timestamptz AND w.recipient_provider = 'OTHER')) AS warmup_other_7d,
         count(*) FILTER (WHERE w.sent_at >= $5::timestamptz)::int AS warmup_sent_1d,
         count(*) FILTER (WHERE w.sent_at >= $5::timestamptz AND w.placement = 'MISSING')::int AS warmup_missing_1d
    FROM warmup_messages w
   WHERE w.sender_account_id = ANY($1::text[]) AND w.sent_at >= LEAST($2::timestamptz, $3::timestamptz)
   GROUP BY 1
)
SELECT a.id,
       COALESCE(sends.sent_today, 0) AS sent_today, COALESCE(sends.bounced_today, 0) AS bounced_today,
       COALESCE(sends.sent_7d, 0) AS sent_7d, COALESCE(sends.replied_7d, 0) AS replied_7d, COALESCE(sends.bounced_7d, 0) AS bounced_7d,
       COALESCE(sends.sent_3d, 0) AS sent_3d, COALESCE(sends.bounced_3d, 0) AS bounced_3d,
       COALESCE(inbox.replied_today, 0) AS replied_today, COALESCE(inbox.ooo_7d, 0) AS ooo_7d,
       COALESCE(warm.warmup_sent_today, 0) AS warmup_sent_today, warm.warmup_7d, warm.warmup_google_7d, warm.warmup_microsoft_7d,
       warm.warmup_other_7d, COALESCE(warm.warmup_sent_1d, 0) AS warmup_sent_1d, COALESCE(warm.warmup_missing_1d, 0) AS warmup_missing_1d,
       snap.dns
  FROM unnest($1::text[]) AS a(id)
  LEFT JOIN sends ON sends.id = a.id
  LEFT JOIN inbox ON inbox.id = a.id
  LEFT JOIN warm ON warm.id = a.id
  LEFT JOIN LATERAL (
    SELECT CASE WHEN h.inputs->>'dns_checked_at' IS NULL THEN NULL
                ELSE json_build_object('spf', (h.inputs->>'spf')::boolean, 'dkim', (h.inputs->>'dkim')::boolean,
                                       'dmarc', (h.inputs->>'dmarc')::boolean, 'checked_at', h.inputs->>'dns_checked_at') END AS dns
      FROM mailbox_health_snapshots h WHERE h.email_account_id = a.id ORDER BY h.day DESC LIMIT 1
  ) snap ON true`;

type ActivityRow = Omit<MailboxActivity, 'unibox_sent_today'> & { id: string; dns: MailboxDns | null };

export type MailboxDns = DnsVerdict & { checked_at: string };
export type RecordedActivity = Omit<MailboxActivity, 'unibox_sent_today'> & { dns: MailboxDns | null };

/** MAILBOX_ACTIVITY_SQL for `ids` at `now`, the day starting at `dayStart`: mailbox id → its activity (unibox sends not included) and last DNS verdict. */
export async function mailboxActivity(options: { db: PrismaClient | Tx; ids: string[]; now: Date; dayStart: Date }): Promise<Map<string, RecordedActivity>> {
  if (!options.ids.length) return new Map();
  const ago = (days: number) => new Date(options.now.getTime() - days * 86_400_000).toISOString();
  const rows = await options.db.$queryRawUnsafe<ActivityRow[]>(MAILBOX_ACTIVITY_SQL, options.ids, ago(7), options.dayStart.toISOString(), ago(3), ago(1));
  return new Map(
    rows.map(({ id, ...activity }) => [
      id,
      {
        ...activity,
        warmup_7d: activity.warmup_7d ?? undefined,
        warmup_google_7d: activity.warmup_google_7d ?? undefined,
        warmup_microsoft_7d: activity.warmup_microsoft_7d ?? undefined,
        warmup_other_7d: activity.warmup_other_7d ?? undefined,
      },
    ]),
  );
}

/** A mailbox of the workspace by address (case-insensitively), with what its status shows; 404 when there is none. */
export async function findAccountByEmail(options: { db: PrismaClient; workspaceId: string; email: string }) {
  const row = await options.db.emailAccount.findUnique({
    where: { workspaceId_emailNormalized: { workspaceId: options.workspaceId, emailNormalized: normalizeEmail(options.email) } },
    select: { id: true, email: true, status: true, warmupStatus: true, lastError: true, disconnectReason: true, imapSyncedAt: true, imapFailures: true, uniboxDayStart: true, uniboxSentToday: true },
  });
  if (!row) throw accountNotFound(options.email);
  return row;
}

export const accountNotFound = (email: string) => notFound('email_account.not_found', `email account ${email} not found in this workspace`);
