// Connecting Google and Microsoft mailboxes over OAuth: the authorization a start operation (or
// a reconnect) opens, and the callback that completes it. The state is the callback's only
// credential: 32 random bytes, stored as its SHA-256 with the PKCE verifier (encrypted), the
// nonce, the workspace and the key that started it; single use, 10 minutes.
import { classifyPrismaError, newId, type Prisma } from '@outreach/db';
import type { Ctx, ServiceDeps } from '../shared/context';
import { DomainError, conflict, forbidden, invalid, notFound, preconditionFailed } from '../shared/errors';
import { InstallationSettingUnreadableError, readInstallationSettings } from '../shared/installation-settings';
import { OAuthNotConfiguredError, OAuthProviderError, pkcePair, randomNonce, type OAuthGrant } from '../shared/oauth/oauth-client.service';
import { oauthMailServers, oauthProviderConfig, splitList } from '../shared/oauth/oauth-settings';
import { oauthCallbackUrl, type OAuthProvider } from '../shared/oauth/oauth.rules';
import { recordPartnerActivity } from '../shared/partner-activity';
import { OAUTH_STATE_TTL_MS, hashOAuthState, newOAuthState, redirectAfterProblem, stateRefusal, withQuery, type StateRefusal } from './email-account-oauth.rules';
import { normalizeEmail } from './email-account.rules';

const LABEL: Record<OAuthProvider, string> = { GOOGLE_WORKSPACE: 'Google', MICROSOFT365: 'Microsoft 365' };

/** Expired states are swept this long after their expiry, by the starts that follow. */
const STATE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The provider errors of a start, as domain errors (400: the installation must act). */
export function oauthStartError(error: unknown): unknown {
  if (error instanceof OAuthNotConfiguredError) return preconditionFailed('oauth.not_configured', error.message);
  if (error instanceof OAuthProviderError) return preconditionFailed('oauth.provider_unavailable', error.message);
  if (error instanceof InstallationSettingUnreadableError) return preconditionFailed('oauth.settings_unreadable', error.message);
  return error;
}

export interface PreparedOAuthState {
  url: string;
  row: Prisma.OAuthStateCreateManyInput;
}

/**
 * A new authorization for `provider` in the caller's workspace: the provider's URL and the
 * state row to store (in the caller's transaction). `emailAccountId` binds it to a mailbox
 * that the callback then reconnects. Throws the client's errors (see oauthStartError).
 */
export async function prepareOAuthState(
  ctx: Ctx,
  options: { provider: OAuthProvider; workspaceId: string; redirectAfter?: string | null; emailAccountId?: string | null; loginHint?: string },
): Promise<PreparedOAuthState> {
  const { state, hash } = newOAuthState();
  const nonce = randomNonce();
  const pkce = await pkcePair();
  const url = await ctx.ports.oauth.authorizationUrl({
    provider: options.provider,
    redirectUri: oauthCallbackUrl(ctx.settings.publicUrl, options.provider),
    state,
    nonce,
    codeChallenge: pkce.challenge,
    ...(options.loginHint ? { loginHint: options.loginHint } : {}),
  });
  const now = ctx.ports.clock.now();
  return {
    url,
    row: {
      stateHash: hash,
      organizationId: ctx.actor.organizationId,
      workspaceId: options.workspaceId,
      apiKeyId: ctx.actor.apiKeyId || null,
      provider: options.provider,
      codeVerifierEnc: ctx.secrets.encrypt(pkce.verifier),
      nonce,
      redirectAfter: options.redirectAfter ?? null,
      emailAccountId: options.emailAccountId ?? null,
      expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
    },
  };
}

/** Stores prepared states in `ctx`'s database, sweeping long-expired ones. */
export async function storeOAuthStates(ctx: Ctx, rows: Prisma.OAuthStateCreateManyInput[]): Promise<void> {
  if (!rows.length) return;
  const now = ctx.ports.clock.now();
  await ctx.db.$transaction(async (tx) => {
    await tx.oAuthState.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - STATE_RETENTION_MS) } } });
    await tx.oAuthState.createMany({ data: rows });
  });
}

/** `emailAccount.oauthGoogleStart` / `oauthMicrosoftStart`: checks `redirect_after`, answers the authorization URL. */
export async function startOAuth(ctx: Ctx, provider: OAuthProvider, input: { workspace_id: string; redirect_after?: string | undefined }) {
  let redirectAfter: string | null = null;
  if (input.redirect_after) {
    const settings = await readInstallationSettings({ db: ctx.db, secrets: ctx.secrets, env: ctx.settings.installation }).catch((error: unknown) => {
      throw oauthStartError(error);
    });
    const problem = redirectAfterProblem(input.redirect_after, { publicUrl: ctx.settings.publicUrl, allowedOrigins: splitList(settings.OAUTH_REDIRECT_ORIGINS ?? '') });
    if (problem) throw invalid('oauth.redirect_not_allowed', `redirect_after ${problem}`, [{ field: 'redirect_after', message: problem }]);
    redirectAfter = input.redirect_after;
  }
  let prepared: PreparedOAuthState;
  try {
    prepared = await prepareOAuthState(ctx, { provider, workspaceId: input.workspace_id, redirectAfter });
  } catch (error) {
    throw oauthStartError(error);
  }
  await storeOAuthStates(ctx, [prepared.row]);
  return { status: 'success' as const, url: prepared.url };
}

/** `emailAccount.oauthProviders`: which providers have a client id and secret. */
export async function configuredOAuthProviders(ctx: Ctx): Promise<{ google: boolean; microsoft: boolean }> {
  const settings = await readInstallationSettings({ db: ctx.db, secrets: ctx.secrets, env: ctx.settings.installation }).catch((error: unknown) => {
    throw oauthStartError(error);
  });
  const configured = (provider: OAuthProvider) => {
    try {
      oauthProviderConfig(provider, settings);
      return true;
    } catch (error) {
      if (error instanceof OAuthNotConfiguredError) return false;
      throw error;
    }
  };
  return { google: configured('GOOGLE_WORKSPACE'), microsoft: configured('MICROSOFT365') };
}

export type OAuthCallbackResult =
  | { outcome: 'connected'; emailAccountId: string; email: string; workspaceId: string; reconnected: boolean; redirectTo: string | null }
  | { outcome: 'refused'; error: DomainError; redirectTo: string | null };

const STATE_REFUSALS: Record<StateRefusal, (provider: OAuthProvider, other: string | undefined) => DomainError> = {
  unknown: () => invalid('oauth.state_unknown', 'This authorization is unknown. Start connecting the mailbox again.'),
  used: () => invalid('oauth.state_used', 'This authorization was already used (each one works once). Start connecting the mailbox again.'),
  expired: () => invalid('oauth.state_expired', 'This authorization expired (it lasts 10 minutes). Start connecting the mailbox again.'),
  provider: (provider, other) =>
    invalid(
      'oauth.state_provider_mismatch',
      `This authorization was started for ${other && other in LABEL ? LABEL[other as OAuthProvider] : 'another provider'}, not ${LABEL[provider]}. Nothing was connected.`,
    ),
};

/**
 * The callback of an authorization (`GET /oauth/callback/google|microsoft?code&state`, no API
 * key): checks the state and marks it used (one transaction), exchanges the code, and creates
 * the mailbox in the state's workspace or reconnects it (the one the state names, or the
 * workspace's mailbox of that address). Answers what the browser is told; nothing is written
 * when it is refused.
 */
export async function completeOAuthCallback(deps: ServiceDeps, input: { provider: OAuthProvider; search: string }): Promise<OAuthCallbackResult> {
  const { provider } = input;
  const query = new URLSearchParams(input.search);
  const state = query.get('state');
  const refused = (error: DomainError, redirectAfter: string | null = null): OAuthCallbackResult => ({
    outcome: 'refused',
    error,
    redirectTo: redirectAfter ? withQuery(redirectAfter, { status: 'error', error: error.code }) : null,
  });
  if (!state) return refused(invalid('oauth.state_missing', 'The callback carries no state. Start connecting the mailbox again.'));

  const now = deps.ports.clock.now();
  const stateHash = hashOAuthState(state);
  const checked = await deps.db.$transaction(async (tx) => {
    const row = await tx.oAuthState.findUnique({ where: { stateHash } });
    const refusal = stateRefusal(row, { provider, now });
    if (refusal || !row) return { refusal: refusal ?? ('unknown' as const), row };
    // Single use even against a concurrent callback: only one update finds it unused.
    const marked = await tx.oAuthState.updateMany({ where: { stateHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (marked.count !== 1) return { refusal: 'used' as const, row };
    const workspace = await tx.workspace.findUnique({ where: { id: row.workspaceId }, select: { organizationId: true } });
    const key = row.apiKeyId ? await tx.apiKey.findUnique({ where: { id: row.apiKeyId }, select: { revokedAt: true, partnerName: true } }) : null;
    return { refusal: null, row, workspaceOk: workspace?.organizationId === row.organizationId, key };
  });
  if (checked.refusal) {
    // An unknown state, or one of another provider's flow, names no redirect to trust.
    const trusted = checked.refusal === 'used' || checked.refusal === 'expired' ? (checked.row?.redirectAfter ?? null) : null;
    return refused(STATE_REFUSALS[checked.refusal](provider, checked.row?.provider), trusted);
  }
  const row = checked.row;
  const redirectAfter = row.redirectAfter;
  if (!checked.workspaceOk) return refused(notFound('oauth.workspace_gone', 'The workspace this mailbox was being connected to no longer exists.'), redirectAfter);
  if (row.apiKeyId && (!checked.key || checked.key.revokedAt)) {
    return refused(forbidden('oauth.key_revoked', 'The API key that started this authorization was revoked. Nothing was connected.'), redirectAfter);
  }

  const providerError = query.get('error');
  if (providerError) {
    const description = query.get('error_description');
    const denied = providerError === 'access_denied';
    return refused(
      invalid(
        denied ? 'oauth.access_denied' : 'oauth.provider_error',
        denied
          ? `${LABEL[provider]} access was not granted${description ? ` (${description})` : ''}. Nothing was connected.`
          : `${LABEL[provider]} answered ${providerError}${description ? `: ${description}` : ''}. Nothing was connected.`,
      ),
      redirectAfter,
    );
  }
  if (!query.get('code')) return refused(invalid('oauth.code_missing', `${LABEL[provider]} sent no authorization code. Start connecting the mailbox again.`), redirectAfter);

  let grant: OAuthGrant;
  try {
    grant = await deps.ports.oauth.exchangeCode({
      provider,
      callbackUrl: `${oauthCallbackUrl(deps.settings.publicUrl, provider)}?${query}`,
      codeVerifier: deps.secrets.decrypt(row.codeVerifierEnc),
      expectedState: state,
      expectedNonce: row.nonce,
    });
  } catch (error) {
    if (error instanceof OAuthNotConfiguredError) return refused(preconditionFailed('oauth.not_configured', error.message), redirectAfter);
    if (error instanceof OAuthProviderError) {
      deps.log.warn({ provider, code: error.code, err: error }, 'OAuth code exchange failed');
      const message =
        error.code === 'no_email'
          ? `${LABEL[provider]} did not tell which mailbox signed in (no verified address). Nothing was connected.`
          : `${LABEL[provider]} refused to complete the authorization (${error.code}). Start connecting the mailbox again.`;
      return refused(invalid(`oauth.exchange_failed`, message), redirectAfter);
    }
    throw error;
  }

  let servers: ReturnType<typeof oauthMailServers>;
  try {
    servers = oauthMailServers(provider, await readInstallationSettings({ db: deps.db, secrets: deps.secrets, env: deps.settings.installation }));
  } catch (error) {
    const domain = oauthStartError(error);
    if (domain instanceof DomainError) return refused(domain, redirectAfter);
    throw error;
  }
  const emailNormalized = normalizeEmail(grant.email);
  const connection = {
    provider,
    authType: 'XOAUTH2',
    smtpHost: servers.smtp.host,
    smtpPort: servers.smtp.port,
    smtpUsername: grant.email,
    smtpPasswordEnc: '',
    imapHost: servers.imap.host,
    imapPort: servers.imap.port,
    imapUsername: grant.email,
    imapPasswordEnc: '',
    oauthRefreshTokenEnc: deps.secrets.encrypt(grant.refreshToken),
    oauthAccessTokenEnc: deps.secrets.encrypt(grant.accessToken),
    oauthAccessExpiresAt: grant.expiresAt,
    oauthRefreshLeaseUntil: null,
    status: 'ACTIVE' as const,
    lastError: null,
    disconnectReason: null,
    imapFailures: 0,
    imapRetryAt: null,
  };

  try {
    const written = await deps.db.$transaction(async (tx) => {
      const target = row.emailAccountId
        ? await tx.emailAccount.findFirst({ where: { id: row.emailAccountId, workspaceId: row.workspaceId }, select: { id: true, email: true, emailNormalized: true } })
        : await tx.emailAccount.findFirst({ where: { workspaceId: row.workspaceId, emailNormalized }, select: { id: true, email: true, emailNormalized: true } });
      if (row.emailAccountId && !target) throw notFound('oauth.account_gone', 'The mailbox this authorization reconnects was deleted. Nothing was connected.');
      if (target && target.emailNormalized !== emailNormalized) {
        throw conflict(
          'oauth.wrong_mailbox',
          `You signed in as ${grant.email}, but this authorization reconnects ${target.email}. Sign in as ${target.email} and try again; nothing was changed.`,
        );
      }
      let id: string;
      if (target) {
        id = target.id;
        await tx.emailAccount.update({ where: { id }, data: connection });
      } else {
        id = newId();
        await tx.emailAccount.create({
          data: {
            id,
            organizationId: row.organizationId,
            workspaceId: row.workspaceId,
            email: grant.email,
            emailNormalized,
            ...connection,
            ...(checked.key?.partnerName ? { partnerName: checked.key.partnerName } : {}),
          },
        });
      }
      if (checked.key?.partnerName && row.apiKeyId) {
        await recordPartnerActivity({
          db: tx,
          actor: { organizationId: row.organizationId, apiKeyId: row.apiKeyId, workspaceIds: [row.workspaceId], clientGrants: null, partnerName: checked.key.partnerName },
          operation: 'emailAccount.oauthCallback',
          workspaceId: row.workspaceId,
          emailAccountIds: [id],
        });
      }
      return { id, reconnected: target !== null };
    });
    return {
      outcome: 'connected',
      emailAccountId: written.id,
      email: grant.email,
      workspaceId: row.workspaceId,
      reconnected: written.reconnected,
      redirectTo: redirectAfter ? withQuery(redirectAfter, { email_account_id: written.id, status: 'connected' }) : null,
    };
  } catch (error) {
    if (classifyPrismaError(error)?.kind === 'conflict') {
      return refused(conflict('email_account.already_connected', `${grant.email} was connected concurrently. Start again to reconnect it.`), redirectAfter);
    }
    if (error instanceof DomainError) return refused(error, redirectAfter);
    throw error;
  }
}
