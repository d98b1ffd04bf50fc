// Reading mailboxes: the list (with what the engine recorded of each) and one mailbox's status.
import { defineOperation } from '../shared/operation';
import { dayBounds } from '../shared/zoned-time';
import { AccountByEmailInput, AccountStatusOutput, ListAccountsInput, ListAccountsOutput } from './email-account.schemas';
import { mailboxActivity, findAccountByEmail } from './email-account.queries';
import { mailboxAnalytics, NO_ACTIVITY } from './mailbox-health.rules';

export const listAccounts = defineOperation({
  name: 'emailAccount.list',
  kind: 'query',
  summary: 'List email accounts',
  description:
    'The workspace\'s mailboxes, oldest first (ties by id) unless `sort` (`created_at`, `email`, `status`) and `direction` (`asc`, `desc`) say otherwise, paged with `skip` and `limit` (a `page` parameter is refused with 400 "page is not allowed", as the vendor does; other unknown parameters are ignored). `tags` (comma-separated tag ids) keeps accounts carrying any of them; `email` keeps addresses containing the text, case-insensitively; `status` keeps one status; `email_acc_id` one account. `payload.tags` and `payload.cmps` are the ids of the account\'s tags and campaigns. Each account carries its id as `_id` and as `id`. `payload.analytics` holds the vendor\'s `health_scores`, `reply_rates` and `daily_counters` with what the engine recorded (docs/api.md, "Mailbox health"): `health_score` (also under the vendor\'s `7d_overall_warmup_health`) is 0 when the mailbox is DISCONNECTED, else 100 less 10 points per percent of bounced sends of the last 7 days (at most 70), less 10 when 20 or more sends of the last 7 days got no reply, less 20 while reading its inbox fails; `3d_bounce_rate`, `7d_bounce_rate`, `7d_replyrate` and `7d_ooo_replyrate` are percentages over the sends of those days (-1 when there were none); `daily_counters` count today in the workspace\'s time zone: `email_sent_today` (campaign and unibox sends, as the daily limit counts them), `email_replied_today` (replies from leads received), `email_bounced_today` (sends of the last 7 days recorded as bounced today). There is no warmup network: the other warmup figures are -1, `warmup_email_sent_today` 0. The page\'s figures are read in one query, whatever its size. Passwords and usernames are never returned.',
  input: ListAccountsInput,
  output: ListAccountsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const [rows, workspace] = await Promise.all([
      ctx.db.emailAccount.findMany({
        where: {
          workspaceId: input.workspace_id,
          ...(input.email ? { emailNormalized: { contains: input.email.toLowerCase() } } : {}),
          ...(input.tags?.length ? { tags: { some: { tagId: { in: input.tags } } } } : {}),
          ...(input.status ? { status: input.status } : {}),
          ...(input.email_acc_id ? { id: input.email_acc_id } : {}),
        },
        orderBy: [{ [({ created_at: 'createdAt', email: 'emailNormalized', status: 'status' } as const)[input.sort]]: input.direction }, { id: input.direction }],
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
          imapFailures: true,
          uniboxDayStart: true,
          uniboxSentToday: true,
          tags: { select: { tagId: true }, orderBy: { tagId: 'asc' } },
          campaigns: { select: { campaignId: true }, orderBy: { campaignId: 'asc' } },
        },
      }),
      ctx.db.workspace.findUniqueOrThrow({ where: { id: input.workspace_id }, select: { timezone: true } }),
    ]);
    // A mailbox's day is its workspace's, as for its daily limit.
    const now = ctx.ports.clock.now();
    const dayStart = dayBounds({ timezone: workspace.timezone, at: now }).start;
    const activity = await mailboxActivity({ db: ctx.db, ids: rows.map((r) => r.id), now, dayStart });
    return {
      accounts: rows.map((r) => ({
        _id: r.id,
        id: r.id,
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
          analytics: mailboxAnalytics({
            status: r.status,
            imapFailures: r.imapFailures,
            activity: {
              ...(activity.get(r.id) ?? NO_ACTIVITY),
              unibox_sent_today: r.uniboxDayStart?.getTime() === dayStart.getTime() ? r.uniboxSentToday : 0,
            },
          }),
        },
      })),
    };
  },
});

export const accountStatus = defineOperation({
  name: 'emailAccount.status',
  kind: 'query',
  summary: 'Status of an email account',
  description: 'Connection status, warmup status and the last connection error of one mailbox, found by address (case-insensitively): `{ account, status, warmup_status }` as the vendor answers it (`account` the address), with `email` (the same), `last_error`, `disconnect_reason` and `last_synced_at`; 404 when the workspace has no such address. `disconnect_reason` says what disconnected it (`smtp_auth`: the sending engine\'s login was refused; `imap_auth`: the reply reader\'s; reading retries on its own after 1, 2, 4 … 60 minutes, and `POST /account/bulk-reconnect` retries at once); `last_synced_at` is when its inbox was last read.',
  input: AccountByEmailInput,
  output: AccountStatusOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const row = await findAccountByEmail({ db: ctx.db, workspaceId: input.workspace_id, email: input.email });
    return {
      account: row.email,
      email: row.email,
      status: row.status,
      warmup_status: row.warmupStatus,
      last_error: row.lastError,
      disconnect_reason: row.disconnectReason,
      last_synced_at: row.imapSyncedAt?.toISOString() ?? null,
    };
  },
});
