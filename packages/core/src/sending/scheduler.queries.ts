// SQL of the scheduler. Timestamps travel as ISO strings cast in SQL (the engine's clock
// is injected, so database now() is never used for a decision), id lists as text[].
import { prepared } from '@outreach/db';
import type { CampaignSchedule } from './schedule.rules';
import { sameDay } from '../shared/day-counts.queries';
import { webhookListensSql } from '../webhook/index';
import { referencedRowsCtes } from './send-record.queries';

/**
 * Every ACTIVE campaign with what deciding a tick needs: settings, steps, variations, mailboxes,
 * its workspace's additional fields with their defaults (one JSON object of name to default per
 * campaign; a claim reads them once per workspace), and whether a webhook listens for its
 * EMAIL_SENT events (its sends are then recorded with their events in one transaction:
 * send-record.service.ts).
 */
export const ACTIVE_CAMPAIGNS_SQL = prepared(`
  SELECT c.id, c.organization_id, c.workspace_id, c.parent_id, c.type::text AS type, c.name,
         c.daily_limit, c.daily_limit_new_lead, c.send_as_txt, c.open_tracking, c.unsubscribe_link,
         c.stop_on_lead_replied, c.pause_on_bounce_rate, c.bounce_rate_limit, c.schedule,
         to_char(c.start_date, 'YYYY-MM-DD') AS start_date, to_char(c.end_date, 'YYYY-MM-DD') AS end_date,
         w.timezone AS workspace_timezone, w.settings->>'unsubscribe_text' AS unsubscribe_text,
         COALESCE((SELECT json_agg(cea.email_account_id ORDER BY cea.email_account_id)
                     FROM campaign_email_accounts cea WHERE cea.campaign_id = c.id), '[]') AS mailbox_ids,
         COALESCE((SELECT json_agg(json_build_object(
                     'step', s.step, 'wait_time', s.wait_time,
                     'variations', COALESCE((SELECT json_agg(json_build_object(
                                     'id', v.id, 'label', v.label, 'subject', v.subject, 'body', v.body,
                                     'is_active', v.is_active, 'is_deleted', v.is_deleted))
                                     FROM variations v WHERE v.step_id = s.id), '[]')) ORDER BY s.step)
                     FROM sequence_steps s WHERE s.campaign_id = c.id), '[]') AS steps,
         COALESCE((SELECT json_object_agg(f.name, f.default_value) FROM additional_fields f WHERE f.workspace_id = c.workspace_id), '{}') AS additional_fields,
         ${webhookListensSql({ workspaceId: 'c.workspace_id', campaignId: 'c.id', event: "'EMAIL_SENT'" })} AS email_sent_webhook
    FROM campaigns c JOIN workspaces w ON w.id = c.workspace_id
   WHERE c.status = 'ACTIVE' AND ($1::text[] IS NULL OR c.workspace_id = ANY($1::text[]))`);

/** A mailbox's columns that sending from it needs (MailboxRow): its sender, its SMTP login (password still encrypted). */
const SENDER_COLUMNS = `id, workspace_id, email, first_name, last_name, status::text AS status, daily_limit, sending_gap,
         next_send_allowed_at, smtp_host, smtp_port, smtp_username, smtp_password_enc, signature, reply_to,
         updated_at, auth_type`;

/** The mailboxes those campaigns send from (credentials still encrypted). */
export const CAMPAIGN_MAILBOXES_SQL = prepared(`
  SELECT ${SENDER_COLUMNS}
    FROM email_accounts WHERE id = ANY($1::text[])`);

/** Workspace-wide lead variables with their defaults (the preview; a claim has them from ACTIVE_CAMPAIGNS_SQL). */
export const ADDITIONAL_FIELDS_SQL = prepared(`SELECT workspace_id, name, default_value FROM additional_fields WHERE workspace_id = ANY($1::text[])`);

/**
 * Whether a worker still holds a claim of the mailbox: claimed, not yet recorded or handed back,
 * and within its lease (next_send_at is the lease's end). Such a mailbox is busy: a claim behind
 * its times (slow SMTP answers) may still be sending from it after the pause it was given has
 * ended, and a second claim must not send from it at the same time; except for the worker that
 * holds those claims, which queues its next sends behind them (claimDueSends' ownMailboxes). A
 * worker that died holds its claims until their lease ends; then the mailbox is free and they are
 * taken over. One probe of leads_in_flight_idx for the mailbox, which holds only its claimed leads.
 */
const HELD_CLAIMS = (mailboxId: string, now: string) =>
  `EXISTS (SELECT 1 FROM leads l WHERE l.email_account_id = ${mailboxId} AND l.claimed_at IS NOT NULL AND l.next_send_at > ${now})`;

/**
 * The mailboxes of the open campaigns, not locked, with only what choosing the claim's
 * mailboxes needs (MailboxState: every open mailbox is read each tick, so no credentials,
 * SMTP settings or sender details; LOCK_MAILBOXES_SQL returns those of the mailboxes locked),
 * each with its sends counted today: campaign and warmup sends (mailbox_day_counts, kept by
 * triggers) and unibox sends (on its row), and whether it is busy (HELD_CLAIMS: asked only of a
 * mailbox whose gap is over, since one in its gap is not open anyway). Claims not yet
 * recorded are left out of the count: the figure only chooses which mailboxes a claim locks;
 * LOCK_MAILBOXES_SQL counts exactly under the lock.
 * $1 mailbox ids, $2 their day starts, $3 now, $4 the caller's own mailboxes (not busy for it:
 * claimDueSends' ownMailboxes).
 */
export const CLAIM_MAILBOXES_SQL = prepared(`
  SELECT e.id, e.status::text AS status, e.daily_limit, e.next_send_allowed_at,
         (CASE WHEN ${sameDay('k.day_start', 'md.day_start')} THEN k.sent + k.warmup_sent ELSE 0 END
          + CASE WHEN e.unibox_day_start = md.day_start THEN e.unibox_sent_today ELSE 0 END)::int AS counted_today,
         CASE WHEN e.next_send_allowed_at > $3::timestamptz OR e.id = ANY($4::text[]) THEN false
              ELSE ${HELD_CLAIMS('e.id', '$3::timestamptz')} END AS busy
    FROM unnest($1::text[], $2::text[]::timestamptz[]) AS md(id, day_start)
    JOIN email_accounts e ON e.id = md.id
    LEFT JOIN mailbox_day_counts k ON k.email_account_id = e.id`);

/**
 * The open campaigns' sends today (the sum of their rows in campaign_day_counts, one per mailbox
 * they sent from, not locked: the figure chooses which campaigns a claim locks), whether a lead
 * is due (one probe of leads_due_idx each), and when each last sent (campaigns that sent least
 * recently go first).
 * $1 campaign ids, $2 their day starts, $3 now.
 */
export const CAMPAIGN_STATE_SQL = prepared(`
  SELECT c.id, c.last_lead_sent_at, k.sent::int AS counted_today,
         EXISTS (SELECT 1 FROM leads l WHERE l.campaign_id = c.id AND l.next_send_at IS NOT NULL AND l.next_send_at <= $3::timestamptz) AS has_due
    FROM unnest($1::text[], $2::text[]::timestamptz[]) AS cd(id, day_start)
    JOIN campaigns c ON c.id = cd.id
   CROSS JOIN LATERAL (SELECT coalesce(sum(k.sent), 0) AS sent FROM campaign_day_counts k
                        WHERE k.campaign_id = c.id AND ${sameDay('k.day_start', 'cd.day_start')}) k`);

/**
 * Locks up to $3 of the given campaigns, in the given order, that no other worker holds
 * (SKIP LOCKED: a second worker takes the next ones), and counts each one's sends today (its
 * day, in its schedule's zone): those recorded (its rows of today in campaign_day_counts, one per
 * mailbox) plus those claimed and not yet recorded (leads_in_flight_idx: as many as the sends in
 * flight). One statement, so a send moving from "claimed" to "recorded" (one transaction: the
 * lead's claim cleared, the count raised at its commit) is counted exactly once.
 * FOR NO KEY UPDATE, not FOR UPDATE: claims still exclude each other (and a status change
 * excludes them), but the rows that point at the campaign (a send being recorded, a lead being
 * added: their foreign keys take FOR KEY SHARE) go on while a claim holds it, instead of waiting
 * for its commit.
 * Each campaign comes with its variations' assigned counts (variation id to count: the claim
 * splits its sends evenly from them), and the statement turns JIT off for the rest of the claim's
 * transaction (set_config, local): the due-lead read's estimated cost passes jit_above_cost, and
 * compiling it took several times longer than running it (bench: pick); none of a claim's
 * statements gains from JIT. Both ride on this statement to spare the claim two round trips.
 * $1 campaign ids in order, $2 their day starts, $3 how many.
 */
export const LOCK_CAMPAIGNS_SQL = prepared(`
  WITH c AS (
    SELECT c.id FROM campaigns c JOIN unnest($1::text[]) WITH ORDINALITY AS o(id, pos) ON o.id = c.id
     WHERE c.status = 'ACTIVE' ORDER BY o.pos LIMIT $3 FOR NO KEY UPDATE OF c SKIP LOCKED
  ),
  cd AS (SELECT * FROM unnest($1::text[], $2::text[]::timestamptz[]) AS t(id, day_start)),
  inflight AS (SELECT campaign_id, current_step FROM leads WHERE claimed_at IS NOT NULL),
  no_jit AS (SELECT set_config('jit', 'off', true) AS jit)
  SELECT c.id,
         (k.sent + (SELECT count(*) FROM inflight i WHERE i.campaign_id = c.id))::int AS today,
         (k.new_sent + (SELECT count(*) FROM inflight i WHERE i.campaign_id = c.id AND i.current_step = 0))::int AS new_today,
         COALESCE((SELECT json_object_agg(v.id, v.assigned_count) FROM variations v WHERE v.campaign_id = c.id), '{}') AS variation_counts,
         no_jit.jit
    FROM no_jit, c JOIN cd ON cd.id = c.id
   CROSS JOIN LATERAL (SELECT coalesce(sum(k.sent), 0) AS sent, coalesce(sum(k.new_sent), 0) AS new_sent FROM campaign_day_counts k
                        WHERE k.campaign_id = c.id AND ${sameDay('k.day_start', 'cd.day_start')}) k`);

/**
 * Locks those of the given mailboxes that are free (ACTIVE, their gap over, no claim held on
 * them: HELD_CLAIMS, no other worker holding them: SKIP LOCKED), returns their rows for sending
 * (MailboxRow: read only for the mailboxes a claim holds), and counts each one's sends today (its workspace's day): campaign
 * and warmup sends (mailbox_day_counts), unibox sends (on its row, which the unibox updates under
 * the same lock) and claims not yet recorded, in one statement (see LOCK_CAMPAIGNS_SQL).
 * FOR NO KEY UPDATE, as for campaigns: claims (and the unibox, and the mailbox automation
 * rules, which lock the row FOR UPDATE) still exclude each other, but the sends being recorded
 * from a held mailbox (their foreign key takes FOR KEY SHARE) neither wait for the claim's
 * commit nor make a claim skip the mailbox while they are written.
 * $1 mailbox ids, $2 their day starts, $3 now, $4 the caller's own mailboxes (their held claims
 * are this caller's: not busy for it).
 */
export const LOCK_MAILBOXES_SQL = prepared(`
  WITH m AS (
    SELECT ${SENDER_COLUMNS}, unibox_day_start, unibox_sent_today FROM email_accounts
     WHERE id = ANY($1::text[]) AND status = 'ACTIVE' AND daily_limit > 0
       AND (next_send_allowed_at IS NULL OR next_send_allowed_at <= $3::timestamptz)
       AND (id = ANY($4::text[]) OR NOT ${HELD_CLAIMS('email_accounts.id', '$3::timestamptz')})
     ORDER BY id FOR NO KEY UPDATE SKIP LOCKED
  ),
  md AS (SELECT * FROM unnest($1::text[], $2::text[]::timestamptz[]) AS t(id, day_start)),
  inflight AS (SELECT email_account_id FROM leads WHERE claimed_at IS NOT NULL)
  SELECT m.id, m.workspace_id, m.email, m.first_name, m.last_name, m.status, m.daily_limit, m.sending_gap,
         m.next_send_allowed_at, m.smtp_host, m.smtp_port, m.smtp_username, m.smtp_password_enc, m.signature, m.reply_to,
         m.updated_at, m.auth_type,
         (CASE WHEN ${sameDay('k.day_start', 'md.day_start')} THEN k.sent + k.warmup_sent ELSE 0 END
          + CASE WHEN m.unibox_day_start = md.day_start THEN m.unibox_sent_today ELSE 0 END
          + (SELECT count(*) FROM inflight i WHERE i.email_account_id = m.id))::int AS today
    FROM m JOIN md ON md.id = m.id
    LEFT JOIN mailbox_day_counts k ON k.email_account_id = m.id`);

/**
 * The due leads of each campaign, oldest due first, at most n per campaign, locked
 * (SKIP LOCKED), with the blocklist checked in the same read. Served by leads_due_idx.
 * $1 campaign ids, $2 how many from each, $3 now.
 */
export const DUE_LEADS_SQL = prepared(`
  SELECT l.id, l.campaign_id, l.workspace_id, l.current_step, l.status::text AS status, l.is_completed,
         l.email_account_id, l.email, l.email_normalized, l.first_name, l.last_name, l.company_name,
         l.company_website, l.job_title, l.phone_number, l.address_line, l.city, l.state, l.country,
         l.country_code, l.network_person_url, l.network_company_url, l.custom_variables,
         l.pending_send_id, l.pending_variation_id, l.send_attempts, l.claimed_at, l.pending_data_at, l.source_lead_id, l.next_send_at,
         -- One index probe for both keys (an OR of two would be a BitmapOr per lead).
         EXISTS (SELECT 1 FROM blocklist_entries b
                  WHERE b.workspace_id = l.workspace_id
                    AND b.value IN (l.email_normalized, split_part(l.email_normalized, '@', 2))
                    AND (b.value = l.email_normalized OR b.is_domain)) AS blocked
    FROM unnest($1::text[], $2::int[]) AS c(id, n)
   CROSS JOIN LATERAL (
     SELECT * FROM leads l
      WHERE l.campaign_id = c.id AND l.next_send_at IS NOT NULL AND l.next_send_at <= $3::timestamptz
      ORDER BY l.next_send_at
      LIMIT c.n
        FOR UPDATE SKIP LOCKED
   ) l`);

/** Earlier sends of these leads, oldest first (threading of follow-ups). */
export const THREAD_HISTORY_SQL = prepared(`
  SELECT lead_id, message_id, subject FROM sent_emails WHERE lead_id = ANY($1::text[]) ORDER BY sent_at, id`);

/**
 * Every write of a claim in one statement: leads (claimed, pushed back, stopped),
 * mailbox gaps, variation counts, lead events. $5 now. A lead's DATA mark
 * (pending_data_at) belongs to its pending send and goes with it (a stop drops the send).
 */
export const APPLY_CLAIM_SQL = prepared(
  `
  WITH x AS (
    SELECT * FROM json_to_recordset($1::json) AS x(
      id text, next_send_at timestamptz, claimed_at timestamptz, email_account_id text, pending_send_id text,
      pending_variation_id text, status text, status_reason text, is_completed boolean)
  ),
  ul AS (
    UPDATE leads l
       SET next_send_at = x.next_send_at, claimed_at = x.claimed_at, email_account_id = x.email_account_id,
           pending_send_id = x.pending_send_id, pending_variation_id = x.pending_variation_id,
           status = x.status::"LeadStatus", status_reason = x.status_reason, is_completed = x.is_completed,
           pending_data_at = CASE WHEN x.pending_send_id IS NOT DISTINCT FROM l.pending_send_id THEN l.pending_data_at END,
           updated_at = $5::timestamptz
      FROM x WHERE l.id = x.id
    RETURNING 1
  ),
  um AS (
    UPDATE email_accounts e SET next_send_allowed_at = y.at
      FROM json_to_recordset($2::json) AS y(id text, at timestamptz) WHERE e.id = y.id
    RETURNING 1
  ),
  uv AS (
    UPDATE variations v SET assigned_count = v.assigned_count + z.n
      FROM json_to_recordset($3::json) AS z(id text, n int) WHERE v.id = z.id
    RETURNING 1
  ),
  ev AS (
    INSERT INTO lead_events (id, workspace_id, lead_id, campaign_id, type, data, occurred_at)
    SELECT e.id, e.workspace_id, e.lead_id, e.campaign_id, e.type, e.data::jsonb, $5::timestamptz
      FROM json_to_recordset($4::json) AS e(id text, workspace_id text, lead_id text, campaign_id text, type text, data json)
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM ul)::int AS leads, (SELECT count(*) FROM um)::int AS mailboxes,
         (SELECT count(*) FROM uv)::int AS variations, (SELECT count(*) FROM ev)::int AS events`,
  { jsonArgs: true },
);

/**
 * The DATA mark: written after the SMTP server accepted DATA, while the body goes out, and
 * committed before the body's end (the final "."), only while the claim still holds the lead
 * (the same pending send and the claim's own claimed_at: not taken over after its lease, not
 * stopped meanwhile), and while its campaign and its mailbox are ACTIVE (a campaign paused, or a
 * mailbox paused or disconnected, after the claim sends nothing more: a tick sending ahead holds
 * sends for up to SEND_AHEAD_MS, 2 minutes by default). A lead not marked: its claim is lost and the body must not be ended.
 * The mark renews the lease (a whole lease from now, next_send_at - claimed_at being the
 * claim's lease): a body that went out late in its lease, after a wait at the server, still has
 * time to be recorded, so a takeover records "outcome unknown" only for a worker that stopped.
 * One statement marks a batch of sends (a tick's sends reach DATA within a few ms of each
 * other: send-delivery.service.ts, createDataMarker); the ids of the leads marked come back.
 * $1 lead ids, $2 send ids, $3 the claims' claimed_at, $4 now.
 */
export const MARK_DATA_SQL = prepared(`
  UPDATE leads l SET pending_data_at = $4::timestamptz, next_send_at = $4::timestamptz + (l.next_send_at - l.claimed_at)
    FROM unnest($1::text[], $2::text[], $3::text[]::timestamptz[]) AS m(id, send_id, claimed_at)
   WHERE l.id = m.id AND l.pending_send_id = m.send_id AND l.claimed_at = m.claimed_at
     AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = l.campaign_id AND c.status = 'ACTIVE')
     AND EXISTS (SELECT 1 FROM email_accounts e WHERE e.id = l.email_account_id AND e.status = 'ACTIVE')
  RETURNING l.id`);

/**
 * Hands claimed sends that were not made back (a tick sending ahead whose worker stops, whose
 * mailbox failed on an earlier send of the tick, or whose send was cut off before its body ended:
 * the campaign or the mailbox paused): the lead is due again at its send time, no longer in
 * flight, and keeps its send id and variation (the retry sends the same e-mail, not as a takeover).
 * A first step is free to go from another mailbox. Only while this claim holds the lead (the same
 * pending send and claimed_at: not taken over, not stopped) and no body went out (no DATA mark).
 * $1 lead ids, $2 send ids, $3 the claims' claimed_at, $4 due times, $5 now.
 */
export const RELEASE_CLAIMS_SQL = prepared(`
  UPDATE leads l SET claimed_at = NULL, next_send_at = r.at, updated_at = $5::timestamptz,
         email_account_id = CASE WHEN l.current_step = 0 THEN NULL ELSE l.email_account_id END
    FROM unnest($1::text[], $2::text[], $3::text[]::timestamptz[], $4::text[]::timestamptz[]) AS r(id, send_id, claimed_at, at)
   WHERE l.id = r.id AND l.pending_send_id = r.send_id AND l.claimed_at = r.claimed_at AND l.pending_data_at IS NULL
  RETURNING l.id`);

/**
 * Records an accepted send and moves the lead on, only if the lead still holds this
 * claim (pending_send_id): a lead stopped meanwhile (unsubscribed, replied, enrolled)
 * keeps its stop. Idempotent on the Message-ID. $20: recorded without the server's
 * answer (outcome unknown). As RECORD_SENTS_SQL, the rows it refers to are held until it
 * commits (referencedRowsCtes): `gone` when its lead or campaign was deleted (nothing written),
 * and recorded without its mailbox or variation when those were.
 */
export const RECORD_SENT_SQL = prepared(`
  WITH ${referencedRowsCtes({ mailboxes: '$7::text', campaigns: '$4::text', variations: '$9::text', leads: '$6::text' })},
  ins AS (
    INSERT INTO sent_emails (id, organization_id, workspace_id, campaign_id, parent_campaign_id, lead_id,
                             email_account_id, step, variation_id, variation_label, message_id, subject, body,
                             is_text, sent_at, bounced_at, outcome_unknown)
    SELECT $1, $2, $3, $4, $5, $6, CASE WHEN $7::text = ANY(boxes.ids) THEN $7::text END, $8, CASE WHEN $9::text = ANY(vars.ids) THEN $9::text END,
           $10, $11, $12, $13, $14, $15::timestamptz, $16::timestamptz, $20::boolean
      FROM boxes, camps, vars
     WHERE $4::text = ANY(camps.ids) AND EXISTS (SELECT 1 FROM held)
    ON CONFLICT (workspace_id, message_id) DO NOTHING
    RETURNING id
  ),
  ul AS (
    UPDATE leads
       SET current_step = GREATEST(current_step, $8), last_sent_at = $15::timestamptz, claimed_at = NULL,
           pending_send_id = NULL, pending_variation_id = NULL, pending_data_at = NULL, send_attempts = 0,
           status = CASE WHEN $17::text IS NOT NULL THEN $17::text::"LeadStatus"
                         WHEN status IN ('NOT_CONTACTED', 'CONTACTED')
                           THEN (CASE WHEN $18::timestamptz IS NULL THEN 'COMPLETED' ELSE 'CONTACTED' END)::"LeadStatus"
                         ELSE status END,
           status_reason = CASE WHEN $17::text IS NOT NULL THEN $19 ELSE status_reason END,
           bounce_msg = CASE WHEN $17::text = 'BOUNCED' THEN $19 ELSE bounce_msg END,
           is_completed = is_completed OR $18::timestamptz IS NULL OR $17::text IS NOT NULL,
           next_send_at = CASE WHEN $17::text IS NOT NULL OR $18::timestamptz IS NULL OR is_completed
                                 OR status NOT IN ('NOT_CONTACTED', 'CONTACTED', 'REPLIED') THEN NULL
                               ELSE $18::timestamptz END,
           updated_at = $15::timestamptz
     WHERE id = $6 AND pending_send_id = $1 AND id IN (SELECT id FROM held)
    RETURNING status::text AS status
  )
  SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT status FROM ul) AS lead_status,
         ($4::text = ANY(camps.ids) AND EXISTS (SELECT 1 FROM held)) IS NOT TRUE AS gone
    FROM camps`);

/**
 * The end of a tick, in one statement: the campaigns it sent from take its time as their last
 * send (written once per tick for all its sends: written per send, the parallel sends of one
 * campaign would queue on its row; never moved back), and ACTIVE campaigns with nothing left to
 * send become COMPLETED: a parent campaign once it has leads and none is unfinished; a
 * subsequence also only once its parent is done (until then new leads may still be enrolled into
 * it). One UPDATE for both (a statement changes a row once), of the rows it changes, found by key.
 * Returns the campaigns it touched, `completed` for those it completed.
 * $1 workspace ids or null (all), $2 now (the send time), $3 the campaigns the tick sent from.
 */
export const FINISH_TICK_SQL = prepared(`
  WITH done AS (
    SELECT c.id FROM campaigns c
     WHERE c.status = 'ACTIVE' AND ($1::text[] IS NULL OR c.workspace_id = ANY($1::text[]))
       AND EXISTS (SELECT 1 FROM leads l WHERE l.campaign_id = c.id)
       AND NOT EXISTS (SELECT 1 FROM leads l WHERE l.campaign_id = c.id AND l.next_send_at IS NOT NULL)
       AND (c.type = 'parent' OR EXISTS (SELECT 1 FROM campaigns p WHERE p.id = c.parent_id AND p.status IN ('COMPLETED', 'ARCHIVED')))
  ),
  t AS (
    SELECT id, bool_or(done) AS done, bool_or(NOT done) AS sent
      FROM (SELECT id, true AS done FROM done UNION ALL SELECT unnest($3::text[]), false) x
     GROUP BY id
  )
  UPDATE campaigns c
     SET last_lead_sent_at = CASE WHEN t.sent AND (c.last_lead_sent_at IS NULL OR c.last_lead_sent_at < $2::timestamptz)
                                  THEN $2::timestamptz ELSE c.last_lead_sent_at END,
         status = CASE WHEN t.done AND c.status = 'ACTIVE' THEN 'COMPLETED' ELSE c.status END,
         updated_at = CASE WHEN t.done AND c.status = 'ACTIVE' THEN $2::timestamptz ELSE c.updated_at END
    FROM t
   WHERE c.id = t.id
     AND ((t.done AND c.status = 'ACTIVE') OR (t.sent AND (c.last_lead_sent_at IS NULL OR c.last_lead_sent_at < $2::timestamptz)))
  RETURNING c.id, c.name, (t.done AND c.status = 'COMPLETED') AS completed`);

// --- the rows those statements return ----------------------------------------------------

export interface VariationRow {
  id: string;
  label: string;
  subject: string;
  body: string;
  is_active: boolean;
  is_deleted: boolean;
}

export interface CampaignRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  parent_id: string | null;
  type: 'parent' | 'subseq';
  name: string;
  daily_limit: number;
  daily_limit_new_lead: number | null;
  send_as_txt: boolean;
  open_tracking: boolean;
  unsubscribe_link: boolean;
  stop_on_lead_replied: boolean;
  pause_on_bounce_rate: boolean;
  bounce_rate_limit: number;
  schedule: { days: CampaignSchedule['days']; timezone: string; timing: CampaignSchedule['timing'] } | null;
  start_date: string | null;
  end_date: string | null;
  workspace_timezone: string;
  unsubscribe_text: string | null;
  /** The workspace's additional fields: name to default value. */
  additional_fields: Record<string, string>;
  /** Whether an ACTIVE webhook listens for this campaign's EMAIL_SENT events. */
  email_sent_webhook: boolean;
  mailbox_ids: string[];
  steps: { step: number; wait_time: number; variations: VariationRow[] }[];
}

/** What choosing a claim's mailboxes needs of each open mailbox (CLAIM_MAILBOXES_SQL). */
export type MailboxState = Pick<MailboxRow, 'id' | 'status' | 'daily_limit' | 'next_send_allowed_at'>;

export interface MailboxRow {
  id: string;
  workspace_id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: string;
  daily_limit: number;
  sending_gap: number;
  next_send_allowed_at: Date | null;
  smtp_host: string;
  smtp_port: number;
  smtp_username: string;
  smtp_password_enc: string;
  signature: string;
  reply_to: string | null;
  updated_at: Date;
  /** PASSWORD or XOAUTH2 (the access token is fetched at send time). */
  auth_type: string;
}

export interface LeadRow {
  id: string;
  campaign_id: string;
  workspace_id: string;
  current_step: number;
  status: string;
  is_completed: boolean;
  email_account_id: string | null;
  email: string;
  email_normalized: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  company_website: string | null;
  job_title: string | null;
  phone_number: string | null;
  address_line: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  country_code: string | null;
  network_person_url: string | null;
  network_company_url: string | null;
  custom_variables: Record<string, unknown> | null;
  pending_send_id: string | null;
  pending_variation_id: string | null;
  send_attempts: number;
  claimed_at: Date | null;
  pending_data_at: Date | null;
  source_lead_id: string | null;
  next_send_at: Date;
  blocked: boolean;
}
