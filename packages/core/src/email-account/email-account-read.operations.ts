// Reading mailboxes: the list (with what the engine recorded of each) and one mailbox's status.
import { defineOperation } from '../shared/operation';
import { dayBounds } from '../shared/zoned-time';
import { AccountByEmailInput, AccountStatusOutput, ListAccountsInput, ListAccountsOutput } from './email-account.schemas';
import { accountNotFound, mailboxActivity, findAccountByEmail } from './email-account.queries';
import { mailboxAnalytics, NO_ACTIVITY } from './mailbox-health.rules';
import { computeHealth } from './mailbox-health.service';
import type { WarmupSettings } from './email-account.schemas';

/** `payload.warmup`: the vendor's warmup settings of a mailbox. */
export function warmupSettingsOf(r: {
  warmupLimit: number;
  warmupIncrement: number;
  warmupReplyRate: number;
  warmupCustomWords: string;
  warmupSignature: string;
  warmupAdvanced: unknown;
  warmupStartedAt: Date | null;
}): WarmupSettings {
  const advanced = r.warmupAdvanced && typeof r.warmupAdvanced === 'object' && !Array.isArray(r.warmupAdvanced) ? (r.warmupAdvanced as Record<string, unknown>) : {};
  return {
    limit: r.warmupLimit,
    increment: r.warmupIncrement,
    reply_rate: r.warmupReplyRate,
    warmup_custom_words: r.warmupCustomWords,
    warmup_signature: r.warmupSignature,
    advanced,
    start_date: r.warmupStartedAt?.toISOString() ?? null,
  };
}

export const listAccounts = defineOperation({
  name: 'emailAccount.list',
  kind: 'query',
  summary: 'List email accounts',
  description:
    'The workspace\'s mailboxes, oldest first (ties by id) unless `sort` (`created_at`, `email`, `status`) and `direction` (`asc`, `desc`) say otherwise, paged with `skip` and `limit` (a `page` parameter is refused with 400 "page is not allowed", as the vendor does; other unknown parameters are ignored). `tags` (comma-separated tag ids) keeps accounts carrying any of them; `email` keeps addresses containing the text, case-insensitively; `status` keeps one status; `email_acc_id` one account. `payload.tags` and `payload.cmps` are the ids of the account\'s tags and campaigns. Each account carries its id as `_id` and as `id`, and `last_error` and `disconnect_reason` (as `GET /account/status` answers them: `oauth_revoked` when an OAuth mailbox\'s grant was revoked or expired). `payload.analytics` holds the vendor\'s `health_scores`, `reply_rates` and `daily_counters` with what the engine recorded (docs/api.md, "Mailbox health"): `health_score` (also under the vendor\'s `7d_overall_warmup_health`) is 0 when the mailbox is DISCONNECTED, else 100 less 10 points per percent of bounced sends of the last 7 days (at most 70), less 10 when 20 or more sends of the last 7 days got no reply, less for warmup e-mails landing in spam, missing or in promotions, for spam complaints, for a domain without SPF, DKIM or DMARC, and 20 while reading its inbox fails, with what it was computed from in `health_inputs`; `3d_bounce_rate`, `7d_bounce_rate`, `7d_replyrate` and `7d_ooo_replyrate` are percentages over the sends of those days (-1 when there were none); `daily_counters` count today in the workspace\'s time zone: `email_sent_today` (campaign and unibox sends, as the daily limit counts them), `email_replied_today` (replies from leads received), `email_bounced_today` (sends of the last 7 days recorded as bounced today). `warmup_email_sent_today` counts the warmup e-mails sent today, the per-provider warmup figures are the inbox placement of its warmup e-mails of the last 7 days (-1 when none was placed), `1d_miss_warmup_rate` the percent of the last 24 hours\' that went missing. `payload.warmup` holds its warmup settings (docs/api.md, "Warmup"). The page\'s figures are read in one query, whatever its size. Passwords and usernames are never returned.',
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
          lastError: true,
          disconnectReason: true,
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
          warmupLimit: true,
          warmupIncrement: true,
          warmupReplyRate: true,
          warmupCustomWords: true,
          warmupSignature: true,
          warmupAdvanced: true,
          warmupStartedAt: true,
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
        last_error: r.lastError,
        disconnect_reason: r.disconnectReason,
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
          warmup: warmupSettingsOf(r),
          tags: r.tags.map((t) => t.tagId),
          cmps: r.campaigns.map((c) => c.campaignId),
          analytics: mailboxAnalytics({
            status: r.status,
            imapFailures: r.imapFailures,
            activity: {
              ...(activity.get(r.id) ?? NO_ACTIVITY),
              unibox_sent_today: r.uniboxDayStart?.getTime() === dayStart.getTime() ? r.uniboxSentToday : 0,
            },
            dns: activity.get(r.id)?.dns ?? null,
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
  description: 'Connection status, warmup status and the last connection error of one mailbox, found by address (case-insensitively): `{ account, status, warmup_status }` as the vendor answers it (`account` the address), with `email` (the same), `last_error`, `disconnect_reason`, `last_synced_at`, and its health recomputed now (with a DNS check of its domain, stored as the day\'s snapshot): `health_score`, `health_inputs` and `daily_counters` (today\'s campaign and warmup sends; docs/api.md, "Mailbox health"); 404 when the workspace has no such address. `disconnect_reason` says what disconnected it (`smtp_auth`: the sending engine\'s login was refused; `imap_auth`: the reply reader\'s; `oauth_revoked`: the OAuth grant of a Google or Microsoft mailbox was revoked or has expired, and it needs a new authorization; reading retries on its own after 1, 2, 4 … 60 minutes, and `POST /account/bulk-reconnect` retries at once); `last_synced_at` is when its inbox was last read.',
  input: AccountByEmailInput,
  output: AccountStatusOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_LIST',
  async run(ctx, input) {
    const row = await findAccountByEmail({ db: ctx.db, workspaceId: input.workspace_id, email: input.email });
    // On demand: the health score is recomputed (with a fresh DNS check) and stored as the day's snapshot.
    const health = (await computeHealth({ deps: ctx, ids: [row.id] })).get(row.id);
    // Deleted by another request while its health was computed.
    if (!health) throw accountNotFound(input.email);
    return {
      account: row.email,
      email: row.email,
      status: row.status,
      warmup_status: row.warmupStatus,
      last_error: row.lastError,
      disconnect_reason: row.disconnectReason,
      last_synced_at: row.imapSyncedAt?.toISOString() ?? null,
      health_score: health.score,
      health_inputs: health.inputs,
      daily_counters: { email_sent_today: health.sentToday, warmup_email_sent_today: health.warmupSentToday },
    };
  },
});
