// The sequence editor's preview and test send: a step composed for a lead exactly as the
// engine would send it (preview.service.ts), and that e-mail sent once to an address.
import { newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { DomainError, preconditionFailed, invalidField } from '../shared/errors';
import { domainOf, type OutgoingMessage, type SendOutcome } from '../shared/mail-sender';
import { MailboxOAuthRevokedError, MailboxTokenUnavailableError, withMailboxLogin } from '../email-account/index';
import type { MailboxRow } from './scheduler.queries';
import { PREVIEW_MAILBOX_SQL } from './preview.queries';
import { composePreview } from './preview.service';
import { PreviewInput, PreviewOutput, SendTestInput, SendTestOutput } from './preview.schemas';

/** Test sends a mailbox may make in an hour (per gateway process). */
export const TEST_SENDS_PER_HOUR = 20;
const HOUR_MS = 3_600_000;
export const TEST_SUBJECT_PREFIX = '[Test] ';

export const previewCampaignStep = defineOperation({
  name: 'campaign.preview',
  kind: 'query',
  summary: 'Preview a step for a lead',
  description: [
    "One step's variation composed for a lead exactly as the sending engine would send it: merge fields (the lead's, its custom variables, the workspace's additional fields, the sender's), fallbacks, spintax (the same choice the engine makes for that lead), the follow-up subject (`Re: …` when the step continues the thread), the unsubscribe link and the open pixel. Nothing is written.",
    "Without `lead_id`, the campaign's first lead; with `sample: true` (or when the campaign has no lead), sample values. The sender fields are the lead's mailbox's, else the campaign's first mailbox's.",
    'A merge field with no value and no fallback is listed in `missing` and shown as `{{name}}`: the engine would skip that lead rather than send it.',
  ].join('\n\n'),
  input: PreviewInput,
  output: PreviewOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const p = await composePreview({ ctx, workspaceId: input.workspace_id, campaignId: input.campaign_id, step: input.step, variation: input.variation, leadId: input.lead_id, sample: input.sample });
    return { subject: p.subject, html: p.html, text: p.text, missing: p.missing, lead_id: p.lead?.id ?? null, lead_email: p.lead?.email ?? null, sender_email: p.mailbox?.email ?? null };
  },
});

export const sendCampaignTest = defineOperation({
  name: 'campaign.sendTest',
  kind: 'mutation',
  summary: 'Send a test of a step',
  description: [
    'Composes the step as `campaign.preview` does (the sender fields are the chosen mailbox\'s) and sends it once to `to` through `email_account_id`, a mailbox of the workspace that must be ACTIVE. The subject starts with `[Test] `; the e-mail carries no threading headers. Nothing is recorded: it is no campaign send, counts toward no limit, and the lead is untouched; its unsubscribe link and open pixel belong to no send and do nothing.',
    `At most ${TEST_SENDS_PER_HOUR} test sends per mailbox per hour (429 with Retry-After). A refused login, a server that refuses the message or cannot be reached answer 412 naming the field (\`email_account_id\` or \`to\`), and the mailbox stays as it is.`,
  ].join('\n\n'),
  input: SendTestInput,
  output: SendTestOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_EDIT',
  async run(ctx, input) {
    const [mailbox] = await ctx.db.$queryRawUnsafe<MailboxRow[]>(PREVIEW_MAILBOX_SQL, input.email_account_id, input.workspace_id);
    if (!mailbox) throw invalidField('email_account_id', `${input.email_account_id} is not a mailbox of this workspace`, 'email_account.not_found');
    if (mailbox.status !== 'ACTIVE') {
      throw preconditionFailed('campaign.test_mailbox_inactive', `mailbox ${mailbox.email} is ${mailbox.status}: test sends go out only from an ACTIVE mailbox`, [
        { field: 'email_account_id', message: `is ${mailbox.status}, not ACTIVE` },
      ]);
    }
    const composed = await composePreview({ ctx, workspaceId: input.workspace_id, campaignId: input.campaign_id, step: input.step, variation: input.variation, leadId: input.lead_id, sample: input.sample, mailbox });

    // The hourly limit, counted when a send is attempted (a failed one counts too).
    const now = ctx.ports.clock.now().getTime();
    const recent = (ctx.caches.testSends.get(mailbox.id) ?? []).filter((at) => at > now - HOUR_MS);
    if (recent.length >= TEST_SENDS_PER_HOUR) {
      throw new DomainError({
        kind: 'rate_limited',
        code: 'campaign.test_send_limit',
        message: `mailbox ${mailbox.email} sent ${TEST_SENDS_PER_HOUR} test e-mails in the last hour; try again later`,
        fieldErrors: [{ field: 'email_account_id', message: `has reached ${TEST_SENDS_PER_HOUR} test sends this hour` }],
        retryAfter: Math.max(1, Math.ceil((recent[0]! + HOUR_MS - now) / 1000)),
      });
    }
    recent.push(now);
    ctx.caches.testSends.set(mailbox.id, recent);

    const message: OutgoingMessage = {
      from: { name: `${mailbox.first_name} ${mailbox.last_name}`.trim(), address: mailbox.email },
      to: input.to,
      replyTo: mailbox.reply_to,
      subject: `${TEST_SUBJECT_PREFIX}${composed.subject}`,
      html: composed.html,
      text: composed.text,
      messageId: `${newId(now)}@${domainOf(mailbox.email)}`,
      headers: composed.headers,
    };
    let outcome: SendOutcome;
    try {
      outcome = await withMailboxLogin({
        deps: ctx,
        mailbox: { id: mailbox.id, authType: mailbox.auth_type, host: mailbox.smtp_host, port: mailbox.smtp_port, username: mailbox.smtp_username, passwordEnc: mailbox.smtp_password_enc },
        attempt: (smtp) => ctx.ports.smtp.send({ mailboxId: mailbox.id, version: new Date(mailbox.updated_at).toISOString(), smtp, message }),
        refused: (result) => result.status === 'auth',
      });
    } catch (error) {
      if (error instanceof MailboxOAuthRevokedError) outcome = { status: 'auth', code: null, message: 'its OAuth grant was revoked or has expired; authorize the mailbox again' };
      else if (error instanceof MailboxTokenUnavailableError) outcome = { status: 'deferred', code: null, message: error.message };
      else outcome = { status: 'auth', code: null, message: `cannot read the mailbox password: ${(error as Error).message}` };
    }
    ctx.log.info({ campaignId: input.campaign_id, mailboxId: mailbox.id, step: input.step, variation: input.variation, outcome: outcome.status }, 'campaign test send');
    switch (outcome.status) {
      case 'sent':
        return { status: 'sent' as const, to: input.to, from: mailbox.email, subject: message.subject, message_id: message.messageId, missing: composed.missing };
      case 'rejected':
        throw preconditionFailed('campaign.test_send_rejected', `the mail server refused the test e-mail: ${outcome.message}`, [{ field: 'to', message: `was refused by the server (${outcome.message})` }]);
      case 'deferred':
        throw preconditionFailed('campaign.test_send_failed', `the test e-mail could not be sent now: ${outcome.message}`, [{ field: 'email_account_id', message: `could not send now (${outcome.message})` }]);
      case 'auth':
        throw preconditionFailed('campaign.test_send_login_refused', `the mailbox's SMTP login was refused: ${outcome.message}`, [{ field: 'email_account_id', message: `its SMTP login was refused (${outcome.message})` }]);
    }
  },
});
