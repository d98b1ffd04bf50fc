// campaign.preview and campaign.sendTest against the engine itself: what the preview shows
// for a lead is what runSchedulerTick then sends to that lead through a local SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import type { Database } from '@outreach/db';
import { createSendingFixture, expectDomainError, startSmtpServer, testCtx, testDatabase, type SmtpTestServer } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import { TEST_SENDS_PER_HOUR } from './preview.operations';

const PASSWORDS = { 'alice@sender.test': 'alice-pw', 'bob@sender.test': 'bob-pw' };
let db: Database;
let smtp: SmtpTestServer;
beforeAll(async () => {
  db = await testDatabase();
  smtp = await startSmtpServer({ users: PASSWORDS });
}, 30_000);
afterAll(async () => {
  await smtp?.close();
});

// Monday 23 November 2026, 10:00 in Oslo: inside the fixture's sending window.
async function setup() {
  const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
  const alice = await t.mailbox('alice@sender.test');
  const campaign = await t.campaign({
    mailboxes: [alice],
    steps: [
      {
        variations: [
          { label: 'A', subject: '{Hi|Hello|Hey} {{first_name}} from {{sender_first_name}}', body: '<p>{Hello|Hi|Dear} {{first_name}},</p><p>a question about {{company_name}} ({{tier|Standard}} plan).</p>' },
          { label: 'B', subject: 'Plain {{first_name}}', body: 'Line one {{first_name}}\nLine {two|2}' },
        ],
      },
      { waitTime: 2, variations: [{ label: 'A', subject: '', body: '<p>Following up, {{first_name}}.</p>' }] },
    ],
  });
  const ctx = testCtx({ deps: t.deps, actor: t.org.actor });
  const defaults = { workspace_id: t.ws, campaign_id: campaign.id, step: 1, variation: 'A' };
  function run(op: 'preview', input: Record<string, unknown>): ReturnType<typeof previewOp>;
  function run(op: 'sendTest', input: Record<string, unknown>): ReturnType<typeof sendOp>;
  function run(op: 'preview' | 'sendTest', input: Record<string, unknown>) {
    return op === 'preview' ? previewOp({ ...defaults, ...input }) : sendOp({ ...defaults, ...input });
  }
  const previewOp = (input: Record<string, unknown>) => executeOperation({ op: operations.campaign.preview, ctx, input });
  const sendOp = (input: Record<string, unknown>) => executeOperation({ op: operations.campaign.sendTest, ctx, input });
  return { t, alice, campaign, ctx, run };
}

/** The tracking tokens differ per send: the preview's belong to no send. */
const untracked = (s: string | null | undefined) => (s ?? '').replace(/\/(o|u)\/[A-Za-z0-9._~-]+/g, '/$1/TOKEN').replace(/\/t\/[a-z]+\/[A-Za-z0-9._~-]+/g, '/t/TOKEN');

describe('campaign.preview', () => {
  it("answers exactly the subject, HTML and text the engine then sends to that lead", async () => {
    const { t, campaign, run } = await setup();
    const grace = await t.lead(campaign.id, 'grace@lead.test', { firstName: 'Grace', companyName: 'Hopper Labs', custom: { tier: 'Gold' } });
    const preview = await run('preview', { lead_id: grace });
    expect(preview).toMatchObject({ lead_id: grace, lead_email: 'grace@lead.test', sender_email: 'alice@sender.test', missing: [] });
    expect(preview.subject).toMatch(/^(Hi|Hello|Hey) Grace from Alice$/);
    expect(preview.html).toMatch(/<p>(Hello|Hi|Dear) Grace,<\/p><p>a question about Hopper Labs \(Gold plan\)\.<\/p>/);
    expect(preview.html).toContain('Unsubscribe');
    // Nothing written.
    expect(await db.prisma.sentEmail.count({ where: { campaignId: campaign.id } })).toBe(0);

    const tick = await t.tick();
    expect(tick.sent).toBe(1);
    const [raw] = smtp.messages.filter((m) => m.to.includes('grace@lead.test'));
    const mail = await simpleParser(raw!.raw);
    expect(mail.subject).toBe(preview.subject);
    expect(untracked(mail.html as string)).toBe(untracked(preview.html));
    expect(untracked(mail.text).trim()).toBe(untracked(preview.text).trim());

    // The follow-up continues that thread: `Re: <the subject sent>`.
    const followUp = await run('preview', { lead_id: grace, step: 2 });
    expect(followUp.subject).toBe(`Re: ${preview.subject}`);
    expect(followUp.text).toContain('Following up, Grace.');
  });

  it('lists merge fields with no value and shows them as written; sample values and the first lead by default', async () => {
    const { t, campaign, run } = await setup();
    const first = await t.lead(campaign.id, 'first@lead.test', { firstName: 'Ada', companyName: null });
    await t.lead(campaign.id, 'second@lead.test', { firstName: 'Bo' });
    const byDefault = await run('preview', {});
    expect(byDefault).toMatchObject({ lead_id: first, missing: ['company_name'] });
    expect(byDefault.text).toContain('a question about {{company_name}} (Standard plan)');

    const sample = await run('preview', { sample: true, variation: 'b' });
    expect(sample).toMatchObject({ lead_id: null, lead_email: null, missing: [], subject: 'Plain Alex' });
    expect(sample.html).toMatch(/^Line one Alex<br>Line (two|2)/);
    // A follow-up for a lead with no send yet follows step 1 as composed now.
    expect((await run('preview', { lead_id: first, step: 2 })).subject).toMatch(/^Re: (Hi|Hello|Hey) Ada from Alice$/);
  });

  it('names the field that is wrong', async () => {
    const { t, run } = await setup();
    const other = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
    const foreign = await other.campaign({ mailboxes: [], steps: [{ variations: [{ label: 'A', subject: 's', body: 'b' }] }] });
    const foreignLead = await other.lead(foreign.id, 'x@lead.test');
    expect((await expectDomainError(run('preview', { step: 3 }), 'invalid', 'campaign.step_not_found')).fieldErrors[0]!.field).toBe('step');
    expect((await expectDomainError(run('preview', { variation: 'C' }), 'invalid', 'campaign.variation_not_found')).fieldErrors[0]!.field).toBe('variation');
    expect((await expectDomainError(run('preview', { lead_id: foreignLead }), 'invalid', 'lead.not_found')).fieldErrors[0]!.field).toBe('lead_id');
    expect((await expectDomainError(run('preview', { campaign_id: foreign.id }), 'invalid', 'campaign.not_found')).fieldErrors[0]!.field).toBe('campaign_id');
    expect((await expectDomainError(run('preview', { step: 0 }), 'invalid')).fieldErrors[0]!.field).toBe('step');
    void t;
  });
});

describe('campaign.sendTest', () => {
  it('sends the composed e-mail once, "[Test] " first, and records nothing', async () => {
    const { t, campaign, alice, run } = await setup();
    const grace = await t.lead(campaign.id, 'grace@lead.test', { firstName: 'Grace' });
    const before = await db.prisma.lead.findUniqueOrThrow({ where: { id: grace } });
    const preview = await run('preview', { lead_id: grace });
    const sent = await run('sendTest', { lead_id: grace, to: 'me@review.test', email_account_id: alice });
    expect(sent).toMatchObject({ status: 'sent', to: 'me@review.test', from: 'alice@sender.test', subject: `[Test] ${preview.subject}`, missing: [] });
    const arrived = smtp.messages.filter((m) => m.to.includes('me@review.test'));
    expect(arrived).toHaveLength(1);
    const mail = await simpleParser(arrived[0]!.raw);
    expect(mail.subject).toBe(`[Test] ${preview.subject}`);
    expect(mail.from?.value[0]?.address).toBe('alice@sender.test');
    expect(untracked(mail.html as string)).toBe(untracked(preview.html));
    expect(await db.prisma.sentEmail.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await db.prisma.lead.findUniqueOrThrow({ where: { id: grace } })).toEqual(before);
  });

  it('refuses a mailbox that is not ACTIVE or not the workspace\'s, a bad address, and more than the hourly limit', async () => {
    const { t, run, alice } = await setup();
    const bob = await t.mailbox('bob@sender.test');
    await db.prisma.emailAccount.update({ where: { id: bob }, data: { status: 'PAUSED' } });
    const paused = await expectDomainError(run('sendTest', { sample: true, to: 'me@review.test', email_account_id: bob }), 'precondition_failed', 'campaign.test_mailbox_inactive');
    expect(paused.fieldErrors[0]!.field).toBe('email_account_id');
    const other = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
    const foreign = await other.mailbox('alice@sender.test');
    expect((await expectDomainError(run('sendTest', { sample: true, to: 'me@review.test', email_account_id: foreign }), 'invalid')).fieldErrors[0]!.field).toBe('email_account_id');
    expect((await expectDomainError(run('sendTest', { sample: true, to: 'not-an-address', email_account_id: alice }), 'invalid')).fieldErrors[0]!.field).toBe('to');

    const wrongPassword = await t.mailbox('carol@sender.test', { password: 'wrong' });
    const refused = await expectDomainError(run('sendTest', { sample: true, to: 'me@review.test', email_account_id: wrongPassword }), 'precondition_failed', 'campaign.test_send_login_refused');
    expect(refused.fieldErrors[0]!.field).toBe('email_account_id');
    // The mailbox is left as it was.
    expect((await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: wrongPassword } })).status).toBe('ACTIVE');

    for (let i = 0; i < TEST_SENDS_PER_HOUR; i++) await run('sendTest', { sample: true, to: 'limit@review.test', email_account_id: alice });
    const limited = await expectDomainError(run('sendTest', { sample: true, to: 'limit@review.test', email_account_id: alice }), 'rate_limited', 'campaign.test_send_limit');
    expect(limited.retryAfter).toBeGreaterThan(0);
    expect(smtp.messages.filter((m) => m.to.includes('limit@review.test'))).toHaveLength(TEST_SENDS_PER_HOUR);
    // An hour later the mailbox may send tests again.
    t.clock.advance(3_600_001);
    await run('sendTest', { sample: true, to: 'limit@review.test', email_account_id: alice });
  });
});
