// GET /metrics (METRICS_TOKEN): off by default, behind a bearer token, and what a scrape shows after
// real requests, a real send through a local SMTP server, a lead's reply and a webhook event in the
// outbox; and the worker role's own listener, in a real `ROLE=worker` process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { ingestMessage, startSendingWorker } from '@outreach/core';
import { createTestCampaign, freePort, startSmtpServer, usingPostgres, type SmtpTestServer } from '@outreach/core/testing';
import { compiledEntry } from './testing/compiled';
import { openAllDay } from './testing/schedule';
import { useTestServer } from './testing/suite';
import type { TestServer } from './testing/test-server';

const TOKEN = 'scrape-me-0123456789abcdef';
const { server: off } = useTestServer();
const { server, org } = useTestServer({ env: { METRICS_TOKEN: TOKEN } });

async function scrape(target: TestServer | string, authorization: string | null = `Bearer ${TOKEN}`) {
  const url = typeof target === 'string' ? target : `${target.url}/metrics`;
  const response = await fetch(url, { headers: authorization === null ? {} : { authorization } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text(), response };
}

/** The value of one series in the text format, or undefined when the scrape has no such series. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(/,(?=[a-z_]+=")/).filter(Boolean).sort();
    if (have.length === wanted.length && have.every((l, i) => l === wanted[i])) return Number(match[3]);
  }
  return undefined;
}

async function metricsOf(target: TestServer = server) {
  const answer = await scrape(target);
  expect(answer.status).toBe(200);
  return answer.text;
}

describe('/metrics is off by default and protected by METRICS_TOKEN', () => {
  it('answers 404 like any unknown path when METRICS_TOKEN is unset', async () => {
    for (const authorization of [null, `Bearer ${TOKEN}`]) {
      const answer = await scrape(off, authorization);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'request.unknown_path' });
    }
  });

  it('answers 401 without the token, with another one, or another scheme; never a 500', async () => {
    for (const authorization of [null, 'Bearer wrong-token-0123456789', `Bearer ${TOKEN}x`, `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`, TOKEN, 'Bearer', 'Bearer é']) {
      const answer = await scrape(server, authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'metrics.unauthorized' });
      expect(answer.text).not.toContain(TOKEN);
    }
  });

  it('answers the Prometheus text format with the token, default process metrics included', async () => {
    const answer = await scrape(server, `bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.text).toContain('# TYPE outreach_http_request_duration_seconds histogram');
    expect(sample(answer.text, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(sample(answer.text, 'outreach_sends_total', { outcome: 'accepted' })).toBeGreaterThanOrEqual(0);
  });
});

describe('HTTP latency by route', () => {
  it('shows the PostgreSQL pool’s clients; the embedded database has no pool and no such series', async () => {
    const text = await metricsOf();
    if (usingPostgres()) {
      // The scrape itself read the queues through the pool: at least one client is open.
      expect(sample(text, 'outreach_db_pool_clients', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'outreach_db_pool_clients', { state: 'waiting' })).toBe(0);
    } else {
      expect(text).not.toContain('outreach_db_pool_clients');
    }
  });

  it('labels each request with the route pattern it matched, never the raw path', async () => {
    const listed = await server.rest('GET', '/campaign/list-all', { key: org.apiKey, query: { workspace_id: org.workspaceId } });
    expect(listed.status).toBe(200);
    const threadId = newId();
    const marked = await server.rest('POST', `/unibox/threads/${threadId}/mark-as-read`, { key: org.apiKey, body: { workspace_id: org.workspaceId } });
    expect(marked.status).toBeGreaterThanOrEqual(400);
    const unknown = `no-such-path-${newId()}`;
    expect((await server.rest('GET', `/${unknown}`, { key: org.apiKey })).status).toBe(404);
    await server.trpc(org.apiKey).webhook.list.query({ workspace_id: org.workspaceId });
    expect((await server.graphql('{ __typename }', { key: org.apiKey })).status).toBe(200);

    const text = await metricsOf();
    const count = (route: string, status: number, method = 'GET') => sample(text, 'outreach_http_request_duration_seconds_count', { method, route, status: String(status) });
    expect(count('/api/v1/campaign/list-all', 200)).toBeGreaterThanOrEqual(1);
    expect(count('/api/v1/unibox/threads/:thread_id/mark-as-read', marked.status, 'POST')).toBeGreaterThanOrEqual(1);
    expect(count('unmatched', 404)).toBeGreaterThanOrEqual(1);
    expect(count('/trpc', 200)).toBeGreaterThanOrEqual(1);
    expect(count('/graphql', 200, 'POST')).toBeGreaterThanOrEqual(1);
    // No id and no unknown path became a label.
    expect(text).not.toContain(threadId);
    expect(text).not.toContain(unknown);
  });
});

describe('the workers’ counters and the queues', () => {
  const MAILBOX = 'metrics-sender@metrics.test';
  const PASSWORD = 'metrics-pw-1';
  let smtp: SmtpTestServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer({ users: { [MAILBOX]: PASSWORD } });
  });
  afterAll(() => smtp?.close());

  it('counts a real send and a reply, and the gauges follow the due send and the webhook delivery it emits', async () => {
    const base = { organizationId: org.organizationId, workspaceId: org.workspaceId };
    const mailboxId = newId();
    await server.db.prisma.emailAccount.create({
      data: {
        id: mailboxId, ...base, email: MAILBOX, emailNormalized: MAILBOX, firstName: 'Sam', lastName: 'Sales',
        smtpHost: '127.0.0.1', smtpPort: smtp!.port, smtpUsername: MAILBOX, smtpPasswordEnc: server.deps.service.secrets.encrypt(PASSWORD),
        imapHost: '127.0.0.1', imapPort: 1, imapUsername: MAILBOX, imapPasswordEnc: server.deps.service.secrets.encrypt(PASSWORD),
        dailyLimit: 50, sendingGap: 0,
      },
    });
    const campaign = await createTestCampaign({ db: server.db.prisma, ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A', subject: 'Hello {{first_name}}', body: '<p>Quick question.</p>' }] }] });
    await server.db.prisma.campaign.update({ where: { id: campaign.id }, data: { schedule: openAllDay(), dailyLimit: 100 } });
    await server.db.prisma.campaignEmailAccount.create({ data: { campaignId: campaign.id, emailAccountId: mailboxId } });
    const hook = await server.rest('POST', '/hook/add', { key: org.apiKey, body: { workspace_id: org.workspaceId, url: 'http://127.0.0.1:9/in', camp_ids: ['ALL'], event_types: ['EMAIL_SENT'] } });
    expect(hook.status).toBe(200);

    const before = await metricsOf();
    const due = (text: string) => sample(text, 'outreach_queue_depth', { queue: 'sends_due' })!;
    const pending = (text: string) => sample(text, 'outreach_queue_depth', { queue: 'webhook_deliveries_pending' })!;
    const sent = (text: string) => sample(text, 'outreach_sends_total', { outcome: 'accepted' })!;
    expect(due(before)).toBeGreaterThanOrEqual(0);

    // A lead whose first step is due: one more send waiting.
    const lead = 'ada@lead.test';
    const leadId = newId();
    await server.db.prisma.lead.create({ data: { id: leadId, ...base, campaignId: campaign.id, email: lead, emailNormalized: lead, firstName: 'Ada', nextSendAt: new Date(Date.now() - 60_000) } });
    const queued = await metricsOf();
    expect(due(queued)).toBe(due(before) + 1);

    // The sending worker sends it through the SMTP server.
    const worker = startSendingWorker({ deps: server.deps.service, intervalMs: 60_000, workspaceIds: [org.workspaceId] });
    try {
      for (let i = 0; i < 5 && smtp!.messages.length < 1; i++) await worker.nextTick();
    } finally {
      await worker.stop();
    }
    expect(smtp!.messages.map((m) => m.to)).toEqual([[lead]]);
    const afterSend = await metricsOf();
    expect(sent(afterSend)).toBe(sent(before) + 1);
    expect(due(afterSend)).toBe(due(before));
    // Its EMAIL_SENT event waits in the outbox (no webhook worker runs here).
    expect(pending(afterSend)).toBe(pending(before) + 1);
    expect(sample(afterSend, 'outreach_worker_tick_duration_seconds_count', { worker: 'sending' })).toBeGreaterThanOrEqual(1);

    // The lead answers; the reply reader stores it.
    const sentEmail = await server.db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });
    const original = sentEmail.messageId.startsWith('<') ? sentEmail.messageId : `<${sentEmail.messageId}>`;
    const raw = Buffer.from(
      [`From: Ada <${lead}>`, `To: ${MAILBOX}`, 'Subject: Re: Hello Ada', `Message-ID: <reply-${newId()}@lead.test>`, `In-Reply-To: ${original}`, `References: ${original}`,
        `Date: ${new Date(Date.now() + 1_000).toUTCString()}`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', 'Tell me more.', ''].join('\r\n'),
    );
    const ingested = await ingestMessage({ deps: server.deps.service, mailbox: { id: mailboxId, ...base, email: MAILBOX }, raw });
    expect(ingested).toMatchObject({ status: 'stored', kind: 'reply', matched: true });
    const afterReply = await metricsOf();
    expect(sample(afterReply, 'outreach_replies_total', { kind: 'reply' })).toBe(sample(before, 'outreach_replies_total', { kind: 'reply' })! + 1);
    // Read twice, stored and counted once.
    expect(await ingestMessage({ deps: server.deps.service, mailbox: { id: mailboxId, ...base, email: MAILBOX }, raw })).toMatchObject({ status: 'duplicate' });
    expect(sample(await metricsOf(), 'outreach_replies_total', { kind: 'reply' })).toBe(sample(afterReply, 'outreach_replies_total', { kind: 'reply' }));

    // A delete left to the purge worker (none runs here) waits in its queue.
    const deletes = (text: string) => sample(text, 'outreach_queue_depth', { queue: 'deletes_pending' })!;
    const beforeDelete = deletes(await metricsOf());
    await server.db.prisma.campaign.update({ where: { id: campaign.id }, data: { deletedAt: new Date(), status: 'ARCHIVED' } });
    expect(deletes(await metricsOf())).toBe(beforeDelete + 1);

    // The mailbox waits to be read while no live reply worker holds it (none runs here).
    const unread = (text: string) => sample(text, 'outreach_queue_depth', { queue: 'mailboxes_unread' })!;
    const beforeRead = unread(await metricsOf());
    expect(beforeRead).toBeGreaterThanOrEqual(1);
    const readerId = newId();
    await server.db.prisma.mailboxReader.create({
      data: { id: readerId, name: 'test/1', startedAt: new Date(), expiresAt: new Date(Date.now() + 60_000), leases: { create: { emailAccountId: mailboxId, takenAt: new Date() } } },
    });
    expect(unread(await metricsOf())).toBe(beforeRead - 1);
    // Its reader no longer renewed (a worker killed): the mailbox counts as unread again.
    await server.db.prisma.mailboxReader.update({ where: { id: readerId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(unread(await metricsOf())).toBe(beforeRead);
    await server.db.prisma.mailboxReader.delete({ where: { id: readerId } });
  });

  it('keeps each app’s counts apart: the app without a token counted nothing of this', async () => {
    expect(off.deps.metrics).toBeNull();
    expect(off.deps.service.observer).toBeUndefined();
  });
});

// A worker-role process (the compiled build, as production runs it) has no HTTP API: with
// METRICS_TOKEN it serves /metrics on METRICS_PORT.
// On a database of its own (PGlite): its workers would otherwise work on the suite's shared rows.
// Opening PGlite and migrating in a child takes long on a busy machine (50 s seen under load).
describe.skipIf(usingPostgres())('a ROLE=worker process', { timeout: 300_000 }, () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  });

  it('serves /metrics on its own listener, with the token only, and its workers’ rounds', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'outreach-metrics-')), ROLE: 'worker', METRICS_TOKEN: TOKEN, METRICS_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', SHUTDOWN_TIMEOUT_MS: '5000' };
    delete env['DATABASE_URL'];
    const child = spawn(process.execPath, [compiledEntry('main')], { env });
    children.push(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const deadline = Date.now() + 240_000;
    const url = `http://127.0.0.1:${port}/metrics`;
    // Until its sending worker has finished a first tick.
    let text = '';
    while (!(sample(text, 'outreach_worker_tick_duration_seconds_count', { worker: 'sending' })! >= 1)) {
      if (child.exitCode !== null) throw new Error(`worker exited: ${output}`);
      if (Date.now() > deadline) throw new Error(`no sending tick in the metrics: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
      if (output.includes('"msg":"metrics listening"')) text = (await scrape(url)).text;
    }
    expect(output).not.toContain('"msg":"listening"');
    expect((await scrape(url, null)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
    expect(sample(text, 'outreach_queue_depth', { queue: 'sends_due' })).toBe(0);
    expect(sample(text, 'outreach_sends_total', { outcome: 'accepted' })).toBe(0);
    expect(output).not.toContain(TOKEN);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
