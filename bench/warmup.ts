// The warmup engine's benchmark (bench/README.md, `warmup`): one warmup send tick for a pool of
// 1,000 mailboxes (runWarmupSendTick, what the warmup worker's round runs first) into a local SMTP
// sink, next to the campaign scheduler sending one e-mail from each of the same 1,000 mailboxes
// (runSchedulerTick, 100 sends a tick as the sending worker), and a raw baseline.
import pg from 'pg';
import nodemailer, { type Transporter } from 'nodemailer';
import { newId, type Database } from '@outreach/db';
import { createMailSender, createOrganization, createDnsResolver, nodemailerMessage, runSchedulerTick, runWarmupSendTick, WARMUP_SEND_CONCURRENCY, type MailSender, type OutgoingMessage, type ServiceDeps } from '@outreach/core';
import { startDnsServer, startSmtpServer, TestClock, testServiceDeps } from '@outreach/core/testing';
import { ALL_WEEK_UTC, SEQUENCE } from './seed-sending';
import { instrument, labelOf, type Call } from './sending';
import { fmt, interleave, median, percentile, time } from './measure';

type Say = (line: string) => void;

const MAILBOXES = Number(process.env['BENCH_WARMUP_MAILBOXES'] ?? 1_000);
/**
 * Campaigns of the campaign side: each on 100 of the mailboxes, every mailbox on one. (Not more
 * campaigns: deleting a variation scans sent_emails, which has no index on variation_id, and the
 * bench database holds 2,000,000 sends: 0.4 s a variation when the run's organization is deleted.)
 */
const PER_CAMPAIGN = 100;
/** The campaign sending worker's batch (startSendingWorker's maxSendsPerTick). */
const CAMPAIGN_TICK = 100;
const START = '2026-03-04T06:00:00.000Z';
const FIRST_NAMES = ['Anna', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Grace', 'Hugo', 'Iris', 'Jonas'];

/** What each statement of the warmup send tick is, by its text; the scheduler's otherwise. */
function warmupLabelOf(sql: string): string {
  if (/o\.warmup_shared_pool/.test(sql)) return 'POOL_SQL';
  if (/AS other_today/.test(sql)) return 'DAY_COUNTS_SQL';
  if (/FROM campaign_email_accounts cea/.test(sql)) return 'CAMPAIGN_DEMAND_SQL';
  if (/reply_decided_at IS NOT NULL AND replied_at IS NULL/.test(sql)) return 'PENDING_REPLIES_SQL';
  if (/FROM warmup_messages WHERE sender_account_id = ANY/.test(sql)) return 'SENT_TO_SQL';
  if (/warmup_status = 'ACTIVE'/.test(sql) && /SKIP LOCKED/.test(sql)) return 'CLAIM_WARMUP_SEND_SQL';
  return labelOf(sql);
}

const TX = '$transaction (whole, with its statements)';
/** Statements (raw and model calls) and transactions (each one more BEGIN and COMMIT) among `calls`. */
const countOf = (calls: Call[]) => ({ statements: calls.filter((c) => c.label !== TX).length, transactions: calls.filter((c) => c.label === TX).length });

/** A MailSender that keeps the messages it sent (the raw side sends the same ones) and what the sink refused. */
function keeping(inner: MailSender) {
  const messages: { mailboxId: string; message: OutgoingMessage }[] = [];
  const refused: string[] = [];
  const sender: MailSender = {
    async send(o) {
      const outcome = await inner.send(o);
      if (outcome.status === 'sent') messages.push({ mailboxId: o.mailboxId, message: o.message });
      else refused.push(JSON.stringify(outcome));
      return outcome;
    },
    close: () => inner.close(),
  };
  return { sender, messages, refused };
}

/** The raw side's tick: the due pool mailboxes locked, each paired with another, their warmup rows written and their gap set, in one statement. */
const RAW_TICK_SQL = `
  WITH free AS (
    SELECT e.id, e.organization_id, e.workspace_id
      FROM email_accounts e
     WHERE e.organization_id = $1 AND e.warmup_status = 'ACTIVE' AND e.status = 'ACTIVE'
       AND (e.next_send_allowed_at IS NULL OR e.next_send_allowed_at <= $2::timestamptz)
       FOR UPDATE SKIP LOCKED),
  ranked AS (SELECT f.*, row_number() OVER (ORDER BY f.id) AS rn, count(*) OVER () AS n FROM free f),
  written AS (
    INSERT INTO warmup_messages (id, organization_id, workspace_id, sender_account_id, recipient_account_id, code, message_id, thread_id, subject, sent_at)
    SELECT $3 || lpad(to_hex(s.rn), 12, '0'), s.organization_id, s.workspace_id, s.id, r.id, 'raw-' || $3 || '-' || s.rn,
           $3 || s.rn || '@raw.bench', $3 || s.rn || '@raw.bench', 'Quick question', $2::timestamptz
      FROM ranked s JOIN ranked r ON r.rn = (s.rn + $4::int - 1) % s.n + 1
    RETURNING sender_account_id)
  UPDATE email_accounts e SET next_send_allowed_at = $2::timestamptz + interval '30 seconds' FROM written w WHERE e.id = w.sender_account_id`;

export async function warmupBench(options: { db: Database; pool: pg.Pool; rounds: number; say: Say }): Promise<string> {
  const { db, pool, say } = options;
  const campaigns = Math.ceil(MAILBOXES / PER_CAMPAIGN);
  say(
    `\n## Warmup send tick for ${MAILBOXES.toLocaleString('en')} pool mailboxes (each on its own domain) into a local SMTP sink, ` +
      `next to the campaign ticks sending one e-mail from each of them`,
  );
  // Runs that died left their organization behind; it is of no use to anyone.
  await pool.query(`DELETE FROM organizations WHERE name LIKE 'bench-warmup-run-%'`);
  const emails = Array.from({ length: MAILBOXES }, (_, k) => `${FIRST_NAMES[k % FIRST_NAMES.length]!.toLowerCase()}${k + 1}@d${k + 1}.warmup-bench.example`);
  const passwords = Object.fromEntries(emails.map((e, k) => [e, `password-${k + 1}`]));
  const sink = await startSmtpServer({ users: passwords });
  // Recipient providers come from MX records: a third each Google, Microsoft and other.
  const mx = (k: number) => (k % 3 === 0 ? 'aspmx.l.google.com' : k % 3 === 1 ? `d${k + 1}-warmup-bench.mail.protection.outlook.com` : `mx.d${k + 1}.warmup-bench.example`);
  const dnsServer = await startDnsServer({ records: Object.fromEntries(emails.map((e, k) => [e.split('@')[1]!, { mx: [{ exchange: mx(k), priority: 10 }] }])) });
  const clock = new TestClock(new Date(START));
  const rec = keeping(createMailSender({ allowPrivateTargets: true }));
  const deps: ServiceDeps = testServiceDeps({ db, clock, smtp: rec.sender, dns: createDnsResolver({ servers: [dnsServer.address], timeoutMs: 2_000 }) });
  const org = await createOrganization({ db: db.prisma, name: `bench-warmup-run-${Date.now()}`, workspaceName: 'bench warmup', leadAllowance: 100_000_000 });
  const ws = org.workspaceId;
  const orgs = [org.organizationId];
  const rawTransports = new Map<string, Transporter>();
  try {
    // ── the pool: ACTIVE mailboxes, warmup ACTIVE for 30 days (at its limit of 40 a day), gap 0 ──
    const seedStart = performance.now();
    const mailboxIds = emails.map(() => newId());
    await db.prisma.emailAccount.createMany({
      data: emails.map((email, k) => ({
        id: mailboxIds[k]!,
        organizationId: org.organizationId,
        workspaceId: ws,
        email,
        emailNormalized: email,
        firstName: FIRST_NAMES[k % FIRST_NAMES.length]!,
        lastName: 'Bench',
        smtpHost: '127.0.0.1',
        smtpPort: sink.port,
        smtpUsername: email,
        smtpPasswordEnc: deps.secrets.encrypt(passwords[email]!),
        imapHost: '127.0.0.1',
        imapPort: 1,
        imapUsername: email,
        imapPasswordEnc: deps.secrets.encrypt(passwords[email]!),
        dailyLimit: 100_000,
        sendingGap: 0,
        warmupStatus: 'ACTIVE',
        warmupStartedAt: new Date(Date.parse(START) - 30 * 86_400_000),
        warmupLimit: 40,
        warmupIncrement: 2,
        warmupReplyRate: 30,
        warmupCustomWords: 'roadmap, quarterly review',
      })),
    });

    // ── the campaign side: a campaign per 100 mailboxes (2 steps, 2 variations each), enough due leads for every round ──
    const leadsPerCampaign = PER_CAMPAIGN * (options.rounds + 2);
    const campaignIds = Array.from({ length: campaigns }, () => newId());
    await db.prisma.campaign.createMany({
      data: campaignIds.map((id, i) => ({
        id,
        organizationId: org.organizationId,
        workspaceId: ws,
        name: `warmup bench campaign ${i + 1}`,
        status: 'PAUSED',
        dailyLimit: 100_000,
        openTracking: true,
        unsubscribeLink: true,
        schedule: ALL_WEEK_UTC,
      })),
    });
    const steps = campaignIds.flatMap((campaignId) => [1, 2].map((step) => ({ id: newId(), workspaceId: ws, campaignId, step, waitTime: SEQUENCE.waitDays[step]! })));
    await db.prisma.sequenceStep.createMany({ data: steps });
    await db.prisma.variation.createMany({
      data: steps.flatMap((s) => SEQUENCE.variations[s.step]!.map((v, i) => ({ id: newId(), workspaceId: ws, campaignId: s.campaignId, stepId: s.id, label: 'AB'[i]!, subject: v.subject, body: v.body }))),
    });
    await db.prisma.campaignEmailAccount.createMany({ data: mailboxIds.map((emailAccountId, k) => ({ campaignId: campaignIds[Math.floor(k / PER_CAMPAIGN)]!, emailAccountId })) });
    await pool.query(
      `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, first_name, last_name, company_name, next_send_at, created_at, updated_at)
       SELECT substr(md5(c.id || '-' || n), 1, 24), $1, $2, c.id, e, e, 'Lead' || n, 'Surname', 'Company ' || (n % 500),
              $4::timestamptz - interval '1 day' + n * interval '1 second', $4::timestamptz - interval '1 day', $4::timestamptz - interval '1 day'
         FROM unnest($3::text[]) WITH ORDINALITY AS c(id, ci), generate_series(1, ${leadsPerCampaign}) n,
              LATERAL (SELECT 'lead' || n || '-c' || ci || '@recipient' || (n % 50) || '.example.com' AS e) x`,
      [org.organizationId, ws, campaignIds, START],
    );
    await pool.query('ANALYZE email_accounts, warmup_messages, campaigns, leads');
    say(
      `  seeded ${MAILBOXES} mailboxes (warmup ACTIVE, limit 40 a day, gap 0), ${campaigns} campaigns on ${PER_CAMPAIGN} of them each and ` +
        `${(campaigns * leadsPerCampaign).toLocaleString('en')} due leads in ${fmt((performance.now() - seedStart) / 1000, 1)} s`,
    );

    const setCampaigns = (status: 'ACTIVE' | 'PAUSED') => pool.query('UPDATE campaigns SET status = $2 WHERE workspace_id = $1', [ws, status]);

    /** One warmup send tick, instrumented (the campaigns paused: none wants these mailboxes). */
    const warmupRound = async () => {
      clock.advance(61_000); // past every mailbox's gap (0–60 s of jitter)
      const calls: Call[] = [];
      const before = sink.messages.length;
      const loginsBefore = sink.logins.length;
      rec.messages.length = 0;
      const t = await time(() => runWarmupSendTick({ deps: { ...deps, db: instrument(db.prisma, calls, warmupLabelOf) }, organizationIds: orgs })).catch((error: unknown) => {
        throw rec.refused.length ? new Error(`warmup: the sink refused ${rec.refused[0]}`) : error;
      });
      if (t.value.sent !== MAILBOXES || t.value.failed || rec.refused.length) throw new Error(`warmup: expected ${MAILBOXES} sends, got ${JSON.stringify(t.value)} ${rec.refused[0] ?? ''}`);
      if (sink.messages.length - before !== MAILBOXES) throw new Error(`warmup: the sink received ${sink.messages.length - before} messages, not ${MAILBOXES}`);
      const bytes = sink.messages.slice(before).reduce((s, m) => s + m.raw.length, 0);
      sink.messages.length = 0;
      return { ms: t.ms, calls, bytes, messages: [...rec.messages], result: t.value, logins: sink.logins.length - loginsBefore };
    };

    /** Campaign ticks of 100 sends until every mailbox sent one e-mail, instrumented. */
    const campaignRound = async () => {
      clock.advance(61_000);
      await setCampaigns('ACTIVE');
      const calls: Call[] = [];
      const tickMs: number[] = [];
      const before = sink.messages.length;
      const loginsBefore = sink.logins.length;
      let sent = 0;
      let idle = 0;
      const started = performance.now();
      while (sent < MAILBOXES) {
        const t = await time(() => runSchedulerTick({ deps: { ...deps, db: instrument(db.prisma, calls) }, maxSends: Math.min(CAMPAIGN_TICK, MAILBOXES - sent), workspaceIds: [ws] }));
        tickMs.push(t.ms);
        sent += t.value.sent;
        if (t.value.bounced || t.value.deferred || t.value.disconnected) throw new Error(`campaign: unexpected outcome ${JSON.stringify(t.value)}`);
        if (t.value.claimed === 0 && ++idle > 3) throw new Error(`campaign: the scheduler stopped claiming after ${sent} sends`);
      }
      const ms = performance.now() - started;
      await setCampaigns('PAUSED');
      if (sink.messages.length - before !== MAILBOXES) throw new Error(`campaign: the sink received ${sink.messages.length - before} messages, not ${MAILBOXES}`);
      const bytes = sink.messages.slice(before).reduce((s, m) => s + m.raw.length, 0);
      sink.messages.length = 0;
      return { ms, tickMs, calls, bytes, logins: sink.logins.length - loginsBefore };
    };

    /** The raw tick: RAW_TICK_SQL through pg, then the warmup tick's messages through one pooled nodemailer transport per mailbox, `inFlight` at a time (the tick's WARMUP_SEND_CONCURRENCY in the counted rounds). */
    const rawRound = async (round: number, messages: { mailboxId: string; message: OutgoingMessage }[], inFlight: number) => {
      clock.advance(61_000);
      const tag = newId().slice(12); // the id's counter end: unique in the process
      const before = sink.messages.length;
      const sql = await time(() => pool.query(RAW_TICK_SQL, [org.organizationId, clock.now().toISOString(), tag, 1 + (round % (MAILBOXES - 1))]));
      if (sql.value.rowCount !== MAILBOXES) throw new Error(`raw: the statement took ${sql.value.rowCount} mailboxes, not ${MAILBOXES}`);
      const transport = (mailboxId: string) => {
        let t = rawTransports.get(mailboxId);
        if (!t) {
          const email = emails[mailboxIds.indexOf(mailboxId)]!;
          t = nodemailer.createTransport({ pool: true, maxConnections: 2, maxMessages: 100, host: '127.0.0.1', port: sink.port, secure: false, auth: { user: email, pass: passwords[email]! } });
          rawTransports.set(mailboxId, t);
        }
        return t;
      };
      const smtp = await time(async () => {
        let next = 0;
        await Promise.all(
          Array.from({ length: Math.min(inFlight, messages.length) }, async () => {
            while (next < messages.length) {
              const m = messages[next++]!;
              await transport(m.mailboxId).sendMail(nodemailerMessage(m.message));
            }
          }),
        );
      });
      if (sink.messages.length - before !== messages.length) throw new Error(`raw: the sink received ${sink.messages.length - before} messages, not ${messages.length}`);
      sink.messages.length = 0;
      await pool.query(`DELETE FROM warmup_messages WHERE code LIKE $1`, [`raw-${tag}-%`]);
      return { ms: sql.ms + smtp.ms, sqlMs: sql.ms, smtpMs: smtp.ms };
    };

    // Warm-up, not counted: JIT, caches, and the SMTP connections. A first connection costs the sink's
    // 100 ms greeting delay (smtp-server's early-talker check); the campaign ticks open the engine's pools
    // 100 at a time (the warmup tick would open them a few at a time), the raw side all at once.
    const warmCampaign = await campaignRound();
    const warm = await warmupRound();
    const warmRaw = await rawRound(0, warm.messages, MAILBOXES);
    say(
      `  warm-up (not counted): campaign sends opening the engine's SMTP pools ${fmt(warmCampaign.ms, 0)} ms (${warmCampaign.logins} logins), ` +
        `warmup tick ${fmt(warm.ms, 0)} ms (${warm.logins} logins), raw opening its transports ${fmt(warmRaw.ms, 0)} ms`,
    );

    let lastWarmup = warm;
    let lastCampaign: Awaited<ReturnType<typeof campaignRound>> | null = null;
    const rawParts = { sql: [] as number[], smtp: [] as number[] };
    const warmupCalls: Call[][] = [];
    const campaignTicks: number[] = [];
    const campaignCalls: { calls: Call[]; ticks: number }[] = [];
    const results = await interleave({
      rounds: options.rounds,
      cases: {
        campaign: async () => {
          lastCampaign = await campaignRound();
          campaignTicks.push(...lastCampaign.tickMs);
          campaignCalls.push({ calls: lastCampaign.calls, ticks: lastCampaign.tickMs.length });
          return lastCampaign.ms;
        },
        warmup: async () => {
          lastWarmup = await warmupRound();
          warmupCalls.push(lastWarmup.calls);
          return lastWarmup.ms;
        },
        raw: async (round) => {
          const r = await rawRound(round + 1, lastWarmup.messages, WARMUP_SEND_CONCURRENCY);
          rawParts.sql.push(r.sqlMs);
          rawParts.smtp.push(r.smtpMs);
          return r.ms;
        },
        rawAllAtOnce: async (round) => (await rawRound(round + 101, lastWarmup.messages, MAILBOXES)).ms,
      },
    });

    // For scale: a warmup tick while every mailbox's campaign has a lead due (all left to the campaigns).
    clock.advance(61_000);
    await setCampaigns('ACTIVE');
    const yieldCalls: Call[] = [];
    const yielded = await time(() => runWarmupSendTick({ deps: { ...deps, db: instrument(db.prisma, yieldCalls, warmupLabelOf) }, organizationIds: orgs }));
    await setCampaigns('PAUSED');

    const warmupMs = median(results.warmup);
    const campaignMs = median(results.campaign);
    const rawMs = median(results.raw);
    const campaignCounts = campaignCalls.map((c) => countOf(c.calls));
    const ticksPerRound = median(campaignCalls.map((c) => c.ticks));
    const campaignStatements = median(campaignCounts.map((c) => c.statements));
    const campaignTransactions = median(campaignCounts.map((c) => c.transactions));
    const warmupStatements = median(warmupCalls.map((c) => countOf(c).statements));
    const warmupTransactions = median(warmupCalls.map((c) => countOf(c).transactions));
    const done = lastCampaign as Awaited<ReturnType<typeof campaignRound>> | null;
    say(
      `  messages: warmup ${fmt(lastWarmup.bytes / MAILBOXES, 0)} bytes on average (plain text), campaign ${fmt((done?.bytes ?? 0) / MAILBOXES, 0)} bytes ` +
        `(HTML + text, pixel, unsubscribe link); the database client is instrumented in every round (a Proxy: microseconds a statement)`,
    );
    say(
      `  warmup send tick (runWarmupSendTick: ${lastWarmup.result.pool} pool mailboxes, ${lastWarmup.result.sent} sent, ${lastWarmup.result.replies} answers): ` +
        `${fmt(warmupMs, 0)} ms a tick, ${fmt(warmupMs / MAILBOXES)} ms a mailbox   rounds: ${results.warmup.map((x) => fmt(x, 0)).join(', ')}`,
    );
    say(
      `    statements a tick: ${warmupStatements} (${fmt(warmupStatements / MAILBOXES, 2)} a mailbox) in ${warmupTransactions} transactions (each one BEGIN and COMMIT more); ` +
        `SMTP logins at the sink: ${lastWarmup.logins}`,
    );
    say(
      `  campaign ticks (runSchedulerTick, ${CAMPAIGN_TICK} sends a tick as the sending worker; ${ticksPerRound} ticks for one e-mail from each mailbox): ` +
        `${fmt(campaignMs, 0)} ms for the ${MAILBOXES} sends, ${fmt(percentile(campaignTicks, 50), 0)} ms a tick (p50), ${fmt(campaignMs / MAILBOXES)} ms a send   rounds: ${results.campaign.map((x) => fmt(x, 0)).join(', ')}`,
    );
    say(
      `    statements for the ${MAILBOXES} sends: ${campaignStatements} (${fmt(campaignStatements / ticksPerRound, 1)} a tick, ${fmt(campaignStatements / MAILBOXES, 2)} a send) ` +
        `in ${campaignTransactions} transactions; SMTP logins at the sink: ${done?.logins ?? 0}`,
    );
    if (done?.logins)
      say(
        `    (those logins: the warmup tick before sets each sender's gap with a Prisma update, which moves its updated_at, the version naming its ` +
          `SMTP pool, so the mailbox's next send opens a new connection; back-to-back warmup ticks would do so for every send)`,
      );
    say(
      `  raw tick: one statement (RAW_TICK_SQL: lock the due pool mailboxes, pair them, insert the ${MAILBOXES} warmup rows, set their gaps) ${fmt(median(rawParts.sql))} ms ` +
        `+ the same ${MAILBOXES} messages through one pooled nodemailer transport per mailbox, ${WARMUP_SEND_CONCURRENCY} at a time as the tick sends, ${fmt(median(rawParts.smtp), 0)} ms = ${fmt(rawMs, 0)} ms   rounds: ${results.raw.map((x) => fmt(x, 0)).join(', ')}`,
    );
    say(`    for scale, the raw tick with all ${MAILBOXES} messages in flight at once: ${fmt(median(results.rawAllAtOnce), 0)} ms`);
    say(`  ratio warmup tick / raw tick ${fmt(warmupMs / rawMs)}; warmup tick / campaign sends from the same ${MAILBOXES} mailboxes ${fmt(warmupMs / campaignMs)} (reported)`);
    const yc = countOf(yieldCalls);
    say(
      `  for scale, a warmup tick while every mailbox's campaign has a lead due (${yielded.value.campaignFirst} left to the campaigns, ${yielded.value.sent} sent): ` +
        `${fmt(yielded.ms, 0)} ms, ${yc.statements} statements`,
    );

    // Where a warmup tick's statements go: the last counted round.
    const perLabel = new Map<string, number[]>();
    for (const c of lastWarmup.calls) perLabel.set(c.label, [...(perLabel.get(c.label) ?? []), c.end - c.start]);
    say(`  statements of the last warmup tick (client-side ms through Prisma):`);
    say(`    ${'statement'.padEnd(42)} ${'count'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'total ms'.padStart(9)}`);
    for (const [label, ms] of [...perLabel].sort((a, b) => b[1].reduce((x, y) => x + y, 0) - a[1].reduce((x, y) => x + y, 0))) {
      say(
        `    ${label.padEnd(42)} ${String(ms.length).padStart(6)} ${fmt(percentile(ms, 50)).padStart(7)} ${fmt(percentile(ms, 95)).padStart(7)} ${fmt(ms.reduce((a, b) => a + b, 0), 0).padStart(9)}`,
      );
    }
    return (
      `warmup tick, ${MAILBOXES} pool mailboxes: ${fmt(warmupMs, 0)} ms, ${warmupStatements} statements (${warmupTransactions} transactions); ` +
      `campaign, one send from each: ${fmt(campaignMs, 0)} ms in ${ticksPerRound} ticks, ${campaignStatements} statements; raw tick ${fmt(rawMs, 0)} ms (1 statement + SMTP), ratio ${fmt(warmupMs / rawMs)} (reported)`
    );
  } finally {
    for (const t of rawTransports.values()) t.close();
    await rec.sender.close();
    await sink.close();
    await dnsServer.close();
    await pool.query('DELETE FROM organizations WHERE id = $1', [org.organizationId]);
  }
}
