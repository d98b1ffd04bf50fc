// SQL of the warmup engine. Timestamps travel as ISO strings cast in SQL (the engine's clock is
// injected), id lists as text[]; `$1::text[] IS NULL` means every organization.
import { prepared } from '@outreach/db';
import { countedToday } from '../shared/day-counts.queries';

/** The pool: mailboxes with warmup ACTIVE that can send, with what sending and scanning need. */
export const POOL_SQL = `
  SELECT e.id, e.organization_id, e.workspace_id, e.email, e.first_name, e.last_name, e.daily_limit, e.sending_gap,
         e.next_send_allowed_at, e.smtp_host, e.smtp_port, e.smtp_username, e.smtp_password_enc, e.auth_type, e.updated_at,
         e.warmup_limit, e.warmup_increment, e.warmup_custom_words, e.warmup_signature, e.warmup_started_at,
         w.timezone, o.warmup_shared_pool
    FROM email_accounts e
    JOIN workspaces w ON w.id = e.workspace_id
    JOIN organizations o ON o.id = e.organization_id
   WHERE e.warmup_status = 'ACTIVE' AND e.status = 'ACTIVE'
     AND ($1::text[] IS NULL OR e.organization_id = ANY($1::text[]))
   ORDER BY e.id`;

/**
 * Each mailbox's sends today (its workspace's day): campaign sends (mailbox_day_counts, kept by
 * triggers), unibox sends (counted on its row) and campaign claims not yet recorded, as the
 * scheduler counts them; and its warmup e-mails (mailbox_day_counts too).
 * $1 mailbox ids, $2 their day starts.
 */
export const DAY_COUNTS_SQL = `
  SELECT m.id,
         (${countedToday({ row: 'k', column: 'sent', day: 'm.day_start' })}
          + CASE WHEN e.unibox_day_start = m.day_start THEN e.unibox_sent_today ELSE 0 END
          + (SELECT count(*) FROM leads l WHERE l.email_account_id = m.id AND l.claimed_at IS NOT NULL))::int AS other_today,
         (${countedToday({ row: 'k', column: 'warmup_sent', day: 'm.day_start' })})::int AS warmup_today
    FROM unnest($1::text[], $2::text[]::timestamptz[]) AS m(id, day_start)
    JOIN email_accounts e ON e.id = m.id
    LEFT JOIN mailbox_day_counts k ON k.email_account_id = m.id`;

/** How many warmup e-mails each sender wrote to each recipient since $2. $1 sender ids. */
export const SENT_TO_SQL = `
  SELECT sender_account_id, recipient_account_id, count(*)::int AS n
    FROM warmup_messages WHERE sender_account_id = ANY($1::text[]) AND sent_at >= $2::timestamptz
   GROUP BY 1, 2`;

/** Warmup e-mails each pool mailbox received since $2 (from anyone): $1 mailbox ids. */
export const RECEIVED_SQL = `
  SELECT recipient_account_id, count(*)::int AS n
    FROM warmup_messages WHERE recipient_account_id = ANY($1::text[]) AND sent_at >= $2::timestamptz
   GROUP BY 1`;

/**
 * The campaigns that would use these mailboxes now: ACTIVE, with a lead due. Their schedules
 * say whether they are inside their sending window (checked in code). $1 mailbox ids, $2 now.
 */
export const CAMPAIGN_DEMAND_SQL = `
  SELECT cea.email_account_id, c.schedule, to_char(c.start_date, 'YYYY-MM-DD') AS start_date, to_char(c.end_date, 'YYYY-MM-DD') AS end_date
    FROM campaign_email_accounts cea
    JOIN campaigns c ON c.id = cea.campaign_id AND c.status = 'ACTIVE'
   WHERE cea.email_account_id = ANY($1::text[])
     AND EXISTS (SELECT 1 FROM leads l WHERE l.campaign_id = c.id AND l.next_send_at IS NOT NULL AND l.next_send_at <= $2::timestamptz)`;

/** Warmup e-mails these mailboxes received and decided to answer, not answered yet, oldest decision first. $1 mailbox ids. */
export const PENDING_REPLIES_SQL = `
  SELECT id, recipient_account_id, sender_account_id, message_id, thread_id, "references", subject, depth
    FROM warmup_messages
   WHERE recipient_account_id = ANY($1::text[]) AND reply_decided_at IS NOT NULL AND replied_at IS NULL
   ORDER BY reply_decided_at, id`;

/**
 * Takes a mailbox for one warmup send and writes the e-mail, in one statement (one round trip,
 * where a transaction of its lock, the answered mark, the row and the gap took five or six):
 * - the mailbox, free (its gap passed, no other worker holding it), still ACTIVE and warming up,
 *   taken `FOR NO KEY UPDATE SKIP LOCKED`, as a campaign claim takes its mailboxes
 *   (LOCK_MAILBOXES_SQL): the two exclude each other, while another send's warmup row naming this
 *   mailbox as its recipient (whose foreign key takes FOR KEY SHARE) neither makes this one skip it
 *   nor, sent at the same time the other way round, waits on it in a cycle (a deadlock with FOR UPDATE);
 * - an answer ($3 the e-mail it answers, or null) only while nobody answered that e-mail meanwhile;
 * - the warmup row, and the mailbox's next send after its gap ($16).
 * The mailbox's id comes back when the e-mail is to be sent; no row: skipped, nothing written.
 * $1 mailbox, $2 now, $4–$15 the row (id, organization, workspace, recipient, code, Message-ID,
 * thread, In-Reply-To, References, subject, depth, recipient's provider).
 */
export const CLAIM_WARMUP_SEND_SQL = prepared(`
  WITH sender AS (
    SELECT id FROM email_accounts
     WHERE id = $1 AND status = 'ACTIVE' AND warmup_status = 'ACTIVE' AND daily_limit > 0
       AND (next_send_allowed_at IS NULL OR next_send_allowed_at <= $2::timestamptz)
       FOR NO KEY UPDATE SKIP LOCKED
  ),
  answered AS (
    UPDATE warmup_messages SET replied_at = $2::timestamptz
     WHERE id = $3::text AND replied_at IS NULL AND EXISTS (SELECT 1 FROM sender)
    RETURNING id
  ),
  written AS (
    INSERT INTO warmup_messages (id, organization_id, workspace_id, sender_account_id, recipient_account_id, code, message_id,
                                 thread_id, in_reply_to, "references", subject, depth, recipient_provider, sent_at)
    SELECT $4, $5, $6, s.id, $7, $8, $9, $10, $11, $12, $13, $14::int, $15, $2::timestamptz
      FROM sender s
     WHERE $3::text IS NULL OR EXISTS (SELECT 1 FROM answered)
    RETURNING sender_account_id
  )
  UPDATE email_accounts e SET next_send_allowed_at = $16::timestamptz
    FROM written w
   WHERE e.id = w.sender_account_id
  RETURNING e.id`);

/** Mailboxes whose warmup e-mails not yet seen became MISSING (not found within the timeout). $1 org ids or null, $2 sent before, $3 now. */
export const MARK_MISSING_SQL = `
  UPDATE warmup_messages SET placement = 'MISSING', placed_at = $3::timestamptz
   WHERE placement = 'PENDING' AND sent_at < $2::timestamptz
     AND ($1::text[] IS NULL OR organization_id = ANY($1::text[]))`;

/**
 * Mailboxes to scan: something addressed to them is not placed yet (sent before $3, so it had
 * time to arrive), or placed warmup mail is due for archiving (placed before $4); not scanned
 * since $2. At most $5, least recently scanned first. $1 org ids or null.
 */
export const TO_SCAN_SQL = `
  SELECT e.id, e.email, e.workspace_id, e.imap_host, e.imap_port, e.imap_username, e.imap_password_enc, e.auth_type,
         e.warmup_reply_rate
    FROM email_accounts e
   WHERE e.status = 'ACTIVE'
     AND ($1::text[] IS NULL OR e.organization_id = ANY($1::text[]))
     AND (e.warmup_scanned_at IS NULL OR e.warmup_scanned_at <= $2::timestamptz)
     AND EXISTS (SELECT 1 FROM warmup_messages w
                  WHERE w.recipient_account_id = e.id
                    AND ((w.placement = 'PENDING' AND w.sent_at <= $3::timestamptz)
                         OR (w.archived_at IS NULL AND w.placement <> 'MISSING' AND w.placement <> 'PENDING' AND w.placed_at <= $4::timestamptz)))
   ORDER BY e.warmup_scanned_at NULLS FIRST, e.id
   LIMIT $5`;

/** Claims a scan (several workers: one scans). $1 id, $2 scanned before, $3 now. */
export const CLAIM_SCAN_SQL = `
  UPDATE email_accounts SET warmup_scanned_at = $3::timestamptz
   WHERE id = $1 AND (warmup_scanned_at IS NULL OR warmup_scanned_at <= $2::timestamptz)
  RETURNING id`;

/** What a scan of mailbox $1 looks for: its pending warmup mail, and placed mail due for archiving (placed before $2). */
export const SCAN_ROWS_SQL = `
  SELECT id, code, sent_at, placement, depth
    FROM warmup_messages
   WHERE recipient_account_id = $1
     AND (placement = 'PENDING'
          OR (archived_at IS NULL AND placement IN ('INBOX', 'SPAM', 'PROMOTIONS') AND placed_at <= $2::timestamptz))`;

/** How many warmup e-mails mailbox $1 has found so far (the reply rate spreads its answers over them). */
export const PLACED_COUNT_SQL = `
  SELECT count(*)::int AS n FROM warmup_messages WHERE recipient_account_id = $1 AND placement IN ('INBOX', 'SPAM', 'PROMOTIONS')`;

/** Records what a scan found, in one statement. $1 [{ id, placement, folder, rescued, reply, archived }], $2 now. */
export const APPLY_SCAN_SQL = `
  UPDATE warmup_messages w
     SET placement = COALESCE(x.placement, w.placement),
         folder = COALESCE(x.folder, w.folder),
         placed_at = CASE WHEN x.placement IS NOT NULL THEN $2::timestamptz ELSE w.placed_at END,
         rescued_at = CASE WHEN x.rescued THEN $2::timestamptz ELSE w.rescued_at END,
         reply_decided_at = CASE WHEN x.reply THEN $2::timestamptz ELSE w.reply_decided_at END,
         archived_at = CASE WHEN x.archived THEN $2::timestamptz ELSE w.archived_at END
    FROM json_to_recordset($1::json) AS x(id text, placement text, folder text, rescued boolean, reply boolean, archived boolean)
   WHERE w.id = x.id
     -- A second scan racing this one finds the row placed already: the first one's placement stays.
     AND (x.placement IS NULL OR w.placement = 'PENDING')`;
