// A local OAuth 2.0 / OpenID Connect provider for tests (oauth2-mock-server), standing in for
// Google or Microsoft: it signs a user in without a form (signInAs), issues codes, ID tokens with
// that user's claims, access tokens of a chosen lifetime and refresh tokens, checks the client's
// secret, PKCE and single-use codes, and answers what a real provider answers once a grant is
// revoked (`invalid_grant`). Its userinfo endpoint (GET, `Authorization: Bearer`) and
// introspection endpoint answer whether an access token is live, for mail servers validating
// XOAUTH2 tokens against it.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { OAuth2Server, type MutableRedirectUri, type MutableResponse, type MutableToken } from 'oauth2-mock-server';
import type { OAuthProvider } from '../shared/oauth/oauth.rules';
import type { InstallationSettingValues } from '../shared/oauth/oauth-settings';

export interface OAuthTestUser {
  email: string;
  /** Extra ID-token claims (Microsoft's `tid`, `preferred_username`; `email_verified: false`; …). */
  claims?: Record<string, unknown>;
}

export interface OAuthTestProvider {
  /** The issuer URL (`http://127.0.0.1:<port>`). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The installation settings that point `provider` at this server (issuer, client id and secret). */
  settings(provider: OAuthProvider): InstallationSettingValues;
  /** Who the following authorizations sign in as. */
  signInAs(user: string | OAuthTestUser): void;
  /** The next authorization redirects back with `?error=<error>` (default `access_denied`) instead of a code. */
  denyNext(error?: string): void;
  /** Follows an authorization URL as a browser would: answers the callback URL the provider redirects to. */
  authorize(authorizationUrl: string): Promise<string>;
  /** The query of the last authorization request (scope, login_hint, prompt, …). */
  lastAuthorization(): URLSearchParams | null;
  /** Lifetime of the access tokens issued from now on, in seconds (`expires_in` and the JWT's `exp`). */
  setAccessTokenTtl(seconds: number): void;
  /** The user of a live access token this server issued, or null (unknown, expired, revoked). */
  verifyAccessToken(token: string): { email: string } | null;
  /** Every access token issued so far stops being live, as if its lifetime had passed. */
  expireAccessTokens(): void;
  /** Revokes every grant of `email`: its refresh tokens answer `invalid_grant`, its access tokens stop being live. */
  revokeGrant(email: string): void;
  /** Refresh-token grants served (successful ones), of `email` or of everyone. */
  refreshCount(email?: string): number;
  stop(): Promise<void>;
}

interface AccessToken {
  email: string;
  expiresAt: number;
  expired: boolean;
}

export async function startOAuthProvider(options: { accessTokenTtlSeconds?: number; clientId?: string; clientSecret?: string } = {}): Promise<OAuthTestProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = server.issuer.url!.replace(/\/+$/, '');
  const clientId = options.clientId ?? `client-${randomUUID()}`;
  const clientSecret = options.clientSecret ?? `secret-${randomUUID()}`;
  let ttl = options.accessTokenTtlSeconds ?? 3600;
  let user: OAuthTestUser = { email: 'user@example.com' };
  let deny: string | null = null;
  let lastQuery: URLSearchParams | null = null;

  const codeUsers = new Map<string, OAuthTestUser>();
  const pkceCodes = new Set<string>();
  const usedCodes = new Set<string>();
  const refreshUsers = new Map<string, OAuthTestUser>();
  const revokedRefresh = new Set<string>();
  const accessTokens = new Map<string, AccessToken>();
  const refreshes = new Map<string, number>();

  const subOf = (email: string) => `sub-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 16)}`;
  type TokenRequest = IncomingMessage & { body: Record<string, string | undefined> };
  const userOfRequest = (req: TokenRequest): OAuthTestUser | undefined =>
    req.body.grant_type === 'authorization_code' ? codeUsers.get(req.body.code ?? '') : refreshUsers.get(req.body.refresh_token ?? '');

  server.service.on('beforeAuthorizeRedirect', (redirect: MutableRedirectUri, req: IncomingMessage) => {
    const query = new URL(req.url ?? '/', url).searchParams;
    lastQuery = query;
    const code = redirect.url.searchParams.get('code');
    if (deny !== null) {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', deny);
      redirect.url.searchParams.set('error_description', `the user answered ${deny}`);
      deny = null;
      return;
    }
    if (code) {
      codeUsers.set(code, user);
      if (query.get('code_challenge')) pkceCodes.add(code);
    }
  });

  server.service.on('beforeTokenSigning', (token: MutableToken, req: TokenRequest) => {
    const signedIn = userOfRequest(req);
    if (!signedIn) return;
    token.payload['sub'] = subOf(signedIn.email);
    token.payload['email'] = signedIn.email;
    token.payload['email_verified'] = true;
    Object.assign(token.payload, signedIn.claims ?? {});
    if ('scope' in token.payload) token.payload.exp = token.payload.iat + ttl; // the access token
  });

  server.service.on('beforeResponse', (response: MutableResponse, req: TokenRequest) => {
    const body = req.body;
    const refuse = (status: number, error: string, description: string) => {
      response.statusCode = status;
      response.body = { error, error_description: description };
    };
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    const [id, secret] = basic
      ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map((s) => decodeURIComponent(s))
      : [body.client_id, body.client_secret];
    if (id !== clientId || secret !== clientSecret) return refuse(401, 'invalid_client', 'unknown client or wrong secret');
    const signedIn = userOfRequest(req);
    if (body.grant_type === 'authorization_code') {
      const code = body.code ?? '';
      if (!signedIn || usedCodes.has(code)) return refuse(400, 'invalid_grant', 'unknown or used authorization code');
      usedCodes.add(code);
      if (pkceCodes.has(code) && !body.code_verifier) return refuse(400, 'invalid_grant', 'code_verifier required');
    } else if (body.grant_type === 'refresh_token') {
      const token = body.refresh_token ?? '';
      if (!signedIn || revokedRefresh.has(token)) return refuse(400, 'invalid_grant', 'Token has been expired or revoked.');
      refreshes.set(signedIn.email, (refreshes.get(signedIn.email) ?? 0) + 1);
    } else {
      return refuse(400, 'unsupported_grant_type', `${String(body.grant_type)} is not offered`);
    }
    const answer = response.body as Record<string, unknown>;
    answer['expires_in'] = ttl;
    accessTokens.set(String(answer['access_token']), { email: signedIn.email, expiresAt: Date.now() + ttl * 1000, expired: false });
    if (body.grant_type === 'refresh_token') delete answer['refresh_token']; // as Google: the refresh token stays the same
    else refreshUsers.set(String(answer['refresh_token']), signedIn);
  });

  function verifyAccessToken(token: string): { email: string } | null {
    const found = accessTokens.get(token);
    if (!found || found.expired || found.expiresAt <= Date.now()) return null;
    return { email: found.email };
  }
  const bearer = (req: IncomingMessage) => /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];

  server.service.on('beforeUserinfo', (response: MutableResponse, req: IncomingMessage) => {
    const live = verifyAccessToken(bearer(req) ?? '');
    if (!live) {
      response.statusCode = 401;
      response.body = { error: 'invalid_token' };
      return;
    }
    response.body = { sub: subOf(live.email), email: live.email, active: true };
  });

  server.service.on('beforeIntrospect', (response: MutableResponse, req: IncomingMessage & { body?: Record<string, unknown> }) => {
    const token = typeof req.body?.['token'] === 'string' ? req.body['token'] : (bearer(req) ?? '');
    const live = verifyAccessToken(token);
    response.body = live ? { active: true, sub: subOf(live.email), email: live.email, username: live.email } : { active: false };
  });

  const prefixOf = (provider: OAuthProvider) => (provider === 'GOOGLE_WORKSPACE' ? 'GOOGLE' : 'MICROSOFT');

  return {
    url,
    clientId,
    clientSecret,
    settings(provider) {
      const prefix = prefixOf(provider);
      return { [`${prefix}_OAUTH_ISSUER`]: url, [`${prefix}_OAUTH_CLIENT_ID`]: clientId, [`${prefix}_OAUTH_CLIENT_SECRET`]: clientSecret };
    },
    signInAs(next) {
      user = typeof next === 'string' ? { email: next } : next;
    },
    denyNext(error = 'access_denied') {
      deny = error;
    },
    async authorize(authorizationUrl) {
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location) {
        throw new Error(`the test provider answered ${response.status} to the authorization request: ${await response.text()}`);
      }
      return location;
    },
    lastAuthorization: () => lastQuery,
    setAccessTokenTtl(seconds) {
      ttl = seconds;
    },
    verifyAccessToken,
    expireAccessTokens() {
      for (const token of accessTokens.values()) token.expired = true;
    },
    revokeGrant(email) {
      const lower = email.toLowerCase();
      for (const [token, owner] of refreshUsers) if (owner.email.toLowerCase() === lower) revokedRefresh.add(token);
      for (const token of accessTokens.values()) if (token.email.toLowerCase() === lower) token.expired = true;
    },
    refreshCount(email) {
      if (email === undefined) return [...refreshes.values()].reduce((a, b) => a + b, 0);
      return refreshes.get(email) ?? 0;
    },
    stop: () => server.stop(),
  };
}
