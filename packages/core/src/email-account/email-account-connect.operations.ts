// Connecting mailboxes: adding them (logins checked first), checking their logins again, and removing them.
import { classifyPrismaError, newId, type Prisma, type Tx } from '@outreach/db';
import type { Ctx } from '../shared/context';
import { defineOperation } from '../shared/operation';
import { conflict, invalid } from '../shared/errors';
import { PRIVATE_HOST_PROBLEM } from '../shared/mail-verifier';
import { AccountByEmailInput, BulkAddAccountsInput, BulkAddAccountsOutput, BulkReconnectInput, BulkReconnectOutput, SuccessOutput } from './email-account.schemas';
import { mapLimit } from '../shared/map-limit';
import { checkLogins, isPrivateHost, normalizeEmail, privateHostFields, warmupSettingsData } from './email-account.rules';
import { findAccountByEmail } from './email-account.queries';
import { isOAuthProvider } from '../shared/oauth/oauth.rules';
import { oauthStartError, prepareOAuthState, storeOAuthStates } from './email-account-oauth.service';

/** Login checks run at most this many at once: 100 accounts must not open 200 sockets together. */
const VERIFY_CONCURRENCY = 5;

export const bulkAddAccounts = defineOperation({
  name: 'emailAccount.bulkAdd',
  kind: 'mutation',
  summary: 'Add regular (SMTP/IMAP) email accounts',
  description:
    'Adds up to 100 SMTP/IMAP mailboxes. A host that is, or resolves to, a private, loopback, link-local or reserved address is refused with 400 naming the field (`accounts.<i>.smtp_host` / `accounts.<i>.imap_host`) before any connection and nothing is added, unless the server runs with ALLOW_PRIVATE_TARGETS=true. Each account\'s SMTP then IMAP login is checked against the real servers (at most 5 accounts at once) before anything is saved; an account whose login is refused or whose server is unreachable is listed in `failed` with the reason, one fixed sentence ("SMTP login refused: …", "IMAP server unreachable: timed out", …) that never quotes the server, and the others are still added. An address already connected to the workspace (case-insensitively), or given twice in the request, fails with "already connected". The verified accounts are inserted in one transaction, ACTIVE, with warmup ACTIVE when `enable_warmup` is "yes" (or true, 1). Passwords are stored encrypted (AES-256-GCM) and never returned by any operation. `daily_limit` defaults to 30, `sending_gap` to 10 minutes. Each account may carry the warmup settings (`warmup_limit`, `warmup_increment`, `warmup_reply_rate`, `warmup_custom_words`, `warmup_signature`, `warmup_advanced`; shown as `payload.warmup`, docs/api.md "Warmup").',
  input: BulkAddAccountsInput,
  output: BulkAddAccountsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_CREATE',
  run: (ctx, input) => addRegularAccounts(ctx, input),
});

/**
 * What `POST /account/bulk-add-regular-accounts` does (emailAccount.bulkAdd), for the operations
 * that add mailboxes the same way: `partner` tags each added mailbox with the partner that
 * created it, and `inTransaction` runs in the transaction that inserts them (with their ids).
 */
export async function addRegularAccounts(
  ctx: Ctx,
  input: BulkAddAccountsInput,
  options: { partner?: { name: string; providerId: string }; inTransaction?: (tx: Tx, added: { id: string; email: string }[]) => Promise<void> } = {},
): Promise<BulkAddAccountsOutput> {
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
      .$transaction(async (tx) => {
        await tx.emailAccount.createMany({
          data: verified.map(({ account: a, id }) => ({
            id,
            organizationId,
            workspaceId: input.workspace_id,
            email: a.email,
            emailNormalized: normalizeEmail(a.email),
            firstName: a.first_name,
            lastName: a.last_name,
            status: 'ACTIVE' as const,
            warmupStatus: input.enable_warmup ? 'ACTIVE' : 'INACTIVE',
            warmupStartedAt: input.enable_warmup ? ctx.ports.clock.now() : null,
            ...warmupSettingsData(a),
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
            ...(options.partner ? { partnerName: options.partner.name, partnerProviderId: options.partner.providerId } : {}),
          })),
        });
        await options.inTransaction?.(tx, verified.map(({ account, id }) => ({ id, email: account.email })));
      })
      .catch((error: unknown) => {
        // Another request connected one of these addresses while the logins were checked.
        if (classifyPrismaError(error)?.kind === 'conflict') throw conflict('email_account.already_connected', 'an address was connected concurrently; retry the request');
        throw error;
      });
  }
  return { status: 'success' as const, added: verified.map(({ account, id }) => ({ email: account.email, _id: id, id })), failed };
}

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
    'Checks the SMTP and IMAP logins of up to 100 mailboxes again with their stored (decrypted) passwords, at most 5 at once, and sets each ACTIVE (clearing `last_error`) or DISCONNECTED with `last_error` saying why in a fixed sentence (login refused or server unreachable, never the server\'s own words; "smtp_host must not be (or resolve to) a private … address" without connecting when its host is on this machine\'s network and ALLOW_PRIVATE_TARGETS is not set). A PAUSED mailbox whose logins pass becomes ACTIVE too. Ids that are unknown or of another workspace are left out of `results`. An XOAUTH2 mailbox (Google Workspace, Microsoft 365, connected over OAuth) has no password to check: its result carries `url`, a fresh authorization URL bound to that mailbox (10 minutes, single use; its callback reconnects this very mailbox and refuses another address with 409 `oauth.wrong_mailbox`), and its status is left as it is until the owner completes it; `error` says why when no URL can be made (the provider is not configured).',
  input: BulkReconnectInput,
  output: BulkReconnectOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const rows = await ctx.db.emailAccount.findMany({
      where: { workspaceId: input.workspace_id, id: { in: input.ids } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    // XOAUTH2 mailboxes reconnect through their provider: a new authorization bound to each.
    const states: Prisma.OAuthStateCreateManyInput[] = [];
    const results = await mapLimit({
      items: rows,
      limit: VERIFY_CONCURRENCY,
      fn: async (r) => {
        if (r.authType === 'XOAUTH2') {
          const base = { _id: r.id, id: r.id, email: r.email, status: r.status };
          if (!isOAuthProvider(r.provider)) return { ...base, error: `provider ${r.provider} has no OAuth authorization` };
          try {
            const prepared = await prepareOAuthState(ctx, { provider: r.provider, workspaceId: input.workspace_id, emailAccountId: r.id, loginHint: r.email });
            states.push(prepared.row);
            return { ...base, url: prepared.url };
          } catch (error) {
            const domain = oauthStartError(error);
            if (domain instanceof Error && domain !== error) return { ...base, error: domain.message };
            throw error;
          }
        }
        const error = await reconnectError(ctx, r);
        const status = error ? ('DISCONNECTED' as const) : ('ACTIVE' as const);
        // A reconnect clears the engine's disconnection and the reader's backoff, so both resume at once.
        await ctx.db.emailAccount.update({
          where: { id: r.id },
          data: error ? { status, lastError: error } : { status, lastError: null, disconnectReason: null, imapFailures: 0, imapRetryAt: null },
        });
        return { _id: r.id, id: r.id, email: r.email, status, ...(error ? { error } : {}) };
      },
    });
    await storeOAuthStates(ctx, states);
    return { status: 'success' as const, results };
  },
});

/** A mailbox's warmup messages, sent or received, locked in key order, then deleted. $1 the mailbox. */
const DELETE_WARMUP_MESSAGES_SQL = `
  DELETE FROM warmup_messages WHERE id IN (
    SELECT id FROM warmup_messages WHERE sender_account_id = $1 OR recipient_account_id = $1 ORDER BY id FOR UPDATE)`;

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
    const row = await findAccountByEmail({ db: ctx.db, workspaceId: input.workspace_id, email: input.email });
    // campaign_email_accounts and email_account_tags go by cascade; leads.email_account_id
    // and sent_emails.email_account_id are set null by their foreign keys.
    await ctx.db.$transaction(async (tx) => {
      // Its warmup conversations first, in key order: each is another mailbox's too, and the
      // cascades of two mailboxes deleted at once took their shared rows in opposite orders
      // (a deadlock, again on every retry when four that warmed each other up went together).
      await tx.$executeRawUnsafe(DELETE_WARMUP_MESSAGES_SQL, row.id);
      await tx.emailAccount.deleteMany({ where: { id: row.id, workspaceId: input.workspace_id } });
    });
    return { status: 'success' as const };
  },
});
