// Double sends under kill -9 (issue #11): a sending worker (bench/kill9-worker.ts, its own
// process, on PostgreSQL) sends a campaign of 200 leads from 10 mailboxes into a local SMTP
// sink; it is killed with SIGKILL several times while it delivers and restarted each time,
// the restarted worker's clock moved past the 5-minute lease (the engine takes time from its
// injected clock only; it also runs 60 times faster, so that the 0–60 s pause of a mailbox
// between two sends takes a second); the last worker runs until every lead is finished. Then the sink's
// Message-IDs are counted: duplicates (one Message-ID received twice or more) and missing
// leads (none received), with what the database recorded.
//
//   npx tsx bench/kill9-double-send.ts
//
// Settings (environment): KILL9_DATABASE_URL (a PostgreSQL server the script may create
// databases on; without it, run as root, a throw-away cluster is started under /tmp with the
// binaries of /usr/lib/postgresql/*/bin, as .ci/run does), KILL9_RUNS (5), KILL9_LEADS (200),
// KILL9_KILLS (kills per run, 8), KILL9_KILL_WINDOW_MS (30), KILL9_AFTER_MESSAGES (1),
// KILL9_REPLY_DELAY_MS (10), KILL9_SEED (1), KILL9_TRACE (1: also print where the time between
// the server's 354 and the body's final "." goes: before the DATA mark, the mark's statement,
// after it).
//
// When a kill happens: once the restarted worker has had KILL9_AFTER_MESSAGES messages accepted
// by the sink (1 by default: in its first tick; "10-20": a random number in that range, in a
// later tick), after a further random 0..KILL9_KILL_WINDOW_MS ms, so kills land while SMTP
// transactions and their recording are in flight. The sink keeps a message when
// its body is complete (the final "."), then waits KILL9_REPLY_DELAY_MS before its 250 answer,
// like a server that queues the message before answering: a client killed after the "." leaves
// a delivered message behind whether or not it saw the answer.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { applyMigrations, createDatabase, newId } from '@outreach/db';
import { CLAIM_LEASE_MS, createOrganization, createSecretBox } from '@outreach/core';
import { createTestCampaign } from '@outreach/core/testing';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RUNS = num('KILL9_RUNS', 5);
const LEADS = num('KILL9_LEADS', 200);
const KILLS = num('KILL9_KILLS', 8);
const KILL_WINDOW_MS = num('KILL9_KILL_WINDOW_MS', 30);
const REPLY_DELAY_MS = num('KILL9_REPLY_DELAY_MS', 10);
// "1": kill in a restarted worker's first tick (cold: JIT, first queries); "10-20": after a
// random 10 to 20 of its messages were accepted (warm, a later tick).
const [AFTER_MIN, AFTER_MAX] = (process.env['KILL9_AFTER_MESSAGES'] ?? '1').split('-').map(Number) as [number, number?];
const MAILBOXES = 10;
const CLOCK_SPEED = 60;
const CLOCK_ORIGIN = Date.now();
const say = (line: string) => console.log(line);

// A small seeded generator, so a run's kill moments can be repeated (mulberry32).
let seed = num('KILL9_SEED', 1) >>> 0;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── PostgreSQL ─────────────────────────────────────────────────────────────────────────────

async function startThrowawayCluster(): Promise<{ url: string; stop: () => void }> {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  const bin = join('/usr/lib/postgresql', versions[versions.length - 1]!, 'bin');
  if (!existsSync(join(bin, 'initdb'))) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql; set KILL9_DATABASE_URL');
  const root = mkdtempSync(join(tmpdir(), 'outreach-kill9-pg.'));
  chownSync(root, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  const port = 54_000 + Math.floor(Math.random() * 1000);
  const asPostgres = (cmd: string) => execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', cmd], { stdio: 'pipe' });
  asPostgres(`'${bin}/initdb' -D '${root}/data' -A trust -U postgres`);
  asPostgres(`'${bin}/pg_ctl' -D '${root}/data' -w -l '${root}/log' -o "-p ${port} -k ${root} -c listen_addresses=127.0.0.1" start`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        asPostgres(`'${bin}/pg_ctl' -D '${root}/data' -m fast stop`);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

// ── the SMTP sink ──────────────────────────────────────────────────────────────────────────

interface Received {
  messageId: string;
  to: string;
  /** From the server's 354 (DATA accepted) to the body's final ".", ms. */
  bodyMs: number;
  dataAt: number;
  dotAt: number;
}
const marks = new Map<string, { start: number; end: number }>();
const clockNow = () => performance.timeOrigin + performance.now();

async function startSink(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream, session, callback) {
      const started = performance.now();
      const dataAt = clockNow();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = /^Message-ID:\s*<([^>]+)>/im.exec(raw)?.[1] ?? '(none)';
        const bodyMs = performance.now() - started;
        const dotAt = clockNow();
        for (const to of session.envelope.rcptTo) received.push({ messageId, to: to.address.toLowerCase(), bodyMs, dataAt, dotAt });
        setTimeout(() => callback(), REPLY_DELAY_MS);
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('sink has no port');
  return { port: address.port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What holds the worker up when it sends nothing for 20 s (printed, for the record). */
async function diagnose(options: { url: string; campaignId: string; generation: number }) {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const activity = await client.query(
    `SELECT pid, state, now() - xact_start AS xact_age, left(query, 80) AS query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  const leads = await client.query(
    `SELECT count(*) FILTER (WHERE claimed_at IS NOT NULL) AS claimed, count(*) FILTER (WHERE next_send_at IS NOT NULL) AS unfinished, min(next_send_at) AS next_due FROM leads WHERE campaign_id = $1`,
    [options.campaignId],
  );
  const boxes = await client.query(`SELECT min(next_send_allowed_at) AS first_free, max(next_send_allowed_at) AS last_free, array_agg(DISTINCT status) AS status FROM email_accounts`);
  const campaign = await client.query(`SELECT status, last_lead_sent_at FROM campaigns WHERE id = $1`, [options.campaignId]);
  say(`  generation ${options.generation} sent nothing in 20 s: ${JSON.stringify({ activity: activity.rows, leads: leads.rows, boxes: boxes.rows, campaign: campaign.rows })}`);
  await client.end();
}

// ── one run ────────────────────────────────────────────────────────────────────────────────

interface RunResult {
  kills: number;
  delivered: number;
  duplicates: number;
  duplicatedLeads: number;
  missing: number;
  recorded: number;
  unknown: number | null;
}

function startWorker(options: { url: string; key: string; generation: number }): { child: ChildProcess; ready: Promise<void>; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'kill9-worker.ts')], {
    env: {
      ...process.env,
      KILL9_DATABASE_URL: options.url,
      KILL9_ENCRYPTION_KEY: options.key,
      // Each generation is past the lease of every claim made before it.
      KILL9_CLOCK_OFFSET_MS: String(options.generation * (CLAIM_LEASE_MS + 60_000)),
      KILL9_CLOCK_SPEED: String(CLOCK_SPEED),
      KILL9_CLOCK_ORIGIN: String(CLOCK_ORIGIN),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line === 'ready') resolve();
      const m = /^mark (\S+) (\S+) (\S+)$/.exec(line);
      if (m) marks.set(m[1]!, { start: Number(m[2]), end: Number(m[3]) });
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  ready.catch(() => {});
  return { child, ready, exited };
}

async function run(options: { adminUrl: string; sink: Awaited<ReturnType<typeof startSink>>; index: number }): Promise<RunResult> {
  const { sink } = options;
  const dbName = `kill9_${Date.now()}_${options.index}`;
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = options.adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
  const db = await createDatabase({ url, poolSize: 4 });
  await applyMigrations({ db });
  const key = randomBytes(32).toString('hex');
  const secrets = createSecretBox({ key: Buffer.from(key, 'hex') });

  // One workspace, 10 mailboxes on the sink (no gap, no practical limit), one ACTIVE one-step
  // campaign open all week, LEADS leads due now.
  const org = await createOrganization({ db: db.prisma, name: `kill9-${options.index}` });
  const ws = org.workspaceId;
  const mailboxIds: string[] = [];
  for (let i = 0; i < MAILBOXES; i++) {
    const id = newId();
    const email = `sender${i}@kill9.test`;
    await db.prisma.emailAccount.create({
      data: {
        id, organizationId: org.organizationId, workspaceId: ws, email, emailNormalized: email, firstName: `Sender${i}`, lastName: 'Kill',
        smtpHost: '127.0.0.1', smtpPort: sink.port, smtpUsername: email, smtpPasswordEnc: secrets.encrypt('pw'),
        imapHost: '127.0.0.1', imapPort: 1, imapUsername: email, imapPasswordEnc: secrets.encrypt('pw'), dailyLimit: 10_000, sendingGap: 0,
      },
    });
    mailboxIds.push(id);
  }
  const campaign = await createTestCampaign({
    db: db.prisma, organizationId: org.organizationId, workspaceId: ws, status: 'ACTIVE', openTracking: false,
    steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>Hi {{first_name}}, a question about {{company_name}}.</p>' }] }],
  });
  await db.prisma.campaign.update({
    where: { id: campaign.id },
    data: { schedule: { days: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true }, timezone: 'UTC', timing: { from: '00:00', to: '23:59' } }, dailyLimit: 100_000, unsubscribeLink: false },
  });
  await db.prisma.campaignEmailAccount.createMany({ data: mailboxIds.map((emailAccountId) => ({ campaignId: campaign.id, emailAccountId })) });
  const domain = `run${options.index}-${Date.now()}.test`;
  const addresses = Array.from({ length: LEADS }, (_, i) => `lead${i}@${domain}`);
  const due = Date.now() - 3_600_000;
  await db.prisma.lead.createMany({
    data: addresses.map((email, i) => ({
      id: newId(), organizationId: org.organizationId, workspaceId: ws, campaignId: campaign.id, email, emailNormalized: email,
      firstName: `Lead${i}`, companyName: 'Acme', nextSendAt: new Date(due + i),
    })),
  });

  const mine = (r: Received) => r.to.endsWith(`@${domain}`);
  const receivedCount = () => sink.received.filter(mine).length;
  const unfinished = async () => db.prisma.lead.count({ where: { campaignId: campaign.id, nextSendAt: { not: null } } });
  // Polled every millisecond while waiting for messages: the database is asked every 100th time.
  let polls = 0;
  let lastUnfinished = LEADS;
  const unfinishedSoon = async () => (polls++ % 100 === 0 ? (lastUnfinished = await unfinished()) : lastUnfinished) > 0;

  let kills = 0;
  let generation = 0;
  for (; kills < KILLS; generation++) {
    if ((await unfinished()) === 0) break;
    const worker = startWorker({ url, key, generation });
    await worker.ready;
    const before = receivedCount();
    const wanted = before + AFTER_MIN + Math.floor(random() * ((AFTER_MAX ?? AFTER_MIN) - AFTER_MIN + 1));
    const deadline = Date.now() + 20_000;
    while (receivedCount() < wanted && Date.now() < deadline && (await unfinishedSoon())) await sleep(1);
    if (receivedCount() === before) await diagnose({ url, campaignId: campaign.id, generation });
    await sleep(random() * KILL_WINDOW_MS);
    worker.child.kill('SIGKILL');
    await worker.exited;
    kills += 1;
  }
  // The last worker finishes the campaign and stops cleanly.
  const last = startWorker({ url, key, generation });
  await last.ready;
  const deadline = Date.now() + 120_000;
  while ((await unfinished()) > 0 && Date.now() < deadline) await sleep(50);
  last.child.kill('SIGTERM');
  await last.exited;

  const received = sink.received.filter(mine);
  const bodyMs = received.map((r) => r.bodyMs).sort((a, b) => a - b);
  const at = (q: number) => bodyMs[Math.min(bodyMs.length - 1, Math.floor(q * bodyMs.length))] ?? 0;
  say(`    354 → final "." at the sink: p50 ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`);
  if (marks.size) {
    const leadsByEmail = new Map((await db.prisma.lead.findMany({ where: { campaignId: campaign.id }, select: { id: true, email: true } })).map((l) => [l.email, l.id]));
    const parts = { before: [] as number[], mark: [] as number[], after: [] as number[] };
    for (const r of received) {
      const m = marks.get(leadsByEmail.get(r.to) ?? '');
      if (!m) continue;
      parts.before.push(m.start - r.dataAt);
      parts.mark.push(m.end - m.start);
      parts.after.push(r.dotAt - m.end);
    }
    const q = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]?.toFixed(1);
    for (const [k, xs] of Object.entries(parts)) say(`    ${k}: p50 ${q(xs, 0.5)} p90 ${q(xs, 0.9)} max ${q(xs, 1)}`);
  }
  const byMessageId = new Map<string, number>();
  for (const r of received) byMessageId.set(r.messageId, (byMessageId.get(r.messageId) ?? 0) + 1);
  const byLead = new Map<string, number>();
  for (const r of received) byLead.set(r.to, (byLead.get(r.to) ?? 0) + 1);
  const recorded = await db.prisma.sentEmail.count({ where: { campaignId: campaign.id } });
  const [column] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'sent_emails' AND column_name = 'outcome_unknown'`,
  );
  const unknown = column?.n
    ? (await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM sent_emails WHERE campaign_id = $1 AND outcome_unknown`, campaign.id))[0]!.n
    : null;
  await db.close();
  const admin2 = new pg.Client({ connectionString: options.adminUrl });
  await admin2.connect();
  await admin2.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
  await admin2.end();
  return {
    kills,
    delivered: received.length,
    duplicates: [...byMessageId.values()].reduce((n, c) => n + c - 1, 0),
    duplicatedLeads: [...byLead.values()].filter((c) => c > 1).length,
    missing: addresses.filter((a) => !byLead.has(a)).length,
    recorded,
    unknown,
  };
}

// ── main ───────────────────────────────────────────────────────────────────────────────────

const cluster = process.env['KILL9_DATABASE_URL'] ? null : await startThrowawayCluster();
const adminUrl = process.env['KILL9_DATABASE_URL'] ?? cluster!.url;
const sink = await startSink();
try {
  say(`kill -9 double-send experiment: ${RUNS} runs × ${LEADS} leads from ${MAILBOXES} mailboxes, ${KILLS} SIGKILLs a run ` +
    `(each 0–${KILL_WINDOW_MS} ms after ${AFTER_MIN}${AFTER_MAX ? `–${AFTER_MAX}` : ''} accepted message(s) of the restarted worker), sink answers ${REPLY_DELAY_MS} ms after the body, seed ${num('KILL9_SEED', 1)}`);
  const totals: RunResult = { kills: 0, delivered: 0, duplicates: 0, duplicatedLeads: 0, missing: 0, recorded: 0, unknown: 0 };
  for (let i = 0; i < RUNS; i++) {
    const r = await run({ adminUrl, sink, index: i });
    say(`  run ${i + 1}: kills ${r.kills}, messages received ${r.delivered}, duplicate Message-IDs ${r.duplicates} (leads ${r.duplicatedLeads}), ` +
      `leads never received ${r.missing}, sends recorded ${r.recorded}${r.unknown === null ? '' : `, of them outcome unknown ${r.unknown}`}`);
    for (const k of ['kills', 'delivered', 'duplicates', 'duplicatedLeads', 'missing', 'recorded'] as const) totals[k] += r[k];
    totals.unknown = r.unknown === null ? null : (totals.unknown ?? 0) + r.unknown;
  }
  say(`TOTAL: ${RUNS * LEADS} leads, ${totals.kills} kills: duplicates ${totals.duplicates}, missing ${totals.missing}, received ${totals.delivered}, ` +
    `recorded ${totals.recorded}${totals.unknown === null ? '' : `, outcome unknown ${totals.unknown}`}`);
} finally {
  await sink.close();
  cluster?.stop();
}
