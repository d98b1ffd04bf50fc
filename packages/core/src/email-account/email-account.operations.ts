import { classifyPrismaError, newId } from '@outreach/db';
import type { Ctx } from '../shared/context';
import { defineOperation } from '../shared/operation';
import { conflict, invalid, invalidField, notFound } from '../shared/errors';
import { PRIVATE_HOST_PROBLEM } from '../shared/mail-verifier';
import { assertWorkspaceAccess } from '../shared/tenancy';
import { utcDayEnd, utcDayStart } from '../shared/time';
import {
  AccountByEmailInput,
  AccountStatusOutput,
  BulkAddAccountsInput,
  BulkAddAccountsOutput,
  BulkAssignTagsInput,
  BulkAssignTagsOutput,
  BulkReconnectInput,
  BulkReconnectOutput,
  BulkUpdateAccountsInput,
  BulkUpdateAccountsOutput,
  BulkUpdateWarmupInput,
  BulkUpdateWarmupOutput,
  EmailStatsInput,
  EmailStatsOutput,
  ListAccountsInput,
  ListAccountsOutput,
  MoveWorkspaceInput,
  MoveWorkspaceOutput,
  SuccessOutput,
  WarmupOutput,
} from './email-account.schemas';
import { checkLogins, daysBetween, isPrivateHost, mapLimit, normalizeEmail, percent, privateHostFields } from './email-account.rules';
import { emailDayCounts, emailLeadCounts } from './email-account.queries';

/** Login checks run at most this many at once: 100 accounts must not open 200 sockets together. */
const VERIFY_CONCURRENCY = 5;

async function findByEmail(ctx: Ctx, workspaceId: string, email: string) {
  const row = await ctx.db.emailAccount.findUnique({
    where: { workspaceId_emailNormalized: { workspaceId, emailNormalized: normalizeEmail(email) } },
    select: { id: true, email: true, status: true, warmupStatus: true, lastError: true, disconnectReason: true, imapSyncedAt: true },
  });
  if (!row) throw notFound('email_account.not_found', `email account ${email} not found in this workspace`);
  return row;
}

export const bulkAddAccounts = defineOperation({
  name: 'emailAccount.bulkAdd',
  kind: 'mutation',
  summary: 'Add regular (SMTP/IMAP) email accounts',
  description:
    'Adds up to 100 SMTP/IMAP mailboxes. A host that is, or resolves to, a private, loopback, link-local or reserved address is refused with 400 naming the field (`accounts.<i>.smtp_host` / `accounts.<i>.imap_host`) before any connection and nothing is added, unless the server runs with ALLOW_PRIVATE_TARGETS=true. Each account\'s SMTP then IMAP login is checked against the real servers (at most 5 accounts at once) before anything is saved; an account whose login is refused or whose server is unreachable is listed in `failed` with the reason, one fixed sentence ("SMTP login refused: …", "IMAP server unreachable: timed out", …) that never quotes the server, and the others are still added. An address already connected to the workspace (case-insensitively), or given twice in the request, fails with "already connected". The verified accounts are inserted in one transaction, ACTIVE, with warmup ACTIVE when `enable_warmup` is "yes". Passwords are stored encrypted (AES-256-GCM) and never returned by any operation. `daily_limit` defaults to 30, `sending_gap` to 10 minutes.',
  input: BulkAddAccountsInput,
  output: BulkAddAccountsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_CREATE',
  async run(ctx, input) {
    const failed: { email: string; error: string }[] = [];
    const existing = await ctx.db.emailAccount.findMany({
      where: { workspaceId: input.workspace_id, emailNormalized: { in: input.accounts.map((a) => normalizeEmail(a.email)) } },
      select: { emailNormalized: true },
    });
    const taken = new Set(existing.map((e) => e.emailNormalized));
    const candidates = input.accounts.filter((a) => {
      const key = normalizeEmail(a.email);
      if (taken.has(key)) {
        failed.push({ email: a.email, error: 'already connected' });
        return false;
      }
      taken.add(key);
      return true;
    });
    if (!ctx.settings.allowPrivateTargets) {
      // Mail servers on this machine's own network are refused before anything connects to them.
      const indexOf = new Map(input.accounts.map((a, index) => [a, index]));
      const refused = await privateHostFields({ accounts: candidates.map((a) => ({ index: indexOf.get(a)!, smtp_host: a.smtp_host, imap_host: a.imap_host })) });
      if (refused.length) {
        const fieldErrors = refused.map(({ index, field }) => ({ field: `accounts.${index}.${field}`, message: PRIVATE_HOST_PROBLEM }));
        throw invalid('email_account.private_host', fieldErrors.map((f) => `${f.field} ${f.message}`).join('; '), fieldErrors);
      }
    }
    const checks = await mapLimit({
      items: candidates,
      limit: VERIFY_CONCURRENCY,
      fn: (a) =>
        checkLogins({
          mail: ctx.ports.mail,
          smtp: { host: a.smtp_host, port: a.smtp_port, username: a.smtp_username, password: a.smtp_password },
          imap: { host: a.imap_host, port: a.imap_port, username: a.imap_username, password: a.imap_password },
        }),
    });
    const verified = candidates.flatMap((a, i) => {
      const error = checks[i];
      if (error) {
        failed.push({ email: a.email, error });
        return [];
      }
      return [{ account: a, id: newId() }];
    });
    if (verified.length > 0) {
      const organizationId = ctx.actor.organizationId;
      await ctx.db
        .$transaction(async (tx) =>
          tx.emailAccount.createMany({
            data: verified.map(({ account: a, id }) => ({
              id,
              organizationId,
              workspaceId: input.workspace_id,
              email: a.email,
              emailNormalized: normalizeEmail(a.email),
              firstName: a.first_name,
              lastName: a.last_name,
              status: 'ACTIVE' as const,
              warmupStatus: input.enable_warmup === 'yes' ? 'ACTIVE' : 'INACTIVE',
              smtpHost: a.smtp_host,
              smtpPort: a.smtp_port,
              smtpUsername: a.smtp_username,
              smtpPasswordEnc: ctx.secrets.encrypt(a.smtp_password),
              imapHost: a.imap_host,
              imapPort: a.imap_port,
              imapUsername: a.imap_username,
              imapPasswordEnc: ctx.secrets.encrypt(a.imap_password),
              ...(a.daily_limit !== undefined ? { dailyLimit: a.daily_limit } : {}),
              ...(a.sending_gap !== undefined ? { sendingGap: a.sending_gap } : {}),
            })),
          }),
        )
        .catch((error: unknown) => {
          // Another request connected one of these addresses while the logins were checked.
          if (classifyPrismaError(error)?.kind === 'conflict') throw conflict('email_account.already_connected', 'an address was connected concurrently; retry the request');
          throw error;
        });
    }
    return { status: 'success' as const, added: verified.map(({ account, id }) => ({ email: account.email, _id: id })), failed };
  },
});

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
    const row = await findByEmail(ctx, input.workspace_id, input.email);
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

export const deleteAccount = defineOperation({
  name: 'emailAccount.delete',
  kind: 'mutation',
  summary: 'Delete an email account',
  description:
    'Deletes a mailbox by address (404 when unknown). It leaves its campaigns and tags; leads it was sending to keep their rows with no mailbox, and its past sends stay counted in campaign statistics without a mailbox.',
  input: AccountByEmailInput,
  output: SuccessOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_DELETE',
  async run(ctx, input) {
    const row = await findByEmail(ctx, input.workspace_id, input.email);
    // campaign_email_accounts and email_account_tags go by cascade; leads.email_account_id
    // and sent_emails.email_account_id are set null by their foreign keys.
    await ctx.db.$transaction(async (tx) => tx.emailAccount.deleteMany({ where: { id: row.id, workspaceId: input.workspace_id } }));
    return { status: 'success' as const };
  },
});

function warmupOperation(options: { name: string; summary: string; to: 'ACTIVE' | 'INACTIVE' }) {
  return defineOperation({
    name: options.name,
    kind: 'mutation',
    summary: options.summary,
    description: `Sets the warmup status of a mailbox, found by address, to ${options.to} (idempotent; 404 when unknown). Only the flag is stored: the warmup engine reads it.`,
    input: AccountByEmailInput,
    output: WarmupOutput,
    workspace: 'required',
    permission: 'EMAILACCOUNT_EDIT',
    async run(ctx, input) {
      const row = await findByEmail(ctx, input.workspace_id, input.email);
      await ctx.db.emailAccount.update({ where: { id: row.id }, data: { warmupStatus: options.to } });
      return { status: 'success' as const, warmup_status: options.to };
    },
  });
}

export const enableWarmup = warmupOperation({ name: 'emailAccount.enableWarmup', summary: 'Enable warmup of an email account', to: 'ACTIVE' });
export const pauseWarmup = warmupOperation({ name: 'emailAccount.pauseWarmup', summary: 'Pause warmup of an email account', to: 'INACTIVE' });

/** The ids among `ids` that are mailboxes of the workspace, in the order given. */
async function ownIds(ctx: Ctx, workspaceId: string, ids: string[]): Promise<string[]> {
  const rows = await ctx.db.emailAccount.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } });
  const own = new Set(rows.map((r) => r.id));
  return [...new Set(ids)].filter((id) => own.has(id));
}

export const bulkUpdateAccounts = defineOperation({
  name: 'emailAccount.bulkUpdate',
  kind: 'mutation',
  summary: 'Update sending settings of email accounts',
  description:
    'Sets `daily_limit` (0 to 10000; 0 stops the mailbox sending), `sending_gap` (minutes, 0 to 1440) and/or `signature` on the given mailboxes; fields left out keep their value, and at least one must be given. Ids that are unknown or of another workspace are ignored; `updated_ids` lists the mailboxes changed.',
  input: BulkUpdateAccountsInput,
  output: BulkUpdateAccountsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    if (input.daily_limit === undefined && input.sending_gap === undefined && input.signature === undefined) {
      throw invalidField('daily_limit', 'or sending_gap or signature must be given');
    }
    const ids = await ownIds(ctx, input.workspace_id, input.ids);
    await ctx.db.emailAccount.updateMany({
      where: { workspaceId: input.workspace_id, id: { in: ids } },
      data: {
        ...(input.daily_limit !== undefined ? { dailyLimit: input.daily_limit } : {}),
        ...(input.sending_gap !== undefined ? { sendingGap: input.sending_gap } : {}),
        ...(input.signature !== undefined ? { signature: input.signature } : {}),
      },
    });
    return { status: 'success' as const, updated_count: ids.length, updated_ids: ids };
  },
});

export const bulkUpdateWarmup = defineOperation({
  name: 'emailAccount.bulkUpdateWarmup',
  kind: 'mutation',
  summary: 'Set the warmup status of email accounts',
  description: 'Sets `warmup_status` (ACTIVE or INACTIVE) on the given mailboxes. Ids that are unknown or of another workspace are ignored; `updated_ids` lists the mailboxes matched.',
  input: BulkUpdateWarmupInput,
  output: BulkUpdateWarmupOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const ids = await ownIds(ctx, input.workspace_id, input.ids);
    await ctx.db.emailAccount.updateMany({ where: { workspaceId: input.workspace_id, id: { in: ids } }, data: { warmupStatus: input.warmup_status } });
    return { updated_count: ids.length, updated_ids: ids };
  },
});

export const bulkAssignTags = defineOperation({
  name: 'emailAccount.bulkAssignTags',
  kind: 'mutation',
  summary: 'Put a tag on, or take it off, email accounts',
  description:
    'ASSIGN puts the tag on the given mailboxes (already tagged ones stay as they are); UNASSIGN takes it off. The tag must belong to the workspace (404 `tag.not_found` otherwise). Ids that are unknown or of another workspace are ignored; `updated_count` counts the mailboxes of the workspace among `ids`.',
  input: BulkAssignTagsInput,
  output: BulkAssignTagsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const tag = await ctx.db.tag.findFirst({ where: { id: input.tag_id, workspaceId: input.workspace_id }, select: { id: true } });
    if (!tag) throw notFound('tag.not_found', `tag ${input.tag_id} not found in this workspace`);
    const ids = await ownIds(ctx, input.workspace_id, input.ids);
    if (input.action === 'ASSIGN') {
      await ctx.db.emailAccountTag.createMany({ data: ids.map((emailAccountId) => ({ emailAccountId, tagId: tag.id })), skipDuplicates: true });
    } else {
      await ctx.db.emailAccountTag.deleteMany({ where: { tagId: tag.id, emailAccountId: { in: ids } } });
    }
    return { status: 'success' as const, updated_count: ids.length };
  },
});

/** Why a stored mailbox cannot connect (a fixed sentence), or null when both logins pass. */
async function reconnectError(
  ctx: Ctx,
  r: { smtpHost: string; smtpPort: number; smtpUsername: string; smtpPasswordEnc: string; imapHost: string; imapPort: number; imapUsername: string; imapPasswordEnc: string },
): Promise<string | null> {
  if (!ctx.settings.allowPrivateTargets) {
    // Stored before the setting changed, or resolving elsewhere since: checked again, nothing connects.
    if (await isPrivateHost(r.smtpHost)) return `smtp_host ${PRIVATE_HOST_PROBLEM}`;
    if (await isPrivateHost(r.imapHost)) return `imap_host ${PRIVATE_HOST_PROBLEM}`;
  }
  let passwords: { smtp: string; imap: string };
  try {
    passwords = { smtp: ctx.secrets.decrypt(r.smtpPasswordEnc), imap: ctx.secrets.decrypt(r.imapPasswordEnc) };
  } catch {
    // A ciphertext the current key cannot open (key rotated, row copied from elsewhere).
    return 'stored password cannot be decrypted; update the account';
  }
  return checkLogins({
    mail: ctx.ports.mail,
    smtp: { host: r.smtpHost, port: r.smtpPort, username: r.smtpUsername, password: passwords.smtp },
    imap: { host: r.imapHost, port: r.imapPort, username: r.imapUsername, password: passwords.imap },
  });
}

export const bulkReconnect = defineOperation({
  name: 'emailAccount.bulkReconnect',
  kind: 'mutation',
  summary: 'Re-check the logins of email accounts',
  description:
    'Checks the SMTP and IMAP logins of up to 100 mailboxes again with their stored (decrypted) passwords, at most 5 at once, and sets each ACTIVE (clearing `last_error`) or DISCONNECTED with `last_error` saying why in a fixed sentence (login refused or server unreachable, never the server\'s own words; "smtp_host must not be (or resolve to) a private … address" without connecting when its host is on this machine\'s network and ALLOW_PRIVATE_TARGETS is not set). A PAUSED mailbox whose logins pass becomes ACTIVE too. Ids that are unknown or of another workspace are left out of `results`.',
  input: BulkReconnectInput,
  output: BulkReconnectOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const rows = await ctx.db.emailAccount.findMany({
      where: { workspaceId: input.workspace_id, id: { in: input.ids } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const results = await mapLimit({
      items: rows,
      limit: VERIFY_CONCURRENCY,
      fn: async (r) => {
        const error = await reconnectError(ctx, r);
        const status = error ? ('DISCONNECTED' as const) : ('ACTIVE' as const);
        // A reconnect clears the engine's disconnection and the reader's backoff, so both resume at once.
        await ctx.db.emailAccount.update({
          where: { id: r.id },
          data: error ? { status, lastError: error } : { status, lastError: null, disconnectReason: null, imapFailures: 0, imapRetryAt: null },
        });
        return { _id: r.id, email: r.email, status, ...(error ? { error } : {}) };
      },
    });
    return { status: 'success' as const, results };
  },
});

export const moveWorkspace = defineOperation({
  name: 'emailAccount.moveWorkspace',
  kind: 'mutation',
  summary: 'Move email accounts to another workspace',
  description:
    'Moves mailboxes from `workspace_id` to `to_workspace_id`, which must be another workspace of the same organization that the key reaches (403 otherwise; a client key needs EMAILACCOUNT_CREATE there). A mailbox whose address is already in the target is skipped. Its campaign links and tags are removed, since they belong to the old workspace; leads and past sends stay where they are. `moved` counts the mailboxes moved.',
  input: MoveWorkspaceInput,
  output: MoveWorkspaceOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    if (input.to_workspace_id === input.workspace_id) throw invalidField('to_workspace_id', 'must differ from workspace_id');
    await assertWorkspaceAccess({ ctx, workspaceId: input.to_workspace_id, permission: 'EMAILACCOUNT_CREATE' });
    const moved = await ctx.db.$transaction(async (tx) => {
      const rows = await tx.emailAccount.findMany({ where: { workspaceId: input.workspace_id, id: { in: input.ids } }, select: { id: true, emailNormalized: true } });
      const inTarget = await tx.emailAccount.findMany({
        where: { workspaceId: input.to_workspace_id, emailNormalized: { in: rows.map((r) => r.emailNormalized) } },
        select: { emailNormalized: true },
      });
      const skip = new Set(inTarget.map((r) => r.emailNormalized));
      const ids = rows.filter((r) => !skip.has(r.emailNormalized)).map((r) => r.id);
      if (ids.length === 0) return 0;
      await tx.campaignEmailAccount.deleteMany({ where: { emailAccountId: { in: ids } } });
      await tx.emailAccountTag.deleteMany({ where: { emailAccountId: { in: ids } } });
      const updated = await tx.emailAccount.updateMany({ where: { id: { in: ids }, workspaceId: input.workspace_id }, data: { workspaceId: input.to_workspace_id } });
      return updated.count;
    });
    return { status: 'success' as const, moved };
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
