import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { countEventLoopTurns, createTestCampaign, createTestLead, createTestTenant, expectDomainError, useTestDatabase } from '../testing/index';
import { executeOperation } from '../shared/operation';
import type { Ctx } from '../shared/context';
import { operations } from '../operations';
import { uploadStatementLeads } from './lead-add.queries';

const db = useTestDatabase();

async function setup(options: { leadAllowance?: number; defaultLeadAllowance?: number } = {}) {
  const { org, ctx, base } = await createTestTenant({ db, leadAllowance: options.leadAllowance, defaultLeadAllowance: options.defaultLeadAllowance });
  const campaign = await createTestCampaign({ ...base, status: 'ACTIVE' });
  const add = (input: Record<string, unknown>) =>
    executeOperation({ op: operations.lead.add, ctx, input: { workspace_id: org.workspaceId, campaign_id: campaign.id, ...input } });
  return { org, ctx, base, campaign, add };
}

function addsUp(r: { total_sent: number; leads_uploaded: number; duplicate_email_count: number; already_in_campaign: number; invalid_email_count: number; skipped: number; overflowed_lead_count: number }) {
  expect(r.leads_uploaded + r.duplicate_email_count + r.already_in_campaign + r.invalid_email_count + r.skipped + r.overflowed_lead_count).toBe(r.total_sent);
}

/**
 * ctx with its upload transaction observed: `onStatement` is told of each statement that writes
 * leads (an insert or an is_overwrite update) before it runs, and may throw instead.
 */
function observed(ctx: Ctx, onStatement: (kind: 'insert' | 'update') => void): Ctx {
  const watch = (tx: object) =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        if (prop !== '$queryRawUnsafe' && prop !== '$executeRawUnsafe') return Reflect.get(target, prop, receiver);
        const run = Reflect.get(target, prop, receiver) as (sql: string, ...args: unknown[]) => Promise<unknown>;
        return (sql: string, ...args: unknown[]) => {
          if (/INSERT INTO leads/.test(sql)) onStatement('insert');
          else if (/UPDATE leads/.test(sql)) onStatement('update');
          return run.call(target, sql, ...args);
        };
      },
    });
  return {
    ...ctx,
    db: new Proxy(ctx.db, {
      get(target, prop, receiver) {
        if (prop !== '$transaction') return Reflect.get(target, prop, receiver);
        return (fn: (tx: object) => Promise<unknown>, opts: unknown) => target.$transaction((tx) => fn(watch(tx)), opts as never);
      },
    }),
  };
}

const emailsIn = async (campaignId: string) =>
  (await db.prisma.lead.findMany({ where: { campaignId }, orderBy: { emailNormalized: 'asc' }, select: { emailNormalized: true } })).map((l) => l.emailNormalized);

describe('POST /lead/add', () => {
  it('adds leads with their fields and custom variables, and reports every count', async () => {
    const { add, campaign, org } = await setup();
    const r = await add({
      leads: [
        { email: ' Ann@Example.com', first_name: 'Ann', company_name: 'Acme', industry: 'SaaS', custom_variables: { tier: 'gold' } },
        { email: 'ann@example.com' },
        { email: 'broken@' },
        { email: 'bob@example.com', network_person_url: 'https://network.example/in/bob' },
      ],
    });
    expect(r).toEqual({
      status: 'success',
      total_sent: 4,
      leads_uploaded: 2,
      duplicate_email_count: 1,
      already_in_campaign: 0,
      invalid_email_count: 1,
      skipped: 0,
      remaining_in_plan: 1_000_000 - 2,
      overflowed_lead_count: 0,
    });
    const ann = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: campaign.id, emailNormalized: 'ann@example.com' } });
    expect(ann).toMatchObject({ email: 'Ann@Example.com', firstName: 'Ann', companyName: 'Acme', status: 'NOT_CONTACTED', organizationId: org.organizationId });
    expect(ann.customVariables).toEqual({ industry: 'SaaS', tier: 'gold' });
    const upload = await db.prisma.leadUpload.findFirstOrThrow({ where: { campaignId: campaign.id } });
    expect(upload).toMatchObject({ totalSent: 4, leadsUploaded: 2, crmSync: false });
    expect(ann.uploadId).toBe(upload.id);
  });

  it('stores any text as given: quotes, backslashes, braces, commas, the word NULL, line breaks and other scripts', async () => {
    const { add, campaign } = await setup();
    const odd = ['O"Brien', 'back\\slash \\"', '{a,b}', 'NULL', 'two\nlines', 'Zoë 日本 🙂', '  '];
    await add({ leads: odd.map((text, i) => ({ email: `odd${i}@example.com`, first_name: text, notes: `${text},${text}`, custom_variables: { said: text } })) });
    const stored = await db.prisma.lead.findMany({ where: { campaignId: campaign.id }, orderBy: { emailNormalized: 'asc' }, select: { firstName: true, notes: true, customVariables: true } });
    // A blank field is no value (cleaned to null); a blank custom variable is kept.
    expect(stored).toEqual(odd.map((text) => ({ firstName: text.trim() || null, notes: `${text},${text}`.trim(), customVariables: { said: text } })));
    await add({ is_overwrite: true, leads: odd.map((text, i) => ({ email: `ODD${i}@example.com`, last_name: `${text}!` })) });
    const over = await db.prisma.lead.findMany({ where: { campaignId: campaign.id }, orderBy: { emailNormalized: 'asc' }, select: { lastName: true } });
    expect(over.map((l) => l.lastName)).toEqual(odd.map((text) => `${text}!`.trim()));
  });

  it('counts leads already in the campaign, or updates them with is_overwrite', async () => {
    const { add, campaign, org } = await setup();
    await add({ leads: [{ email: 'a@example.com', first_name: 'Old', city: 'Oslo', custom_variables: { x: '1' } }] });
    const again = await add({ leads: [{ email: 'A@example.com', first_name: 'New' }, { email: 'b@example.com' }] });
    expect([again.leads_uploaded, again.already_in_campaign]).toEqual([1, 1]);
    const a1 = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: campaign.id, emailNormalized: 'a@example.com' } });
    expect(a1.firstName).toBe('Old');
    const over = await add({ is_overwrite: true, leads: [{ email: 'a@example.com', first_name: 'New', custom_variables: { y: '2' } }] });
    expect([over.leads_uploaded, over.already_in_campaign]).toEqual([1, 0]);
    addsUp(over);
    const a2 = await db.prisma.lead.findFirstOrThrow({ where: { campaignId: campaign.id, emailNormalized: 'a@example.com' } });
    expect([a2.firstName, a2.city, a2.customVariables]).toEqual(['New', 'Oslo', { x: '1', y: '2' }]);
    expect(await emailsIn(campaign.id)).toEqual(['a@example.com', 'b@example.com']);
    // New and existing leads in one overwriting upload: each counted once.
    const mixed = await add({ is_overwrite: true, leads: [{ email: 'b@example.com', city: 'Bergen' }, { email: 'c@example.com', city: 'Cork' }, { email: 'd@example.com' }] });
    expect([mixed.leads_uploaded, mixed.already_in_campaign]).toEqual([3, 0]);
    addsUp(mixed);
    const cities = await db.prisma.lead.findMany({ where: { campaignId: campaign.id }, orderBy: { emailNormalized: 'asc' }, select: { city: true } });
    expect(cities.map((c) => c.city)).toEqual(['Oslo', 'Bergen', 'Cork', null]);
    // With the allowance nearly spent, the bounded form counts the same way.
    await db.prisma.organization.update({ where: { id: org.organizationId }, data: { leadAllowance: 5 } });
    const bounded = await add({ is_overwrite: true, leads: [{ email: 'a@example.com', city: 'Aalborg' }, { email: 'e@example.com' }, { email: 'f@example.com' }] });
    expect([bounded.leads_uploaded, bounded.already_in_campaign, bounded.overflowed_lead_count, bounded.remaining_in_plan]).toEqual([2, 0, 1, 0]);
    addsUp(bounded);
  });

  it('skips blocklisted addresses and domains', async () => {
    const { add, campaign, org } = await setup();
    await db.prisma.blocklistEntry.createMany({
      data: [
        { id: newId(), workspaceId: org.workspaceId, value: 'blocked@example.com', isDomain: false },
        { id: newId(), workspaceId: org.workspaceId, value: 'competitor.io', isDomain: true },
      ],
    });
    const r = await add({ leads: [{ email: 'Blocked@Example.com' }, { email: 'ceo@competitor.io' }, { email: 'ok@example.com' }, { email: 'x@sub.competitor.io' }] });
    expect([r.leads_uploaded, r.skipped]).toEqual([2, 2]);
    expect(await emailsIn(campaign.id)).toEqual(['ok@example.com', 'x@sub.competitor.io']);
  });

  it('applies the skip flags against the workspace\'s other campaigns by their status', async () => {
    const { add, base, campaign } = await setup();
    for (const status of ['ACTIVE', 'PAUSED', 'COMPLETED'] as const) {
      const other = await createTestCampaign({ ...base, status });
      await createTestLead({ ...base, campaignId: other.id, email: `${status.toLowerCase()}@example.com` });
    }
    const leads = [{ email: 'active@example.com' }, { email: 'paused@example.com' }, { email: 'completed@example.com' }, { email: 'fresh@example.com' }];
    const activeOnly = await add({ leads, skip_lead_for_active_only_camp: true });
    expect([activeOnly.leads_uploaded, activeOnly.skipped]).toEqual([3, 1]);
    await db.prisma.lead.deleteMany({ where: { campaignId: campaign.id } });
    const activeOrPaused = await add({ leads, skip_lead_in_active_pause_camp: true });
    expect([activeOrPaused.leads_uploaded, activeOrPaused.skipped]).toEqual([2, 2]);
    await db.prisma.lead.deleteMany({ where: { campaignId: campaign.id } });
    const anywhere = await add({ leads, skip_if_in_workspace: 'true' });
    expect([anywhere.leads_uploaded, anywhere.skipped]).toEqual([1, 3]);
    expect(await emailsIn(campaign.id)).toEqual(['fresh@example.com']);
    const none = await add({ leads });
    expect([none.leads_uploaded, none.already_in_campaign, none.skipped]).toEqual([3, 1, 0]);
  });

  it('stops at the organization\'s lead allowance, in request order, across workspaces', async () => {
    const { add, campaign, org } = await setup({ leadAllowance: 5 });
    const first = await add({ leads: [1, 2, 3].map((i) => ({ email: `l${i}@example.com` })) });
    expect([first.leads_uploaded, first.remaining_in_plan, first.overflowed_lead_count]).toEqual([3, 2, 0]);
    const second = await add({ leads: [4, 5, 6, 7].map((i) => ({ email: `l${i}@example.com` })).concat([{ email: 'l1@example.com' }]) });
    expect(second).toMatchObject({ leads_uploaded: 2, already_in_campaign: 1, overflowed_lead_count: 2, remaining_in_plan: 0 });
    addsUp(second);
    expect(await emailsIn(campaign.id)).toEqual(['l1@example.com', 'l2@example.com', 'l3@example.com', 'l4@example.com', 'l5@example.com']);
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount).toBe(5);
    // The default allowance applies when the organization has none of its own.
    const byDefault = await setup({ defaultLeadAllowance: 1 });
    expect(await byDefault.add({ leads: [{ email: 'a@example.com' }, { email: 'b@example.com' }] })).toMatchObject({ leads_uploaded: 1, overflowed_lead_count: 1, remaining_in_plan: 0 });
  });

  it('resumes a completed campaign only when a lead was added', async () => {
    const { add, campaign } = await setup();
    await db.prisma.campaign.update({ where: { id: campaign.id }, data: { status: 'COMPLETED' } });
    await add({ leads: [{ email: 'bad' }], resume_camp_if_completed: true });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe('COMPLETED');
    await add({ leads: [{ email: 'good@example.com' }] });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe('COMPLETED');
    await add({ leads: [{ email: 'also@example.com' }], resume_camp_if_completed: true });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe('ACTIVE');
  });

  it('adds 10,000 leads in one request; refuses 10,001, bad custom variables and foreign campaigns, writing nothing', async () => {
    const { add, campaign, base } = await setup();
    const big = Array.from({ length: 10_000 }, (_, i) => ({ email: `lead${i}@bulk.example.com`, first_name: `L${i}` }));
    const r = await add({ leads: big });
    expect(r.leads_uploaded).toBe(10_000);
    expect(await db.prisma.lead.count({ where: { campaignId: campaign.id } })).toBe(10_000);

    const tooMany = await expectDomainError(add({ leads: [...big, { email: 'one@more.com' }] }), 'invalid');
    expect(tooMany.fieldErrors[0]).toEqual({ field: 'leads', message: 'must contain at most 10000 leads per request' });
    const badVar = await expectDomainError(add({ leads: [{ email: 'x@example.com', custom_variables: { n: 5 } }] }), 'invalid');
    expect(badVar.fieldErrors[0]!.field).toBe('leads.0.custom_variables.n');
    await expectDomainError(add({ leads: [] }), 'invalid');
    const otherOrg = await setup();
    await expectDomainError(add({ campaign_id: otherOrg.campaign.id, leads: [{ email: 'y@example.com' }] }), 'invalid', 'campaign.not_found');
    const subseq = await createTestCampaign({ ...base, parentId: campaign.id });
    await expectDomainError(add({ campaign_id: subseq.id, leads: [{ email: 'y@example.com' }] }), 'invalid', 'campaign.is_subsequence');
    expect(await db.prisma.lead.count({ where: { campaignId: { in: [campaign.id, otherOrg.campaign.id, subseq.id] } } })).toBe(10_000);
  });

  // S leads a statement on this database (after a first one that may be smaller): the uploads
  // below take three statements or more each.
  let S = 0;
  let statementsFor = (leads: number) => leads;
  beforeAll(() => {
    const sizes = uploadStatementLeads({ embeddedDatabase: db.kind === 'pglite' });
    S = sizes.next;
    statementsFor = (leads) => 1 + Math.ceil(Math.max(0, leads - sizes.first) / sizes.next);
  });

  it('writes an upload larger than one statement in request order, carrying the allowance from statement to statement and letting other work run between them', async () => {
    expect(S % 10).toBe(0);
    // Room for 2.2 S leads once the one already in the campaign is counted.
    const room = (S * 22) / 10;
    const { org, ctx, campaign, base } = await setup({ leadAllowance: room + 1 });
    const email = (i: number) => `l${i}@bulk.example.com`;
    const already = (S * 14) / 10;
    const blocked = (S * 24) / 10;
    await createTestLead({ ...base, campaignId: campaign.id, email: email(already) });
    await db.prisma.blocklistEntry.create({ data: { id: newId(), workspaceId: org.workspaceId, value: email(blocked), isDomain: false } });
    // 2.5 S distinct addresses (statements of S, S and S/2: one already in the campaign in the second,
    // one blocklisted in the third), one invalid, and a repeat of the first one at the end (planned in
    // another slice).
    const distinct = (S * 25) / 10;
    const leads: { email: string }[] = Array.from({ length: distinct }, (_, i) => ({ email: email(i) }));
    leads.splice(10, 0, { email: 'broken@' });
    leads.push({ email: email(0).toUpperCase() });

    const loop = countEventLoopTurns();
    const turnsAtInsert: number[] = [];
    const r = await executeOperation({
      op: operations.lead.add,
      ctx: observed(ctx, (kind) => kind === 'insert' && turnsAtInsert.push(loop.turns)),
      input: { workspace_id: org.workspaceId, campaign_id: campaign.id, leads },
    }).finally(() => loop.stop());

    // Eligible: every distinct address but the two; the first `room` of them in request order are added.
    const eligible = distinct - 2;
    expect(r).toEqual({
      status: 'success',
      total_sent: distinct + 2,
      leads_uploaded: room,
      duplicate_email_count: 1,
      already_in_campaign: 1,
      invalid_email_count: 1,
      skipped: 1,
      remaining_in_plan: 0,
      overflowed_lead_count: eligible - room,
    });
    addsUp(r);
    // The allowance ran out in the last statements: the campaign holds addresses 0 to 2.2 S.
    expect(await emailsIn(campaign.id)).toEqual(Array.from({ length: room + 1 }, (_, i) => email(i)).sort());
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount).toBe(room + 1);
    expect(turnsAtInsert).toHaveLength(statementsFor(leads.length));
    expect(turnsAtInsert.length).toBeGreaterThanOrEqual(3);
    // Other work runs after the request is validated, before the first statement too (on PGlite the
    // statements before it would otherwise follow the validation on the same turn).
    expect(turnsAtInsert[0]).toBeGreaterThan(0);
    for (let i = 1; i < turnsAtInsert.length; i++) expect(turnsAtInsert[i]).toBeGreaterThan(turnsAtInsert[i - 1]!);
  });

  it('updates leads named anywhere in a large upload with is_overwrite, then adds the others', async () => {
    const { org, ctx, campaign, base } = await setup();
    const email = (i: number) => `o${i}@bulk.example.com`;
    const count = (S * 22) / 10;
    for (const i of [5, (S * 21) / 10]) await createTestLead({ ...base, campaignId: campaign.id, email: email(i), firstName: 'Old' });
    const statements: string[] = [];
    const r = await executeOperation({
      op: operations.lead.add,
      ctx: observed(ctx, (kind) => statements.push(kind)),
      input: { workspace_id: org.workspaceId, campaign_id: campaign.id, is_overwrite: true, leads: Array.from({ length: count }, (_, i) => ({ email: email(i), first_name: 'New' })) },
    });
    expect([r.leads_uploaded, r.already_in_campaign, r.overflowed_lead_count]).toEqual([count, 0, 0]);
    addsUp(r);
    // Updates in statements of S (every lead planned first), then the inserts as any upload.
    expect(statements).toEqual([...Array<string>(Math.ceil(count / S)).fill('update'), ...Array<string>(statementsFor(count)).fill('insert')]);
    const leads = await db.prisma.lead.findMany({ where: { campaignId: campaign.id }, select: { firstName: true } });
    expect(leads).toHaveLength(count);
    expect(leads.every((l) => l.firstName === 'New')).toBe(true);
  });

  it('leaves nothing of the earlier statements behind when a later one fails', async () => {
    const { org, ctx, campaign } = await setup();
    let inserts = 0;
    const failing = observed(ctx, (kind) => {
      if (kind === 'insert' && ++inserts === 3) throw new Error('simulated failure of the third statement');
    });
    await expect(
      executeOperation({
        op: operations.lead.add,
        ctx: failing,
        input: { workspace_id: org.workspaceId, campaign_id: campaign.id, leads: Array.from({ length: (S * 25) / 10 }, (_, i) => ({ email: `f${i}@bulk.example.com` })) },
      }),
    ).rejects.toThrow('simulated failure of the third statement');
    expect(inserts).toBe(3);
    expect(await db.prisma.lead.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount).toBe(0);
    expect(await db.prisma.leadUpload.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it('reports the statement the database refuses, sends none after it and leaves nothing behind', async () => {
    const { org, ctx, campaign } = await setup();
    // The database itself refuses one lead of the second statement (a trigger standing for any
    // failure there: a constraint, a lost connection), while the third slice is being planned.
    await db.prisma.$executeRawUnsafe(`CREATE FUNCTION refuse_lead() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused %', NEW.email; END $$`);
    await db.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_lead BEFORE INSERT ON leads FOR EACH ROW WHEN (NEW.email = 'p${S + 5}@bulk.example.com') EXECUTE FUNCTION refuse_lead()`);
    try {
      let inserts = 0;
      await expect(
        executeOperation({
          op: operations.lead.add,
          ctx: observed(ctx, (kind) => kind === 'insert' && inserts++),
          input: { workspace_id: org.workspaceId, campaign_id: campaign.id, leads: Array.from({ length: (S * 25) / 10 }, (_, i) => ({ email: `p${i}@bulk.example.com` })) },
        }),
      ).rejects.toThrow(`refused p${S + 5}@bulk.example.com`);
      expect(inserts).toBe(2);
    } finally {
      await db.prisma.$executeRawUnsafe('DROP TRIGGER refuse_lead ON leads');
      await db.prisma.$executeRawUnsafe('DROP FUNCTION refuse_lead()');
    }
    expect(await db.prisma.lead.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount).toBe(0);
    expect(await db.prisma.leadUpload.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it('leaves nothing behind when the transaction fails midway', async () => {
    const { org, ctx, campaign } = await setup();
    // A campaign whose row vanishes between validation and insert makes the insert fail on its foreign key.
    const failing = {
      ...ctx,
      db: new Proxy(ctx.db, {
        get(target, prop, receiver) {
          if (prop !== '$transaction') return Reflect.get(target, prop, receiver);
          return (fn: (tx: unknown) => Promise<unknown>, opts: unknown) =>
            target.$transaction(async (tx) => {
              const result = await fn(tx);
              throw Object.assign(new Error('simulated failure after the insert'), { result });
            }, opts as never);
        },
      }),
    };
    await expect(
      executeOperation({ op: operations.lead.add, ctx: failing, input: { workspace_id: org.workspaceId, campaign_id: campaign.id, leads: [{ email: 'ghost@example.com' }] } }),
    ).rejects.toThrow('simulated failure');
    expect(await db.prisma.lead.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } })).leadCount).toBe(0);
    expect(await db.prisma.leadUpload.count({ where: { campaignId: campaign.id } })).toBe(0);
  });
});
