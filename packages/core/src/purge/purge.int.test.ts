// Deletes that answer at once and purge in the background: a large campaign, a workspace and an
// organization disappear from every read when the operation answers; the purge rounds then empty
// every table that names them (listed from the catalogue, so a table added later is checked too),
// carry on after a crash, leave other campaigns' counters alone, and tolerate writes meanwhile.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createAuthenticator, issueApiKey } from '../auth/index';
import { operations } from '../operations';
import { foldCampaignCounters } from '../index';
import { executeOperation, type Operation } from '../shared/operation';
import { readCampaignCounters } from '../campaign/index';
import { createTestCampaign, createTestTenant, createTestThread, expectDomainError, recordTestSend, silentLogger, TestClock, untilWaitingOnLock, usingPostgres, useTestDatabase } from '../testing/index';
import type { Ctx } from '../shared/context';
import { deleteOrganization, runPurgeRound, SYNC_DELETE_MAX_LEADS, type PurgeProgress } from './purge.service';
import { tablesWithColumn, type PurgeColumn } from './purge.queries';
import { startPurgeWorker } from './worker.service';

const db = useTestDatabase();
const T0 = new Date('2026-06-01T10:00:00Z');

const run = (ctx: Ctx, op: unknown, input: Record<string, unknown>) => executeOperation({ op: op as Operation, ctx, input }) as Promise<any>;

/** `count` leads in the campaign, each with `sends` sends of its first step's variation A. */
async function seedLeads(options: { organizationId: string; workspaceId: string; campaignId: string; variationId: string; count: number; sends: number; prefix: string; parentCampaignId?: string }) {
  const { organizationId, workspaceId, campaignId, count, prefix } = options;
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO leads (id, organization_id, workspace_id, campaign_id, email, email_normalized, status, label, updated_at)
     SELECT $4 || lpad(to_hex(n), 16, '0'), $1, $2, $3, $4 || n || '@purge.test', $4 || n || '@purge.test', 'CONTACTED'::"LeadStatus",
            CASE WHEN n % 10 = 0 THEN 'INTERESTED' END, now()
       FROM generate_series(1, $5::int) n`,
    organizationId, workspaceId, campaignId, prefix, count,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO sent_emails (id, organization_id, workspace_id, campaign_id, parent_campaign_id, lead_id, step, variation_id, variation_label, message_id, subject, body, sent_at, opened_at, replied_at)
     SELECT $4 || 's' || lpad(to_hex(n * 8 + s), 15, '0'), $1, $2, $3, $7, $4 || lpad(to_hex(n), 16, '0'), 1, $6, 'A', $4 || n || '-' || s || '@purge.test', 'S', 'B',
            timestamptz '2026-05-01' + (s || ' hours')::interval, CASE WHEN n % 3 = 0 THEN timestamptz '2026-05-02' END, CASE WHEN n % 10 = 0 AND s = 1 THEN timestamptz '2026-05-03' END
       FROM generate_series(1, $5::int) n, generate_series(1, $8::int) s`,
    organizationId, workspaceId, campaignId, prefix, count, options.variationId, options.parentCampaignId ?? null, options.sends,
  );
  await db.prisma.organization.update({ where: { id: organizationId }, data: { leadCount: { increment: count } } });
}

const prefixOf = () => newId().slice(-8);

/** A campaign larger than a synchronous delete takes, with a subsequence, an inbox thread and events. */
async function largeCampaign(base: { db: typeof db.prisma; organizationId: string; workspaceId: string }) {
  const parent = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
  const sub = await createTestCampaign({ ...base, status: 'ACTIVE', parentId: parent.id, steps: [{ variations: [{ label: 'A' }] }] });
  const p = prefixOf();
  await seedLeads({ ...base, campaignId: parent.id, variationId: parent.variations[1]!['A']!, count: SYNC_DELETE_MAX_LEADS + 200, sends: 2, prefix: p });
  await seedLeads({ ...base, campaignId: sub.id, variationId: sub.variations[1]!['A']!, count: 20, sends: 1, prefix: prefixOf(), parentCampaignId: parent.id });
  const leadId = `${p}${(10).toString(16).padStart(16, '0')}`;
  const thread = await createTestThread({ db: base.db, workspaceId: base.workspaceId, leadId, campaignId: parent.id, messages: [{ direction: 'IN', at: new Date('2026-05-03T00:00:00Z') }] });
  await db.prisma.$executeRawUnsafe(`UPDATE unibox_messages SET lead_id = $1, campaign_id = $2 WHERE thread_id = $3`, leadId, parent.id, thread.id);
  const [send] = await db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM sent_emails WHERE lead_id = $1 LIMIT 1', leadId);
  await db.prisma.emailEvent.create({ data: { id: newId(), workspaceId: base.workspaceId, sentEmailId: send!.id, campaignId: parent.id, leadId, type: 'OPEN', occurredAt: T0 } });
  return { parent, sub, threadId: thread.id, leadId };
}

/** Rows still naming one of `ids` in any table with `column`, by table (the catalogue lists the tables). */
async function leftovers(column: PurgeColumn, ids: string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of await tablesWithColumn(db.prisma, column)) {
    const [row] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}" WHERE "${column}" = ANY($1::text[])`, ids);
    if (row!.n) found[table] = row!.n;
  }
  return found;
}

async function purgeAll(options: { batch: number; progress?: PurgeProgress; maxRounds?: number; client?: typeof db.prisma }) {
  let rounds = 0;
  for (; rounds < (options.maxRounds ?? 10_000); rounds++) {
    const result = await runPurgeRound({ deps: { db: options.client ?? db.prisma, log: silentLogger }, batch: options.batch, progress: options.progress });
    if (result.done) return { rounds, done: true };
  }
  return { rounds, done: false };
}

describe('campaign.delete of a large campaign', () => {
  it('answers with the campaign hidden from every read, then the purge empties every table of it and nothing else', async () => {
    const clock = new TestClock(T0);
    const { ctx, base, ws } = await createTestTenant({ db, clock });
    const other = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    await seedLeads({ ...base, campaignId: other.id, variationId: other.variations[1]!['A']!, count: 30, sends: 2, prefix: prefixOf() });
    const { parent, sub, threadId } = await largeCampaign(base);
    const counters = async () => (await readCampaignCounters({ db: db.prisma, workspaceId: ws, campaignIds: [other.id] })).get(other.id);
    const otherBefore = await counters();
    const leadCount = async () => (await db.prisma.organization.findUniqueOrThrow({ where: { id: base.organizationId } })).leadCount;
    expect(await leadCount()).toBe(30 + SYNC_DELETE_MAX_LEADS + 200 + 20);

    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: parent.id, is_archive: 'no' });

    // Gone from every read at once, though its rows are still there.
    await expectDomainError(run(ctx, operations.campaign.getStatus, { workspace_id: ws, campaign_id: parent.id }), 'not_found', 'campaign.not_found');
    await expectDomainError(run(ctx, operations.campaign.launch, { workspace_id: ws, campaign_id: sub.id }), 'not_found', 'campaign.not_found');
    const all = await run(ctx, operations.campaign.listAll, { workspace_id: ws });
    expect(JSON.stringify(all)).not.toContain(parent.id);
    expect(JSON.stringify(all)).toContain(other.id);
    const leads = await run(ctx, operations.lead.workspaceLeads, { workspace_id: ws, limit: 100 });
    expect(leads.map((l: { campaign_id: string }) => l.campaign_id)).toEqual(Array(30).fill(other.id));
    const byStatus = await run(ctx, operations.lead.countByStatus, { workspace_id: ws });
    expect(byStatus.reduce((n: number, s: { count: number }) => n + s.count, 0)).toBe(30);
    expect(await leadCount()).toBe(30);
    // Nothing sends for it: the engine reads ACTIVE campaigns.
    const statuses = await db.prisma.campaign.findMany({ where: { id: { in: [parent.id, sub.id] } }, select: { status: true, deletedAt: true } });
    expect(statuses).toEqual([{ status: 'ARCHIVED', deletedAt: T0 }, { status: 'ARCHIVED', deletedAt: T0 }]);
    // Uploads to it are refused.
    await expectDomainError(run(ctx, operations.lead.add, { workspace_id: ws, campaign_id: parent.id, leads: [{ email: 'late@purge.test' }] }), 'invalid');
    expect(await leftovers('campaign_id', [parent.id])).toMatchObject({ leads: SYNC_DELETE_MAX_LEADS + 200 });

    const purged = await purgeAll({ batch: 300 });
    expect(purged.done).toBe(true);
    expect(purged.rounds).toBeGreaterThan(8);
    expect(await leftovers('campaign_id', [parent.id, sub.id])).toEqual({});
    expect(await leftovers('parent_campaign_id' as PurgeColumn, [parent.id])).toEqual({});
    expect(await db.prisma.campaign.count({ where: { id: { in: [parent.id, sub.id] } } })).toBe(0);
    // The inbox keeps the conversation, detached from the deleted lead and campaign.
    expect(await db.prisma.uniboxThread.findUnique({ where: { id: threadId }, select: { leadId: true, campaignId: true } })).toEqual({ leadId: null, campaignId: null });
    expect(await counters()).toEqual(otherBefore);
    expect(await db.prisma.lead.count({ where: { campaignId: other.id } })).toBe(30);
    expect(await leadCount()).toBe(30);
  });

  it('a subsequence deleted before its parent leaves the lead count once, and the parent goes to the purge with it', async () => {
    const { ctx, base, ws } = await createTestTenant({ db });
    const parent = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const sub = await createTestCampaign({ ...base, status: 'ACTIVE', parentId: parent.id, steps: [{ variations: [{ label: 'A' }] }] });
    await seedLeads({ ...base, campaignId: parent.id, variationId: parent.variations[1]!['A']!, count: 5, sends: 1, prefix: prefixOf() });
    await seedLeads({ ...base, campaignId: sub.id, variationId: sub.variations[1]!['A']!, count: SYNC_DELETE_MAX_LEADS + 1, sends: 1, prefix: prefixOf(), parentCampaignId: parent.id });
    const leadCount = async () => (await db.prisma.organization.findUniqueOrThrow({ where: { id: base.organizationId } })).leadCount;
    expect(await leadCount()).toBe(5 + SYNC_DELETE_MAX_LEADS + 1);

    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: sub.id, is_archive: 'no' });
    expect(await leadCount()).toBe(5);
    // The parent alone is small, but its deleted subsequence's rows are still there: not this transaction's cascade.
    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: parent.id, is_archive: 'no' });
    expect(await leadCount()).toBe(0);
    expect(await db.prisma.campaign.count({ where: { id: { in: [parent.id, sub.id] }, deletedAt: { not: null } } })).toBe(2);
    expect((await purgeAll({ batch: 2_000 })).done).toBe(true);
    expect(await leftovers('campaign_id', [parent.id, sub.id])).toEqual({});
    expect(await leadCount()).toBe(0);
  });

  it('still deletes a small campaign in the operation, rows and all, its inbox conversations detached as a purge leaves them (was naming the deleted lead and campaign)', async () => {
    const { ctx, base, ws } = await createTestTenant({ db });
    const c = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A' }] }] });
    const p = prefixOf();
    await seedLeads({ ...base, campaignId: c.id, variationId: c.variations[1]!['A']!, count: 5, sends: 1, prefix: p });
    const conversation = async (leadNumber: number) => {
      const leadId = `${p}${leadNumber.toString(16).padStart(16, '0')}`;
      const [send] = await db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM sent_emails WHERE lead_id = $1', leadId);
      const thread = await createTestThread({ db: base.db, workspaceId: ws, leadId, campaignId: c.id, messages: [{ direction: 'IN', at: T0 }] });
      await db.prisma.$executeRawUnsafe('UPDATE unibox_messages SET lead_id = $1, campaign_id = $2, sent_email_id = $3 WHERE thread_id = $4', leadId, c.id, send!.id, thread.id);
      return { leadId, threadId: thread.id };
    };
    const detached = async (threadId: string) => ({
      thread: await db.prisma.uniboxThread.findUniqueOrThrow({ where: { id: threadId }, select: { leadId: true, campaignId: true } }),
      messages: await db.prisma.uniboxMessage.findMany({ where: { threadId }, select: { leadId: true, campaignId: true, sentEmailId: true } }),
    });
    const none = { thread: { leadId: null, campaignId: null }, messages: [{ leadId: null, campaignId: null, sentEmailId: null }] };
    // A lead deleted by address first.
    const one = await conversation(1);
    const byAddress = (await db.prisma.lead.findUniqueOrThrow({ where: { id: one.leadId }, select: { email: true } })).email;
    expect(await run(ctx, operations.lead.delete, { workspace_id: ws, campaign_id: c.id, delete_list: [byAddress] })).toEqual({ status: 'success', deleted: 1 });
    expect(await detached(one.threadId)).toEqual(none);
    // Then the campaign.
    const two = await conversation(2);
    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: c.id, is_archive: 'no' });
    expect(await leftovers('campaign_id', [c.id])).toEqual({});
    expect(await db.prisma.campaign.count({ where: { id: c.id } })).toBe(0);
    expect(await detached(two.threadId)).toEqual(none);
  });

  it('purges the oldest deletion first, and a restarted worker carries on where a crashed one stopped', async () => {
    const clock = new TestClock(T0);
    const { ctx, base, ws } = await createTestTenant({ db, clock });
    const first = await largeCampaign(base);
    const second = await largeCampaign(base);
    clock.at = new Date(T0.getTime() + 60_000);
    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: first.parent.id, is_archive: 'no' });
    clock.at = T0;
    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: second.parent.id, is_archive: 'no' });
    // Deleted earlier by the clock: its subsequence goes first, then it.
    const round = await runPurgeRound({ deps: { db: db.prisma, log: silentLogger }, batch: 100, progress: new Map() });
    expect(round.target).toEqual({ kind: 'campaign', id: second.sub.id });
    // A worker dies after a few batches (its progress memory is lost); another starts afresh.
    expect((await purgeAll({ batch: 100, progress: new Map(), maxRounds: 7 })).done).toBe(false);
    const progress: PurgeProgress = new Map();
    expect((await purgeAll({ batch: 500, progress })).done).toBe(true);
    expect(progress.size).toBe(0);
    expect(await leftovers('campaign_id', [first.parent.id, first.sub.id, second.parent.id, second.sub.id])).toEqual({});
  });

  it('lets sends and uploads go on during the purge, and takes a send recorded late for the deleted campaign too', async () => {
    const { ctx, base, ws } = await createTestTenant({ db });
    const other = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    const otherLead = await db.prisma.lead.create({ data: { id: newId(), organizationId: base.organizationId, workspaceId: ws, campaignId: other.id, email: 'o@purge.test', emailNormalized: 'o@purge.test' } });
    const { parent, leadId } = await largeCampaign(base);
    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: parent.id, is_archive: 'no' });
    for (let i = 0; i < 3; i++) await runPurgeRound({ deps: { db: db.prisma, log: silentLogger }, batch: 200 });
    // Meanwhile: a send of another campaign, an upload to another campaign, and a send the engine
    // had claimed before the delete, recorded now for a lead of the deleted campaign.
    await recordTestSend({ ...base, campaignId: other.id, leadId: otherLead.id, step: 1, variationId: other.variations[1]!['A']!, variationLabel: 'A', sentAt: T0 });
    const upload = await run(ctx, operations.lead.add, { workspace_id: ws, campaign_id: other.id, leads: [{ email: 'new@purge.test' }] });
    expect(upload.leads_uploaded).toBe(1);
    // An address of the deleted campaign is in no campaign any more: skip_if_in_workspace lets it in.
    const readded = await run(ctx, operations.lead.add, { workspace_id: ws, campaign_id: other.id, leads: [{ email: `${leadId.slice(0, 8)}10@purge.test` }], skip_if_in_workspace: true });
    expect([readded.leads_uploaded, readded.skipped]).toEqual([1, 0]);
    await recordTestSend({ ...base, campaignId: parent.id, leadId, step: 2, variationId: parent.variations[1]!['A']!, variationLabel: 'A', sentAt: T0 });
    expect((await purgeAll({ batch: 200 })).done).toBe(true);
    expect(await leftovers('campaign_id', [parent.id])).toEqual({});
    expect(await db.prisma.sentEmail.count({ where: { campaignId: other.id } })).toBe(1);
    expect(await db.prisma.lead.count({ where: { campaignId: other.id } })).toBe(3);
  });
});

describe('workspace.delete and organization deletes', () => {
  it('answers with the workspace unreachable and its keys refused at once; the purge empties every table of it', async () => {
    const { org, ctx, base, ws } = await createTestTenant({ db });
    const second = await run(ctx, operations.workspace.create, { workspace_name: 'kept' });
    const kept = await createTestCampaign({ ...base, workspaceId: second._id, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    await seedLeads({ ...base, workspaceId: second._id, campaignId: kept.id, variationId: kept.variations[1]!['A']!, count: 10, sends: 1, prefix: prefixOf() });
    const { parent } = await largeCampaign(base);
    // The large campaign's counters folded, the small one's still pending deltas: workspace.delete reads both.
    await foldCampaignCounters({ db: db.prisma });
    const small = await createTestCampaign({ ...base, status: 'ACTIVE', steps: [{ variations: [{ label: 'A' }] }] });
    await seedLeads({ ...base, campaignId: small.id, variationId: small.variations[1]!['A']!, count: 7, sends: 1, prefix: prefixOf() });
    // A campaign deleted before (still being purged) had its leads taken off then, not again.
    const gone = await largeCampaign(base);
    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: gone.parent.id, is_archive: 'no' });
    const leadCount = async () => (await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount;
    expect(await leadCount()).toBe(10 + SYNC_DELETE_MAX_LEADS + 200 + 20 + 7);
    await db.prisma.blocklistEntry.create({ data: { id: newId(), workspaceId: ws, value: 'x@purge.test', isDomain: false } });
    const limited = await issueApiKey({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws });
    const authenticator = createAuthenticator({ db: db.prisma, cache: ctx.caches.apiKeys });
    expect((await authenticator.authenticate(limited.apiKey)).workspaceIds).toEqual([ws]);

    await run(ctx, operations.workspace.delete, { workspace_id: ws, confirm: ws });

    await expectDomainError(authenticator.authenticate(limited.apiKey), 'unauthenticated', 'auth.invalid_key');
    await expectDomainError(run(ctx, operations.campaign.listAll, { workspace_id: ws }), 'forbidden', 'auth.workspace_forbidden');
    const listed = await run(ctx, operations.workspace.list, {});
    expect(listed.workspaces.map((w: { _id: string }) => w._id)).toEqual([second._id]);
    expect((await authenticator.authenticate(org.apiKey)).organizationId).toBe(org.organizationId);
    // The organization's lead count loses the live campaigns' leads, subsequence's included.
    expect(await leadCount()).toBe(10);
    expect(await db.prisma.campaign.count({ where: { workspaceId: ws, status: 'ACTIVE' } })).toBe(0);

    expect((await purgeAll({ batch: 400 })).done).toBe(true);
    expect(await leftovers('workspace_id', [ws])).toEqual({});
    expect(await leftovers('campaign_id', [parent.id, small.id])).toEqual({});
    expect(await db.prisma.workspace.count({ where: { id: ws } })).toBe(0);
    expect(await db.prisma.lead.count({ where: { workspaceId: second._id } })).toBe(10);
    expect(await db.prisma.organization.count({ where: { id: org.organizationId } })).toBe(1);
  });

  it('refuses a workspace-limited key, and a workspace of another organization looks unknown', async () => {
    const a = await createTestTenant({ db });
    const b = await createTestTenant({ db });
    await expectDomainError(run(a.ctx, operations.workspace.delete, { workspace_id: b.ws, confirm: b.ws }), 'forbidden', 'auth.workspace_forbidden');
    const limited = { ...a.ctx, actor: { ...a.ctx.actor, workspaceIds: [a.ws] } };
    await expectDomainError(run(limited, operations.workspace.delete, { workspace_id: a.ws, confirm: a.ws }), 'forbidden', 'auth.organization_key_required');
    expect(await db.prisma.workspace.count({ where: { id: { in: [a.ws, b.ws] }, deletedAt: null } })).toBe(2);
  });

  it('organization.delete signs every key out at once; the purge empties every table of the organization', async () => {
    const { org, ctx, base } = await createTestTenant({ db });
    const second = await run(ctx, operations.workspace.create, { workspace_name: 'two' });
    await largeCampaign(base);
    await largeCampaign({ ...base, workspaceId: second._id });
    const authenticator = createAuthenticator({ db: db.prisma, cache: ctx.caches.apiKeys });
    await authenticator.authenticate(org.apiKey);
    const bystander = await createTestTenant({ db });

    await expectDomainError(run(ctx, operations.organization.delete, { confirm: bystander.org.organizationId }), 'invalid', 'organization.confirm_mismatch');
    await expectDomainError(run(ctx, operations.workspace.delete, { workspace_id: second._id, confirm: org.workspaceId }), 'invalid');
    expect(await db.prisma.workspace.count({ where: { organizationId: org.organizationId, deletedAt: null } })).toBe(2);
    await run(ctx, operations.organization.delete, { confirm: org.organizationId });
    // What `outreach org delete` answers for an organization already deleted, or none.
    expect(await deleteOrganization({ db: db.prisma, organizationId: org.organizationId, now: T0 })).toBe(false);
    expect(await deleteOrganization({ db: db.prisma, organizationId: newId(), now: T0 })).toBe(false);

    await expectDomainError(authenticator.authenticate(org.apiKey), 'unauthenticated', 'auth.invalid_key');
    await expectDomainError(run(ctx, operations.campaign.listAll, { workspace_id: second._id }), 'forbidden', 'auth.workspace_forbidden');
    // The statements of the purge, as the database client sees them.
    const statements: string[] = [];
    const client = new Proxy(db.prisma, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key === '$executeRawUnsafe' || key === '$queryRawUnsafe') {
          return (sql: string, ...args: unknown[]) => {
            statements.push(sql);
            return (value as (sql: string, ...args: unknown[]) => Promise<unknown>).call(target, sql, ...args);
          };
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect((await purgeAll({ batch: 1_000, client })).done).toBe(true);
    // Rows that name a workspace went with it: the organization's own rounds do not look for them
    // again by organization_id, which no index of leads or sent_emails starts with.
    const byOrganization = statements.filter((sql) => /WHERE "organization_id" = \$1/.test(sql));
    expect(byOrganization.some((sql) => sql.includes('"api_keys"'))).toBe(true);
    expect(byOrganization.filter((sql) => /"(leads|sent_emails|email_accounts)"/.test(sql))).toEqual([]);
    expect(await leftovers('organization_id', [org.organizationId])).toEqual({});
    expect(await leftovers('workspace_id', [org.workspaceId, second._id])).toEqual({});
    expect(await db.prisma.organization.count({ where: { id: org.organizationId } })).toBe(0);
    expect(await db.prisma.organization.count({ where: { id: bystander.org.organizationId } })).toBe(1);
    expect((await authenticator.authenticate(bystander.org.apiKey)).organizationId).toBe(bystander.org.organizationId);
  });
});

describe('the purge worker', () => {
  it('runs its loop until a deleted campaign is gone, with a clock that moves', async () => {
    const clock = new TestClock(T0);
    const { ctx, base, ws, deps } = await createTestTenant({ db, clock });
    const { parent, sub } = await largeCampaign(base);
    await run(ctx, operations.campaign.delete, { workspace_id: ws, campaign_id: parent.id, is_archive: 'no' });
    const worker = startPurgeWorker({ deps, intervalMs: 20, batch: 250 });
    try {
      for (let i = 0; i < 200 && (await db.prisma.campaign.count({ where: { id: { in: [parent.id, sub.id] } } })); i++) {
        clock.advance(1_000);
        await worker.nextRound();
      }
    } finally {
      await worker.stop();
    }
    expect(await leftovers('campaign_id', [parent.id, sub.id])).toEqual({});
    expect(await db.prisma.campaign.count({ where: { id: { in: [parent.id, sub.id] } } })).toBe(0);
  });
  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())('runs a batch again when it deadlocks with a writer of the same rows (was a failed round, logged as an error)', async () => {
    // Earlier deletions of this file first: the purge takes the oldest.
    await purgeAll({ batch: 1_000 });
    const { ctx, ws, deps, org } = await createTestTenant({ db });
    const hook = await db.prisma.webhook.create({ data: { id: newId(), organizationId: org.organizationId, workspaceId: ws, url: 'https://hooks.example.test/in', campIds: ['ALL'], eventTypes: ['EMAIL_SENT'] } });
    await db.prisma.webhookDelivery.createMany({ data: Array.from({ length: 10 }, () => ({ id: newId(), webhookId: hook.id, workspaceId: ws, event: 'EMAIL_SENT', payload: {}, nextAttemptAt: T0, createdAt: T0 })) });
    await run(ctx, operations.workspace.delete, { workspace_id: ws, confirm: ws });
    const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM webhook_deliveries WHERE workspace_id = $1 ORDER BY ctid', ws);
    const lines: { level: number; msg: string; change?: string }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let worker: ReturnType<typeof startPurgeWorker> | undefined;
    // A writer holding the last of the batch's rows, then asking for the first, which the purge's batch holds by then.
    await db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM webhook_deliveries WHERE id = $1 FOR UPDATE', rows.at(-1)!.id);
        worker = startPurgeWorker({ deps: { ...deps, log }, intervalMs: 3_600_000, batch: 100 });
        await untilWaitingOnLock(db.prisma, { sql: 'webhook_deliveries' });
        await tx.$queryRawUnsafe('SELECT id FROM webhook_deliveries WHERE id = $1 FOR UPDATE', rows[0]!.id);
      },
      { timeout: 30_000 },
    );
    try {
      for (let i = 0; i < 50 && (await db.prisma.webhookDelivery.count({ where: { workspaceId: ws } })); i++) await worker!.nextRound();
    } finally {
      await worker!.stop();
    }
    expect(await db.prisma.webhookDelivery.count({ where: { workspaceId: ws } })).toBe(0);
    expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'operation run again after a concurrent change').map((l) => l.change)).toEqual(['deadlock']);
  }, 60_000);
});
