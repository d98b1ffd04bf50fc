// Reading mailboxes: the list, one mailbox's status, and sending statistics.
import { defineOperation } from '../shared/operation';
import { invalidField } from '../shared/errors';
import { utcDayEnd, utcDayStart } from '../shared/time';
import { AccountByEmailInput, AccountStatusOutput, EmailStatsInput, EmailStatsOutput, ListAccountsInput, ListAccountsOutput } from './email-account.schemas';
import { daysBetween, percent } from './email-account.rules';
import { emailDayCounts, emailLeadCounts, findAccountByEmail } from './email-account.queries';

export const listAccounts = defineOperation({
  name: 'emailAccount.list',
  kind: 'query',
  summary: 'List email accounts',
  description:
    'The workspace\'s mailboxes, oldest first (ties by id), paged with `skip` and `limit` (a `page` parameter is refused with 400 "page is not allowed", as the vendor does; other unknown parameters are ignored). `tags` (comma-separated tag ids) keeps accounts carrying any of them; `email` keeps addresses containing the text, case-insensitively. `payload.tags` and `payload.cmps` are the ids of the account\'s tags and campaigns. Passwords and usernames are never returned.',
  input: ListAccountsInput,
  output: ListAccountsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const rows = await ctx.db.emailAccount.findMany({
      where: {
        workspaceId: input.workspace_id,
        ...(input.email ? { emailNormalized: { contains: input.email.toLowerCase() } } : {}),
        ...(input.tags?.length ? { tags: { some: { tagId: { in: input.tags } } } } : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: input.skip,
      take: input.limit,
      select: {
        id: true,
        email: true,
        status: true,
        warmupStatus: true,
        provider: true,
        createdAt: true,
        updatedAt: true,
        firstName: true,
        lastName: true,
        dailyLimit: true,
        sendingGap: true,
        imapHost: true,
        imapPort: true,
        smtpHost: true,
        smtpPort: true,
        signature: true,
        tags: { select: { tagId: true }, orderBy: { tagId: 'asc' } },
        campaigns: { select: { campaignId: true }, orderBy: { campaignId: 'asc' } },
      },
    });
    return {
      accounts: rows.map((r) => ({
        _id: r.id,
        email: r.email,
        status: r.status,
        warmup_status: r.warmupStatus,
        provider: r.provider,
        timestamp_created: r.createdAt.toISOString(),
        timestamp_updated: r.updatedAt.toISOString(),
        payload: {
          name: { first_name: r.firstName, last_name: r.lastName },
          daily_limit: r.dailyLimit,
          sending_gap: r.sendingGap,
          imap_host: r.imapHost,
          imap_port: r.imapPort,
          smtp_host: r.smtpHost,
          smtp_port: r.smtpPort,
          signature: r.signature,
          tags: r.tags.map((t) => t.tagId),
          cmps: r.campaigns.map((c) => c.campaignId),
        },
      })),
    };
  },
});

export const accountStatus = defineOperation({
  name: 'emailAccount.status',
  kind: 'query',
  summary: 'Status of an email account',
  description: 'Connection status, warmup status and the last connection error of one mailbox, found by address (case-insensitively); 404 when the workspace has no such address. `disconnect_reason` says what disconnected it (`smtp_auth`: the sending engine\'s login was refused; `imap_auth`: the reply reader\'s; reading retries on its own after 1, 2, 4 … 60 minutes, and `POST /account/bulk-reconnect` retries at once); `last_synced_at` is when its inbox was last read.',
  input: AccountByEmailInput,
  output: AccountStatusOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const row = await findAccountByEmail({ db: ctx.db, workspaceId: input.workspace_id, email: input.email });
    return {
      email: row.email,
      status: row.status,
      warmup_status: row.warmupStatus,
      last_error: row.lastError,
      disconnect_reason: row.disconnectReason,
      last_synced_at: row.imapSyncedAt?.toISOString() ?? null,
    };
  },
});

const MAX_STATS_DAYS = 90;

export const emailStats = defineOperation({
  name: 'emailAccount.emailStats',
  kind: 'query',
  summary: 'Sending statistics of email accounts',
  description:
    'Counts over sends whose send time falls in `start_date`..`end_date` (inclusive UTC days; `end_date` at most 90 days after `start_date`, so at most 91 days in all: 400 otherwise), of the whole workspace or of one mailbox (`email_acc_id`). A send\'s first open, first reply and bounce count on the day it was sent. `chart` has one row per day of the range, zeros included. `total_contacted_count` counts distinct leads sent to; `total_completed_count` those of them whose sequence is completed; `total_pos_reply_count` those that replied and carry a positive label (INTERESTED, MEETING_BOOKED, MEETING_COMPLETED, CLOSED). `open_rate`, `reply_rate` and `pos_reply_rate` divide by the contacted leads, `bounce_rate` by the sends; percentages rounded to 2 decimals, 0 when nothing was sent.',
  input: EmailStatsInput,
  output: EmailStatsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const from = utcDayStart(input.start_date);
    const to = utcDayEnd(input.end_date);
    if (to <= from) throw invalidField('end_date', 'must not be before start_date');
    // "90 days apart": end_date - start_date <= 90, so a range holds at most 91 calendar days.
    if ((to.getTime() - from.getTime()) / 86_400_000 - 1 > MAX_STATS_DAYS) throw invalidField('end_date', `must be at most ${MAX_STATS_DAYS} days after start_date`);
    const query = { db: ctx.db, workspaceId: input.workspace_id, from, to, emailAccountId: input.email_acc_id ?? null };
    const [days, leads] = await Promise.all([emailDayCounts(query), emailLeadCounts(query)]);
    const byDay = new Map(days.map((d) => [d.date, d]));
    const chart = daysBetween({ start: input.start_date, end: input.end_date }).map(
      (date) => byDay.get(date) ?? { date, sent_count: 0, reply_count: 0, open_count: 0, bounce_count: 0 },
    );
    const sum = (key: 'sent_count' | 'reply_count' | 'open_count' | 'bounce_count') => days.reduce((n, d) => n + d[key], 0);
    const sent = sum('sent_count');
    const replies = sum('reply_count');
    const opens = sum('open_count');
    const bounces = sum('bounce_count');
    return {
      header: {
        total_sent_count: sent,
        total_reply_count: replies,
        total_open_count: opens,
        total_bounce_count: bounces,
        total_contacted_count: leads.contacted,
        total_completed_count: leads.completed,
        total_pos_reply_count: leads.pos_replied,
        bounce_rate: percent({ part: bounces, whole: sent }),
        open_rate: percent({ part: opens, whole: leads.contacted }),
        reply_rate: percent({ part: replies, whole: leads.contacted }),
        pos_reply_rate: percent({ part: leads.pos_replied, whole: leads.contacted }),
      },
      chart: chart.map((d) => ({ date: d.date, sent_count: d.sent_count, reply_count: d.reply_count, open_count: d.open_count, bounce_count: d.bounce_count })),
    };
  },
});
