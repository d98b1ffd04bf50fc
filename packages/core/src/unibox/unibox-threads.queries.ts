import type { PrismaClient } from '@outreach/db';
import { uniboxEmailColumns, type UniboxEmailRow } from './unibox.queries';

/**
 * One page of the inbox's threads, latest activity first by (last_message_at, id), in one
 * statement walking unibox_threads (workspace_id, last_message_at DESC, id DESC): each
 * thread with its latest inbox e-mail (as a UniboxEmailRow), its inbox e-mail count and the
 * label of its latest labelled received e-mail. A thread with no inbox e-mail (only drafts,
 * or mail in "others") is not listed. Parameters: $1 workspace, $2 direction or null,
 * $3 lead address (normalised) or null, $4 campaign or null, $5 label or null, $6 thread
 * or null, $7/$8 the last row's last_message_at and id (or null), $9 rows, $10 preview only,
 * $11 unread flag or null, $12 mailbox (email account id) or null, $13 the lead's label or null.
 */
export const UNIBOX_THREADS_SQL = `
  SELECT ${uniboxEmailColumns('$10')},
         t.subject AS t_subject, coalesce(tl.email, '') AS t_lead, coalesce(t.lead_id, '') AS t_lead_id,
         coalesce(t.campaign_id, '') AS t_campaign_id, coalesce(ta.email, '') AS t_eaccount,
         t.last_message_at AS t_last_message_at, t.is_unread AS t_is_unread, n.count AS t_message_count,
         coalesce(lab.label, '') AS t_label
    FROM unibox_threads t
    LEFT JOIN leads tl ON tl.id = t.lead_id
    LEFT JOIN email_accounts ta ON ta.id = t.email_account_id
    JOIN LATERAL (SELECT * FROM unibox_messages x WHERE x.thread_id = t.id AND x.folder = 'INBOX'
                   ORDER BY x.received_at DESC, x.id DESC LIMIT 1) m ON true
    LEFT JOIN leads l ON l.id = m.lead_id
    LEFT JOIN email_accounts a ON a.id = m.email_account_id
    CROSS JOIN LATERAL (SELECT count(*)::int AS count FROM unibox_messages x WHERE x.thread_id = t.id AND x.folder = 'INBOX') n
    LEFT JOIN LATERAL (SELECT x.label FROM unibox_messages x
                        WHERE x.thread_id = t.id AND x.folder = 'INBOX' AND x.direction = 'IN' AND x.label IS NOT NULL
                        ORDER BY x.received_at DESC, x.id DESC LIMIT 1) lab ON true
   WHERE t.workspace_id = $1
     AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM unibox_messages x WHERE x.thread_id = t.id AND x.folder = 'INBOX' AND x.direction = $2::"MessageDirection"))
     AND ($3::text IS NULL OR t.lead_id IN (SELECT id FROM leads WHERE workspace_id = $1 AND email_normalized = $3))
     AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM unibox_messages x WHERE x.thread_id = t.id AND x.folder = 'INBOX' AND x.campaign_id = $4))
     AND ($5::text IS NULL OR lab.label = $5)
     AND ($6::text IS NULL OR t.id = $6)
     AND ($11::boolean IS NULL OR t.is_unread = $11::boolean)
     AND ($12::text IS NULL OR t.email_account_id = $12)
     AND ($13::text IS NULL OR tl.label = $13)
     AND ($7::timestamptz IS NULL OR (t.last_message_at, t.id) < ($7::timestamptz, $8::text))
   ORDER BY t.last_message_at DESC, t.id DESC
   LIMIT $9`;

export interface UniboxThreadRow extends UniboxEmailRow {
  t_subject: string;
  t_lead: string;
  t_lead_id: string;
  t_campaign_id: string;
  t_eaccount: string;
  t_last_message_at: Date;
  t_is_unread: boolean;
  t_message_count: number;
  t_label: string;
}

export function uniboxThreadRows(options: {
  db: PrismaClient;
  workspaceId: string;
  direction: 'IN' | 'OUT' | null;
  leadEmail: string | null;
  campaignId: string | null;
  label: string | null;
  threadId: string | null;
  after: { at: Date; id: string } | null;
  take: number;
  previewOnly: boolean;
  unread?: boolean | null;
  emailAccountId?: string | null;
  leadLabel?: string | null;
}): Promise<UniboxThreadRow[]> {
  return options.db.$queryRawUnsafe<UniboxThreadRow[]>(
    UNIBOX_THREADS_SQL,
    options.workspaceId,
    options.direction,
    options.leadEmail,
    options.campaignId,
    options.label,
    options.threadId,
    options.after?.at ?? null,
    options.after?.id ?? null,
    options.take,
    options.previewOnly,
    options.unread ?? null,
    options.emailAccountId ?? null,
    options.leadLabel ?? null,
  );
}
