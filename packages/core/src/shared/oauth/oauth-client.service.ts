// The port to the OAuth providers (Google, Microsoft): authorization URLs, the code exchange
// and access-token refreshes, all through openid-client (discovery, PKCE, state, nonce and
// ID-token validation are the library's; nothing here handles a token by hand).
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { Clock } from '../ports';
import { systemClock } from '../ports';
import { OAUTH_SCOPES, idTokenIssuerProblem, mailboxAddressFromClaims, type OAuthProvider } from './oauth.rules';

/** What one provider is reached with. */
export interface OAuthProviderConfig {
  /** The issuer whose discovery document is read (`<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Where the client reads a provider's settings at each call; throws OAuthNotConfiguredError when they are missing. */
export type OAuthConfigSource = (provider: OAuthProvider) => Promise<OAuthProviderConfig>;

export interface AuthorizationUrlInput {
  provider: OAuthProvider;
  /** The callback, `<PUBLIC_URL>/oauth/callback/google|microsoft`; registered at the provider. */
  redirectUri: string;
  state: string;
  nonce: string;
  /** The PKCE S256 challenge of the verifier kept for the exchange (`pkceChallenge`). */
  codeChallenge: string;
  /** The mailbox address to preselect (a reconnect). */
  loginHint?: string;
}

export interface ExchangeCodeInput {
  provider: OAuthProvider;
  /** The full URL the provider redirected the browser to (callback with `code` and `state`). */
  callbackUrl: string;
  codeVerifier: string;
  expectedState: string;
  expectedNonce: string;
}

export interface OAuthGrant {
  /** The mailbox address, from the validated ID token. */
  email: string;
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
}

export interface RefreshInput {
  provider: OAuthProvider;
  refreshToken: string;
}

export interface OAuthRefreshed {
  accessToken: string;
  /** Set when the provider rotated the refresh token: store it in place of the old one. */
  refreshToken?: string;
  expiresAt: Date;
}

export interface OAuthClient {
  authorizationUrl(input: AuthorizationUrlInput): Promise<string>;
  exchangeCode(input: ExchangeCodeInput): Promise<OAuthGrant>;
  /** Throws OAuthGrantRevokedError when the grant is gone (revoked, expired), OAuthProviderError otherwise. */
  refresh(input: RefreshInput): Promise<OAuthRefreshed>;
}

export type OAuthRefresh = OAuthClient['refresh'];

/** The installation has no client id / secret for the provider. */
export class OAuthNotConfiguredError extends Error {
  override readonly name = 'OAuthNotConfiguredError';
  constructor(
    readonly provider: OAuthProvider,
    readonly missing: string[],
  ) {
    super(`OAuth for ${provider} is not configured: set ${missing.join(', ')} (environment or \`outreach settings set\`)`);
  }
}

/** The refresh token no longer works (`invalid_grant` and its kin): the mailbox needs a new authorization. */
export class OAuthGrantRevokedError extends Error {
  override readonly name = 'OAuthGrantRevokedError';
  constructor(
    readonly provider: OAuthProvider,
    /** The provider's error code (`invalid_grant`, `interaction_required`, …). */
    readonly code: string,
    readonly description: string | undefined,
  ) {
    super(`the ${provider} grant is revoked or expired (${code}${description ? `: ${description}` : ''})`);
  }
}

/** Any other failure talking to the provider: its error answer, a token that does not validate, the network. */
export class OAuthProviderError extends Error {
  override readonly name = 'OAuthProviderError';
  constructor(
    readonly provider: OAuthProvider,
    /** The provider's OAuth error code (`access_denied`, `invalid_grant`, …) or ours (`invalid_id_token`, `no_email`, `no_refresh_token`, `unreachable`, `insecure_issuer`). */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Provider answers to a refresh that mean the grant itself is gone. */
const GRANT_GONE = new Set(['invalid_grant', 'interaction_required', 'consent_required']);

/** A fresh PKCE pair: keep the verifier (encrypted) for the exchange, send the challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
}

/** A random OpenID nonce. */
export function randomNonce(): string {
  return client.randomNonce();
}

export function createOAuthClient(options: {
  config: OAuthConfigSource;
  /** http:// issuers (a local test provider); only with ALLOW_PRIVATE_TARGETS. */
  allowInsecureHttp: boolean;
  clock?: Clock;
  /** Per request to the provider, in seconds. */
  timeoutSeconds?: number;
}): OAuthClient {
  const clock = options.clock ?? systemClock;
  const timeout = options.timeoutSeconds ?? 15;
  /** Discovery results per provider and credentials: read once, forgotten when the read fails. */
  const configurations = new Map<string, Promise<client.Configuration>>();

  async function configurationFor(provider: OAuthProvider): Promise<client.Configuration> {
    const settings = await options.config(provider);
    const key = [provider, settings.issuer, settings.clientId, createHash('sha256').update(settings.clientSecret).digest('base64url')].join('\n');
    let found = configurations.get(key);
    if (!found) {
      found = discover(provider, settings);
      configurations.set(key, found);
      found.catch(() => configurations.delete(key));
    }
    return found;
  }

  async function discover(provider: OAuthProvider, settings: OAuthProviderConfig): Promise<client.Configuration> {
    let issuer: URL;
    try {
      issuer = new URL(settings.issuer);
    } catch {
      throw new OAuthProviderError(provider, 'insecure_issuer', `the ${provider} issuer ${JSON.stringify(settings.issuer)} is not a URL`);
    }
    const insecure = issuer.protocol === 'http:';
    if (insecure && !options.allowInsecureHttp) {
      throw new OAuthProviderError(provider, 'insecure_issuer', `refused the http:// issuer ${issuer.origin} for ${provider}: only https, unless ALLOW_PRIVATE_TARGETS=true (tests)`);
    }
    if (issuer.protocol !== 'http:' && issuer.protocol !== 'https:') {
      throw new OAuthProviderError(provider, 'insecure_issuer', `the ${provider} issuer must be an https:// URL`);
    }
    try {
      return await client.discovery(issuer, settings.clientId, settings.clientSecret, client.ClientSecretPost(settings.clientSecret), {
        timeout,
        execute: insecure ? [client.allowInsecureRequests] : [],
      });
    } catch (error) {
      throw new OAuthProviderError(provider, 'unreachable', `cannot read the ${provider} OpenID configuration at ${issuer.origin}: ${(error as Error).message}`, { cause: error });
    }
  }

  const expiresAt = (tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers) =>
    new Date(clock.now().getTime() + (tokens.expiresIn() ?? 3600) * 1000);

  return {
    async authorizationUrl(input) {
      const config = await configurationFor(input.provider);
      const parameters: Record<string, string> = {
        response_type: 'code',
        redirect_uri: input.redirectUri,
        scope: OAUTH_SCOPES[input.provider].join(' '),
        state: input.state,
        nonce: input.nonce,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
      };
      if (input.provider === 'GOOGLE_WORKSPACE') {
        // A refresh token on every authorization, not only the first.
        parameters['access_type'] = 'offline';
        parameters['prompt'] = 'consent';
      }
      if (input.loginHint) parameters['login_hint'] = input.loginHint;
      return client.buildAuthorizationUrl(config, parameters).href;
    },

    async exchangeCode(input) {
      const config = await configurationFor(input.provider);
      let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
      try {
        tokens = await client.authorizationCodeGrant(config, new URL(input.callbackUrl), {
          pkceCodeVerifier: input.codeVerifier,
          expectedState: input.expectedState,
          expectedNonce: input.expectedNonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw providerError(input.provider, error);
      }
      const claims = (tokens.claims() ?? {}) as Record<string, unknown>;
      const issuerProblem = idTokenIssuerProblem(config.serverMetadata().issuer, claims);
      if (issuerProblem) throw new OAuthProviderError(input.provider, 'invalid_id_token', issuerProblem);
      const email = mailboxAddressFromClaims(input.provider, claims);
      if (!email) throw new OAuthProviderError(input.provider, 'no_email', 'the ID token names no (verified) mailbox address');
      if (!tokens.refresh_token) {
        throw new OAuthProviderError(input.provider, 'no_refresh_token', 'the provider issued no refresh token (offline access was not granted)');
      }
      return { email, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresAt: expiresAt(tokens) };
    },

    async refresh(input) {
      const config = await configurationFor(input.provider);
      let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
      try {
        tokens = await client.refreshTokenGrant(config, input.refreshToken);
      } catch (error) {
        if (error instanceof client.ResponseBodyError && GRANT_GONE.has(error.error)) {
          throw new OAuthGrantRevokedError(input.provider, error.error, error.error_description);
        }
        throw providerError(input.provider, error);
      }
      return {
        accessToken: tokens.access_token,
        ...(tokens.refresh_token && tokens.refresh_token !== input.refreshToken ? { refreshToken: tokens.refresh_token } : {}),
        expiresAt: expiresAt(tokens),
      };
    },
  };
}

function providerError(provider: OAuthProvider, error: unknown): OAuthProviderError {
  if (error instanceof OAuthProviderError) return error;
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    return new OAuthProviderError(provider, error.error, `${provider} answered ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`, { cause: error });
  }
  const coded = error as { code?: string; message?: string };
  // openid-client's own checks (state, nonce, ID token signature, issuer, audience) carry OAUTH_* codes.
  const code = typeof coded.code === 'string' && /JWT|CLAIM|ID_TOKEN|STATE|NONCE|SIGNATURE/i.test(coded.code) ? 'invalid_id_token' : 'unreachable';
  return new OAuthProviderError(provider, code, `${provider}: ${coded.message ?? String(error)}`, { cause: error });
}
