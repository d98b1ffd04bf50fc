// BENCH_ONLY=deletes: deleting a campaign of 200,000 leads and 1,000,000 sends (with a
// subsequence), a workspace of 50 campaigns, and an organization of 3,000 campaigns
// (bench/README.md). Each case is seeded afresh with generate_series, then deleted twice
// over in two copies: once as one synchronous cascade (what campaign.delete did before
// the purge worker: one transaction, the time-to-answer is the whole delete) and once
// through the operation (the time-to-answer) followed by the purge worker's rounds (their
// total and the longest, each round being one transaction and so the longest lock).
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { parseIntoClientConfig } from 'pg-connection-string';
import { applyMigrations, createDatabase, type Database } from '@outreach/db';
import { createOrganization, executeOperation, operations, runPurgeRound, deleteOrganization, systemClock, createCaches, createSecretBox, type Ctx } from '@outreach/core';
import { createLogger } from '@outreach/gateway';
import { fmt, percentile } from './measure';

interface Shape {
  workspaces: number;
  campaignsPerWorkspace: number;
  leadsPerCampaign: number;
  sendsPerLead: number;
  /** Leads of one subsequence of the first campaign (one send each). */
  subsequenceLeads: number;
}

const id = (prefix: string, expr: string) => `'${prefix}' || lpad(to_hex(${expr}), ${24 - prefix.length}, '0')`;

/** A new organization of this shape; every id starts with a random prefix, so seeds never collide. */
async function seed(options: { db: Database; pool: pg.Pool; shape: Shape; say: (line: string) => void }) {
  const { shape } = options;
  const p = randomBytes(4).toString('hex');
  const org = await createOrganization({ db: options.db.prisma, name: `deletes bench ${p}`, workspaceName: 'deletes 1', leadAllowance: 100_000_000 });
  const client = await options.pool.connect();
  const started = Date.now();
  try {
    await client.query('SET synchronous_commit = off');
    await client.query('BEGIN');
    const o = org.organizationId;
    // Workspaces: the one createOrganization made, then w1…
    await client.query(
      `INSERT INTO workspaces (id, organization_id, name, updated_at) SELECT ${id(p + 'w', 'w')}, $1, 'deletes ' || w, now() FROM generate_series(2, $2::int) w`,
      [o, shape.workspaces],
    );
    const wsOf = (w: string) => `CASE WHEN ${w} = 1 THEN '${org.workspaceId}' ELSE ${id(p + 'w', w)} END`;
    const campaigns = shape.workspaces * shape.campaignsPerWorkspace;
    // Campaign c (1-based) is in workspace (c - 1) / campaignsPerWorkspace + 1.
    const wsOfCampaign = (c: string) => wsOf(`((${c} - 1) / ${shape.campaignsPerWorkspace} + 1)`);
    await client.query(
      `INSERT INTO campaigns (id, organization_id, workspace_id, name, status, type, updated_at)
       SELECT ${id(p + 'c', 'c')}, $1, ${wsOfCampaign('c')}, 'bench ' || c, 'ACTIVE'::"CampaignStatus", 'parent'::"CampaignType", now() FROM generate_series(1, $2::int) c
       UNION ALL SELECT ${id(p + 's', '1')}, $1, '${org.workspaceId}', 'subsequence', 'ACTIVE'::"CampaignStatus", 'subseq'::"CampaignType", now() WHERE $3::int > 0`,
      [o, campaigns, shape.subsequenceLeads],
    );
    if (shape.subsequenceLeads) await client.query(`UPDATE campaigns SET parent_id = ${id(p + 'c', '1')} WHERE id = ${id(p + 's', '1')}`);
    await client.query(
      `INSERT INTO sequence_steps (id, workspace_id, campaign_id, step, wait_time)
       SELECT ${id(p + 'd', 'c * 2 + s')}, ${wsOfCampaign('c')}, ${id(p + 'c', 'c')}, s, 2 FROM generate_series(1, $1::int) c, generate_series(1, 2) s`,
      [campaigns],
    );
    await client.query(
      `INSERT INTO variations (id, workspace_id, campaign_id, step_id, label, subject, body)
       SELECT ${id(p + 'e', '(c * 2 + s) * 2 + v')}, ${wsOfCampaign('c')}, ${id(p + 'c', 'c')}, ${id(p + 'd', 'c * 2 + s')}, chr(64 + v), 'Subject', 'Body'
         FROM generate_series(1, $1::int) c, generate_series(1, 2) s, generate_series(1, 2) v`,
      [campaigns],
    );
    const leads = campaigns * shape.leadsPerCampaign;
    const campaignOfLead = `((n - 1) / ${shape.leadsPerCampaign} + 1)`;
    await client.query(
      `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, status, label, current_step, updated_at)
       SELECT ${id(p + 'f', 'n')}, $1, ${wsOfCampaign(campaignOfLead)}, ${id(p + 'c', campaignOfLead)}, 'l' || n || '@d.example.com', 'l' || n || '@d.example.com',
              'Lead', 'CONTACTED'::"LeadStatus", CASE WHEN n % 25 = 0 THEN 'INTERESTED' END, 1, now() FROM generate_series(1, $2::int) n
       UNION ALL SELECT ${id(p + 'g', 'n')}, $1, '${org.workspaceId}', ${id(p + 's', '1')}, 's' || n || '@d.example.com', 's' || n || '@d.example.com',
              'Sub', 'CONTACTED'::"LeadStatus", NULL, 1, now() FROM generate_series(1, $3::int) n`,
      [o, leads, shape.subsequenceLeads],
    );
    // The sends are written without triggers, as a restore writes them: a row trigger deferred to the
    // commit (the daily send counts') would otherwise run a million times. The deletes measured below
    // run every trigger.
    await client.query(`SET LOCAL session_replication_role = replica`);
    const cols = 'id, organization_id, workspace_id, campaign_id, parent_campaign_id, lead_id, step, variation_id, variation_label, message_id, subject, body, sent_at, opened_at, replied_at';
    await client.query(
      `INSERT INTO sent_emails (${cols})
       SELECT ${id(p + 'a', `n * ${shape.sendsPerLead} + s`)}, $1, ${wsOfCampaign(campaignOfLead)}, ${id(p + 'c', campaignOfLead)}, NULL, ${id(p + 'f', 'n')}, s,
              ${id(p + 'e', `(${campaignOfLead} * 2 + 1) * 2 + 1`)}, 'A', '${p}a' || n || '-' || s || '@bench', 'Subject', 'Body',
              timestamptz '2026-01-01' + (s || ' days')::interval,
              CASE WHEN n % 3 = 0 THEN timestamptz '2026-01-01' + (s || ' days 1 hour')::interval END,
              CASE WHEN n % 25 = 0 AND s = 1 THEN timestamptz '2026-01-03' END
         FROM generate_series(1, $2::int) n, generate_series(1, ${shape.sendsPerLead}) s
       UNION ALL SELECT ${id(p + 'b', 'n')}, $1, '${org.workspaceId}', ${id(p + 's', '1')}, ${id(p + 'c', '1')}, ${id(p + 'g', 'n')}, 1, NULL, 'A',
              '${p}b' || n || '@bench', 'Subject', 'Body', timestamptz '2026-01-05', NULL, NULL FROM generate_series(1, $3::int) n`,
      [o, leads, shape.subsequenceLeads],
    );
    await client.query(`SET LOCAL session_replication_role = origin`);
    await client.query(`UPDATE organizations SET lead_count = $2 WHERE id = $1`, [o, leads + shape.subsequenceLeads]);
    await client.query('COMMIT');
    // Fresh statistics, so the deletes are planned as they would be on a settled database.
    await client.query(`ANALYZE leads`);
    await client.query(`ANALYZE sent_emails`);
    options.say(`  seeded ${campaigns} campaigns, ${leads + shape.subsequenceLeads} leads, ${leads * shape.sendsPerLead + shape.subsequenceLeads} sends in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  return { organizationId: org.organizationId, workspaceId: org.workspaceId, firstCampaignId: `${p}c${'1'.padStart(24 - p.length - 1, '0')}` };
}

type Target = 'campaign' | 'workspace' | 'organization';

/** What the synchronous delete did: one transaction, the cascades of the foreign keys. */
async function syncDelete(options: { pool: pg.Pool; target: Target; ids: Awaited<ReturnType<typeof seed>> }): Promise<number> {
  const client = await options.pool.connect();
  const started = performance.now();
  try {
    await client.query('BEGIN');
    await client.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [options.ids.organizationId]);
    if (options.target === 'campaign') {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM leads WHERE campaign_id IN (SELECT id FROM campaigns WHERE id = $1 OR parent_id = $1)`, [options.ids.firstCampaignId]);
      await client.query('DELETE FROM campaigns WHERE id = $1', [options.ids.firstCampaignId]);
      await client.query('UPDATE organizations SET lead_count = lead_count - $2 WHERE id = $1', [options.ids.organizationId, Number(rows[0]!.n)]);
    } else if (options.target === 'workspace') {
      await client.query('DELETE FROM workspaces WHERE id = $1', [options.ids.workspaceId]);
    } else {
      await client.query('DELETE FROM organizations WHERE id = $1', [options.ids.organizationId]);
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return performance.now() - started;
}

async function purgeAll(options: { ctx: Ctx }): Promise<{ totalMs: number; longestMs: number; longestTable: string; p95Ms: number; rounds: number }> {
  const started = performance.now();
  let longestMs = 0;
  let longestTable = '';
  const times: number[] = [];
  for (;;) {
    const t0 = performance.now();
    const result = await runPurgeRound({ deps: options.ctx });
    const ms = performance.now() - t0;
    times.push(ms);
    if (ms > longestMs) [longestMs, longestTable] = [ms, result.table ?? 'none'];
    if (result.done) break;
  }
  return { totalMs: performance.now() - started, longestMs, longestTable, p95Ms: percentile(times, 95), rounds: times.length };
}

export async function deletesBench(options: { url: string; say: (line: string) => void }): Promise<string[]> {
  const { say } = options;
  const db = await createDatabase({ url: options.url, poolSize: 10 });
  await applyMigrations({ db });
  const pool = new pg.Pool({ ...(parseIntoClientConfig(options.url) as pg.PoolConfig), max: 4 });
  const log = createLogger({ level: 'warn' });
  const service = {
    db: db.prisma,
    ports: { clock: systemClock } as Ctx['ports'],
    log,
    settings: { defaultLeadAllowance: 100_000_000, publicUrl: 'http://localhost', allowPrivateTargets: false },
    caches: createCaches(),
    secrets: createSecretBox({ key: Buffer.alloc(32, 7) }),
  };
  const only = new Set((process.env['BENCH_DELETES'] ?? 'campaign,workspace,organization').split(',').map((s) => s.trim()));
  const shapes: Record<Target, Shape> = {
    campaign: { workspaces: 1, campaignsPerWorkspace: 1, leadsPerCampaign: 200_000, sendsPerLead: 5, subsequenceLeads: 2_000 },
    workspace: { workspaces: 1, campaignsPerWorkspace: 50, leadsPerCampaign: 2_000, sendsPerLead: 2, subsequenceLeads: 0 },
    organization: { workspaces: 3, campaignsPerWorkspace: 1_000, leadsPerCampaign: 20, sendsPerLead: 2, subsequenceLeads: 0 },
  };
  const summary: string[] = [];
  try {
    // Leftovers of an interrupted run would be purged inside the first measurement.
    await purgeAll({ ctx: { ...service, actor: { organizationId: '', apiKeyId: '', workspaceIds: null, clientGrants: null }, requestId: 'bench' } });
    for (const target of ['campaign', 'workspace', 'organization'] as const) {
      if (!only.has(target)) continue;
      say(`\n## deletes: ${target}`);
      const before = await seed({ db, pool, shape: shapes[target], say });
      const syncMs = await syncDelete({ pool, target, ids: before });
      say(`  synchronous cascade (before): ${fmt(syncMs, 0)} ms in one transaction`);
      const after = await seed({ db, pool, shape: shapes[target], say });
      const ctx: Ctx = { ...service, actor: { organizationId: after.organizationId, apiKeyId: '', workspaceIds: null, clientGrants: null }, requestId: 'bench' };
      const t0 = performance.now();
      if (target === 'campaign') {
        await executeOperation({ op: operations.campaign.delete, ctx, input: { workspace_id: after.workspaceId, campaign_id: after.firstCampaignId, is_archive: 'no' } });
      } else if (target === 'workspace') {
        await executeOperation({ op: operations.workspace.delete, ctx, input: { workspace_id: after.workspaceId, confirm: after.workspaceId } });
      } else {
        await deleteOrganization({ db: db.prisma, organizationId: after.organizationId, now: new Date() });
      }
      const answerMs = performance.now() - t0;
      say(`  operation (after): answered in ${fmt(answerMs, 0)} ms`);
      const purge = await purgeAll({ ctx });
      say(`  purge: ${purge.rounds} rounds in ${fmt(purge.totalMs / 1000, 1)} s, round p95 ${fmt(purge.p95Ms, 0)} ms, longest round (one transaction) ${fmt(purge.longestMs, 0)} ms on ${purge.longestTable}`);
      summary.push(`deletes ${target}: before ${fmt(syncMs, 0)} ms (one transaction); after: answer ${fmt(answerMs, 0)} ms, purge ${fmt(purge.totalMs / 1000, 1)} s in ${purge.rounds} rounds, p95 ${fmt(purge.p95Ms, 0)} ms, longest ${fmt(purge.longestMs, 0)} ms (${purge.longestTable})`);
    }
  } finally {
    await pool.end();
    await db.close();
  }
  return summary;
}
