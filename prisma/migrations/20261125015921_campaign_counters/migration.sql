-- Campaign counters (docs/database.md, "Campaign counters"). Hand-written after the tables:
-- the triggers that keep them and the backfill of existing data. The functions' bodies are
-- E'' strings whose semicolons are written \073: the PostgreSQL driver adapter applies a
-- migration statement by statement, split at every semicolon of the script (dollar quotes
-- included), so no semicolon may appear inside a statement, nor in a comment.

-- CreateTable
CREATE TABLE "campaign_counters" (
    "campaign_id" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "workspace_id" TEXT NOT NULL,
    "lead_count" INTEGER NOT NULL DEFAULT 0,
    "completed_lead_count" INTEGER NOT NULL DEFAULT 0,
    "finished_lead_count" INTEGER NOT NULL DEFAULT 0,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "opened_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_count" INTEGER NOT NULL DEFAULT 0,
    "contacted_count" INTEGER NOT NULL DEFAULT 0,
    "unique_opened_count" INTEGER NOT NULL DEFAULT 0,
    "replied_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_lead_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_counters_pkey" PRIMARY KEY ("campaign_id","workspace_id","label")
);

-- CreateTable
CREATE TABLE "campaign_counter_deltas" (
    "id" BIGSERIAL NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "workspace_id" TEXT NOT NULL,
    "lead_count" INTEGER NOT NULL DEFAULT 0,
    "completed_lead_count" INTEGER NOT NULL DEFAULT 0,
    "finished_lead_count" INTEGER NOT NULL DEFAULT 0,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "opened_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_count" INTEGER NOT NULL DEFAULT 0,
    "contacted_count" INTEGER NOT NULL DEFAULT 0,
    "unique_opened_count" INTEGER NOT NULL DEFAULT 0,
    "replied_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_lead_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_counter_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "campaign_counter_deltas_campaign_id_idx" ON "campaign_counter_deltas"("campaign_id");

-- Sends: every statement appends its change per campaign (and per label for replied leads).
CREATE FUNCTION sent_emails_counters_insert() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- One writer at a time per lead: a distinct-lead counter compares the lead''s sends before and
  -- after the statement, so a concurrent statement on the same lead waits here for this one''s
  -- commit, and its next query (a new snapshot) sees this one''s sends.
  PERFORM 1 FROM leads WHERE id IN (SELECT lead_id FROM new_rows) ORDER BY id FOR NO KEY UPDATE\073
  WITH o AS (SELECT campaign_id, workspace_id, lead_id, opened_at, replied_at, bounced_at, unsubscribed_at FROM sent_emails WHERE false),
       n AS (SELECT campaign_id, workspace_id, lead_id, opened_at, replied_at, bounced_at, unsubscribed_at FROM new_rows),
       -- Per (campaign, lead): the statement''s change in sends, opened, replied, bounced and unsubscribed sends.
       d AS (
         SELECT campaign_id, workspace_id, lead_id, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
           FROM (SELECT campaign_id, workspace_id, lead_id, 1 AS k, (opened_at IS NOT NULL)::int AS op, (replied_at IS NOT NULL)::int AS rp,
                        (bounced_at IS NOT NULL)::int AS bo, (unsubscribed_at IS NOT NULL)::int AS un FROM n
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, -1, -(opened_at IS NOT NULL)::int, -(replied_at IS NOT NULL)::int,
                        -(bounced_at IS NOT NULL)::int, -(unsubscribed_at IS NOT NULL)::int FROM o) x
          GROUP BY campaign_id, workspace_id, lead_id),
       -- The same counts now, over every send of those leads (sent_emails_lead_id_sent_at_id_idx).
       a AS (
         SELECT s.campaign_id, s.lead_id, count(*)::int AS k, count(s.opened_at)::int AS op, count(s.replied_at)::int AS rp,
                count(s.bounced_at)::int AS bo, count(s.unsubscribed_at)::int AS un
           FROM sent_emails s
          WHERE s.lead_id IN (SELECT lead_id FROM d)
          GROUP BY s.campaign_id, s.lead_id),
       -- Before = now - change: a distinct-lead counter moves when a lead''s count crosses zero.
       f AS (
         SELECT d.campaign_id, d.workspace_id, d.lead_id, d.k, d.op, d.bo,
                (coalesce(a.k, 0) > 0)::int - (coalesce(a.k, 0) - d.k > 0)::int AS contacted,
                (coalesce(a.op, 0) > 0)::int - (coalesce(a.op, 0) - d.op > 0)::int AS uopened,
                (coalesce(a.rp, 0) > 0)::int - (coalesce(a.rp, 0) - d.rp > 0)::int AS replied,
                (coalesce(a.bo, 0) > 0)::int - (coalesce(a.bo, 0) - d.bo > 0)::int AS blead,
                (coalesce(a.un, 0) > 0)::int - (coalesce(a.un, 0) - d.un > 0)::int AS unsub
           FROM d LEFT JOIN a ON a.campaign_id = d.campaign_id AND a.lead_id = d.lead_id),
       totals AS (
         INSERT INTO campaign_counter_deltas (campaign_id, workspace_id, sent_count, opened_count, bounced_count, contacted_count,
                                              unique_opened_count, replied_count, bounced_lead_count, unsubscribed_count)
         SELECT campaign_id, workspace_id, sum(k), sum(op), sum(bo), sum(contacted), sum(uopened), sum(replied), sum(blead), sum(unsub)
           FROM f
          WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = f.campaign_id)
          GROUP BY campaign_id, workspace_id
         HAVING sum(abs(k)) + sum(abs(op)) + sum(abs(bo)) + sum(abs(contacted)) + sum(abs(uopened)) + sum(abs(replied)) + sum(abs(blead)) + sum(abs(unsub)) > 0)
  -- Replied leads by their current label. A lead deleted meanwhile is not found: its label
  -- rows were taken off by leads_counters_before_delete, before its sends went.
  INSERT INTO campaign_counter_deltas (campaign_id, label, workspace_id, replied_count)
  SELECT f.campaign_id, l.label, f.workspace_id, sum(f.replied)
    FROM f JOIN leads l ON l.id = f.lead_id
   WHERE f.replied <> 0 AND l.label IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = f.campaign_id)
   GROUP BY f.campaign_id, l.label, f.workspace_id
  HAVING sum(f.replied) <> 0\073
  RETURN NULL\073
END
';
CREATE FUNCTION sent_emails_counters_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- One writer at a time per lead: a distinct-lead counter compares the lead''s sends before and
  -- after the statement, so a concurrent statement on the same lead waits here for this one''s
  -- commit, and its next query (a new snapshot) sees this one''s sends.
  PERFORM 1 FROM leads WHERE id IN (SELECT lead_id FROM old_rows UNION SELECT lead_id FROM new_rows) ORDER BY id FOR NO KEY UPDATE\073
  WITH o AS (SELECT campaign_id, workspace_id, lead_id, opened_at, replied_at, bounced_at, unsubscribed_at FROM old_rows),
       n AS (SELECT campaign_id, workspace_id, lead_id, opened_at, replied_at, bounced_at, unsubscribed_at FROM new_rows),
       -- Per (campaign, lead): the statement''s change in sends, opened, replied, bounced and unsubscribed sends.
       d AS (
         SELECT campaign_id, workspace_id, lead_id, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
           FROM (SELECT campaign_id, workspace_id, lead_id, 1 AS k, (opened_at IS NOT NULL)::int AS op, (replied_at IS NOT NULL)::int AS rp,
                        (bounced_at IS NOT NULL)::int AS bo, (unsubscribed_at IS NOT NULL)::int AS un FROM n
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, -1, -(opened_at IS NOT NULL)::int, -(replied_at IS NOT NULL)::int,
                        -(bounced_at IS NOT NULL)::int, -(unsubscribed_at IS NOT NULL)::int FROM o) x
          GROUP BY campaign_id, workspace_id, lead_id),
       -- The same counts now, over every send of those leads (sent_emails_lead_id_sent_at_id_idx).
       a AS (
         SELECT s.campaign_id, s.lead_id, count(*)::int AS k, count(s.opened_at)::int AS op, count(s.replied_at)::int AS rp,
                count(s.bounced_at)::int AS bo, count(s.unsubscribed_at)::int AS un
           FROM sent_emails s
          WHERE s.lead_id IN (SELECT lead_id FROM d)
          GROUP BY s.campaign_id, s.lead_id),
       -- Before = now - change: a distinct-lead counter moves when a lead''s count crosses zero.
       f AS (
         SELECT d.campaign_id, d.workspace_id, d.lead_id, d.k, d.op, d.bo,
                (coalesce(a.k, 0) > 0)::int - (coalesce(a.k, 0) - d.k > 0)::int AS contacted,
                (coalesce(a.op, 0) > 0)::int - (coalesce(a.op, 0) - d.op > 0)::int AS uopened,
                (coalesce(a.rp, 0) > 0)::int - (coalesce(a.rp, 0) - d.rp > 0)::int AS replied,
                (coalesce(a.bo, 0) > 0)::int - (coalesce(a.bo, 0) - d.bo > 0)::int AS blead,
                (coalesce(a.un, 0) > 0)::int - (coalesce(a.un, 0) - d.un > 0)::int AS unsub
           FROM d LEFT JOIN a ON a.campaign_id = d.campaign_id AND a.lead_id = d.lead_id),
       totals AS (
         INSERT INTO campaign_counter_deltas (campaign_id, workspace_id, sent_count, opened_count, bounced_count, contacted_count,
                                              unique_opened_count, replied_count, bounced_lead_count, unsubscribed_count)
         SELECT campaign_id, workspace_id, sum(k), sum(op), sum(bo), sum(contacted), sum(uopened), sum(replied), sum(blead), sum(unsub)
           FROM f
          WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = f.campaign_id)
          GROUP BY campaign_id, workspace_id
         HAVING sum(abs(k)) + sum(abs(op)) + sum(abs(bo)) + sum(abs(contacted)) + sum(abs(uopened)) + sum(abs(replied)) + sum(abs(blead)) + sum(abs(unsub)) > 0)
  -- Replied leads by their current label. A lead deleted meanwhile is not found: its label
  -- rows were taken off by leads_counters_before_delete, before its sends went.
  INSERT INTO campaign_counter_deltas (campaign_id, label, workspace_id, replied_count)
  SELECT f.campaign_id, l.label, f.workspace_id, sum(f.replied)
    FROM f JOIN leads l ON l.id = f.lead_id
   WHERE f.replied <> 0 AND l.label IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = f.campaign_id)
   GROUP BY f.campaign_id, l.label, f.workspace_id
  HAVING sum(f.replied) <> 0\073
  RETURN NULL\073
END
';
CREATE FUNCTION sent_emails_counters_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- One writer at a time per lead: a distinct-lead counter compares the lead''s sends before and
  -- after the statement, so a concurrent statement on the same lead waits here for this one''s
  -- commit, and its next query (a new snapshot) sees this one''s sends.
  PERFORM 1 FROM leads WHERE id IN (SELECT lead_id FROM old_rows) ORDER BY id FOR NO KEY UPDATE\073
  WITH o AS (SELECT campaign_id, workspace_id, lead_id, opened_at, replied_at, bounced_at, unsubscribed_at FROM old_rows),
       n AS (SELECT campaign_id, workspace_id, lead_id, opened_at, replied_at, bounced_at, unsubscribed_at FROM sent_emails WHERE false),
       -- Per (campaign, lead): the statement''s change in sends, opened, replied, bounced and unsubscribed sends.
       d AS (
         SELECT campaign_id, workspace_id, lead_id, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
           FROM (SELECT campaign_id, workspace_id, lead_id, 1 AS k, (opened_at IS NOT NULL)::int AS op, (replied_at IS NOT NULL)::int AS rp,
                        (bounced_at IS NOT NULL)::int AS bo, (unsubscribed_at IS NOT NULL)::int AS un FROM n
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, -1, -(opened_at IS NOT NULL)::int, -(replied_at IS NOT NULL)::int,
                        -(bounced_at IS NOT NULL)::int, -(unsubscribed_at IS NOT NULL)::int FROM o) x
          GROUP BY campaign_id, workspace_id, lead_id),
       -- The same counts now, over every send of those leads (sent_emails_lead_id_sent_at_id_idx).
       a AS (
         SELECT s.campaign_id, s.lead_id, count(*)::int AS k, count(s.opened_at)::int AS op, count(s.replied_at)::int AS rp,
                count(s.bounced_at)::int AS bo, count(s.unsubscribed_at)::int AS un
           FROM sent_emails s
          WHERE s.lead_id IN (SELECT lead_id FROM d)
          GROUP BY s.campaign_id, s.lead_id),
       -- Before = now - change: a distinct-lead counter moves when a lead''s count crosses zero.
       f AS (
         SELECT d.campaign_id, d.workspace_id, d.lead_id, d.k, d.op, d.bo,
                (coalesce(a.k, 0) > 0)::int - (coalesce(a.k, 0) - d.k > 0)::int AS contacted,
                (coalesce(a.op, 0) > 0)::int - (coalesce(a.op, 0) - d.op > 0)::int AS uopened,
                (coalesce(a.rp, 0) > 0)::int - (coalesce(a.rp, 0) - d.rp > 0)::int AS replied,
                (coalesce(a.bo, 0) > 0)::int - (coalesce(a.bo, 0) - d.bo > 0)::int AS blead,
                (coalesce(a.un, 0) > 0)::int - (coalesce(a.un, 0) - d.un > 0)::int AS unsub
           FROM d LEFT JOIN a ON a.campaign_id = d.campaign_id AND a.lead_id = d.lead_id),
       totals AS (
         INSERT INTO campaign_counter_deltas (campaign_id, workspace_id, sent_count, opened_count, bounced_count, contacted_count,
                                              unique_opened_count, replied_count, bounced_lead_count, unsubscribed_count)
         SELECT campaign_id, workspace_id, sum(k), sum(op), sum(bo), sum(contacted), sum(uopened), sum(replied), sum(blead), sum(unsub)
           FROM f
          WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = f.campaign_id)
          GROUP BY campaign_id, workspace_id
         HAVING sum(abs(k)) + sum(abs(op)) + sum(abs(bo)) + sum(abs(contacted)) + sum(abs(uopened)) + sum(abs(replied)) + sum(abs(blead)) + sum(abs(unsub)) > 0)
  -- Replied leads by their current label. A lead deleted meanwhile is not found: its label
  -- rows were taken off by leads_counters_before_delete, before its sends went.
  INSERT INTO campaign_counter_deltas (campaign_id, label, workspace_id, replied_count)
  SELECT f.campaign_id, l.label, f.workspace_id, sum(f.replied)
    FROM f JOIN leads l ON l.id = f.lead_id
   WHERE f.replied <> 0 AND l.label IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = f.campaign_id)
   GROUP BY f.campaign_id, l.label, f.workspace_id
  HAVING sum(f.replied) <> 0\073
  RETURN NULL\073
END
';

CREATE TRIGGER sent_emails_counters_insert AFTER INSERT ON sent_emails REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sent_emails_counters_insert();
CREATE TRIGGER sent_emails_counters_update AFTER UPDATE ON sent_emails REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sent_emails_counters_update();
CREATE TRIGGER sent_emails_counters_delete AFTER DELETE ON sent_emails REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sent_emails_counters_delete();

-- Leads: counts of leads, completed and finished leads per campaign.
CREATE FUNCTION leads_counters_insert() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO campaign_counter_deltas (campaign_id, workspace_id, lead_count, completed_lead_count, finished_lead_count)
  SELECT campaign_id, workspace_id, sum(k), sum(c), sum(f)
    FROM (SELECT campaign_id, workspace_id, 1 AS k, is_completed::int AS c, (is_completed OR status = ''COMPLETED'')::int AS f FROM new_rows
          UNION ALL
          SELECT campaign_id, workspace_id, -1, -is_completed::int, -(is_completed OR status = ''COMPLETED'')::int FROM (SELECT campaign_id, workspace_id, is_completed, status FROM leads WHERE false) e) x
   WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = x.campaign_id)
   GROUP BY campaign_id, workspace_id
  HAVING sum(k) <> 0 OR sum(c) <> 0 OR sum(f) <> 0\073
  RETURN NULL\073
END
';
CREATE FUNCTION leads_counters_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO campaign_counter_deltas (campaign_id, workspace_id, lead_count, completed_lead_count, finished_lead_count)
  SELECT campaign_id, workspace_id, sum(k), sum(c), sum(f)
    FROM (SELECT campaign_id, workspace_id, 1 AS k, is_completed::int AS c, (is_completed OR status = ''COMPLETED'')::int AS f FROM (SELECT campaign_id, workspace_id, is_completed, status FROM leads WHERE false) e
          UNION ALL
          SELECT campaign_id, workspace_id, -1, -is_completed::int, -(is_completed OR status = ''COMPLETED'')::int FROM old_rows) x
   WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = x.campaign_id)
   GROUP BY campaign_id, workspace_id
  HAVING sum(k) <> 0 OR sum(c) <> 0 OR sum(f) <> 0\073
  RETURN NULL\073
END
';
CREATE FUNCTION leads_counters_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO campaign_counter_deltas (campaign_id, workspace_id, lead_count, completed_lead_count, finished_lead_count)
  SELECT campaign_id, workspace_id, sum(k), sum(c), sum(f)
    FROM (SELECT campaign_id, workspace_id, 1 AS k, is_completed::int AS c, (is_completed OR status = ''COMPLETED'')::int AS f FROM new_rows
          UNION ALL
          SELECT campaign_id, workspace_id, -1, -is_completed::int, -(is_completed OR status = ''COMPLETED'')::int FROM old_rows) x
   WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = x.campaign_id)
   GROUP BY campaign_id, workspace_id
  HAVING sum(k) <> 0 OR sum(c) <> 0 OR sum(f) <> 0\073
  -- A replied lead whose label changes moves between its campaigns'' label rows.
  INSERT INTO campaign_counter_deltas (campaign_id, label, workspace_id, replied_count)
  SELECT s.campaign_id, x.label, s.workspace_id, sum(x.d)
    FROM (SELECT n.id, o.label AS old_label, n.label AS new_label
            FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE o.label IS DISTINCT FROM n.label) ch
   CROSS JOIN LATERAL (VALUES (ch.old_label, -1), (ch.new_label, 1)) x(label, d)
    JOIN LATERAL (SELECT DISTINCT r.campaign_id, r.workspace_id FROM sent_emails r WHERE r.lead_id = ch.id AND r.replied_at IS NOT NULL) s ON true
   WHERE x.label IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = s.campaign_id)
   GROUP BY s.campaign_id, x.label, s.workspace_id
  HAVING sum(x.d) <> 0\073
  RETURN NULL\073
END
';

-- A labelled lead about to be deleted leaves its label rows while its sends still say it replied
-- (the sends go next, by the foreign key's cascade, and their trigger no longer finds the lead).
CREATE FUNCTION leads_counters_before_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO campaign_counter_deltas (campaign_id, label, workspace_id, replied_count)
  SELECT s.campaign_id, OLD.label, s.workspace_id, -1
    FROM sent_emails s
   WHERE s.lead_id = OLD.id AND s.replied_at IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = s.campaign_id)
   GROUP BY s.campaign_id, s.workspace_id\073
  RETURN OLD\073
END
';

CREATE TRIGGER leads_counters_insert AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leads_counters_insert();
CREATE TRIGGER leads_counters_update AFTER UPDATE ON leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leads_counters_update();
CREATE TRIGGER leads_counters_delete AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leads_counters_delete();
CREATE TRIGGER leads_counters_before_delete BEFORE DELETE ON leads
  FOR EACH ROW WHEN (OLD.label IS NOT NULL) EXECUTE FUNCTION leads_counters_before_delete();

-- A deleted campaign's rows go with it. (Its leads and sends, deleted by the foreign keys'
-- cascades, add no deltas: every trigger above skips campaigns that no longer exist.)
CREATE FUNCTION campaigns_counters_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM campaign_counter_deltas WHERE campaign_id IN (SELECT id FROM old_rows)\073
  DELETE FROM campaign_counters WHERE campaign_id IN (SELECT id FROM old_rows)\073
  RETURN NULL\073
END
';

CREATE TRIGGER campaigns_counters_delete AFTER DELETE ON campaigns REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaigns_counters_delete();

-- Backfill: the counters of the existing leads and sends.
WITH leads_by AS (
  SELECT campaign_id, workspace_id, count(*)::int AS lead_count, count(*) FILTER (WHERE is_completed)::int AS completed_lead_count,
         count(*) FILTER (WHERE is_completed OR status = 'COMPLETED')::int AS finished_lead_count
    FROM leads GROUP BY campaign_id, workspace_id
), pairs AS (
  SELECT campaign_id, workspace_id, lead_id, count(*)::int AS k, count(opened_at)::int AS op, count(replied_at)::int AS rp,
         count(bounced_at)::int AS bo, count(unsubscribed_at)::int AS un
    FROM sent_emails GROUP BY campaign_id, workspace_id, lead_id
), sends_by AS (
  SELECT campaign_id, workspace_id, sum(k)::int AS sent_count, sum(op)::int AS opened_count, sum(bo)::int AS bounced_count,
         count(*)::int AS contacted_count, count(*) FILTER (WHERE op > 0)::int AS unique_opened_count,
         count(*) FILTER (WHERE rp > 0)::int AS replied_count, count(*) FILTER (WHERE bo > 0)::int AS bounced_lead_count,
         count(*) FILTER (WHERE un > 0)::int AS unsubscribed_count
    FROM pairs GROUP BY campaign_id, workspace_id
), labels_by AS (
  INSERT INTO campaign_counters (campaign_id, label, workspace_id, replied_count)
  SELECT p.campaign_id, l.label, p.workspace_id, count(*)::int
    FROM pairs p JOIN leads l ON l.id = p.lead_id
   WHERE p.rp > 0 AND l.label IS NOT NULL
   GROUP BY p.campaign_id, l.label, p.workspace_id
)
INSERT INTO campaign_counters (campaign_id, label, workspace_id, lead_count, completed_lead_count, finished_lead_count, sent_count, opened_count, bounced_count, contacted_count, unique_opened_count, replied_count, bounced_lead_count, unsubscribed_count)
SELECT coalesce(l.campaign_id, s.campaign_id), '', coalesce(l.workspace_id, s.workspace_id),
       coalesce(l.lead_count, 0), coalesce(l.completed_lead_count, 0), coalesce(l.finished_lead_count, 0), coalesce(s.sent_count, 0), coalesce(s.opened_count, 0), coalesce(s.bounced_count, 0), coalesce(s.contacted_count, 0), coalesce(s.unique_opened_count, 0), coalesce(s.replied_count, 0), coalesce(s.bounced_lead_count, 0), coalesce(s.unsubscribed_count, 0)
  FROM leads_by l FULL JOIN sends_by s ON s.campaign_id = l.campaign_id AND s.workspace_id = l.workspace_id;
