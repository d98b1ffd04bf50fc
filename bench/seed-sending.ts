// Seeds the sending engine's benchmark data with generate_series, once, in its own
// organization ("bench-sending-v1"): later runs find it and reuse it. The rows are those
// the engine reads when it claims work (see packages/core/src/sending/scheduler.queries.ts):
// ACTIVE campaigns with a schedule, steps and variations, their mailboxes, leads with
// next_send_at (leads_due_idx), claimed_at (leads_in_flight_idx) and a sticky mailbox,
// today's sends (the daily limits are counted from sent_emails) and a blocklist.
import pg from 'pg';
import { existingSeed, startSeed } from './seed-support';
import type { Database } from '@outreach/db';

export interface SendingSeed {
  organizationId: string;
  workspaceId: string;
  campaignIds: string[];
  /** The instant the pick benchmark claims at (the engine's injected clock). */
  now: string;
  leads: number;
  /** Leads due at `now`. */
  due: number;
}

const SEED_NAME = 'bench-sending-v1';
const MAILBOXES = 100;
const CAMPAIGNS = 50;
const LEADS_PER_CAMPAIGN = 20_000; // 1,000,000 leads
const MAILBOXES_PER_CAMPAIGN = 10; // each mailbox serves 5 campaigns
/** A Wednesday, 10:00 UTC: ten hours into the day the daily limits count. */
const NOW = '2026-03-04T10:00:00.000Z';

// Ids: 24 hex digits like newId()'s, with prefixes no other seed uses.
const hexId = (prefix: string, expr: string) => `'${prefix}' || lpad(to_hex(${expr}), ${24 - prefix.length}, '0')`;

/** The variations: realistic sizes, merge fields with fallbacks, spintax; follow-ups stay in the thread. */
const VARIATIONS: Record<number, { subject: string; body: string }[]> = {
  1: [
    {
      subject: '{Quick question|Question} about {{company_name}}',
      body:
        '<p>{Hi|Hello} {{first_name | there}},</p><p>I {noticed|saw} that {{company_name}} is hiring for sales again. Teams your size usually ' +
        'lose a few hours a week per rep on manual prospecting, and we built a tool that gives that time back.</p>' +
        '<p>{{personalization | Would it be worth a short call to see if it fits?}}</p><p>Would {next Tuesday|Thursday afternoon} work for a 15-minute call?</p>' +
        '<p>Best,<br>{{sender_first_name}}</p>',
    },
    {
      subject: '{{first_name | Hi}}, an idea for {{company_name}}',
      body:
        '<p>Hi {{first_name | there}},</p><p>{Companies|Teams} like {{company_name}} use us to book more meetings without adding headcount: ' +
        'one of them went from 12 to 31 qualified calls a month in a quarter.</p><p>{{personalization | Happy to share how they did it.}}</p>' +
        '<p>{Open to a quick chat|Worth a conversation}?</p><p>Cheers,<br>{{sender_first_name}}</p>',
    },
  ],
  2: [
    { subject: '', body: '<p>{Hi|Hello} {{first_name | there}}, {just bumping this up|following up on my note} in case it got buried. {Any thoughts|Is this on your radar}?</p><p>{{sender_first_name}}</p>' },
    { subject: '', body: '<p>{{first_name | Hi}}, did you get a chance to read my last e-mail? I think it could save {{company_name}} real time.</p><p>{{sender_first_name}}</p>' },
  ],
  3: [
    { subject: '', body: '<p>Hi {{first_name | there}}, I will stop here. If outbound becomes a priority at {{company_name}}, just reply and I will send over details.</p><p>{{sender_first_name}}</p>' },
    { subject: '', body: '<p>{{first_name | Hi}}, last note from me: should I reach out to someone else at {{company_name}} instead?</p><p>{{sender_first_name}}</p>' },
  ],
};
/** Days between a step and the one before it. */
const WAIT_DAYS: Record<number, number> = { 1: 0, 2: 3, 3: 3 };

export const ALL_WEEK_UTC = {
  days: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true },
  timezone: 'UTC',
  timing: { from: '00:00', to: '23:59' },
};
export const SEQUENCE = { variations: VARIATIONS, waitDays: WAIT_DAYS };

export async function ensureSendingSeed(options: { db: Database; pool: pg.Pool; log: (line: string) => void; encryptedPassword: string }): Promise<SendingSeed> {
  const { pool, log } = options;
  const existing = await existingSeed<SendingSeed>({ pool, name: SEED_NAME, key: 'benchSending' });
  if (existing) {
    log('seed (sending): reusing the existing data (drop the database, or the organization "bench-sending-v1", to reseed)');
    return existing;
  }
  const started = Date.now();
  const { org, ws, client, step } = await startSeed({ db: options.db, pool, name: SEED_NAME, workspaceName: 'bench sending', log, prefix: 'seed (sending)' });
  try {
    await client.query('SET synchronous_commit = off');
    await client.query('BEGIN');
    await client.query(`UPDATE workspaces SET timezone = 'UTC' WHERE id = $1`, [ws]);
    await step(
      `mailboxes (${MAILBOXES}, 5 per domain, 50 a day, 10-minute gap)`,
      `INSERT INTO email_accounts (id, organization_id, workspace_id, email, email_normalized, first_name, last_name, status,
                                   smtp_host, smtp_port, smtp_username, smtp_password_enc, imap_host, imap_port, imap_username, imap_password_enc,
                                   daily_limit, sending_gap, signature, updated_at)
       SELECT ${hexId('59', 'k')}, $1, $2, e, e, 'Sender' || k, 'Bench', 'ACTIVE'::"EmailAccountStatus",
              '127.0.0.1', 2525, e, $3, '127.0.0.1', 1143, e, $3, 50, 10, '<p>Sender ' || k || '<br>Bench Inc.</p>', now()
         FROM generate_series(1, ${MAILBOXES}) k, LATERAL (SELECT 'sender' || k || '@outbound' || ((k - 1) / 5 + 1) || '.example.com' AS e) x`,
      [org.organizationId, ws, options.encryptedPassword],
    );
    await step(
      `campaigns (${CAMPAIGNS} ACTIVE, open all week all day in UTC, 1,000 a day)`,
      `INSERT INTO campaigns (id, organization_id, workspace_id, name, status, type, daily_limit, open_tracking, unsubscribe_link, schedule, updated_at)
       SELECT ${hexId('5c', 'c')}, $1, $2, 'sending bench ' || c, 'ACTIVE'::"CampaignStatus", 'parent'::"CampaignType", 1000, true, true, $3::jsonb, now()
         FROM generate_series(1, ${CAMPAIGNS}) c`,
      [org.organizationId, ws, JSON.stringify(ALL_WEEK_UTC)],
    );
    await step(
      `campaign mailboxes (${MAILBOXES_PER_CAMPAIGN} per campaign)`,
      `INSERT INTO campaign_email_accounts (campaign_id, email_account_id)
       SELECT ${hexId('5c', 'c')}, ${hexId('59', `((c - 1) * ${MAILBOXES_PER_CAMPAIGN} + j) % ${MAILBOXES} + 1`)}
         FROM generate_series(1, ${CAMPAIGNS}) c, generate_series(0, ${MAILBOXES_PER_CAMPAIGN - 1}) j`,
    );
    await step(
      'steps (3 per campaign)',
      `INSERT INTO sequence_steps (id, workspace_id, campaign_id, step, wait_time)
       SELECT ${hexId('5d', 'c * 10 + s')}, $1, ${hexId('5c', 'c')}, s, (ARRAY[${WAIT_DAYS[1]}, ${WAIT_DAYS[2]}, ${WAIT_DAYS[3]}])[s]
         FROM generate_series(1, ${CAMPAIGNS}) c, generate_series(1, 3) s`,
      [ws],
    );
    const texts = [1, 2, 3].flatMap((s) => [0, 1].map((v) => VARIATIONS[s]![v]!));
    await step(
      'variations (2 per step)',
      `INSERT INTO variations (id, workspace_id, campaign_id, step_id, label, subject, body)
       SELECT ${hexId('5e', '(c * 10 + s) * 2 + v')}, $1, ${hexId('5c', 'c')}, ${hexId('5d', 'c * 10 + s')}, chr(64 + v),
              ($2::text[])[(s - 1) * 2 + v], ($3::text[])[(s - 1) * 2 + v]
         FROM generate_series(1, ${CAMPAIGNS}) c, generate_series(1, 3) s, generate_series(1, 2) v`,
      [ws, texts.map((t) => t.subject), texts.map((t) => t.body)],
    );
    // One row per lead: n, its campaign c, its place i in the campaign (its turn: leads
    // of every campaign are due alike), its state m (spread over i and c, so neighbours
    // in a campaign and the leads at one turn in different campaigns differ):
    //   m <  70  NOT_CONTACTED, due (next_send_at over the last 3 days, by i)
    //   m <  75  CONTACTED after step 1, step 2 due (interleaved with the new leads)
    //   m <  90  CONTACTED after step 1 or 2, next step in 1–48 h (1 in 75 of them sent today, about 20 per mailbox)
    //   m <  98  COMPLETED (3 steps sent);  98 REPLIED, 99 BOUNCED after step 1.
    await step(
      'lead states',
      `CREATE TEMP TABLE bench_sending_leads ON COMMIT DROP AS
       SELECT n, c, i, m,
              CASE WHEN m < 70 THEN 'NOT_CONTACTED' WHEN m < 90 THEN 'CONTACTED' WHEN m < 98 THEN 'COMPLETED' WHEN m = 98 THEN 'REPLIED' ELSE 'BOUNCED' END AS status,
              CASE WHEN m < 75 THEN (m >= 70)::int WHEN m < 90 THEN 1 + n % 2 WHEN m < 98 THEN 3 ELSE 1 END AS step,
              CASE WHEN m < 75 THEN due WHEN m < 90 THEN (CASE WHEN (i / 10) % 75 = 0 THEN today + interval '3 days' ELSE $1::timestamptz + ((i % 48) + 1) * interval '1 hour' END) END AS next_send_at,
              CASE WHEN m < 70 THEN NULL WHEN m < 75 THEN due - interval '3 days'
                   WHEN m < 90 THEN (CASE WHEN (i / 10) % 75 = 0 THEN today ELSE $1::timestamptz + ((i % 48) + 1) * interval '1 hour' - interval '3 days' END)
                   WHEN m < 98 THEN $1::timestamptz - interval '2 days' - (i % 500) * interval '1 hour'
                   ELSE $1::timestamptz - interval '5 days' - (i % 200) * interval '1 hour' END AS last_sent_at,
              ${hexId('59', `((c - 1) * ${MAILBOXES_PER_CAMPAIGN} + n % ${MAILBOXES_PER_CAMPAIGN}) % ${MAILBOXES} + 1`)} AS mailbox_id
         FROM (SELECT n, c, i, (i * 19 + c * 37) % 100 AS m,
                      $1::timestamptz - interval '3 days' + i * interval '12 seconds' AS due,
                      $1::timestamptz - ((i % 600) + 1) * interval '1 minute' AS today
                 FROM (SELECT n, (n - 1) / ${LEADS_PER_CAMPAIGN} + 1 AS c, (n - 1) % ${LEADS_PER_CAMPAIGN} AS i
                         FROM generate_series(1, ${CAMPAIGNS * LEADS_PER_CAMPAIGN}) n) a) b`,
      [NOW],
    );
    await step(
      `leads (${CAMPAIGNS} × ${LEADS_PER_CAMPAIGN.toLocaleString('en')})`,
      `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, last_name, company_name,
                          company_website, job_title, custom_variables, status, current_step, is_completed, email_account_id,
                          next_send_at, last_sent_at, created_at, updated_at)
       SELECT ${hexId('5f', 'n')}, $1, $2, ${hexId('5c', 'c')}, e, e, 'Lead' || n, 'Surname', 'Company ' || (n % 4999),
              'https://company' || (n % 4999) || '.example.com', 'Head of Sales',
              CASE WHEN n % 4 = 0 THEN jsonb_build_object('personalization', 'Loved your talk on outbound at SaaStr, ' || 'Lead' || n || '.') ELSE '{}'::jsonb END,
              status::"LeadStatus", step, status <> 'NOT_CONTACTED' AND status <> 'CONTACTED', CASE WHEN step > 0 THEN mailbox_id END,
              next_send_at, last_sent_at, $3::timestamptz - interval '20 days' + i * interval '12 seconds', $3::timestamptz - interval '1 hour'
         FROM bench_sending_leads, LATERAL (SELECT 'lead' || n || '@company' || (n % 4999) || '.example.com' AS e) x`,
      [org.organizationId, ws, NOW],
    );
    await step(
      'sends of the contacted leads (one per step sent)',
      `INSERT INTO sent_emails (id, organization_id, workspace_id, campaign_id, lead_id, email_account_id, step, variation_id, variation_label,
                                message_id, subject, body, is_text, sent_at, replied_at, bounced_at)
       SELECT '5' || s || lpad(to_hex(n), 22, '0'), $1, $2, ${hexId('5c', 'c')}, ${hexId('5f', 'n')}, mailbox_id, s,
              ${hexId('5e', '(c * 10 + s) * 2 + n % 2 + 1')}, chr(65 + n % 2),
              '5' || s || lpad(to_hex(n), 22, '0') || '@outbound.example.com', 'Question about Company ' || (n % 4999), '<p>Hi Lead' || n || ', …</p>', false,
              last_sent_at - (step - s) * interval '3 days',
              CASE WHEN status = 'REPLIED' THEN last_sent_at + interval '1 day' END,
              CASE WHEN status = 'BOUNCED' THEN last_sent_at END
         FROM bench_sending_leads JOIN generate_series(1, 3) s ON s <= step`,
      [org.organizationId, ws],
    );
    await step(
      'variation counts',
      `UPDATE variations v SET assigned_count = x.n
         FROM (SELECT variation_id, count(*)::int AS n FROM sent_emails WHERE workspace_id = $1 GROUP BY variation_id) x
        WHERE v.id = x.variation_id`,
      [ws],
    );
    await step(
      'blocklist (10,000 addresses, about 1% of the leads; 1,000 domains, 20 of them the leads’)',
      `INSERT INTO blocklist_entries (id, workspace_id, value, is_domain)
       SELECT ${hexId('5b', 'k')}, $1, 'lead' || (97 * k) || '@company' || ((97 * k) % 4999) || '.example.com', false FROM generate_series(1, 10000) k
       UNION ALL SELECT ${hexId('5b', '100000 + d')}, $1, 'company' || (d * 250 + 13) || '.example.com', true FROM generate_series(0, 19) d
       UNION ALL SELECT ${hexId('5b', '200000 + d')}, $1, 'blocked' || d || '.example.net', true FROM generate_series(1, 980) d`,
      [ws],
    );
    await client.query(`UPDATE organizations SET lead_count = $2 WHERE id = $1`, [org.organizationId, CAMPAIGNS * LEADS_PER_CAMPAIGN]);
    const due = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM bench_sending_leads WHERE next_send_at <= $1`, [NOW]);
    const seed: SendingSeed = {
      organizationId: org.organizationId,
      workspaceId: ws,
      campaignIds: Array.from({ length: CAMPAIGNS }, (_, k) => `5c${(k + 1).toString(16).padStart(22, '0')}`),
      now: NOW,
      leads: CAMPAIGNS * LEADS_PER_CAMPAIGN,
      due: due.rows[0]!.n,
    };
    await client.query(`UPDATE workspaces SET settings = settings || jsonb_build_object('benchSending', $2::jsonb) WHERE id = $1`, [ws, JSON.stringify(seed)]);
    await client.query('COMMIT');
    await step(
      'VACUUM ANALYZE',
      'VACUUM ANALYZE leads, sent_emails, campaigns, campaign_email_accounts, email_accounts, sequence_steps, variations, blocklist_entries',
    );
    log(`seed (sending): done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return seed;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    await pool.query('DELETE FROM organizations WHERE id = $1', [org.organizationId]);
    throw error;
  } finally {
    client.release();
  }
}

// ── the headroom seed: many mailboxes, late in a busy day ──────────────────────────────

export interface HeadroomSeed {
  organizationId: string;
  workspaceId: string;
  mailboxes: number;
  campaigns: number;
  /** The instant the headroom benchmark claims at: late in the day the limits count. */
  now: string;
  /** Sends recorded today before `now`. */
  sentToday: number;
  due: number;
}

/**
 * The headroom seeds by their mailboxes: 5,000 (one worker) and twice as many (two workers). Each
 * has its organization, the first hex digit of its ids and a tag in its addresses (the seeds
 * share a database), and the prefix of its log lines.
 */
const HEADROOM_SEEDS = {
  5_000: { name: 'bench-headroom-v1', digit: '6', tag: 'h', prefix: 'seed (headroom)' },
  10_000: { name: 'bench-headroom-10000-v1', digit: '7', tag: 'hh', prefix: 'seed (headroom, 10,000)' },
} as const;
export type HeadroomSize = keyof typeof HEADROOM_SEEDS;
const HR_MAILBOXES_PER_CAMPAIGN = 20;
const HR_DUE_PER_CAMPAIGN = 800;
const HR_SENT_PER_CAMPAIGN = 800; // 200,000 sends today, 40 per mailbox
/** 20:00 UTC: twenty hours of the day's sends are behind it. */
const HR_NOW = '2026-03-04T20:00:00.000Z';

/**
 * 5,000 mailboxes (100 a day, 1-minute gap) in 250 campaigns of 20, each campaign with 800
 * leads due and 800 leads sent today (200,000 sends since midnight, 40 a mailbox): what a
 * claim late in a busy day reads. Seeded once in its own organization ("bench-headroom-v1").
 * With `mailboxes` 10,000: the same twice over (500 campaigns, 400,000 leads due, 400,000 sends
 * today), in "bench-headroom-10000-v1".
 */
export async function ensureHeadroomSeed(options: { db: Database; pool: pg.Pool; log: (line: string) => void; encryptedPassword: string; mailboxes?: HeadroomSize }): Promise<HeadroomSeed> {
  const { pool, log } = options;
  const HR_MAILBOXES = options.mailboxes ?? 5_000;
  const HR_CAMPAIGNS = HR_MAILBOXES / HR_MAILBOXES_PER_CAMPAIGN;
  const { name, digit, tag, prefix } = HEADROOM_SEEDS[HR_MAILBOXES];
  // Ids: hexId with this seed's first digit (mailboxes d9, campaigns dc, steps dd, variations de, leads df, sends da).
  const id = (kind: string, expr: string) => hexId(`${digit}${kind}`, expr);
  const existing = await existingSeed<HeadroomSeed>({ pool, name, key: 'benchHeadroom' });
  if (existing) {
    log(`${prefix}: reusing the existing data (drop the organization "${name}" to reseed)`);
    return existing;
  }
  const started = Date.now();
  const { org, ws, client, step } = await startSeed({ db: options.db, pool, name, workspaceName: 'bench headroom', log, prefix });
  const perCampaign = HR_MAILBOXES_PER_CAMPAIGN;
  const leadsPerCampaign = HR_DUE_PER_CAMPAIGN + HR_SENT_PER_CAMPAIGN;
  try {
    await client.query('SET synchronous_commit = off');
    await client.query('BEGIN');
    await client.query(`UPDATE workspaces SET timezone = 'UTC' WHERE id = $1`, [ws]);
    await step(
      `mailboxes (${HR_MAILBOXES}, 100 a day, 1-minute gap)`,
      `INSERT INTO email_accounts (id, organization_id, workspace_id, email, email_normalized, first_name, last_name, status,
                                   smtp_host, smtp_port, smtp_username, smtp_password_enc, imap_host, imap_port, imap_username, imap_password_enc,
                                   daily_limit, sending_gap, signature, updated_at)
       SELECT ${id('9', 'k')}, $1, $2, e, e, 'Sender' || k, 'Bench', 'ACTIVE'::"EmailAccountStatus",
              '127.0.0.1', 2525, e, $3, '127.0.0.1', 1143, e, $3, 100, 1, '<p>Sender ' || k || '</p>', now()
         FROM generate_series(1, ${HR_MAILBOXES}) k, LATERAL (SELECT '${tag}sender' || k || '@${tag}outbound' || ((k - 1) / 5 + 1) || '.example.com' AS e) x`,
      [org.organizationId, ws, options.encryptedPassword],
    );
    await step(
      `campaigns (${HR_CAMPAIGNS} ACTIVE, open all day in UTC, 10,000 a day)`,
      `INSERT INTO campaigns (id, organization_id, workspace_id, name, status, type, daily_limit, open_tracking, unsubscribe_link, schedule, updated_at)
       SELECT ${id('c', 'c')}, $1, $2, 'headroom bench ' || c, 'ACTIVE'::"CampaignStatus", 'parent'::"CampaignType", 10000, true, true, $3::jsonb, now()
         FROM generate_series(1, ${HR_CAMPAIGNS}) c`,
      [org.organizationId, ws, JSON.stringify(ALL_WEEK_UTC)],
    );
    await step(
      `campaign mailboxes (${perCampaign} per campaign, none shared)`,
      `INSERT INTO campaign_email_accounts (campaign_id, email_account_id)
       SELECT ${id('c', 'c')}, ${id('9', `(c - 1) * ${perCampaign} + j + 1`)}
         FROM generate_series(1, ${HR_CAMPAIGNS}) c, generate_series(0, ${perCampaign - 1}) j`,
    );
    await step(
      'steps (3 per campaign)',
      `INSERT INTO sequence_steps (id, workspace_id, campaign_id, step, wait_time)
       SELECT ${id('d', 'c * 10 + s')}, $1, ${id('c', 'c')}, s, (ARRAY[${WAIT_DAYS[1]}, ${WAIT_DAYS[2]}, ${WAIT_DAYS[3]}])[s]
         FROM generate_series(1, ${HR_CAMPAIGNS}) c, generate_series(1, 3) s`,
      [ws],
    );
    const texts = [1, 2, 3].flatMap((s) => [0, 1].map((v) => VARIATIONS[s]![v]!));
    await step(
      'variations (2 per step)',
      `INSERT INTO variations (id, workspace_id, campaign_id, step_id, label, subject, body)
       SELECT ${id('e', '(c * 10 + s) * 2 + v')}, $1, ${id('c', 'c')}, ${id('d', 'c * 10 + s')}, chr(64 + v),
              ($2::text[])[(s - 1) * 2 + v], ($3::text[])[(s - 1) * 2 + v]
         FROM generate_series(1, ${HR_CAMPAIGNS}) c, generate_series(1, 3) s, generate_series(1, 2) v`,
      [ws, texts.map((t) => t.subject), texts.map((t) => t.body)],
    );
    // Lead i of campaign c: i < 800 due at its first step; the others sent step 1 today
    // (spread over the day before NOW, from the campaign's mailboxes), step 2 due in 3 days.
    await step(
      `leads (${HR_CAMPAIGNS} × ${leadsPerCampaign})`,
      `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, last_name, company_name,
                          status, current_step, is_completed, email_account_id, next_send_at, last_sent_at, created_at, updated_at)
       SELECT ${id('f', 'n')}, $1, $2, ${id('c', 'c')}, e, e, 'Lead' || n, 'Surname', 'Company ' || (n % 4999),
              (CASE WHEN i < ${HR_DUE_PER_CAMPAIGN} THEN 'NOT_CONTACTED' ELSE 'CONTACTED' END)::"LeadStatus",
              (i >= ${HR_DUE_PER_CAMPAIGN})::int, false,
              CASE WHEN i >= ${HR_DUE_PER_CAMPAIGN} THEN ${id('9', `(c - 1) * ${perCampaign} + i % ${perCampaign} + 1`)} END,
              CASE WHEN i < ${HR_DUE_PER_CAMPAIGN} THEN $3::timestamptz - interval '1 day' + i * interval '1 second' ELSE $3::timestamptz + interval '3 days' END,
              CASE WHEN i >= ${HR_DUE_PER_CAMPAIGN} THEN date_trunc('day', $3::timestamptz) + (i - ${HR_DUE_PER_CAMPAIGN}) * interval '89 seconds' END,
              $3::timestamptz - interval '2 days', $3::timestamptz - interval '1 hour'
         FROM (SELECT n, (n - 1) / ${leadsPerCampaign} + 1 AS c, (n - 1) % ${leadsPerCampaign} AS i
                 FROM generate_series(1, ${HR_CAMPAIGNS * leadsPerCampaign}) n) a,
              LATERAL (SELECT '${tag}lead' || n || '@${tag}company' || (n % 4999) || '.example.com' AS e) x`,
      [org.organizationId, ws, HR_NOW],
    );
    await step(
      `today's sends (${(HR_CAMPAIGNS * HR_SENT_PER_CAMPAIGN).toLocaleString('en')})`,
      `INSERT INTO sent_emails (id, organization_id, workspace_id, campaign_id, lead_id, email_account_id, step, variation_id, variation_label,
                                message_id, subject, body, is_text, sent_at)
       SELECT '${digit}a' || lpad(to_hex(n), 22, '0'), $1, $2, ${id('c', 'c')}, ${id('f', 'n')},
              ${id('9', `(c - 1) * ${perCampaign} + i % ${perCampaign} + 1`)}, 1,
              ${id('e', '(c * 10 + 1) * 2 + n % 2 + 1')}, chr(65 + n % 2),
              '${digit}a' || lpad(to_hex(n), 22, '0') || '@${tag}outbound.example.com', 'Question', '<p>Hi</p>', false,
              date_trunc('day', $3::timestamptz) + (i - ${HR_DUE_PER_CAMPAIGN}) * interval '89 seconds'
         FROM (SELECT n, (n - 1) / ${leadsPerCampaign} + 1 AS c, (n - 1) % ${leadsPerCampaign} AS i
                 FROM generate_series(1, ${HR_CAMPAIGNS * leadsPerCampaign}) n) a
        WHERE i >= ${HR_DUE_PER_CAMPAIGN}`,
      [org.organizationId, ws, HR_NOW],
    );
    await client.query(`UPDATE organizations SET lead_count = $2 WHERE id = $1`, [org.organizationId, HR_CAMPAIGNS * leadsPerCampaign]);
    const seed: HeadroomSeed = {
      organizationId: org.organizationId,
      workspaceId: ws,
      mailboxes: HR_MAILBOXES,
      campaigns: HR_CAMPAIGNS,
      now: HR_NOW,
      sentToday: HR_CAMPAIGNS * HR_SENT_PER_CAMPAIGN,
      due: HR_CAMPAIGNS * HR_DUE_PER_CAMPAIGN,
    };
    await client.query(`UPDATE workspaces SET settings = settings || jsonb_build_object('benchHeadroom', $2::jsonb) WHERE id = $1`, [ws, JSON.stringify(seed)]);
    await client.query('COMMIT');
    await step('VACUUM ANALYZE', 'VACUUM ANALYZE leads, sent_emails, campaigns, campaign_email_accounts, email_accounts, sequence_steps, variations');
    log(`${prefix}: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return seed;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    await pool.query('DELETE FROM organizations WHERE id = $1', [org.organizationId]);
    throw error;
  } finally {
    client.release();
  }
}
