-- Daily send counts (docs/database.md, "Daily send counts"): one row per mailbox and per
-- campaign with its sends on its current day, kept by triggers, so a claim reads them instead
-- of counting the day's sends. Hand-written after the tables: the triggers and the backfill.
-- The functions' bodies are E'' strings whose semicolons are written \073 (the PostgreSQL
-- driver adapter splits a migration at every semicolon), so no semicolon appears in a comment.

-- CreateTable
CREATE TABLE "mailbox_day_counts" (
    "email_account_id" TEXT NOT NULL,
    "day_start" TIMESTAMPTZ(3) NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "warmup_sent" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "mailbox_day_counts_pkey" PRIMARY KEY ("email_account_id")
);

-- CreateTable
CREATE TABLE "campaign_day_counts" (
    "campaign_id" TEXT NOT NULL,
    "day_start" TIMESTAMPTZ(3) NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "new_sent" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_day_counts_pkey" PRIMARY KEY ("campaign_id")
);

-- AddForeignKey
ALTER TABLE "mailbox_day_counts" ADD CONSTRAINT "mailbox_day_counts_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_day_counts" ADD CONSTRAINT "campaign_day_counts_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A recorded send counts on its mailbox's day (its workspace's zone) and its campaign's day
-- (its schedule's zone, else the workspace's). A row of an older day is reset by the first
-- send of a newer one. A plain row trigger, not a deferred constraint trigger: Prisma's schema
-- engine cannot describe a database holding a constraint trigger (it panics reading its
-- constraint type), which would break schema diffs and new migrations.
CREATE FUNCTION sent_emails_day_counts() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  d timestamptz\073
BEGIN
  IF NEW.email_account_id IS NOT NULL THEN
    SELECT date_trunc(''day'', NEW.sent_at, w.timezone) INTO d
      FROM email_accounts e JOIN workspaces w ON w.id = e.workspace_id WHERE e.id = NEW.email_account_id\073
    IF d IS NOT NULL THEN
      INSERT INTO mailbox_day_counts AS m (email_account_id, day_start, sent) VALUES (NEW.email_account_id, d, 1)
      ON CONFLICT (email_account_id) DO UPDATE
         SET sent = CASE WHEN m.day_start = EXCLUDED.day_start THEN m.sent + 1 WHEN m.day_start < EXCLUDED.day_start THEN 1 ELSE m.sent END,
             warmup_sent = CASE WHEN m.day_start < EXCLUDED.day_start THEN 0 ELSE m.warmup_sent END,
             day_start = GREATEST(m.day_start, EXCLUDED.day_start)\073
    END IF\073
  END IF\073
  SELECT date_trunc(''day'', NEW.sent_at, COALESCE(c.schedule->>''timezone'', w.timezone)) INTO d
    FROM campaigns c JOIN workspaces w ON w.id = c.workspace_id WHERE c.id = NEW.campaign_id\073
  IF d IS NOT NULL THEN
    INSERT INTO campaign_day_counts AS k (campaign_id, day_start, sent, new_sent) VALUES (NEW.campaign_id, d, 1, (NEW.step = 1)::int)
    ON CONFLICT (campaign_id) DO UPDATE
       SET sent = CASE WHEN k.day_start = EXCLUDED.day_start THEN k.sent + 1 WHEN k.day_start < EXCLUDED.day_start THEN 1 ELSE k.sent END,
           new_sent = CASE WHEN k.day_start = EXCLUDED.day_start THEN k.new_sent + EXCLUDED.new_sent
                           WHEN k.day_start < EXCLUDED.day_start THEN EXCLUDED.new_sent ELSE k.new_sent END,
           day_start = GREATEST(k.day_start, EXCLUDED.day_start)\073
  END IF\073
  RETURN NULL\073
END';

CREATE TRIGGER sent_emails_day_counts AFTER INSERT ON sent_emails
  FOR EACH ROW EXECUTE FUNCTION sent_emails_day_counts();

-- A warmup e-mail counts on its sender's day, and one deleted (its send failed) is given back.
CREATE FUNCTION warmup_messages_day_counts() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  d timestamptz\073
BEGIN
  IF TG_OP = ''INSERT'' THEN
    SELECT date_trunc(''day'', NEW.sent_at, w.timezone) INTO d
      FROM email_accounts e JOIN workspaces w ON w.id = e.workspace_id WHERE e.id = NEW.sender_account_id\073
    IF d IS NOT NULL THEN
      INSERT INTO mailbox_day_counts AS m (email_account_id, day_start, warmup_sent) VALUES (NEW.sender_account_id, d, 1)
      ON CONFLICT (email_account_id) DO UPDATE
         SET warmup_sent = CASE WHEN m.day_start = EXCLUDED.day_start THEN m.warmup_sent + 1 WHEN m.day_start < EXCLUDED.day_start THEN 1 ELSE m.warmup_sent END,
             sent = CASE WHEN m.day_start < EXCLUDED.day_start THEN 0 ELSE m.sent END,
             day_start = GREATEST(m.day_start, EXCLUDED.day_start)\073
    END IF\073
  ELSE
    SELECT date_trunc(''day'', OLD.sent_at, w.timezone) INTO d
      FROM email_accounts e JOIN workspaces w ON w.id = e.workspace_id WHERE e.id = OLD.sender_account_id\073
    UPDATE mailbox_day_counts SET warmup_sent = GREATEST(warmup_sent - 1, 0)
     WHERE email_account_id = OLD.sender_account_id AND day_start = d\073
  END IF\073
  RETURN NULL\073
END';

CREATE TRIGGER warmup_messages_day_counts AFTER INSERT OR DELETE ON warmup_messages
  FOR EACH ROW EXECUTE FUNCTION warmup_messages_day_counts();

-- Backfill: each mailbox's and campaign's latest day with sends (today for those sending now).
INSERT INTO mailbox_day_counts (email_account_id, day_start, sent, warmup_sent)
SELECT e.id, d.day,
       (SELECT count(*) FROM sent_emails s WHERE s.email_account_id = e.id AND s.sent_at >= d.day),
       (SELECT count(*) FROM warmup_messages m WHERE m.sender_account_id = e.id AND m.sent_at >= d.day)
  FROM email_accounts e JOIN workspaces w ON w.id = e.workspace_id
 CROSS JOIN LATERAL (SELECT date_trunc('day', GREATEST((SELECT max(s.sent_at) FROM sent_emails s WHERE s.email_account_id = e.id),
                                                       (SELECT max(m.sent_at) FROM warmup_messages m WHERE m.sender_account_id = e.id)), w.timezone) AS day) d
 WHERE d.day IS NOT NULL;

INSERT INTO campaign_day_counts (campaign_id, day_start, sent, new_sent)
SELECT c.id, d.day,
       (SELECT count(*) FROM sent_emails s WHERE s.campaign_id = c.id AND s.sent_at >= d.day),
       (SELECT count(*) FROM sent_emails s WHERE s.campaign_id = c.id AND s.sent_at >= d.day AND s.step = 1)
  FROM campaigns c JOIN workspaces w ON w.id = c.workspace_id
 CROSS JOIN LATERAL (SELECT date_trunc('day', (SELECT max(s.sent_at) FROM sent_emails s WHERE s.campaign_id = c.id),
                                       COALESCE(c.schedule->>'timezone', w.timezone)) AS day) d
 WHERE d.day IS NOT NULL;
