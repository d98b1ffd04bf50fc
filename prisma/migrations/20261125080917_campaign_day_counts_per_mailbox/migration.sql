-- AlterTable
-- Each campaign's existing row keeps its count under the mailbox '' (see below).
ALTER TABLE "campaign_day_counts" DROP CONSTRAINT "campaign_day_counts_pkey",
ADD COLUMN     "email_account_id" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "campaign_day_counts_pkey" PRIMARY KEY ("campaign_id", "email_account_id");

ALTER TABLE "campaign_day_counts" ALTER COLUMN "email_account_id" DROP DEFAULT;

-- Campaign day counts per (campaign, mailbox) (docs/database.md, "Daily send counts"): every
-- recorded send of a campaign updated its one row, so parallel recordings of a campaign took
-- turns on that row for the rest of their transactions. Keyed by the sending mailbox too, the
-- recordings of different mailboxes touch different rows, and the claim sums a campaign's rows
-- of today. The row each campaign had keeps its count, under the mailbox '' (what was counted
-- before, and sends without a mailbox): it counts while its day is today.
-- Bodies are E'' strings with \073 for each semicolon (the PostgreSQL driver adapter splits a
-- migration at every semicolon), so no semicolon appears in a comment.

-- A count row's new value when a send of day p_new_day adds p_add to it: added on the same day,
-- started again on a newer day, kept for an older one (a send recorded late). Shared by every
-- day count upsert, the mailboxes' and the campaigns'.
CREATE FUNCTION day_count_add(p_day timestamptz, p_count integer, p_new_day timestamptz, p_add integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS E'
  SELECT CASE WHEN p_day = p_new_day THEN p_count + p_add WHEN p_day < p_new_day THEN p_add ELSE p_count END';

-- A mailbox's day at an instant: midnight in its workspace's zone (null for an unknown mailbox).
CREATE FUNCTION mailbox_day_start(p_mailbox text, p_at timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS E'
  SELECT date_trunc(''day'', p_at, w.timezone) FROM email_accounts e JOIN workspaces w ON w.id = e.workspace_id WHERE e.id = p_mailbox';

-- Counts campaign sends (p_sent) and warmup e-mails (p_warmup) of a mailbox sent at p_at: the
-- upsert both the sent_emails and the warmup_messages triggers make.
CREATE FUNCTION mailbox_day_counts_add(p_mailbox text, p_at timestamptz, p_sent integer, p_warmup integer) RETURNS void LANGUAGE sql AS E'
  INSERT INTO mailbox_day_counts AS m (email_account_id, day_start, sent, warmup_sent)
  SELECT p_mailbox, d.day, p_sent, p_warmup FROM (SELECT mailbox_day_start(p_mailbox, p_at) AS day) d WHERE d.day IS NOT NULL
  ON CONFLICT (email_account_id) DO UPDATE
     SET sent = day_count_add(m.day_start, m.sent, EXCLUDED.day_start, EXCLUDED.sent),
         warmup_sent = day_count_add(m.day_start, m.warmup_sent, EXCLUDED.day_start, EXCLUDED.warmup_sent),
         day_start = GREATEST(m.day_start, EXCLUDED.day_start)';

-- A recorded send counts on its mailbox's day and on its campaign's day (its schedule's zone,
-- else the workspace's), in the campaign's row of that mailbox.
CREATE OR REPLACE FUNCTION sent_emails_day_counts() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW.email_account_id IS NOT NULL THEN
    PERFORM mailbox_day_counts_add(NEW.email_account_id, NEW.sent_at, 1, 0)\073
  END IF\073
  INSERT INTO campaign_day_counts AS k (campaign_id, email_account_id, day_start, sent, new_sent)
  SELECT c.id, COALESCE(NEW.email_account_id, ''''), date_trunc(''day'', NEW.sent_at, COALESCE(c.schedule->>''timezone'', w.timezone)),
         1, (NEW.step = 1)::int
    FROM campaigns c JOIN workspaces w ON w.id = c.workspace_id WHERE c.id = NEW.campaign_id
  ON CONFLICT (campaign_id, email_account_id) DO UPDATE
     SET sent = day_count_add(k.day_start, k.sent, EXCLUDED.day_start, EXCLUDED.sent),
         new_sent = day_count_add(k.day_start, k.new_sent, EXCLUDED.day_start, EXCLUDED.new_sent),
         day_start = GREATEST(k.day_start, EXCLUDED.day_start)\073
  RETURN NULL\073
END';

-- A warmup e-mail counts on its sender's day, and one deleted (its send failed) is given back.
CREATE OR REPLACE FUNCTION warmup_messages_day_counts() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM mailbox_day_counts_add(NEW.sender_account_id, NEW.sent_at, 0, 1)\073
  ELSE
    UPDATE mailbox_day_counts SET warmup_sent = GREATEST(warmup_sent - 1, 0)
     WHERE email_account_id = OLD.sender_account_id AND day_start = mailbox_day_start(OLD.sender_account_id, OLD.sent_at)\073
  END IF\073
  RETURN NULL\073
END';
