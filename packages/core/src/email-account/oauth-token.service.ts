/**
 * Access tokens of XOAUTH2 mailboxes (Google, Microsoft). The refresh token and the current
 * access token are stored encrypted on the mailbox; a token that expires within
 * ACCESS_TOKEN_MARGIN_MS is refreshed before use, and a login the server refuses is retried
 * once with a fresh token (refreshAfterAuthFailure).
 *
 * A refresh runs under a lease in the database (`oauth_refresh_lease_until`, taken by a
 * conditional UPDATE): of any number of workers, in any number of processes, wanting a new
 * token for the same mailbox at once, one calls the provider and the others wait for its
 * result (polling the row, at most `waitMs`). A revoked or expired grant (the provider
 * answers `invalid_grant`) disconnects the mailbox (`disconnect_reason` OAUTH_REVOKED) and
 * emits SYSTEM_ALERT `ACCOUNT_DISCONNECTED`; its sends and reads then stop until a new
 * authorization (the OAuth callback) sets it ACTIVE again with new tokens.
 *
 * Token writes go through SQL and leave `updated_at` alone: a new token is not a change of
 * the mailbox a user made (and the sender's pools follow the token itself).
 */
import type { ServiceDeps } from '../shared/context';
import type { MailServerSettings } from '../shared/mail-verifier';
import { isOAuthProvider, OAuthGrantRevokedError } from '../shared/oauth/index';
import { emitSystemAlert } from '../webhook/index';

/** A token expiring sooner than this is refreshed before use. */
export const ACCESS_TOKEN_MARGIN_MS = 5 * 60_000;
/** How long a worker holds the right to refresh a mailbox's token (a refresh that takes longer is taken over). */
export const REFRESH_LEASE_MS = 60_000;
/** How long a worker waits by default for another one's refresh before giving up (a transient failure). */
export const REFRESH_WAIT_MS = 20_000;
const POLL_MS = 100;
/** `disconnect_reason` of a mailbox whose OAuth grant is revoked or expired. */
export const OAUTH_REVOKED_REASON = 'oauth_revoked';

/** The mailbox's grant is revoked or expired: it was disconnected (and the alert emitted); nothing works until it is authorized again. */
export class MailboxOAuthRevokedError extends Error {
  override readonly name = 'MailboxOAuthRevokedError';
  constructor(
    readonly accountId: string,
    message: string,
  ) {
    super(message);
  }
}

/** No token now (the provider unreachable, another worker's refresh not done in time): worth a retry later. */
export class MailboxTokenUnavailableError extends Error {
  override readonly name = 'MailboxTokenUnavailableError';
}

interface TokenRow {
  id: string;
  workspace_id: string;
  email: string;
  provider: string;
  status: string;
  disconnect_reason: string | null;
  auth_type: string;
  oauth_refresh_token_enc: string | null;
  oauth_access_token_enc: string | null;
  oauth_access_expires_at: Date | null;
}

const READ_SQL = `
  SELECT id, workspace_id, email, provider, status::text AS status, disconnect_reason, auth_type,
         oauth_refresh_token_enc, oauth_access_token_enc, oauth_access_expires_at
    FROM email_accounts WHERE id = $1`;

/**
 * Takes the refresh lease when it is free (never taken, or run out) and the access token is
 * still the one the caller saw (nobody refreshed meanwhile). $1 id, $2 lease end, $3 now,
 * $4 the access token ciphertext seen.
 */
const TAKE_LEASE_SQL = `
  UPDATE email_accounts SET oauth_refresh_lease_until = $2::timestamptz
   WHERE id = $1 AND auth_type = 'XOAUTH2'
     AND (oauth_refresh_lease_until IS NULL OR oauth_refresh_lease_until <= $3::timestamptz)
     AND oauth_access_token_enc IS NOT DISTINCT FROM $4
  RETURNING oauth_refresh_token_enc`;

/** Stores a refreshed token and frees the lease if still ours. $1 id, $2 access, $3 expiry, $4 rotated refresh token or null, $5 our lease. */
const STORE_SQL = `
  UPDATE email_accounts
     SET oauth_access_token_enc = $2, oauth_access_expires_at = $3::timestamptz,
         oauth_refresh_token_enc = COALESCE($4, oauth_refresh_token_enc),
         oauth_refresh_lease_until = CASE WHEN oauth_refresh_lease_until = $5::timestamptz THEN NULL ELSE oauth_refresh_lease_until END
   WHERE id = $1`;

const RELEASE_SQL = `UPDATE email_accounts SET oauth_refresh_lease_until = NULL WHERE id = $1 AND oauth_refresh_lease_until = $2::timestamptz`;

/**
 * Disconnects the mailbox whose grant is gone, unless it was authorized again meanwhile (its
 * refresh token replaced) or is already disconnected for this reason. $1 id, $2 last_error,
 * $3 the refresh token ciphertext that failed, $4 now.
 */
const REVOKE_SQL = `
  UPDATE email_accounts
     SET status = 'DISCONNECTED', disconnect_reason = '${OAUTH_REVOKED_REASON}', last_error = $2,
         oauth_access_token_enc = NULL, oauth_access_expires_at = NULL, oauth_refresh_lease_until = NULL, updated_at = $4::timestamptz
   WHERE id = $1 AND oauth_refresh_token_enc IS NOT DISTINCT FROM $3
     AND NOT (status = 'DISCONNECTED' AND disconnect_reason = '${OAUTH_REVOKED_REASON}')
  RETURNING id, workspace_id, email, provider`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const revokedMessage = (email: string) =>
  `mailbox ${email} is disconnected: its OAuth grant was revoked or has expired; authorize it again (POST /account/bulk-reconnect answers an authorization URL)`;

/**
 * The mailbox's current access token, refreshed first when it expires within
 * ACCESS_TOKEN_MARGIN_MS. Throws MailboxOAuthRevokedError (the mailbox is disconnected) or
 * MailboxTokenUnavailableError (try again later).
 */
export async function accessTokenFor(options: { deps: ServiceDeps; accountId: string; waitMs?: number }): Promise<string> {
  return obtainToken({ ...options, failedToken: null });
}

/**
 * After the server refused a login with `failedToken`: a new token, from the provider, or the
 * one another worker got meanwhile. Called once per refused login; a second refusal is the
 * mailbox's (its existing "login refused" path).
 */
export async function refreshAfterAuthFailure(options: { deps: ServiceDeps; accountId: string; failedToken: string; waitMs?: number }): Promise<string> {
  return obtainToken(options);
}

async function obtainToken(options: { deps: ServiceDeps; accountId: string; failedToken: string | null; waitMs?: number }): Promise<string> {
  const { deps, accountId } = options;
  const deadline = performance.now() + (options.waitMs ?? REFRESH_WAIT_MS);
  /** The access token ciphertext first seen: one that differs later was refreshed by another worker. */
  let first: string | null | undefined;
  for (;;) {
    const [row] = await deps.db.$queryRawUnsafe<TokenRow[]>(READ_SQL, accountId);
    if (!row) throw new MailboxTokenUnavailableError('the mailbox no longer exists');
    if (row.auth_type !== 'XOAUTH2') throw new MailboxTokenUnavailableError(`mailbox ${row.email} does not log in with OAuth`);
    if (row.status === 'DISCONNECTED' && row.disconnect_reason === OAUTH_REVOKED_REASON) throw new MailboxOAuthRevokedError(row.id, revokedMessage(row.email));
    if (first === undefined) first = row.oauth_access_token_enc;
    const now = deps.ports.clock.now().getTime();
    const current = row.oauth_access_token_enc === null ? null : decryptOrNull(deps, row.oauth_access_token_enc);
    const expiresAt = row.oauth_access_expires_at?.getTime() ?? 0;
    if (current !== null && current !== options.failedToken) {
      if (expiresAt - now > ACCESS_TOKEN_MARGIN_MS) return current;
      // Refreshed by another worker while this one waited: use it while it is valid, even
      // when it is short-lived (refreshing again would only race the provider).
      if (row.oauth_access_token_enc !== first && expiresAt > now) return current;
    }
    const lease = new Date(now + REFRESH_LEASE_MS);
    const [won] = await deps.db.$queryRawUnsafe<{ oauth_refresh_token_enc: string | null }[]>(
      TAKE_LEASE_SQL,
      accountId,
      lease.toISOString(),
      new Date(now).toISOString(),
      row.oauth_access_token_enc,
    );
    if (won) return refreshUnderLease({ deps, row, lease, refreshTokenEnc: won.oauth_refresh_token_enc });
    if (performance.now() > deadline) {
      throw new MailboxTokenUnavailableError(`mailbox ${row.email}: another worker's access token refresh did not finish in time`);
    }
    await sleep(POLL_MS);
  }
}

function decryptOrNull(deps: ServiceDeps, ciphertext: string): string | null {
  try {
    return deps.secrets.decrypt(ciphertext);
  } catch {
    return null;
  }
}

async function refreshUnderLease(options: { deps: ServiceDeps; row: TokenRow; lease: Date; refreshTokenEnc: string | null }): Promise<string> {
  const { deps, row, lease, refreshTokenEnc } = options;
  const log = deps.log.child({ mailbox: row.email, mailboxId: row.id });
  const refreshToken = refreshTokenEnc === null ? null : decryptOrNull(deps, refreshTokenEnc);
  if (refreshToken === null) {
    // No grant to refresh with (none stored, or encrypted with another key): as good as revoked.
    await disconnectRevoked({ deps, row, refreshTokenEnc, why: refreshTokenEnc === null ? 'no refresh token is stored' : 'the stored refresh token cannot be decrypted' });
    throw new MailboxOAuthRevokedError(row.id, revokedMessage(row.email));
  }
  try {
    if (!isOAuthProvider(row.provider)) throw new Error(`its provider ${row.provider} has no OAuth client`);
    const refreshed = await deps.ports.oauth.refresh({ provider: row.provider, refreshToken });
    await deps.db.$executeRawUnsafe(
      STORE_SQL,
      row.id,
      deps.secrets.encrypt(refreshed.accessToken),
      refreshed.expiresAt.toISOString(),
      refreshed.refreshToken === undefined ? null : deps.secrets.encrypt(refreshed.refreshToken),
      lease.toISOString(),
    );
    log.debug({ expiresAt: refreshed.expiresAt }, 'OAuth access token refreshed');
    return refreshed.accessToken;
  } catch (error) {
    if (error instanceof OAuthGrantRevokedError) {
      await disconnectRevoked({ deps, row, refreshTokenEnc, why: `the provider answered ${error.code}` });
      throw new MailboxOAuthRevokedError(row.id, revokedMessage(row.email));
    }
    await deps.db.$executeRawUnsafe(RELEASE_SQL, row.id, lease.toISOString()).catch(() => {});
    log.warn({ err: error }, 'refreshing the OAuth access token failed; will retry');
    throw new MailboxTokenUnavailableError(`refreshing the mailbox's OAuth access token failed: ${(error as Error).message}`);
  }
}

/** DISCONNECTED with OAUTH_REVOKED_REASON, and SYSTEM_ALERT ACCOUNT_DISCONNECTED, in one transaction (once per revocation). */
async function disconnectRevoked(options: { deps: ServiceDeps; row: TokenRow; refreshTokenEnc: string | null; why: string }): Promise<void> {
  const { deps, row, why } = options;
  const now = deps.ports.clock.now();
  const lastError = `OAuth grant revoked or expired (${why}): authorize the mailbox again`;
  const disconnected = await deps.db.$transaction(async (tx) => {
    const [hit] = await tx.$queryRawUnsafe<{ id: string; workspace_id: string; email: string; provider: string }[]>(
      REVOKE_SQL,
      row.id,
      lastError.slice(0, 500),
      options.refreshTokenEnc,
      now.toISOString(),
    );
    if (!hit) return false;
    await emitSystemAlert({
      tx,
      workspaceId: hit.workspace_id,
      now,
      alert: {
        alert_type: 'ACCOUNT_DISCONNECTED',
        message: `mailbox ${hit.email} was disconnected: its OAuth grant was revoked or has expired (${why}); authorize it again`,
        email_account_id: hit.id,
        email: hit.email,
        provider: hit.provider,
        disconnect_reason: OAUTH_REVOKED_REASON,
      },
    });
    return true;
  });
  if (disconnected) deps.log.warn({ mailbox: row.email, mailboxId: row.id, why }, 'OAuth grant revoked: mailbox marked DISCONNECTED, its sends and reads stop');
}

/** What a login needs to know of a mailbox: XOAUTH2 or its (encrypted) password. */
export interface MailboxLogin {
  id: string;
  authType: string;
  host: string;
  port: number;
  username: string;
  passwordEnc: string;
}

/**
 * Runs `attempt` with the mailbox's server settings: its decrypted password, or XOAUTH2 with
 * its current access token. For XOAUTH2, a login the server refused (`refused`) is tried once
 * more with a new token. Throws what decrypting the password throws, MailboxOAuthRevokedError
 * and MailboxTokenUnavailableError.
 */
export async function withMailboxLogin<T>(options: {
  deps: ServiceDeps;
  mailbox: MailboxLogin;
  attempt: (settings: MailServerSettings) => Promise<T>;
  refused: (result: T) => boolean;
  waitMs?: number;
}): Promise<T> {
  const { deps, mailbox } = options;
  const base = { host: mailbox.host, port: mailbox.port, username: mailbox.username };
  if (mailbox.authType !== 'XOAUTH2') return options.attempt({ ...base, password: deps.secrets.decrypt(mailbox.passwordEnc) });
  const token = await accessTokenFor({ deps, accountId: mailbox.id, waitMs: options.waitMs });
  const result = await options.attempt({ ...base, password: '', accessToken: token });
  if (!options.refused(result)) return result;
  const fresh = await refreshAfterAuthFailure({ deps, accountId: mailbox.id, failedToken: token, waitMs: options.waitMs });
  return options.attempt({ ...base, password: '', accessToken: fresh });
}
