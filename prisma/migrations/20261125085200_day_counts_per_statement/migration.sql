-- The daily send counts (docs/database.md, "Daily send counts") once per statement: the row
-- trigger upserted a count row for every send, and a statement of many sends of one campaign
-- (an import, the benchmark's seed) updated that row once per send in one transaction, a chain
-- of row versions each update walked: 1M sends ran for over half an hour. A statement now adds,
-- per count row, the sends of the newest day it holds (day_count_add: same day adds, a newer
-- day starts again, an older one is kept), which is what the sends one by one would leave, in
-- one upsert per row, in key order (two statements at once take their rows in the same order).
-- Bodies are E'' strings with \073 for each semicolon (the PostgreSQL driver adapter splits a
-- migration at every semicolon), so no semicolon appears in a comment.

CREATE OR REPLACE FUNCTION sent_emails_day_counts() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  WITH r AS (
         SELECT n.email_account_id, date_trunc(''day'', n.sent_at, w.timezone) AS day
           FROM new_rows n JOIN email_accounts e ON e.id = n.email_account_id JOIN workspaces w ON w.id = e.workspace_id),
       newest AS (SELECT email_account_id, max(day) AS day FROM r GROUP BY email_account_id)
  INSERT INTO mailbox_day_counts AS m (email_account_id, day_start, sent, warmup_sent)
  SELECT newest.email_account_id, newest.day, count(*)::int, 0
    FROM newest JOIN r ON r.email_account_id = newest.email_account_id AND r.day = newest.day
   GROUP BY newest.email_account_id, newest.day
   ORDER BY newest.email_account_id
  ON CONFLICT (email_account_id) DO UPDATE
     SET sent = day_count_add(m.day_start, m.sent, EXCLUDED.day_start, EXCLUDED.sent),
         warmup_sent = day_count_add(m.day_start, m.warmup_sent, EXCLUDED.day_start, 0),
         day_start = GREATEST(m.day_start, EXCLUDED.day_start)\073
  WITH r AS (
         SELECT n.campaign_id, COALESCE(n.email_account_id, '''') AS email_account_id,
                date_trunc(''day'', n.sent_at, COALESCE(c.schedule->>''timezone'', w.timezone)) AS day, (n.step = 1)::int AS fresh
           FROM new_rows n JOIN campaigns c ON c.id = n.campaign_id JOIN workspaces w ON w.id = c.workspace_id),
       newest AS (SELECT campaign_id, email_account_id, max(day) AS day FROM r GROUP BY campaign_id, email_account_id)
  INSERT INTO campaign_day_counts AS k (campaign_id, email_account_id, day_start, sent, new_sent)
  SELECT newest.campaign_id, newest.email_account_id, newest.day, count(*)::int, sum(r.fresh)::int
    FROM newest JOIN r ON r.campaign_id = newest.campaign_id AND r.email_account_id = newest.email_account_id AND r.day = newest.day
   GROUP BY newest.campaign_id, newest.email_account_id, newest.day
   ORDER BY newest.campaign_id, newest.email_account_id
  ON CONFLICT (campaign_id, email_account_id) DO UPDATE
     SET sent = day_count_add(k.day_start, k.sent, EXCLUDED.day_start, EXCLUDED.sent),
         new_sent = day_count_add(k.day_start, k.new_sent, EXCLUDED.day_start, EXCLUDED.new_sent),
         day_start = GREATEST(k.day_start, EXCLUDED.day_start)\073
  RETURN NULL\073
END';

DROP TRIGGER sent_emails_day_counts ON sent_emails;

CREATE TRIGGER sent_emails_day_counts AFTER INSERT ON sent_emails REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sent_emails_day_counts();
