-- CreateTable
CREATE TABLE "campaign_day_stats" (
    "campaign_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "prev_day" DATE NOT NULL,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "opened_count" INTEGER NOT NULL DEFAULT 0,
    "replied_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_count" INTEGER NOT NULL DEFAULT 0,
    "contacted_count" INTEGER NOT NULL DEFAULT 0,
    "opened_lead_count" INTEGER NOT NULL DEFAULT 0,
    "replied_lead_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_lead_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_day_stats_pkey" PRIMARY KEY ("campaign_id","workspace_id","day","label","prev_day")
);

-- CreateTable
CREATE TABLE "campaign_day_stat_deltas" (
    "id" BIGSERIAL NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "prev_day" DATE NOT NULL,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "opened_count" INTEGER NOT NULL DEFAULT 0,
    "replied_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_count" INTEGER NOT NULL DEFAULT 0,
    "contacted_count" INTEGER NOT NULL DEFAULT 0,
    "opened_lead_count" INTEGER NOT NULL DEFAULT 0,
    "replied_lead_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_lead_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_day_stat_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "campaign_day_stat_deltas_workspace_id_idx" ON "campaign_day_stat_deltas"("workspace_id");

-- Campaign day statistics (docs/database.md, "Campaign day statistics"): the triggers that keep
-- campaign_day_stats and the backfill. Bodies are E'' strings with \073 for each semicolon, as in
-- 20261125015921_campaign_counters (the driver adapter splits a migration at every semicolon).

-- A lead's replied days in each scope (its sends' campaigns, and its workspace as campaign ''),
-- each with the previous replied day of the same scope: the label rows a lead holds.
CREATE FUNCTION lead_reply_days(p_lead text) RETURNS TABLE (campaign_id text, workspace_id text, day date, prev_day date) LANGUAGE sql STABLE AS E'
  SELECT g.campaign_id, g.workspace_id, g.day,
         coalesce(lag(g.day) OVER (PARTITION BY g.campaign_id, g.workspace_id ORDER BY g.day), ''-infinity'')
    FROM (SELECT coalesce(s.campaign_id, '''') AS campaign_id, s.workspace_id, s.day
            FROM (SELECT r.campaign_id, r.workspace_id, (r.sent_at AT TIME ZONE ''UTC'')::date AS day
                    FROM sent_emails r WHERE r.lead_id = p_lead AND r.replied_at IS NOT NULL) s
           GROUP BY GROUPING SETS ((s.campaign_id, s.workspace_id, s.day), (s.workspace_id, s.day))) g
';
-- Sends: every statement appends its change per campaign and day, and per workspace and day.
CREATE FUNCTION sent_emails_day_stats_insert() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- Runs after sent_emails_counters_* (triggers of one event fire in name order), whose first
  -- statement locks the touched leads: this one''s reads see every committed send of theirs.
  WITH o AS (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM sent_emails WHERE false) e0),
       n AS (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM new_rows),
       -- Per (campaign, lead, UTC send day): the statement''s change in sends, opened, replied, bounced, unsubscribed sends.
       d AS (
         SELECT campaign_id, workspace_id, lead_id, day, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
           FROM (SELECT campaign_id, workspace_id, lead_id, (sent_at AT TIME ZONE ''UTC'')::date AS day, 1 AS k, (opened_at IS NOT NULL)::int AS op,
                        (replied_at IS NOT NULL)::int AS rp, (bounced_at IS NOT NULL)::int AS bo, (unsubscribed_at IS NOT NULL)::int AS un FROM n
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, (sent_at AT TIME ZONE ''UTC'')::date, -1, -(opened_at IS NOT NULL)::int, -(replied_at IS NOT NULL)::int,
                        -(bounced_at IS NOT NULL)::int, -(unsubscribed_at IS NOT NULL)::int FROM o) x
          GROUP BY campaign_id, workspace_id, lead_id, day),
       -- Sends by campaign and day, and by workspace (campaign '''') and day, on the day''s ''-infinity'' row (read whatever the range).
       sends AS (
         INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, day, prev_day, sent_count, opened_count, replied_count, bounced_count, unsubscribed_count)
         SELECT e.campaign_id, e.workspace_id, e.day, ''-infinity''::date, e.k, e.op, e.rp, e.bo, e.un
           FROM (SELECT coalesce(campaign_id, '''') AS campaign_id, workspace_id, day, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
                   FROM d GROUP BY GROUPING SETS ((campaign_id, workspace_id, day), (workspace_id, day))) e
          WHERE (e.k <> 0 OR e.op <> 0 OR e.rp <> 0 OR e.bo <> 0 OR e.un <> 0) AND CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END),
       -- Every send of the touched leads now, by (campaign, lead, day) (sent_emails_lead_id_sent_at_id_idx).
       a AS (
         SELECT s.campaign_id, s.workspace_id, s.lead_id, (s.sent_at AT TIME ZONE ''UTC'')::date AS day, count(*)::int AS k,
                count(s.opened_at)::int AS op, count(s.replied_at)::int AS rp, count(s.unsubscribed_at)::int AS un
           FROM sent_emails s
          WHERE s.lead_id IN (SELECT lead_id FROM d)
          GROUP BY 1, 2, 3, 4),
       -- Per scope (campaign, or workspace as campaign ''''), lead and day: the counts after (a*) and before (b* = after - change).
       ab AS (
         SELECT coalesce(campaign_id, '''') AS campaign_id, workspace_id, lead_id, day, sum(ak) AS ak, sum(aop) AS aop, sum(arp) AS arp, sum(aun) AS aun,
                sum(bk) AS bk, sum(bop) AS bop, sum(brp) AS brp, sum(bun) AS bun
           FROM (SELECT campaign_id, workspace_id, lead_id, day, k AS ak, op AS aop, rp AS arp, un AS aun, k AS bk, op AS bop, rp AS brp, un AS bun FROM a
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, day, 0, 0, 0, 0, -k, -op, -rp, -un FROM d) x
          GROUP BY GROUPING SETS ((campaign_id, workspace_id, lead_id, day), (workspace_id, lead_id, day))),
       -- For each day in a lead''s day set (after, before), the set''s previous day (''-infinity'': the first).
       w AS (
         SELECT campaign_id, workspace_id, lead_id, day,
                CASE WHEN ak > 0 THEN coalesce(max(day) FILTER (WHERE ak > 0) OVER p, ''-infinity'') END AS ka,
                CASE WHEN bk > 0 THEN coalesce(max(day) FILTER (WHERE bk > 0) OVER p, ''-infinity'') END AS kb,
                CASE WHEN aop > 0 THEN coalesce(max(day) FILTER (WHERE aop > 0) OVER p, ''-infinity'') END AS opa,
                CASE WHEN bop > 0 THEN coalesce(max(day) FILTER (WHERE bop > 0) OVER p, ''-infinity'') END AS opb,
                CASE WHEN arp > 0 THEN coalesce(max(day) FILTER (WHERE arp > 0) OVER p, ''-infinity'') END AS rpa,
                CASE WHEN brp > 0 THEN coalesce(max(day) FILTER (WHERE brp > 0) OVER p, ''-infinity'') END AS rpb,
                CASE WHEN aun > 0 THEN coalesce(max(day) FILTER (WHERE aun > 0) OVER p, ''-infinity'') END AS una,
                CASE WHEN bun > 0 THEN coalesce(max(day) FILTER (WHERE bun > 0) OVER p, ''-infinity'') END AS unb
           FROM ab
         WINDOW p AS (PARTITION BY campaign_id, workspace_id, lead_id ORDER BY day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)),
       -- +1 for each (day, previous day) after, -1 for each before.
       e AS (
         SELECT w.campaign_id, w.workspace_id, w.lead_id, w.day, v.prev, v.k, v.op, v.rp, v.un
           FROM w CROSS JOIN LATERAL (VALUES (w.ka, 1, 0, 0, 0), (w.kb, -1, 0, 0, 0), (w.opa, 0, 1, 0, 0), (w.opb, 0, -1, 0, 0),
                                             (w.rpa, 0, 0, 1, 0), (w.rpb, 0, 0, -1, 0), (w.una, 0, 0, 0, 1), (w.unb, 0, 0, 0, -1)) v(prev, k, op, rp, un)
          WHERE v.prev IS NOT NULL),
       own AS (
         INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, day, prev_day, contacted_count, opened_lead_count, replied_lead_count, unsubscribed_lead_count)
         SELECT e.campaign_id, e.workspace_id, e.day, e.prev, sum(e.k), sum(e.op), sum(e.rp), sum(e.un)
           FROM e
          WHERE CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END
          GROUP BY e.campaign_id, e.workspace_id, e.day, e.prev
         HAVING sum(e.k) <> 0 OR sum(e.op) <> 0 OR sum(e.rp) <> 0 OR sum(e.un) <> 0)
  -- Replied leads by their current label. A lead deleted meanwhile is not found: its label
  -- rows were taken off by leads_day_stats_before_delete, before its sends went.
  INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, label, day, prev_day, replied_lead_count)
  SELECT e.campaign_id, e.workspace_id, l.label, e.day, e.prev, sum(e.rp)
    FROM e JOIN leads l ON l.id = e.lead_id
   WHERE e.rp <> 0 AND l.label IS NOT NULL AND CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END
   GROUP BY e.campaign_id, e.workspace_id, l.label, e.day, e.prev
  HAVING sum(e.rp) <> 0\073
  RETURN NULL\073
END
';
CREATE FUNCTION sent_emails_day_stats_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- Runs after sent_emails_counters_* (triggers of one event fire in name order), whose first
  -- statement locks the touched leads: this one''s reads see every committed send of theirs.
  WITH o AS (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM old_rows),
       n AS (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM new_rows),
       -- Per (campaign, lead, UTC send day): the statement''s change in sends, opened, replied, bounced, unsubscribed sends.
       d AS (
         SELECT campaign_id, workspace_id, lead_id, day, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
           FROM (SELECT campaign_id, workspace_id, lead_id, (sent_at AT TIME ZONE ''UTC'')::date AS day, 1 AS k, (opened_at IS NOT NULL)::int AS op,
                        (replied_at IS NOT NULL)::int AS rp, (bounced_at IS NOT NULL)::int AS bo, (unsubscribed_at IS NOT NULL)::int AS un FROM n
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, (sent_at AT TIME ZONE ''UTC'')::date, -1, -(opened_at IS NOT NULL)::int, -(replied_at IS NOT NULL)::int,
                        -(bounced_at IS NOT NULL)::int, -(unsubscribed_at IS NOT NULL)::int FROM o) x
          GROUP BY campaign_id, workspace_id, lead_id, day),
       -- Sends by campaign and day, and by workspace (campaign '''') and day, on the day''s ''-infinity'' row (read whatever the range).
       sends AS (
         INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, day, prev_day, sent_count, opened_count, replied_count, bounced_count, unsubscribed_count)
         SELECT e.campaign_id, e.workspace_id, e.day, ''-infinity''::date, e.k, e.op, e.rp, e.bo, e.un
           FROM (SELECT coalesce(campaign_id, '''') AS campaign_id, workspace_id, day, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
                   FROM d GROUP BY GROUPING SETS ((campaign_id, workspace_id, day), (workspace_id, day))) e
          WHERE (e.k <> 0 OR e.op <> 0 OR e.rp <> 0 OR e.bo <> 0 OR e.un <> 0) AND CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END),
       -- Every send of the touched leads now, by (campaign, lead, day) (sent_emails_lead_id_sent_at_id_idx).
       a AS (
         SELECT s.campaign_id, s.workspace_id, s.lead_id, (s.sent_at AT TIME ZONE ''UTC'')::date AS day, count(*)::int AS k,
                count(s.opened_at)::int AS op, count(s.replied_at)::int AS rp, count(s.unsubscribed_at)::int AS un
           FROM sent_emails s
          WHERE s.lead_id IN (SELECT lead_id FROM d)
          GROUP BY 1, 2, 3, 4),
       -- Per scope (campaign, or workspace as campaign ''''), lead and day: the counts after (a*) and before (b* = after - change).
       ab AS (
         SELECT coalesce(campaign_id, '''') AS campaign_id, workspace_id, lead_id, day, sum(ak) AS ak, sum(aop) AS aop, sum(arp) AS arp, sum(aun) AS aun,
                sum(bk) AS bk, sum(bop) AS bop, sum(brp) AS brp, sum(bun) AS bun
           FROM (SELECT campaign_id, workspace_id, lead_id, day, k AS ak, op AS aop, rp AS arp, un AS aun, k AS bk, op AS bop, rp AS brp, un AS bun FROM a
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, day, 0, 0, 0, 0, -k, -op, -rp, -un FROM d) x
          GROUP BY GROUPING SETS ((campaign_id, workspace_id, lead_id, day), (workspace_id, lead_id, day))),
       -- For each day in a lead''s day set (after, before), the set''s previous day (''-infinity'': the first).
       w AS (
         SELECT campaign_id, workspace_id, lead_id, day,
                CASE WHEN ak > 0 THEN coalesce(max(day) FILTER (WHERE ak > 0) OVER p, ''-infinity'') END AS ka,
                CASE WHEN bk > 0 THEN coalesce(max(day) FILTER (WHERE bk > 0) OVER p, ''-infinity'') END AS kb,
                CASE WHEN aop > 0 THEN coalesce(max(day) FILTER (WHERE aop > 0) OVER p, ''-infinity'') END AS opa,
                CASE WHEN bop > 0 THEN coalesce(max(day) FILTER (WHERE bop > 0) OVER p, ''-infinity'') END AS opb,
                CASE WHEN arp > 0 THEN coalesce(max(day) FILTER (WHERE arp > 0) OVER p, ''-infinity'') END AS rpa,
                CASE WHEN brp > 0 THEN coalesce(max(day) FILTER (WHERE brp > 0) OVER p, ''-infinity'') END AS rpb,
                CASE WHEN aun > 0 THEN coalesce(max(day) FILTER (WHERE aun > 0) OVER p, ''-infinity'') END AS una,
                CASE WHEN bun > 0 THEN coalesce(max(day) FILTER (WHERE bun > 0) OVER p, ''-infinity'') END AS unb
           FROM ab
         WINDOW p AS (PARTITION BY campaign_id, workspace_id, lead_id ORDER BY day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)),
       -- +1 for each (day, previous day) after, -1 for each before.
       e AS (
         SELECT w.campaign_id, w.workspace_id, w.lead_id, w.day, v.prev, v.k, v.op, v.rp, v.un
           FROM w CROSS JOIN LATERAL (VALUES (w.ka, 1, 0, 0, 0), (w.kb, -1, 0, 0, 0), (w.opa, 0, 1, 0, 0), (w.opb, 0, -1, 0, 0),
                                             (w.rpa, 0, 0, 1, 0), (w.rpb, 0, 0, -1, 0), (w.una, 0, 0, 0, 1), (w.unb, 0, 0, 0, -1)) v(prev, k, op, rp, un)
          WHERE v.prev IS NOT NULL),
       own AS (
         INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, day, prev_day, contacted_count, opened_lead_count, replied_lead_count, unsubscribed_lead_count)
         SELECT e.campaign_id, e.workspace_id, e.day, e.prev, sum(e.k), sum(e.op), sum(e.rp), sum(e.un)
           FROM e
          WHERE CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END
          GROUP BY e.campaign_id, e.workspace_id, e.day, e.prev
         HAVING sum(e.k) <> 0 OR sum(e.op) <> 0 OR sum(e.rp) <> 0 OR sum(e.un) <> 0)
  -- Replied leads by their current label. A lead deleted meanwhile is not found: its label
  -- rows were taken off by leads_day_stats_before_delete, before its sends went.
  INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, label, day, prev_day, replied_lead_count)
  SELECT e.campaign_id, e.workspace_id, l.label, e.day, e.prev, sum(e.rp)
    FROM e JOIN leads l ON l.id = e.lead_id
   WHERE e.rp <> 0 AND l.label IS NOT NULL AND CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END
   GROUP BY e.campaign_id, e.workspace_id, l.label, e.day, e.prev
  HAVING sum(e.rp) <> 0\073
  RETURN NULL\073
END
';
CREATE FUNCTION sent_emails_day_stats_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- Runs after sent_emails_counters_* (triggers of one event fire in name order), whose first
  -- statement locks the touched leads: this one''s reads see every committed send of theirs.
  WITH o AS (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM old_rows),
       n AS (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM (SELECT campaign_id, workspace_id, lead_id, sent_at, opened_at, replied_at, bounced_at, unsubscribed_at FROM sent_emails WHERE false) e0),
       -- Per (campaign, lead, UTC send day): the statement''s change in sends, opened, replied, bounced, unsubscribed sends.
       d AS (
         SELECT campaign_id, workspace_id, lead_id, day, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
           FROM (SELECT campaign_id, workspace_id, lead_id, (sent_at AT TIME ZONE ''UTC'')::date AS day, 1 AS k, (opened_at IS NOT NULL)::int AS op,
                        (replied_at IS NOT NULL)::int AS rp, (bounced_at IS NOT NULL)::int AS bo, (unsubscribed_at IS NOT NULL)::int AS un FROM n
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, (sent_at AT TIME ZONE ''UTC'')::date, -1, -(opened_at IS NOT NULL)::int, -(replied_at IS NOT NULL)::int,
                        -(bounced_at IS NOT NULL)::int, -(unsubscribed_at IS NOT NULL)::int FROM o) x
          GROUP BY campaign_id, workspace_id, lead_id, day),
       -- Sends by campaign and day, and by workspace (campaign '''') and day, on the day''s ''-infinity'' row (read whatever the range).
       sends AS (
         INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, day, prev_day, sent_count, opened_count, replied_count, bounced_count, unsubscribed_count)
         SELECT e.campaign_id, e.workspace_id, e.day, ''-infinity''::date, e.k, e.op, e.rp, e.bo, e.un
           FROM (SELECT coalesce(campaign_id, '''') AS campaign_id, workspace_id, day, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp, sum(bo)::int AS bo, sum(un)::int AS un
                   FROM d GROUP BY GROUPING SETS ((campaign_id, workspace_id, day), (workspace_id, day))) e
          WHERE (e.k <> 0 OR e.op <> 0 OR e.rp <> 0 OR e.bo <> 0 OR e.un <> 0) AND CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END),
       -- Every send of the touched leads now, by (campaign, lead, day) (sent_emails_lead_id_sent_at_id_idx).
       a AS (
         SELECT s.campaign_id, s.workspace_id, s.lead_id, (s.sent_at AT TIME ZONE ''UTC'')::date AS day, count(*)::int AS k,
                count(s.opened_at)::int AS op, count(s.replied_at)::int AS rp, count(s.unsubscribed_at)::int AS un
           FROM sent_emails s
          WHERE s.lead_id IN (SELECT lead_id FROM d)
          GROUP BY 1, 2, 3, 4),
       -- Per scope (campaign, or workspace as campaign ''''), lead and day: the counts after (a*) and before (b* = after - change).
       ab AS (
         SELECT coalesce(campaign_id, '''') AS campaign_id, workspace_id, lead_id, day, sum(ak) AS ak, sum(aop) AS aop, sum(arp) AS arp, sum(aun) AS aun,
                sum(bk) AS bk, sum(bop) AS bop, sum(brp) AS brp, sum(bun) AS bun
           FROM (SELECT campaign_id, workspace_id, lead_id, day, k AS ak, op AS aop, rp AS arp, un AS aun, k AS bk, op AS bop, rp AS brp, un AS bun FROM a
                 UNION ALL
                 SELECT campaign_id, workspace_id, lead_id, day, 0, 0, 0, 0, -k, -op, -rp, -un FROM d) x
          GROUP BY GROUPING SETS ((campaign_id, workspace_id, lead_id, day), (workspace_id, lead_id, day))),
       -- For each day in a lead''s day set (after, before), the set''s previous day (''-infinity'': the first).
       w AS (
         SELECT campaign_id, workspace_id, lead_id, day,
                CASE WHEN ak > 0 THEN coalesce(max(day) FILTER (WHERE ak > 0) OVER p, ''-infinity'') END AS ka,
                CASE WHEN bk > 0 THEN coalesce(max(day) FILTER (WHERE bk > 0) OVER p, ''-infinity'') END AS kb,
                CASE WHEN aop > 0 THEN coalesce(max(day) FILTER (WHERE aop > 0) OVER p, ''-infinity'') END AS opa,
                CASE WHEN bop > 0 THEN coalesce(max(day) FILTER (WHERE bop > 0) OVER p, ''-infinity'') END AS opb,
                CASE WHEN arp > 0 THEN coalesce(max(day) FILTER (WHERE arp > 0) OVER p, ''-infinity'') END AS rpa,
                CASE WHEN brp > 0 THEN coalesce(max(day) FILTER (WHERE brp > 0) OVER p, ''-infinity'') END AS rpb,
                CASE WHEN aun > 0 THEN coalesce(max(day) FILTER (WHERE aun > 0) OVER p, ''-infinity'') END AS una,
                CASE WHEN bun > 0 THEN coalesce(max(day) FILTER (WHERE bun > 0) OVER p, ''-infinity'') END AS unb
           FROM ab
         WINDOW p AS (PARTITION BY campaign_id, workspace_id, lead_id ORDER BY day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)),
       -- +1 for each (day, previous day) after, -1 for each before.
       e AS (
         SELECT w.campaign_id, w.workspace_id, w.lead_id, w.day, v.prev, v.k, v.op, v.rp, v.un
           FROM w CROSS JOIN LATERAL (VALUES (w.ka, 1, 0, 0, 0), (w.kb, -1, 0, 0, 0), (w.opa, 0, 1, 0, 0), (w.opb, 0, -1, 0, 0),
                                             (w.rpa, 0, 0, 1, 0), (w.rpb, 0, 0, -1, 0), (w.una, 0, 0, 0, 1), (w.unb, 0, 0, 0, -1)) v(prev, k, op, rp, un)
          WHERE v.prev IS NOT NULL),
       own AS (
         INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, day, prev_day, contacted_count, opened_lead_count, replied_lead_count, unsubscribed_lead_count)
         SELECT e.campaign_id, e.workspace_id, e.day, e.prev, sum(e.k), sum(e.op), sum(e.rp), sum(e.un)
           FROM e
          WHERE CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END
          GROUP BY e.campaign_id, e.workspace_id, e.day, e.prev
         HAVING sum(e.k) <> 0 OR sum(e.op) <> 0 OR sum(e.rp) <> 0 OR sum(e.un) <> 0)
  -- Replied leads by their current label. A lead deleted meanwhile is not found: its label
  -- rows were taken off by leads_day_stats_before_delete, before its sends went.
  INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, label, day, prev_day, replied_lead_count)
  SELECT e.campaign_id, e.workspace_id, l.label, e.day, e.prev, sum(e.rp)
    FROM e JOIN leads l ON l.id = e.lead_id
   WHERE e.rp <> 0 AND l.label IS NOT NULL AND CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END
   GROUP BY e.campaign_id, e.workspace_id, l.label, e.day, e.prev
  HAVING sum(e.rp) <> 0\073
  RETURN NULL\073
END
';

CREATE TRIGGER sent_emails_day_stats_insert AFTER INSERT ON sent_emails REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sent_emails_day_stats_insert();
CREATE TRIGGER sent_emails_day_stats_update AFTER UPDATE ON sent_emails REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sent_emails_day_stats_update();
CREATE TRIGGER sent_emails_day_stats_delete AFTER DELETE ON sent_emails REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sent_emails_day_stats_delete();

-- Leads: a replied lead whose label changes moves its label rows (a row trigger, so that the
-- leads updates that leave the label alone, the scheduler's among them, run nothing).
CREATE FUNCTION leads_day_stats_label() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, label, day, prev_day, replied_lead_count)
  SELECT e.campaign_id, e.workspace_id, x.label, e.day, e.prev_day, x.d
    FROM lead_reply_days(NEW.id) e
   CROSS JOIN (VALUES (OLD.label, -1), (NEW.label, 1)) x(label, d)
   WHERE x.label IS NOT NULL AND CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END\073
  RETURN NULL\073
END
';
CREATE TRIGGER leads_day_stats_label AFTER UPDATE OF label ON leads
  FOR EACH ROW WHEN (OLD.label IS DISTINCT FROM NEW.label) EXECUTE FUNCTION leads_day_stats_label();

-- A labelled lead about to be deleted leaves its label rows while its sends still say it replied.
CREATE FUNCTION leads_day_stats_before_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO campaign_day_stat_deltas (campaign_id, workspace_id, label, day, prev_day, replied_lead_count)
  SELECT e.campaign_id, e.workspace_id, OLD.label, e.day, e.prev_day, -1
    FROM lead_reply_days(OLD.id) e
   WHERE CASE WHEN e.campaign_id = '''' THEN EXISTS (SELECT 1 FROM workspaces x WHERE x.id = e.workspace_id)
                 ELSE EXISTS (SELECT 1 FROM campaigns x WHERE x.id = e.campaign_id) END\073
  RETURN OLD\073
END
';
CREATE TRIGGER leads_day_stats_before_delete BEFORE DELETE ON leads
  FOR EACH ROW WHEN (OLD.label IS NOT NULL) EXECUTE FUNCTION leads_day_stats_before_delete();

-- A deleted campaign's rows go with it, a deleted workspace's own rows with it. (Sends deleted by
-- the foreign keys' cascades add no deltas for a campaign or workspace that no longer exists.)
CREATE FUNCTION campaigns_day_stats_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM campaign_day_stat_deltas WHERE campaign_id IN (SELECT id FROM old_rows)\073
  DELETE FROM campaign_day_stats WHERE campaign_id IN (SELECT id FROM old_rows)\073
  RETURN NULL\073
END
';
CREATE TRIGGER campaigns_day_stats_delete AFTER DELETE ON campaigns REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaigns_day_stats_delete();
CREATE FUNCTION workspaces_day_stats_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM campaign_day_stat_deltas WHERE workspace_id IN (SELECT id FROM old_rows)\073
  DELETE FROM campaign_day_stats WHERE campaign_id = '''' AND workspace_id IN (SELECT id FROM old_rows)\073
  RETURN NULL\073
END
';
CREATE TRIGGER workspaces_day_stats_delete AFTER DELETE ON workspaces REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workspaces_day_stats_delete();

-- Backfill: the rows of the existing sends, computed as the triggers compute them.
WITH g AS (
  SELECT campaign_id, workspace_id, lead_id, (sent_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS k, count(opened_at)::int AS op,
         count(replied_at)::int AS rp, count(bounced_at)::int AS bo, count(unsubscribed_at)::int AS un
    FROM sent_emails GROUP BY 1, 2, 3, 4
), s AS (
  SELECT coalesce(campaign_id, '') AS campaign_id, workspace_id, lead_id, day, sum(k)::int AS k, sum(op)::int AS op, sum(rp)::int AS rp,
         sum(bo)::int AS bo, sum(un)::int AS un
    FROM g GROUP BY GROUPING SETS ((campaign_id, workspace_id, lead_id, day), (workspace_id, lead_id, day))
), w AS (
  SELECT s.*,
         coalesce(max(day) OVER p, '-infinity') AS kp,
         CASE WHEN op > 0 THEN coalesce(max(day) FILTER (WHERE op > 0) OVER p, '-infinity') END AS opp,
         CASE WHEN rp > 0 THEN coalesce(max(day) FILTER (WHERE rp > 0) OVER p, '-infinity') END AS rpp,
         CASE WHEN un > 0 THEN coalesce(max(day) FILTER (WHERE un > 0) OVER p, '-infinity') END AS unp
    FROM s
  WINDOW p AS (PARTITION BY campaign_id, workspace_id, lead_id ORDER BY day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
), e AS (
  SELECT w.campaign_id, w.workspace_id, w.lead_id, w.day, v.*
    FROM w CROSS JOIN LATERAL (VALUES ('-infinity'::date, w.k, w.op, w.rp, w.bo, w.un, 0, 0, 0, 0), (w.kp, 0, 0, 0, 0, 0, 1, 0, 0, 0),
                                      (w.opp, 0, 0, 0, 0, 0, 0, 1, 0, 0), (w.rpp, 0, 0, 0, 0, 0, 0, 0, 1, 0), (w.unp, 0, 0, 0, 0, 0, 0, 0, 0, 1))
         v(prev, sk, sop, srp, sbo, sun, ck, cop, crp, cun)
   WHERE v.prev IS NOT NULL
), labels AS (
  INSERT INTO campaign_day_stats (campaign_id, workspace_id, day, label, prev_day, replied_lead_count)
  SELECT e.campaign_id, e.workspace_id, e.day, l.label, e.prev, sum(e.crp)::int
    FROM e JOIN leads l ON l.id = e.lead_id
   WHERE e.crp > 0 AND l.label IS NOT NULL
   GROUP BY e.campaign_id, e.workspace_id, e.day, l.label, e.prev
)
INSERT INTO campaign_day_stats (campaign_id, workspace_id, day, label, prev_day, sent_count, opened_count, replied_count, bounced_count, unsubscribed_count,
                                contacted_count, opened_lead_count, replied_lead_count, unsubscribed_lead_count)
SELECT campaign_id, workspace_id, day, '', prev, sum(sk)::int, sum(sop)::int, sum(srp)::int, sum(sbo)::int, sum(sun)::int,
       sum(ck)::int, sum(cop)::int, sum(crp)::int, sum(cun)::int
  FROM e GROUP BY campaign_id, workspace_id, day, prev
 ORDER BY campaign_id, workspace_id, day, prev;

-- Statistics for the planner: the reads' plans depend on the table's size.
ANALYZE campaign_day_stats;

