// Email-account automation rules against the test database: the operations and their
// validation, each action, the metrics, the cooldown, two evaluators at once, tenancy, and the
// worker's real loop on a moving clock; a rule, mailbox or tag changed while it is evaluated.
import { describe, expect, it } from 'vitest';
import { newId, type Tx } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox, createTestTenant, expectDomainError, TestClock, untilWaitingOnLock, usingPostgres, useTestDatabase, type TestTenant } from '../testing/index';
import { executeOperation, type Operation } from '../shared/operation';
import { operations } from '../operations';
import { evaluateMailboxRules, evaluateRule, loadActiveRule, runAutomationRound, startAccountAutomationWorker } from './index';
import { fireRule } from './evaluate.service';
import { ADD_TAG_SQL, RECORD_EVALUATION_SQL } from './account-automation.queries';

const db = useTestDatabase();
const ops = operations.accountAutomation;
const MINUTE = 60_000;
const DAY = 86_400_000;
// Monday 2 March 2026, 10:00 UTC.
const START = '2026-03-02T10:00:00.000Z';

async function setup() {
  const clock = new TestClock(new Date(START));
  const t = await createTestTenant({ db, clock });
  const campaign = await createTestCampaign({ ...t.base, steps: [{ variations: [{ label: 'A' }] }] });
  let n = 0;
  const mailbox = async (email: string) => (await createTestMailbox({ ...t.base, email: `${email.replace('@', `-${t.ws.slice(-6)}@`)}` })).id;
  /** `count` sends from the mailbox, `ago` ms before now, the first `bounced` of them bounced and the next `replied` replied. */
  const sends = async (mailboxId: string, options: { count: number; bounced?: number; replied?: number; ago?: number }) => {
    for (let i = 0; i < options.count; i++) {
      const lead = await createTestLead({ ...t.base, campaignId: campaign.id, email: `lead${n++}@prospect.test` });
      const at = new Date(clock.now().getTime() - (options.ago ?? 0) - (options.count - i) * 1000);
      const bounced = i < (options.bounced ?? 0);
      const replied = !bounced && i < (options.bounced ?? 0) + (options.replied ?? 0);
      await db.prisma.sentEmail.create({
        data: {
          id: newId(),
          organizationId: t.org.organizationId,
          workspaceId: t.ws,
          campaignId: campaign.id,
          leadId: lead.id,
          emailAccountId: mailboxId,
          step: 1,
          variationId: campaign.variations[1]!['A']!,
          variationLabel: 'A',
          messageId: `${newId()}@sender.test`,
          subject: 'Hello',
          body: '<p>Hello</p>',
          sentAt: at,
          bouncedAt: bounced ? at : null,
          repliedAt: replied ? at : null,
        },
      });
    }
  };
  const run = <O>(op: Operation<any, any, any>, input: Record<string, unknown>) =>
    executeOperation({ op, ctx: t.ctx, input: { workspace_id: t.ws, ...input } }) as Promise<O>;
  const create = (input: Record<string, unknown>) =>
    run<{ rule: { _id: string } & Record<string, unknown> }>(ops.create, {
      name: 'Pause on bounces',
      metric: 'bounce_rate',
      operator: 'GT',
      threshold: 5,
      actions: [{ type: 'PAUSE_SENDING' }],
      ...input,
    });
  const get = (ruleId: string) => run<GetOutput>(ops.get, { rule_id: ruleId });
  const evaluate = async (ruleId: string) => evaluateRule({ db: db.prisma, rule: (await loadActiveRule(db.prisma, ruleId))!, now: clock.now() });
  const account = (id: string) => db.prisma.emailAccount.findUniqueOrThrow({ where: { id }, include: { tags: true } });
  return { ...t, clock, campaign, mailbox, sends, run, create, get, evaluate, account };
}

interface GetOutput {
  status: string;
  last_evaluated_at: string | null;
  last_evaluation: { email_account_id: string; email: string; value: number | null; outcome: string; evaluated_at: string; last_fired_at: string | null }[];
  firings: { _id: string; email_account_id: string; value: number; actions: { type: string; result: string; detail: string }[]; fired_at: string }[];
}

async function webhook(t: TestTenant) {
  await executeOperation({ op: operations.webhook.add, ctx: t.ctx, input: { workspace_id: t.ws, url: 'https://hooks.example.test/alerts', camp_ids: ['ALL'], event_types: ['SYSTEM_ALERT'] } });
}

describe('automation rule operations', () => {
  it('creates, lists, gets, updates, enables, duplicates and deletes a rule', async () => {
    const t = await setup();
    const box = await t.mailbox('a@sender.test');
    const tag = await executeOperation({ op: operations.tag.create, ctx: t.ctx, input: { workspace_id: t.ws, name: 'Paused by rule', color: '#FF0000' } });
    // Lenient spellings: the metric in any case, the operator as a symbol, numbers as strings.
    const created = await t.create({
      name: '  Bounces  ',
      metric: ' Bounce_Rate ',
      operator: '>=',
      threshold: '5.5',
      window_days: '3',
      email_account_ids: [box],
      actions: [{ type: 'pause_sending' }, { type: 'ADD_TAG', tag_id: tag.tag_id }, { type: 'SET_DAILY_LIMIT', value: 5 }],
    });
    expect(created.rule).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      workspace_id: t.ws,
      name: 'Bounces',
      status: 'ACTIVE',
      scope: 'ACCOUNTS',
      tag_ids: [],
      email_account_ids: [box],
      metric: 'bounce_rate',
      operator: 'GTE',
      threshold: 5.5,
      window_days: 3,
      actions: [
        { type: 'PAUSE_SENDING', value: null, tag_id: null },
        { type: 'ADD_TAG', value: null, tag_id: tag.tag_id },
        { type: 'SET_DAILY_LIMIT', value: 5, tag_id: null },
      ],
      cooldown_minutes: 1440,
      last_evaluated_at: null,
      created_at: expect.any(String),
      modified_at: expect.any(String),
    });
    const id = created.rule._id;

    const updated = await t.run<{ rule: Record<string, unknown> }>(ops.update, { rule_id: id, tag_ids: [tag.tag_id], threshold: 10, cooldown_minutes: 30 });
    expect(updated.rule).toMatchObject({ scope: 'TAGS', tag_ids: [tag.tag_id], email_account_ids: [], threshold: 10, cooldown_minutes: 30, name: 'Bounces', window_days: 3 });
    const off = await t.run<{ rule: Record<string, unknown> }>(ops.status, { rule_id: id, status: 'inactive' });
    expect(off.rule['status']).toBe('INACTIVE');

    const copy = await t.run<{ rule: Record<string, unknown> & { _id: string } }>(ops.duplicate, { rule_id: id });
    expect(copy.rule).toMatchObject({ name: 'Bounces (copy)', status: 'INACTIVE', scope: 'TAGS', tag_ids: [tag.tag_id], threshold: 10, actions: updated.rule['actions'] });
    const named = await t.run<{ rule: Record<string, unknown> }>(ops.duplicate, { rule_id: id, name: 'Second' });
    expect(named.rule['name']).toBe('Second');

    const listed = await t.run<{ _id: string; name: string }[]>(ops.list, {});
    expect(listed.map((r) => r.name)).toEqual(['Bounces', 'Bounces (copy)', 'Second']);
    expect((await t.run<unknown[]>(ops.list, { skip: 1, limit: 1 })).length).toBe(1);

    const got = await t.get(id);
    expect(got).toMatchObject({ _id: id, status: 'INACTIVE', last_evaluation: [], firings: [] });

    const deleted = await t.run(ops.delete, { ids: [id, copy.rule._id, newId()] });
    expect(deleted).toEqual({ status: 'success', deleted_count: 2 });
    await expectDomainError(t.get(id), 'not_found', 'account_automation.rule_not_found');
  });

  it('answers 400 naming the field for an unknown metric, operator or action, a threshold or window out of range, and ids of another workspace', async () => {
    const t = await setup();
    const other = await setup();
    const theirBox = await other.mailbox('theirs@sender.test');
    const theirTag = await executeOperation({ op: operations.tag.create, ctx: other.ctx, input: { workspace_id: other.ws, name: 'Theirs', color: '#000000' } });
    const fieldsOf = async (input: Record<string, unknown>) => (await expectDomainError(t.create(input), 'invalid', 'request.invalid')).fieldErrors.map((f) => f.field);

    expect(await fieldsOf({ metric: 'open_rate' })).toEqual(['metric']);
    expect(await fieldsOf({ operator: 'BETWEEN' })).toEqual(['operator']);
    expect(await fieldsOf({ actions: [{ type: 'DELETE_MAILBOX' }] })).toEqual(['actions.0.type']);
    expect(await fieldsOf({ actions: [] })).toEqual(['actions']);
    expect(await fieldsOf({ threshold: 120 })).toEqual(['threshold']);
    expect(await fieldsOf({ metric: 'health_score', threshold: -1 })).toEqual(['threshold']);
    expect(await fieldsOf({ metric: 'daily_sent', threshold: 1.5 })).toEqual(['threshold']);
    expect(await fieldsOf({ threshold: 'lots' })).toEqual(['threshold']);
    expect(await fieldsOf({ window_days: 0 })).toEqual(['window_days']);
    expect(await fieldsOf({ window_days: 91 })).toEqual(['window_days']);
    expect(await fieldsOf({ cooldown_minutes: 0 })).toEqual(['cooldown_minutes']);
    expect(await fieldsOf({ actions: [{ type: 'SET_DAILY_LIMIT' }] })).toEqual(['actions.0.value']);
    const scoped = await expectDomainError(t.create({ email_account_ids: [theirBox] }), 'invalid');
    expect(scoped.fieldErrors).toEqual([{ field: 'email_account_ids.0', message: `${theirBox} is not an email account of this workspace` }]);
    expect(await fieldsOf({ tag_ids: [theirTag.tag_id] })).toEqual(['tag_ids.0']);
    expect(await fieldsOf({ actions: [{ type: 'ADD_TAG', tag_id: theirTag.tag_id }] })).toEqual(['actions.0.tag_id']);
    expect(await fieldsOf({ scope: 'TAGS' })).toEqual(['tag_ids']);

    // Update validates the rule whole; another workspace's rule is not found.
    const mine = await t.create({ threshold: 5.5 });
    const bad = await expectDomainError(t.run(ops.update, { rule_id: mine.rule._id, metric: 'daily_sent' }), 'invalid');
    expect(bad.fieldErrors.map((f) => f.field)).toEqual(['threshold']);
    await expectDomainError(other.run(ops.get, { rule_id: mine.rule._id }), 'not_found', 'account_automation.rule_not_found');
    await expectDomainError(other.run(ops.status, { rule_id: mine.rule._id, status: 'INACTIVE' }), 'not_found');
    expect(await other.run(ops.delete, { ids: [mine.rule._id] })).toEqual({ status: 'success', deleted_count: 0 });
    expect((await t.get(mine.rule._id)).status).toBe('ACTIVE');
  });
});

describe('firing a rule', () => {
  it('runs every action on the mailbox, records the firing and queues a SYSTEM_ALERT', async () => {
    const t = await setup();
    await webhook(t);
    const box = await t.mailbox('bouncy@sender.test');
    const calm = await t.mailbox('calm@sender.test');
    await db.prisma.emailAccount.update({ where: { id: box }, data: { warmupStatus: 'ACTIVE' } });
    const add = await executeOperation({ op: operations.tag.create, ctx: t.ctx, input: { workspace_id: t.ws, name: 'Needs care', color: '#FF0000' } });
    const remove = await executeOperation({ op: operations.tag.create, ctx: t.ctx, input: { workspace_id: t.ws, name: 'Healthy', color: '#00FF00' } });
    await db.prisma.emailAccountTag.create({ data: { emailAccountId: box, tagId: remove.tag_id } });
    await t.sends(box, { count: 10, bounced: 2 });
    await t.sends(calm, { count: 10 });
    const rule = await t.create({
      actions: [
        { type: 'PAUSE_SENDING' },
        { type: 'PAUSE_WARMUP' },
        { type: 'SET_DAILY_LIMIT', value: 7 },
        { type: 'ADD_TAG', tag_id: add.tag_id },
        { type: 'REMOVE_TAG', tag_id: remove.tag_id },
        { type: 'NOTIFY' },
      ],
    });

    const result = await t.evaluate(rule.rule._id);
    expect(result.mailboxes).toBe(2);
    expect(result.fired.map((f) => f.emailAccountId)).toEqual([box]);

    const after = await t.account(box);
    expect([after.status, after.warmupStatus, after.dailyLimit, after.tags.map((x) => x.tagId)]).toEqual(['PAUSED', 'INACTIVE', 7, [add.tag_id]]);
    const untouched = await t.account(calm);
    expect([untouched.status, untouched.dailyLimit]).toEqual(['ACTIVE', 30]);

    const got = await t.get(rule.rule._id);
    expect(got.firings).toHaveLength(1);
    expect(got.firings[0]).toMatchObject({ email_account_id: box, value: 20, fired_at: START });
    expect(got.firings[0]!.actions.map((a) => `${a.type}:${a.result}`)).toEqual([
      'PAUSE_SENDING:APPLIED',
      'PAUSE_WARMUP:APPLIED',
      'SET_DAILY_LIMIT:APPLIED',
      'ADD_TAG:APPLIED',
      'REMOVE_TAG:APPLIED',
      'NOTIFY:APPLIED',
    ]);
    const outcomes = Object.fromEntries(got.last_evaluation.map((e) => [e.email_account_id, [e.value, e.outcome]]));
    expect(outcomes).toEqual({ [box]: [20, 'FIRED'], [calm]: [0, 'NOT_MET'] });

    const alerts = await db.prisma.webhookDelivery.findMany({ where: { workspaceId: t.ws, event: 'SYSTEM_ALERT' } });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.payload).toMatchObject({
      webhook_event: 'SYSTEM_ALERT',
      workspace_id: t.ws,
      alert_type: 'AUTOMATION_RULE_FIRED',
      rule_id: rule.rule._id,
      rule_name: 'Pause on bounces',
      email_account_id: box,
      email: after.email,
      metric: 'bounce_rate',
      value: 20,
      operator: 'GT',
      threshold: 5,
      window_days: 7,
      actions: ['PAUSE_SENDING', 'PAUSE_WARMUP', 'SET_DAILY_LIMIT', 'ADD_TAG', 'REMOVE_TAG', 'NOTIFY'],
      date: START,
      message: expect.stringContaining('bounce_rate 20% > 5% over 7 days'),
    });
  });

  it('reads each metric over its window: bounce and reply rates, consecutive failures, today’s sends; no data says so', async () => {
    const t = await setup();
    const box = await t.mailbox('metrics@sender.test');
    // Within 7 days: 10 sends, 1 bounced, 4 replied; 3 bounced sends 10 days ago, outside the window.
    await t.sends(box, { count: 3, bounced: 3, ago: 10 * DAY });
    await t.sends(box, { count: 10, bounced: 1, replied: 4, ago: 2 * DAY });
    // Today (10:00 UTC, the workspace's zone is UTC): 2 accepted, then 3 bounced in a row.
    await t.sends(box, { count: 2, ago: 2 * 3600_000 });
    await t.sends(box, { count: 3, bounced: 3, ago: 60_000 });
    await db.prisma.emailAccount.update({ where: { id: box }, data: { uniboxDayStart: new Date('2026-03-02T00:00:00Z'), uniboxSentToday: 4 } });

    const valueOf = async (metric: string, extra: Record<string, unknown> = {}) => {
      const rule = await t.create({ name: metric, metric, operator: 'GTE', threshold: 0, actions: [{ type: 'PAUSE_WARMUP' }], ...extra });
      await t.evaluate(rule.rule._id);
      return (await t.get(rule.rule._id)).last_evaluation.map((e) => [e.value, e.outcome]);
    };
    // 15 sends in 7 days, 4 bounced (1 + 3), 4 replied.
    expect(await valueOf('bounce_rate')).toEqual([[expect.closeTo((4 / 15) * 100, 9), 'FIRED']]);
    expect(await valueOf('reply_rate')).toEqual([[expect.closeTo((4 / 15) * 100, 9), 'FIRED']]);
    expect(await valueOf('bounce_rate', { window_days: 1 })).toEqual([[60, 'FIRED']]);
    expect(await valueOf('consecutive_failures')).toEqual([[3, 'FIRED']]);
    // 5 campaign sends and 4 from the unified inbox today.
    expect(await valueOf('daily_sent')).toEqual([[9, 'FIRED']]);
    // No warmup e-mail placed in the window: no data, and the rule does not fire.
    expect(await valueOf('warmup_spam_rate')).toEqual([[null, 'NO_DATA']]);
    expect(await db.prisma.accountAutomationFiring.count({ where: { workspaceId: t.ws, metric: 'warmup_spam_rate' } })).toBe(0);

    // A mailbox with no send in the window has no bounce rate: no data, not 0 %.
    const idle = await t.mailbox('idle@sender.test');
    const rule = await t.create({ name: 'idle', email_account_ids: [idle], operator: 'LT', threshold: 50 });
    await t.evaluate(rule.rule._id);
    expect((await t.get(rule.rule._id)).last_evaluation.map((e) => [e.value, e.outcome])).toEqual([[null, 'NO_DATA']]);
  });

  it('fires once per cooldown for a mailbox, and again once it has passed', async () => {
    const t = await setup();
    await webhook(t);
    const box = await t.mailbox('cool@sender.test');
    await t.sends(box, { count: 4, bounced: 1 });
    const rule = await t.create({ cooldown_minutes: 60, actions: [{ type: 'NOTIFY' }] });
    expect((await t.evaluate(rule.rule._id)).fired).toHaveLength(1);
    t.clock.advance(59 * MINUTE);
    expect((await t.evaluate(rule.rule._id)).fired).toHaveLength(0);
    expect((await t.get(rule.rule._id)).last_evaluation[0]!.outcome).toBe('COOLDOWN');
    // The bounce hook respects the cooldown too.
    expect(await db.prisma.$transaction((tx) => evaluateMailboxRules({ tx, emailAccountId: box, now: t.clock.now() }))).toEqual([]);
    t.clock.advance(MINUTE);
    expect((await t.evaluate(rule.rule._id)).fired).toHaveLength(1);
    const got = await t.get(rule.rule._id);
    expect(got.firings.map((f) => f.fired_at)).toEqual(['2026-03-02T11:00:00.000Z', START]);
    expect(await db.prisma.webhookDelivery.count({ where: { workspaceId: t.ws, event: 'SYSTEM_ALERT' } })).toBe(2);
  });

  it('fires once when two evaluators evaluate the same rule at once', async () => {
    const t = await setup();
    await webhook(t);
    const boxes = [await t.mailbox('one@sender.test'), await t.mailbox('two@sender.test')];
    for (const box of boxes) await t.sends(box, { count: 5, bounced: 5 });
    const rule = await t.create({ actions: [{ type: 'NOTIFY' }, { type: 'PAUSE_SENDING' }] });
    const loaded = (await loadActiveRule(db.prisma, rule.rule._id))!;
    const results = await Promise.all([
      evaluateRule({ db: db.prisma, rule: loaded, now: t.clock.now() }),
      evaluateRule({ db: db.prisma, rule: loaded, now: t.clock.now() }),
      db.prisma.$transaction((tx) => evaluateMailboxRules({ tx, emailAccountId: boxes[0]!, now: t.clock.now() })),
    ]);
    const fired = [...results[0].fired, ...results[1].fired, ...results[2]];
    expect(fired.map((f) => f.emailAccountId).sort()).toEqual([...boxes].sort());
    expect(await db.prisma.accountAutomationFiring.count({ where: { ruleId: rule.rule._id } })).toBe(2);
    expect(await db.prisma.webhookDelivery.count({ where: { workspaceId: t.ws, event: 'SYSTEM_ALERT' } })).toBe(2);

    // Two workers' rounds at once: the rule is evaluated by one of them.
    await t.run(ops.status, { rule_id: rule.rule._id, status: 'INACTIVE' });
    await t.run(ops.status, { rule_id: rule.rule._id, status: 'ACTIVE' });
    const rounds = await Promise.all([
      runAutomationRound({ deps: t.deps, periodMs: 5 * MINUTE, batch: 10, workspaceIds: [t.ws] }),
      runAutomationRound({ deps: t.deps, periodMs: 5 * MINUTE, batch: 10, workspaceIds: [t.ws] }),
    ]);
    expect(rounds.map((r) => r.rules).sort()).toEqual([0, 1]);
    expect(await db.prisma.accountAutomationFiring.count({ where: { ruleId: rule.rule._id } })).toBe(2);
  });

  it('never touches another workspace’s mailboxes, and an INACTIVE rule nothing', async () => {
    const mine = await setup();
    const theirs = await setup();
    const myBox = await mine.mailbox('mine@sender.test');
    const theirBox = await theirs.mailbox('theirs@sender.test');
    await mine.sends(myBox, { count: 2 });
    await theirs.sends(theirBox, { count: 2, bounced: 2 });
    // Their mailbox bounces everything, but my ALL-scope rule covers my workspace only.
    const rule = await mine.create({ actions: [{ type: 'PAUSE_SENDING' }, { type: 'SET_DAILY_LIMIT', value: 1 }] });
    const result = await mine.evaluate(rule.rule._id);
    expect([result.mailboxes, result.fired.length]).toEqual([1, 0]);
    expect(await db.prisma.$transaction((tx) => evaluateMailboxRules({ tx, emailAccountId: theirBox, now: theirs.clock.now() }))).toEqual([]);
    const theirAccount = await theirs.account(theirBox);
    expect([theirAccount.status, theirAccount.dailyLimit]).toEqual(['ACTIVE', 30]);
    expect(await db.prisma.accountAutomationState.count({ where: { emailAccountId: theirBox } })).toBe(0);

    // Their own rule, made INACTIVE, does nothing either; ACTIVE, it acts on their mailbox only.
    const their = await theirs.create({ actions: [{ type: 'PAUSE_SENDING' }] });
    await theirs.run(ops.status, { rule_id: their.rule._id, status: 'INACTIVE' });
    expect(await db.prisma.$transaction((tx) => evaluateMailboxRules({ tx, emailAccountId: theirBox, now: theirs.clock.now() }))).toEqual([]);
    await theirs.run(ops.status, { rule_id: their.rule._id, status: 'ACTIVE' });
    const fired = await db.prisma.$transaction((tx) => evaluateMailboxRules({ tx, emailAccountId: theirBox, now: theirs.clock.now() }));
    expect(fired.map((f) => f.emailAccountId)).toEqual([theirBox]);
    expect((await mine.account(myBox)).status).toBe('ACTIVE');
  });
});

describe('the automation worker', () => {
  it('evaluates each active rule once a period on a moving clock, and fires past the cooldown', async () => {
    const t = await setup();
    const box = await t.mailbox('worker@sender.test');
    const tag = await executeOperation({ op: operations.tag.create, ctx: t.ctx, input: { workspace_id: t.ws, name: 'Busy', color: '#123456' } });
    await t.sends(box, { count: 2 });
    const rule = await t.create({
      name: 'Busy mailboxes',
      metric: 'daily_sent',
      operator: 'GTE',
      threshold: 3,
      cooldown_minutes: 60,
      actions: [{ type: 'SET_DAILY_LIMIT', value: 10 }, { type: 'ADD_TAG', tag_id: tag.tag_id }],
    });
    const worker = startAccountAutomationWorker({ deps: t.deps, intervalMs: 3_600_000, periodMs: 5 * MINUTE, workspaceIds: [t.ws] });
    try {
      // First round at 10:00: 2 sent today, not met.
      expect(await worker.nextRound()).toMatchObject({ rules: 1, mailboxes: 1, fired: 0 });
      expect((await t.get(rule.rule._id)).last_evaluated_at).toBe(START);
      // A third send; a minute later the rule is not due yet (every 5 minutes).
      await t.sends(box, { count: 1 });
      t.clock.advance(MINUTE);
      expect(await worker.nextRound()).toMatchObject({ rules: 0, fired: 0 });
      t.clock.advance(4 * MINUTE);
      expect(await worker.nextRound()).toMatchObject({ rules: 1, fired: 1 });
      const account = await t.account(box);
      expect([account.dailyLimit, account.tags.map((x) => x.tagId)]).toEqual([10, [tag.tag_id]]);
      // Within the cooldown: evaluated, not fired.
      t.clock.advance(30 * MINUTE);
      expect(await worker.nextRound()).toMatchObject({ rules: 1, fired: 0 });
      expect((await t.get(rule.rule._id)).last_evaluation[0]).toMatchObject({ value: 3, outcome: 'COOLDOWN', last_fired_at: '2026-03-02T10:05:00.000Z' });
      // Past it: fires again (the mailbox is as the rule wants it: nothing changes).
      t.clock.advance(30 * MINUTE);
      expect(await worker.nextRound()).toMatchObject({ rules: 1, fired: 1 });
      const got = await t.get(rule.rule._id);
      expect(got.firings.map((f) => f.fired_at)).toEqual(['2026-03-02T11:05:00.000Z', '2026-03-02T10:05:00.000Z']);
      expect(got.firings[0]!.actions.map((a) => a.result)).toEqual(['UNCHANGED', 'UNCHANGED']);
      // The next day, today's count starts again from 0.
      t.clock.advance(DAY);
      expect(await worker.nextRound()).toMatchObject({ rules: 1, fired: 0 });
      expect((await t.get(rule.rule._id)).last_evaluation[0]).toMatchObject({ value: 0, outcome: 'NOT_MET' });
    } finally {
      await worker.stop();
    }
  });
});

describe('a rule, mailbox or tag changed while the rule is evaluated', () => {
  /** `db` whose `$queryRawUnsafe` runs `before` (once) ahead of the first run of `sql`, as another request would in between. */
  const before = (sql: string, run: () => Promise<unknown>) => {
    let done = false;
    return new Proxy(db.prisma, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== '$queryRawUnsafe') return value;
        return async (text: string, ...args: unknown[]) => {
          if (text === sql && !done) {
            done = true;
            await run();
          }
          return target.$queryRawUnsafe(text, ...args);
        };
      },
    });
  };

  /**
   * A mailbox half of whose sends bounced, and a rule on it (`input` for its creation) with the
   * state row the firing's latch takes (evaluated once as not met); `fire(tx)` fires the rule as
   * its round claimed it, for that mailbox.
   */
  const readyToFire = async (t: Awaited<ReturnType<typeof setup>>, email: string, input: Record<string, unknown> = {}) => {
    const box = await t.mailbox(email);
    await t.sends(box, { count: 4, bounced: 2 });
    const ruleId = (await t.create(input)).rule._id;
    const claimed = (await loadActiveRule(db.prisma, ruleId))!;
    await evaluateRule({ db: db.prisma, rule: { ...claimed, threshold: 100 }, now: t.clock.now() });
    const fire = (tx: Tx) => fireRule({ tx, rule: claimed, emailAccountId: box, value: 50, now: t.clock.now() });
    return { box, ruleId, fire };
  };

  it('fires nothing for a rule set INACTIVE or edited after its round claimed it (was firing on the claimed definition)', async () => {
    const t = await setup();
    const box = await t.mailbox('stale@sender.test');
    await t.sends(box, { count: 4, bounced: 2 });
    const rule = await t.create({});
    const claimed = (await loadActiveRule(db.prisma, rule.rule._id))!;
    await t.run(ops.status, { rule_id: rule.rule._id, status: 'INACTIVE' });
    expect((await evaluateRule({ db: db.prisma, rule: claimed, now: t.clock.now() })).fired).toEqual([]);
    await t.run(ops.status, { rule_id: rule.rule._id, status: 'ACTIVE' });
    await t.run(ops.update, { rule_id: rule.rule._id, threshold: 80 });
    expect((await evaluateRule({ db: db.prisma, rule: claimed, now: t.clock.now() })).fired).toEqual([]);
    expect((await t.account(box)).status).toBe('ACTIVE');
    // As it is now (80%), evaluated afresh: not met.
    expect((await t.evaluate(rule.rule._id)).fired).toEqual([]);
  });

  it('records the mailboxes left when one is deleted before its evaluation is recorded, and nothing for a rule deleted (was the evaluation failing)', async () => {
    const t = await setup();
    const kept = await t.mailbox('kept@sender.test');
    const gone = await t.mailbox('gone@sender.test');
    for (const box of [kept, gone]) await t.sends(box, { count: 4, bounced: 2 });
    const rule = await t.create({});
    const loaded = (await loadActiveRule(db.prisma, rule.rule._id))!;
    const mailboxDeleted = before(RECORD_EVALUATION_SQL, () => db.prisma.emailAccount.delete({ where: { id: gone } }));
    const evaluated = await evaluateRule({ db: mailboxDeleted, rule: loaded, now: t.clock.now() });
    expect(evaluated.fired.map((f) => f.emailAccountId)).toEqual([kept]);
    expect((await t.get(rule.rule._id)).last_evaluation.map((e) => e.email_account_id)).toEqual([kept]);

    t.clock.advance(DAY);
    const ruleDeleted = before(RECORD_EVALUATION_SQL, () => t.run(ops.delete, { ids: [rule.rule._id] }));
    expect((await evaluateRule({ db: ruleDeleted, rule: loaded, now: t.clock.now() })).fired).toEqual([]);
    expect(await db.prisma.accountAutomationState.count({ where: { ruleId: rule.rule._id } })).toBe(0);
  });

  it('fires nothing for a mailbox of a deleted workspace (was the rest of the round firing for it)', async () => {
    const t = await setup();
    const { box, fire } = await readyToFire(t, 'deleted-ws@sender.test');
    await db.prisma.workspace.update({ where: { id: t.ws }, data: { deletedAt: t.clock.now() } });
    expect(await db.prisma.$transaction(fire)).toBeNull();
    expect((await t.account(box)).status).toBe('ACTIVE');
  });

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())('switches a rule off only once a firing of it under way has committed (was answering first, the firing landing after)', async () => {
    const t = await setup();
    const { ruleId, fire } = await readyToFire(t, 'switched@sender.test');
    let answered = false;
    let switched: Promise<unknown> | undefined;
    const firing = await db.prisma.$transaction(
      async (tx) => {
        const fired = await fire(tx);
        switched = t.run(ops.status, { rule_id: ruleId, status: 'INACTIVE' }).then(() => (answered = true));
        await untilWaitingOnLock(db.prisma, { orUntil: async () => answered });
        // The request switching the rule off has not answered while the firing is not committed.
        expect(answered).toBe(false);
        return fired;
      },
      { timeout: 30_000 },
    );
    await switched;
    expect(firing?.actions.map((a) => a.result)).toEqual(['APPLIED']);
    expect((await t.get(ruleId)).status).toBe('INACTIVE');
  }, 60_000);

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())('adds a tag that is being deleted before the delete goes on (was a foreign-key failure, or `the mailbox had the tag already`)', async () => {
    const t = await setup();
    const tag = await executeOperation({ op: operations.tag.create, ctx: t.ctx, input: { workspace_id: t.ws, name: 'Bouncy', color: '#654321' } });
    const { box, fire } = await readyToFire(t, 'tagged@sender.test', { actions: [{ type: 'ADD_TAG', tag_id: tag.tag_id }] });
    let deleting: Promise<unknown> | undefined;
    const firing = await db.prisma.$transaction(async (tx) => {
      const racing = new Proxy(tx, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key !== '$executeRawUnsafe') return value;
          return async (text: string, ...args: unknown[]) => {
            if (text === ADD_TAG_SQL && !deleting) {
              deleting = db.prisma.tag.delete({ where: { id: tag.tag_id } });
              deleting.catch(() => {});
              // Until the delete waits for this firing (fixed) or has gone through (the race).
              await untilWaitingOnLock(db.prisma, { orUntil: async () => (await db.prisma.tag.count({ where: { id: tag.tag_id } })) === 0 });
            }
            return target.$executeRawUnsafe(text, ...args);
          };
        },
      });
      return fire(racing);
    });
    expect(firing?.actions.map((a) => a.result)).toEqual(['APPLIED']);
    await deleting;
    expect(await db.prisma.emailAccountTag.count({ where: { emailAccountId: box } })).toBe(0);
  }, 60_000);

  it.runIf(usingPostgres())('waits for a delete of the rule under way and fires nothing, where the two deadlocked', async () => {
    const t = await setup();
    const { box, ruleId, fire } = await readyToFire(t, 'deleted-rule@sender.test');
    let fired: Promise<unknown> | undefined;
    // As deleting the rule does: the rule's row, then (its cascade) its states'.
    await db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM account_automation_rules WHERE id = $1 FOR UPDATE', ruleId);
        fired = db.prisma.$transaction(fire);
        fired.catch(() => {});
        await untilWaitingOnLock(db.prisma);
        await tx.$queryRawUnsafe('SELECT 1 FROM account_automation_states WHERE rule_id = $1 FOR UPDATE', ruleId);
        await tx.accountAutomationRule.delete({ where: { id: ruleId } });
      },
      { timeout: 30_000 },
    );
    await expect(fired).resolves.toBeNull();
    expect((await t.account(box)).status).toBe('ACTIVE');
  }, 60_000);
});
