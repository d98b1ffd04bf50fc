// The OAuth port against a real local OpenID provider: the authorization URL it builds, the code
// exchange (PKCE, state, nonce, ID token), refreshes, and a revoked grant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthProvider, type OAuthTestProvider } from '../../testing/oauth-provider';
import { OAuthGrantRevokedError, OAuthNotConfiguredError, OAuthProviderError, createOAuthClient, pkcePair, randomNonce, type OAuthClient } from './oauth-client.service';
import { oauthProviderConfig } from './oauth-settings';
import type { OAuthProvider } from './oauth.rules';

const redirectUri = 'https://outreach.test/oauth/callback/google';
let provider: OAuthTestProvider;
let oauth: OAuthClient;

beforeAll(async () => {
  provider = await startOAuthProvider();
  oauth = createOAuthClient({
    config: async (p) => oauthProviderConfig(p, { ...provider.settings('GOOGLE_WORKSPACE'), ...provider.settings('MICROSOFT365') }),
    allowInsecureHttp: true,
  });
});
afterAll(() => provider?.stop());

async function authorize(p: OAuthProvider, loginHint?: string) {
  const state = `state-${Math.random()}`;
  const nonce = randomNonce();
  const pkce = await pkcePair();
  const url = await oauth.authorizationUrl({ provider: p, redirectUri, state, nonce, codeChallenge: pkce.challenge, loginHint });
  const callbackUrl = await provider.authorize(url);
  return { url: new URL(url), callbackUrl, state, nonce, verifier: pkce.verifier };
}

describe('the OAuth client', () => {
  it('asks Google for the mail scope with offline access, and exchanges the code for tokens naming the mailbox', async () => {
    provider.signInAs('ann@corp.example');
    const flow = await authorize('GOOGLE_WORKSPACE', 'ann@corp.example');
    const asked = provider.lastAuthorization()!;
    expect(asked.get('scope')).toBe('https://mail.google.com/ openid email profile');
    expect(asked.get('access_type')).toBe('offline');
    expect(asked.get('prompt')).toBe('consent');
    expect(asked.get('login_hint')).toBe('ann@corp.example');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('redirect_uri')).toBe(redirectUri);

    const grant = await oauth.exchangeCode({ provider: 'GOOGLE_WORKSPACE', callbackUrl: flow.callbackUrl, codeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
    expect(grant.email).toBe('ann@corp.example');
    expect(provider.verifyAccessToken(grant.accessToken)).toEqual({ email: 'ann@corp.example' });
    expect(grant.refreshToken).toBeTruthy();
    expect(grant.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('asks Microsoft for SMTP, IMAP and offline access, and reads the address from preferred_username', async () => {
    provider.signInAs({ email: 'other@corp.example', claims: { preferred_username: 'bob@contoso.example', tid: '72f988bf-86f1-41af-91ab-2d7cd011db47' } });
    const flow = await authorize('MICROSOFT365');
    expect(provider.lastAuthorization()!.get('scope')).toBe(
      'https://outlook.office.com/SMTP.Send https://outlook.office.com/IMAP.AccessAsUser.All offline_access openid email profile',
    );
    expect(provider.lastAuthorization()!.get('prompt')).toBeNull();
    const grant = await oauth.exchangeCode({ provider: 'MICROSOFT365', callbackUrl: flow.callbackUrl, codeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
    expect(grant.email).toBe('bob@contoso.example');
  });

  it('refuses a callback whose state or nonce is not the expected one, and a code used twice', async () => {
    provider.signInAs('ann@corp.example');
    const flow = await authorize('GOOGLE_WORKSPACE');
    const exchange = (over: { expectedState?: string; expectedNonce?: string; codeVerifier?: string }) =>
      oauth.exchangeCode({ provider: 'GOOGLE_WORKSPACE', callbackUrl: flow.callbackUrl, codeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, ...over });
    await expect(exchange({ expectedState: 'another' })).rejects.toBeInstanceOf(OAuthProviderError);
    await expect(exchange({ expectedNonce: 'another-nonce' })).rejects.toMatchObject({ code: 'invalid_id_token' });
    // The code went to the provider once above (nonce failed after the exchange): it is spent.
    await expect(exchange({})).rejects.toBeInstanceOf(OAuthProviderError);
  });

  it('refuses a code exchanged with another PKCE verifier', async () => {
    const flow = await authorize('GOOGLE_WORKSPACE');
    const other = await pkcePair();
    await expect(
      oauth.exchangeCode({ provider: 'GOOGLE_WORKSPACE', callbackUrl: flow.callbackUrl, codeVerifier: other.verifier, expectedState: flow.state, expectedNonce: flow.nonce }),
    ).rejects.toBeInstanceOf(OAuthProviderError);
  });

  it('refreshes an access token, and answers OAuthGrantRevokedError once the grant is revoked', async () => {
    provider.signInAs('carol@corp.example');
    const flow = await authorize('GOOGLE_WORKSPACE');
    const grant = await oauth.exchangeCode({ provider: 'GOOGLE_WORKSPACE', callbackUrl: flow.callbackUrl, codeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
    provider.expireAccessTokens();
    expect(provider.verifyAccessToken(grant.accessToken)).toBeNull();

    const refreshed = await oauth.refresh({ provider: 'GOOGLE_WORKSPACE', refreshToken: grant.refreshToken });
    expect(provider.verifyAccessToken(refreshed.accessToken)).toEqual({ email: 'carol@corp.example' });
    expect(refreshed.refreshToken).toBeUndefined();
    expect(provider.refreshCount('carol@corp.example')).toBe(1);

    provider.revokeGrant('carol@corp.example');
    const failure = await oauth.refresh({ provider: 'GOOGLE_WORKSPACE', refreshToken: grant.refreshToken }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OAuthGrantRevokedError);
    expect(failure).toMatchObject({ provider: 'GOOGLE_WORKSPACE', code: 'invalid_grant' });
  });

  it('refuses an http:// issuer unless private targets are allowed, and names the missing settings', async () => {
    const strict = createOAuthClient({ config: async (p) => oauthProviderConfig(p, provider.settings('GOOGLE_WORKSPACE')), allowInsecureHttp: false });
    const refused = await strict.refresh({ provider: 'GOOGLE_WORKSPACE', refreshToken: 'x' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'insecure_issuer' });
    const missing = await strict.refresh({ provider: 'MICROSOFT365', refreshToken: 'x' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OAuthNotConfiguredError);
    expect((missing as Error).message).toContain('MICROSOFT_OAUTH_CLIENT_ID, MICROSOFT_OAUTH_CLIENT_SECRET');
  });

  it('refuses the token endpoint with a wrong client secret', async () => {
    const wrong = createOAuthClient({
      config: async (p) => ({ ...oauthProviderConfig(p, provider.settings('GOOGLE_WORKSPACE')), clientSecret: 'not-the-secret' }),
      allowInsecureHttp: true,
    });
    await expect(wrong.refresh({ provider: 'GOOGLE_WORKSPACE', refreshToken: 'x' })).rejects.toMatchObject({ code: 'invalid_client' });
  });
});
