// Seeds a PostgreSQL database for the benchmarks with generate_series, once: later
// runs find the seed (organization "bench-seed-v1") and reuse it.
import pg from 'pg';
import { existingSeed, startSeed } from './seed-support';
import type { Database } from '@outreach/db';

export interface Seed {
  organizationId: string;
  workspaceId: string;
  apiKey: string;
  smallCampaignId: string;
  bigCampaignId: string;
  deepLeadEmail: string;
  sentCount: number;
}

const SEED_NAME = 'bench-seed-v1';
const SMALL_CAMPAIGNS = 100;
const LEADS_PER_SMALL = 8_000; // 800,000 leads; 8,000 first steps + 2,000 second steps = 10,000 sends each
const BIG_LEADS = 200_000; // 5 steps each: 1,000,000 sends
const DEEP_SENDS = 5_000;

const hexId = (prefix: string, expr: string) => `'${prefix}' || lpad(to_hex(${expr}), ${24 - prefix.length}, '0')`;

export async function ensureSeed(options: { db: Database; pool: pg.Pool; log: (line: string) => void }): Promise<Seed> {
  const { pool, log } = options;
  const existing = await existingSeed<Seed>({ pool, name: SEED_NAME, key: 'bench' });
  if (existing) {
    log('seed: reusing the existing benchmark data (drop the database to reseed)');
    return existing;
  }
  const started = Date.now();
  const { org, ws, client, step } = await startSeed({ db: options.db, pool, name: SEED_NAME, workspaceName: 'bench', log, prefix: 'seed' });
  try {
    await client.query('SET synchronous_commit = off');
    // All or nothing: a failed seed leaves no rows whose fixed ids would collide with the next attempt.
    await client.query('BEGIN');
    // Campaigns: c0000…(small 1..100), c1 (big), c2 (deep).
    await step(
      'campaigns',
      `INSERT INTO campaigns (id, organization_id, workspace_id, name, status, type, open_tracking, updated_at)
       SELECT ${hexId('c0', 'n')}, $1, $2, 'small ' || n, 'ACTIVE'::"CampaignStatus", 'parent'::"CampaignType", true, now() FROM generate_series(1, ${SMALL_CAMPAIGNS}) n
       UNION ALL SELECT ${hexId('c1', '1')}, $1, $2, 'big', 'ACTIVE'::"CampaignStatus", 'parent'::"CampaignType", true, now()
       UNION ALL SELECT ${hexId('c2', '1')}, $1, $2, 'deep', 'ACTIVE'::"CampaignStatus", 'parent'::"CampaignType", true, now()`,
      [org.organizationId, ws],
    );
    await step(
      'steps',
      `INSERT INTO sequence_steps (id, workspace_id, campaign_id, step, wait_time)
       SELECT ${hexId('d0', 'c * 10 + s')}, $1, ${hexId('c0', 'c')}, s, 2 FROM generate_series(1, ${SMALL_CAMPAIGNS}) c, generate_series(1, 2) s
       UNION ALL SELECT ${hexId('d1', 's')}, $1, ${hexId('c1', '1')}, s, 2 FROM generate_series(1, 5) s
       UNION ALL SELECT ${hexId('d2', '1')}, $1, ${hexId('c2', '1')}, 1, 0`,
      [ws],
    );
    await step(
      'variations',
      `INSERT INTO variations (id, workspace_id, campaign_id, step_id, label, subject, body)
       SELECT ${hexId('e0', '(c * 10 + s) * 2 + v')}, $1, ${hexId('c0', 'c')}, ${hexId('d0', 'c * 10 + s')}, chr(64 + v), 'Subject', 'Body'
         FROM generate_series(1, ${SMALL_CAMPAIGNS}) c, generate_series(1, 2) s, generate_series(1, 2) v
       UNION ALL SELECT ${hexId('e1', 's * 2 + v')}, $1, ${hexId('c1', '1')}, ${hexId('d1', 's')}, chr(64 + v), 'Subject', 'Body'
         FROM generate_series(1, 5) s, generate_series(1, 2) v
       UNION ALL SELECT ${hexId('e2', '1')}, $1, ${hexId('c2', '1')}, ${hexId('d2', '1')}, 'A', 'Subject', 'Body'`,
      [ws],
    );
    await step(
      'leads of the 100 small campaigns',
      `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, status, label, current_step, updated_at)
       SELECT ${hexId('f0', 'n')}, $1, $2, ${hexId('c0', '(n - 1) / ' + LEADS_PER_SMALL + ' + 1')},
              'lead' || n || '@bench' || (n % 1000) || '.example.com', 'lead' || n || '@bench' || (n % 1000) || '.example.com',
              'Lead' || n, 'CONTACTED', CASE WHEN n % 20 = 0 THEN 'INTERESTED' WHEN n % 20 = 1 THEN 'NOT_INTERESTED' END, 1, now()
         FROM generate_series(1, ${SMALL_CAMPAIGNS * LEADS_PER_SMALL}) n`,
      [org.organizationId, ws],
    );
    await step(
      'leads of the big campaign',
      `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, status, label, current_step, updated_at)
       SELECT ${hexId('f1', 'n')}, $1, $2, ${hexId('c1', '1')}, 'big' || n || '@bench.example.com', 'big' || n || '@bench.example.com',
              'Big' || n, 'CONTACTED'::"LeadStatus", CASE WHEN n % 25 = 0 THEN 'MEETING_BOOKED' END, 5, now()
         FROM generate_series(1, ${BIG_LEADS - 1}) n
       UNION ALL SELECT ${hexId('f2', '1')}, $1, $2, ${hexId('c2', '1')}, 'deep@bench.example.com', 'deep@bench.example.com', 'Deep', 'CONTACTED'::"LeadStatus", NULL, 1, now()`,
      [org.organizationId, ws],
    );
    const sendCols = `id, organization_id, workspace_id, campaign_id, lead_id, step, variation_id, variation_label, message_id, subject, body, is_text, sent_at, opened_at, replied_at`;
    await step(
      'sends of the small campaigns (1,000,000)',
      `INSERT INTO sent_emails (${sendCols})
       SELECT ${hexId('a0', 'n * 2 + s')}, $1, $2, ${hexId('c0', '(n - 1) / ' + LEADS_PER_SMALL + ' + 1')}, ${hexId('f0', 'n')}, s,
              ${hexId('e0', `(((n - 1) / ${LEADS_PER_SMALL} + 1) * 10 + s) * 2 + (n % 2) + 1`)}, chr(65 + (n % 2)),
              'a0' || n || '-' || s || '@bench', 'Subject', 'Body', false,
              timestamptz '2026-01-01' + ((n % 90) || ' days')::interval + (s * 3 || ' days')::interval,
              CASE WHEN n % 5 < 2 THEN timestamptz '2026-01-01' + ((n % 90) || ' days')::interval + (s * 3 || ' days 2 hours')::interval END,
              CASE WHEN n % 20 < 2 AND s = 1 THEN timestamptz '2026-01-01' + ((n % 90) || ' days')::interval + '5 days'::interval END
         FROM generate_series(1, ${SMALL_CAMPAIGNS * LEADS_PER_SMALL}) n, generate_series(1, 2) s
        WHERE s = 1 OR (n - 1) % ${LEADS_PER_SMALL} < ${10_000 - LEADS_PER_SMALL}`,
      [org.organizationId, ws],
    );
    await step(
      'sends of the big campaign (1,000,000)',
      `INSERT INTO sent_emails (${sendCols})
       SELECT ${hexId('a1', 'n * 8 + s')}, $1, $2, ${hexId('c1', '1')}, ${hexId('f1', 'greatest(n, 1)')}, s,
              ${hexId('e1', 's * 2 + (n % 2) + 1')}, chr(65 + (n % 2)), 'a1' || n || '-' || s || '@bench', 'Subject', 'Body', false,
              timestamptz '2026-01-01' + ((n % 120) || ' days')::interval + (s * 2 || ' days')::interval,
              CASE WHEN n % 3 = 0 THEN timestamptz '2026-01-01' + ((n % 120) || ' days')::interval + (s * 2 || ' days 1 hour')::interval END,
              CASE WHEN n % 25 = 0 AND s = 1 THEN timestamptz '2026-01-01' + ((n % 120) || ' days')::interval + '4 days'::interval END
         FROM generate_series(0, ${BIG_LEADS - 1}) n, generate_series(1, 5) s`,
      [org.organizationId, ws],
    );
    await step(
      'sends to the deep lead',
      `INSERT INTO sent_emails (${sendCols})
       SELECT ${hexId('a2', 'n')}, $1, $2, ${hexId('c2', '1')}, ${hexId('f2', '1')}, 1, ${hexId('e2', '1')}, 'A', 'a2' || n || '@bench', 'Subject', 'Body', n % 2 = 0,
              timestamptz '2026-01-01' + (n || ' minutes')::interval, NULL, NULL
         FROM generate_series(1, ${DEEP_SENDS}) n`,
      [org.organizationId, ws],
    );
    await step(
      'blocklist (10,000 addresses, 1,000 domains)',
      `INSERT INTO blocklist_entries (id, workspace_id, value, is_domain)
       SELECT ${hexId('b0', 'n')}, $1, 'blocked' || n || '@example.org', false FROM generate_series(1, 10000) n
       UNION ALL SELECT ${hexId('b1', 'n')}, $1, 'blocked' || n || '.example.net', true FROM generate_series(1, 1000) n`,
      [ws],
    );
    await client.query(`UPDATE organizations SET lead_count = (SELECT count(*) FROM leads WHERE organization_id = $1) WHERE id = $1`, [org.organizationId]);
    await client.query('COMMIT');
    await step('VACUUM ANALYZE (visibility map for index-only scans)', 'VACUUM ANALYZE');
    const seed: Seed = {
      organizationId: org.organizationId,
      workspaceId: ws,
      apiKey: org.apiKey,
      smallCampaignId: `c0${'1'.padStart(22, '0')}`,
      bigCampaignId: `c1${'1'.padStart(22, '0')}`,
      deepLeadEmail: 'deep@bench.example.com',
      sentCount: 2 * 1_000_000 + DEEP_SENDS,
    };
    await client.query(`UPDATE workspaces SET settings = jsonb_build_object('bench', $2::jsonb) WHERE id = $1`, [ws, JSON.stringify(seed)]);
    log(`seed: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return seed;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    await pool.query('DELETE FROM organizations WHERE id = $1', [org.organizationId]);
    throw error;
  } finally {
    client.release();
  }
}
