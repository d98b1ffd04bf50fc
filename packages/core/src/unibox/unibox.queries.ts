import { prepared, type PrismaClient, type Tx } from '@outreach/db';
import { countedToday } from '../shared/day-counts.queries';

/**
 * The columns of a UniboxEmailRow, from the message `m`, its lead `l` and its mailbox `a`;
 * `preview` is the SQL boolean (a parameter) that cuts the bodies to what the preview needs.
 */
export function uniboxEmailColumns(preview: string): string {
  return `m.id, m.message_id, m.thread_id, m.direction::text AS direction, m.is_unread, coalesce(m.label, '') AS label,
         coalesce(l.email, '') AS lead, coalesce(m.lead_id, '') AS lead_id, coalesce(m.campaign_id, '') AS campaign_id,
         coalesce(a.email, '') AS eaccount, m.from_address, m.from_json, m.to_json, m.cc_json, m.bcc_json, m.subject,
         CASE WHEN ${preview} THEN left(m.text_body, 4000) ELSE m.text_body END AS text_body,
         CASE WHEN ${preview} THEN left(m.html_body, 20000) ELSE m.html_body END AS html_body,
         m.in_reply_to, m."references" AS refs, m.attachments, m.received_at, m.created_at`;
}

/**
 * One page of unibox e-mails of a folder, newest first by (received_at, id), in one
 * statement served by unibox_messages (workspace_id, folder, received_at DESC, id DESC).
 * Parameters: $1 workspace, $2 folder, $3 direction or null, $4 lead address
 * (normalised) or null, $5 campaign or null, $6 label or null, $7 thread or null,
 * $8/$9 the last row's received_at and id (or null), $10 rows to fetch, $11 preview only
 * (bodies are then cut to what the preview needs).
 */
export const UNIBOX_EMAILS_SQL = `
  SELECT ${uniboxEmailColumns('$11')}
    FROM unibox_messages m
    LEFT JOIN leads l ON l.id = m.lead_id
    LEFT JOIN email_accounts a ON a.id = m.email_account_id
   WHERE m.workspace_id = $1 AND m.folder = $2::"UniboxFolder"
     AND ($3::text IS NULL OR m.direction = $3::"MessageDirection")
     AND ($4::text IS NULL OR m.lead_id IN (SELECT id FROM leads WHERE workspace_id = $1 AND email_normalized = $4))
     AND ($5::text IS NULL OR m.campaign_id = $5)
     AND ($6::text IS NULL OR m.label = $6)
     AND ($7::text IS NULL OR m.thread_id = $7)
     AND ($8::timestamptz IS NULL OR (m.received_at, m.id) < ($8::timestamptz, $9::text))
   ORDER BY m.received_at DESC, m.id DESC
   LIMIT $10`;

export interface UniboxEmailRow {
  id: string;
  message_id: string;
  thread_id: string;
  direction: 'IN' | 'OUT';
  is_unread: boolean;
  label: string;
  lead: string;
  lead_id: string;
  campaign_id: string;
  eaccount: string;
  from_address: string;
  from_json: unknown;
  to_json: unknown;
  cc_json: unknown;
  bcc_json: unknown;
  subject: string;
  text_body: string;
  html_body: string;
  in_reply_to: string | null;
  refs: string[];
  attachments: unknown;
  received_at: Date;
  created_at: Date;
}

export function uniboxEmailRows(options: {
  db: PrismaClient;
  workspaceId: string;
  folder: 'INBOX' | 'OTHERS';
  direction: 'IN' | 'OUT' | null;
  leadEmail: string | null;
  campaignId: string | null;
  label: string | null;
  threadId: string | null;
  after: { at: Date; id: string } | null;
  take: number;
  previewOnly: boolean;
}): Promise<UniboxEmailRow[]> {
  return options.db.$queryRawUnsafe<UniboxEmailRow[]>(
    UNIBOX_EMAILS_SQL,
    options.workspaceId,
    options.folder,
    options.direction,
    options.leadEmail,
    options.campaignId,
    options.label,
    options.threadId,
    options.after?.at ?? null,
    options.after?.id ?? null,
    options.take,
    options.previewOnly,
  );
}

/** Unread received e-mails of the inbox, counted in SQL. */
export const UNREAD_COUNT_SQL = `
  SELECT count(*)::int AS count FROM unibox_messages
   WHERE workspace_id = $1 AND folder = 'INBOX' AND direction = 'IN' AND is_unread`;

/**
 * Takes one of a mailbox's sends for today for the unified inbox, if its daily limit has
 * room: campaign and warmup sends recorded today (mailbox_day_counts, kept by triggers; the
 * sending engine counts the same), sends the scheduler claimed and has not yet recorded, and
 * the unibox sends counted on the mailbox.
 * Run after locking the mailbox row (the scheduler's claim takes the same lock), so neither
 * passes the other's count; one statement, so a send moving from "claimed" to "recorded" is
 * counted once. No row back: the limit is reached. $1 mailbox, $2 day start.
 */
export const RESERVE_UNIBOX_SEND_SQL = `
  UPDATE email_accounts e
     SET unibox_sent_today = CASE WHEN e.unibox_day_start = $2::timestamptz THEN e.unibox_sent_today + 1 ELSE 1 END,
         unibox_day_start = $2::timestamptz
   WHERE e.id = $1
     AND coalesce((SELECT ${countedToday({ row: 'k', column: 'sent', day: '$2::timestamptz' })} + ${countedToday({ row: 'k', column: 'warmup_sent', day: '$2::timestamptz' })}
                     FROM mailbox_day_counts k WHERE k.email_account_id = e.id), 0)
       + (SELECT count(*) FROM leads l WHERE l.email_account_id = e.id AND l.claimed_at IS NOT NULL)
       + CASE WHEN e.unibox_day_start = $2::timestamptz THEN e.unibox_sent_today ELSE 0 END < e.daily_limit
  RETURNING e.unibox_sent_today`;

/** Gives back a reserved unibox send whose e-mail did not leave. $1 mailbox, $2 day start. */
export const RELEASE_UNIBOX_SEND_SQL = `
  UPDATE email_accounts SET unibox_sent_today = GREATEST(unibox_sent_today - 1, 0)
   WHERE id = $1 AND unibox_day_start = $2::timestamptz`;

/**
 * A unibox message by our id or by its (bare) Message-ID, in the workspace. $1 workspace,
 * $2 the reference as given (trimmed), $3 the bare Message-ID form.
 */
export const FIND_MESSAGE_SQL = `
  SELECT id FROM unibox_messages
   WHERE workspace_id = $1 AND (id = $2 OR message_id = $3)
   ORDER BY (id = $2) DESC
   LIMIT 1`;

/**
 * The unibox thread of a lead's conversation: the latest thread of the lead or of its
 * parent-campaign lead (a subsequence continues the parent's conversation). $1 workspace, $2 lead.
 */
export const LEAD_THREAD_SQL = `
  SELECT id FROM unibox_threads
   WHERE workspace_id = $1
     AND lead_id IN (SELECT $2::text UNION SELECT source_lead_id FROM leads WHERE id = $2 AND source_lead_id IS NOT NULL)
   ORDER BY last_message_at DESC, id DESC
   LIMIT 1`;

/**
 * The engine's sends into the conversations already in the unified inbox, as CTEs of the
 * caller's statement, for a batch: each send whose lead (or parent-campaign lead) has a thread
 * (the newest, as LEAD_THREAD_SQL picks it) is copied into it as an OUT message, and the thread
 * moves to the send's time (the latest, when two sends meet one thread). Sends without a thread
 * are left out. `sends` names a relation of the statement with the sent_emails row's values (id,
 * workspace_id, lead_id, email_account_id, campaign_id, message_id, subject, body, is_text,
 * sent_at): the engine records a batch of sends and copies them in one statement
 * (send-record.queries.ts), where a row inserted by the statement cannot be read back from
 * sent_emails. Adds the CTEs thread_of, thread_copies and thread_times (data-modifying: they run
 * whether the statement reads them or not).
 */
export function copySendsIntoThreadsCtes(sends: string): string {
  return `
  thread_of AS (
    SELECT s.*, t.id AS thread_id FROM ${sends} s
     CROSS JOIN LATERAL (
       SELECT u.id FROM unibox_threads u
        WHERE u.workspace_id = s.workspace_id
          AND u.lead_id IN (SELECT s.lead_id UNION SELECT l.source_lead_id FROM leads l WHERE l.id = s.lead_id AND l.source_lead_id IS NOT NULL)
        ORDER BY u.last_message_at DESC, u.id DESC
        LIMIT 1
     ) t
  ),
  thread_copies AS (
    INSERT INTO unibox_messages (id, workspace_id, thread_id, email_account_id, lead_id, campaign_id, sent_email_id, direction, folder,
                                 message_id, from_address, from_json, to_json, subject, text_body, html_body, is_unread, received_at, created_at)
    SELECT s.id, s.workspace_id, s.thread_id, s.email_account_id, s.lead_id, s.campaign_id, s.id, 'OUT', 'INBOX', s.message_id,
           COALESCE(ea.email, ''), json_build_array(json_build_object('address', COALESCE(ea.email, ''), 'name', COALESCE(ea.first_name || ' ' || ea.last_name, '')))::jsonb,
           json_build_array(json_build_object('address', l.email, 'name', ''))::jsonb,
           s.subject, CASE WHEN s.is_text THEN s.body ELSE '' END, CASE WHEN s.is_text THEN '' ELSE s.body END, false, s.sent_at, s.sent_at
      FROM thread_of s JOIN leads l ON l.id = s.lead_id LEFT JOIN email_accounts ea ON ea.id = s.email_account_id
    ON CONFLICT DO NOTHING
    RETURNING 1
  ),
  thread_times AS (
    UPDATE unibox_threads u SET last_message_at = m.at
      FROM (SELECT thread_id, max(sent_at) AS at FROM thread_of GROUP BY thread_id) m
     WHERE u.id = m.thread_id
    RETURNING 1
  )`;
}

/**
 * copySendsIntoThreadsCtes for sends already recorded (one send recorded on its own: a bounce,
 * or a batch that failed, send by send). $1 send ids.
 */
export const COPY_SENDS_INTO_THREADS_SQL = prepared(`
  WITH recorded AS (
    SELECT s.id, s.workspace_id, s.lead_id, s.email_account_id, s.campaign_id, s.message_id, s.subject, s.body, s.is_text, s.sent_at
      FROM sent_emails s WHERE s.id = ANY($1::text[])
  ),${copySendsIntoThreadsCtes('recorded')}
  SELECT (SELECT count(*) FROM thread_copies)::int AS copied`);

/**
 * Our campaign e-mails to a lead (and to its parent-campaign lead) copied into a thread as
 * OUT messages: all of them when a thread opens (reply ingestion, a conversation started
 * from the unibox), or one send ($3). The engine's sends go by COPY_SENDS_INTO_THREADS_SQL.
 * $1 thread, $2 lead, $3 one send id or null.
 */
export const COPY_CAMPAIGN_SENDS_SQL = `
  INSERT INTO unibox_messages (id, workspace_id, thread_id, email_account_id, lead_id, campaign_id, sent_email_id, direction, folder,
                               message_id, from_address, from_json, to_json, subject, text_body, html_body, is_unread, received_at, created_at)
  SELECT s.id, s.workspace_id, $1, s.email_account_id, $2, s.campaign_id, s.id, 'OUT', 'INBOX', s.message_id,
         COALESCE(ea.email, ''), json_build_array(json_build_object('address', COALESCE(ea.email, ''), 'name', COALESCE(ea.first_name || ' ' || ea.last_name, '')))::jsonb,
         json_build_array(json_build_object('address', l.email, 'name', ''))::jsonb,
         s.subject, CASE WHEN s.is_text THEN s.body ELSE '' END, CASE WHEN s.is_text THEN '' ELSE s.body END, false, s.sent_at, s.sent_at
    FROM sent_emails s JOIN leads l ON l.id = s.lead_id LEFT JOIN email_accounts ea ON ea.id = s.email_account_id
   WHERE s.lead_id IN (SELECT $2::text UNION SELECT source_lead_id FROM leads WHERE id = $2 AND source_lead_id IS NOT NULL)
     AND ($3::text IS NULL OR s.id = $3)
  ON CONFLICT DO NOTHING`;
