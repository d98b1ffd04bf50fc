// Connecting Google and Microsoft mailboxes over OAuth through the real gateway, with a local
// OpenID provider standing in for each: start → the provider's authorization → the callback →
// the mailbox, and every way a callback must be refused without creating anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerKey, removeInstallationSetting, storeInstallationSetting } from '@outreach/core';
import { startOAuthProvider, type OAuthTestProvider } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

let google: OAuthTestProvider;
let microsoft: OAuthTestProvider;
beforeAll(async () => {
  google = await startOAuthProvider();
  microsoft = await startOAuthProvider();
});
afterAll(async () => {
  await google?.stop();
  await microsoft?.stop();
});
// Registered after the providers' hooks: it starts with their addresses and closes first.
const { server, org, foreign } = useTestServer(() => ({
  env: {
    ...google.settings('GOOGLE_WORKSPACE'),
    ...microsoft.settings('MICROSOFT365'),
    GOOGLE_SMTP_SERVER: '127.0.0.1:2465',
    GOOGLE_IMAP_SERVER: '127.0.0.1:2993',
    OAUTH_REDIRECT_ORIGINS: 'https://app.example',
  },
}));

const MS_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

async function start(path: 'google' | 'microsoft', key: string, workspaceId: string, query: Record<string, string> = {}) {
  return server.rest('GET', `/account/oauth/${path}/start`, { key, query: { workspace_id: workspaceId, ...query } });
}

/** Follows an authorization URL at `provider` and then its callback at the gateway (PUBLIC_URL stands for the gateway's address, as behind a proxy). */
async function complete(provider: OAuthTestProvider, authorizationUrl: string, options: { callbackPath?: string } = {}) {
  const location = new URL(await provider.authorize(authorizationUrl));
  const callback = `${server.url}${options.callbackPath ?? location.pathname}${location.search}`;
  const response = await fetch(callback, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), page: await response.text(), callback };
}

const accountsOf = (workspaceId: string) => server.db.prisma.emailAccount.findMany({ where: { workspaceId }, orderBy: { createdAt: 'asc' } });

describe('GET /account/oauth/google/start → the callback', () => {
  it('creates an XOAUTH2 Google Workspace mailbox in the workspace, its tokens encrypted', async () => {
    google.signInAs('ann@corp.example');
    const started = await start('google', org.apiKey, org.workspaceId);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ status: 'success', url: expect.stringMatching(new RegExp(`^${google.url}/authorize\\?`)) });
    const asked = new URL(started.body.url).searchParams;
    expect(asked.get('redirect_uri')).toBe('http://localhost:3000/oauth/callback/google');
    expect(asked.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const done = await complete(google, started.body.url);
    expect(done.status).toBe(200);
    expect(done.page).toContain('Mailbox connected');
    expect(done.page).toContain('ann@corp.example');

    const [account] = await accountsOf(org.workspaceId);
    expect(account).toMatchObject({
      email: 'ann@corp.example',
      provider: 'GOOGLE_WORKSPACE',
      authType: 'XOAUTH2',
      status: 'ACTIVE',
      smtpHost: '127.0.0.1',
      smtpPort: 2465,
      imapHost: '127.0.0.1',
      imapPort: 2993,
      smtpUsername: 'ann@corp.example',
      imapUsername: 'ann@corp.example',
      smtpPasswordEnc: '',
      imapPasswordEnc: '',
      disconnectReason: null,
    });
    // The columns hold ciphertexts of the provider's real tokens, never the tokens.
    const secrets = server.deps.service.secrets;
    const accessToken = secrets.decrypt(account!.oauthAccessTokenEnc!);
    expect(account!.oauthAccessTokenEnc).not.toContain(accessToken);
    expect(google.verifyAccessToken(accessToken)).toEqual({ email: 'ann@corp.example' });
    const refreshToken = secrets.decrypt(account!.oauthRefreshTokenEnc!);
    expect(account!.oauthRefreshTokenEnc).not.toContain(refreshToken);
    const refreshed = await server.deps.service.ports.oauth.refresh({ provider: 'GOOGLE_WORKSPACE', refreshToken });
    expect(google.verifyAccessToken(refreshed.accessToken)).toEqual({ email: 'ann@corp.example' });
    expect(account!.oauthAccessExpiresAt!.getTime()).toBeGreaterThan(Date.now());

    // The API lists it like any mailbox, with its provider.
    const listed = await server.rest('GET', '/account/list', { key: org.apiKey, query: { workspace_id: org.workspaceId, email: 'ann@corp.example' } });
    expect(listed.body.accounts).toEqual([expect.objectContaining({ email: 'ann@corp.example', provider: 'GOOGLE_WORKSPACE', status: 'ACTIVE' })]);
  });

  it('refuses the same callback twice: the state works once', async () => {
    google.signInAs('replay@corp.example');
    const started = await start('google', org.apiKey, org.workspaceId);
    const location = new URL(await google.authorize(started.body.url));
    const first = await fetch(`${server.url}${location.pathname}${location.search}`);
    expect(first.status).toBe(200);
    const again = await fetch(`${server.url}${location.pathname}${location.search}`);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already used');
    expect((await accountsOf(org.workspaceId)).filter((a) => a.email === 'replay@corp.example')).toHaveLength(1);
  });

  it('refuses an unknown or missing state with a 400 page, creating nothing', async () => {
    const before = await server.db.prisma.emailAccount.count();
    const unknown = await fetch(`${server.url}/oauth/callback/google?code=abc&state=${'x'.repeat(43)}`);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toMatch(/text\/html/);
    expect(await unknown.text()).toContain('This authorization is unknown');
    const missing = await fetch(`${server.url}/oauth/callback/microsoft?code=abc`);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('no state');
    expect(await server.db.prisma.emailAccount.count()).toBe(before);
  });

  it('refuses an expired state', async () => {
    google.signInAs('late@corp.example');
    const started = await start('google', org.apiKey, org.workspaceId);
    const stateHash = await stateHashOf(started.body.url);
    await server.db.prisma.oAuthState.update({ where: { stateHash }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const done = await complete(google, started.body.url);
    expect(done.status).toBe(400);
    expect(done.page).toContain('expired');
    expect((await accountsOf(org.workspaceId)).some((a) => a.email === 'late@corp.example')).toBe(false);
  });

  it("refuses a state at another provider's callback, and leaves it usable where it belongs", async () => {
    google.signInAs('crossed@corp.example');
    const started = await start('google', org.apiKey, org.workspaceId);
    const location = new URL(await google.authorize(started.body.url));
    const crossed = await fetch(`${server.url}/oauth/callback/microsoft${location.search}`);
    expect(crossed.status).toBe(400);
    expect(await crossed.text()).toContain('started for Google, not Microsoft 365');
    expect((await accountsOf(org.workspaceId)).some((a) => a.email === 'crossed@corp.example')).toBe(false);

    const right = await fetch(`${server.url}${location.pathname}${location.search}`);
    expect(right.status).toBe(200);
  });

  it('answers a clear 4xx page when the user refuses access at the provider, creating nothing', async () => {
    google.signInAs('refuser@corp.example');
    google.denyNext('access_denied');
    const started = await start('google', org.apiKey, org.workspaceId);
    const done = await complete(google, started.body.url);
    expect(done.status).toBe(400);
    expect(done.page).toContain('Google access was not granted');
    expect((await accountsOf(org.workspaceId)).some((a) => a.email === 'refuser@corp.example')).toBe(false);
    // The state was spent by that answer.
    const stateHash = await stateHashOf(started.body.url);
    expect((await server.db.prisma.oAuthState.findUnique({ where: { stateHash } }))!.usedAt).not.toBeNull();
  });

  it("creates the mailbox in the workspace of the state's flow only, whoever completes it", async () => {
    google.signInAs('theirs@corp.example');
    const started = await start('google', foreign.apiKey, foreign.workspaceId);
    const done = await complete(google, started.body.url);
    expect(done.status).toBe(200);
    expect((await accountsOf(foreign.workspaceId)).map((a) => a.email)).toContain('theirs@corp.example');
    expect((await accountsOf(org.workspaceId)).map((a) => a.email)).not.toContain('theirs@corp.example');
    // And a key cannot start a flow for a workspace it does not reach.
    const refused = await start('google', org.apiKey, foreign.workspaceId);
    expect(refused.status).toBe(403);
  });

  it('refuses a redirect_after outside PUBLIC_URL and OAUTH_REDIRECT_ORIGINS (no open redirect)', async () => {
    for (const target of ['https://evil.example/after', 'javascript:alert(1)', 'https://user:pw@app.example/x', '/relative']) {
      const refused = await start('google', org.apiKey, org.workspaceId, { redirect_after: target });
      expect(refused.status, target).toBe(400);
      expect(refused.body.errors?.[0]?.field ?? refused.body.message, target).toMatch(/redirect_after/);
    }
    expect(await server.rest('GET', '/account/oauth/google/start', { key: org.apiKey, query: { workspace_id: 'nope' } })).toMatchObject({ status: 400 });
  });
});

describe('GET /account/oauth/microsoft/start', () => {
  it('redirects to Microsoft with redirect=true, and sends the browser to redirect_after once connected', async () => {
    microsoft.signInAs({ email: 'bob@contoso.example', claims: { preferred_username: 'bob@contoso.example', tid: MS_TENANT } });
    const query = new URLSearchParams({ workspace_id: org.workspaceId, redirect: 'true', redirect_after: 'https://app.example/mailboxes?tab=oauth' });
    const started = await fetch(`${server.url}/api/v1/account/oauth/microsoft/start?${query}`, { headers: { 'x-api-key': org.apiKey }, redirect: 'manual' });
    expect(started.status).toBe(302);
    const authorizationUrl = started.headers.get('location')!;
    expect(authorizationUrl.startsWith(`${microsoft.url}/authorize?`)).toBe(true);
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe(
      'https://outlook.office.com/SMTP.Send https://outlook.office.com/IMAP.AccessAsUser.All offline_access openid email profile',
    );

    const done = await complete(microsoft, authorizationUrl);
    expect(done.status).toBe(302);
    const after = new URL(done.location!);
    expect(after.origin + after.pathname).toBe('https://app.example/mailboxes');
    expect(after.searchParams.get('tab')).toBe('oauth');
    expect(after.searchParams.get('status')).toBe('connected');
    const account = (await accountsOf(org.workspaceId)).find((a) => a.email === 'bob@contoso.example');
    expect(after.searchParams.get('email_account_id')).toBe(account!.id);
    expect(account).toMatchObject({ provider: 'MICROSOFT365', authType: 'XOAUTH2', smtpHost: 'smtp.office365.com', smtpPort: 587, imapHost: 'outlook.office365.com', imapPort: 993 });
  });

  it('answers the authorization URL on tRPC and GraphQL too', async () => {
    const viaTrpc = await server.trpc(org.apiKey).emailAccount.oauthMicrosoftStart.mutate({ workspace_id: org.workspaceId });
    expect(viaTrpc.url.startsWith(`${microsoft.url}/authorize?`)).toBe(true);
    const viaGraphql = await server.graphql(`mutation($ws: ID!) { startGoogleOAuth(workspaceId: $ws) }`, { key: org.apiKey, variables: { ws: org.workspaceId } });
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(String(viaGraphql.body.data.startGoogleOAuth).startsWith(`${google.url}/authorize?`)).toBe(true);
    const refused = await server.graphql(`mutation($ws: ID!) { startGoogleOAuth(workspaceId: $ws, redirectAfter: "https://evil.example") }`, {
      key: org.apiKey,
      variables: { ws: org.workspaceId },
    });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', domain_code: 'oauth.redirect_not_allowed' });
  });
});

describe('POST /account/bulk-reconnect of XOAUTH2 mailboxes', () => {
  it('answers a fresh authorization URL per mailbox, which reconnects that very mailbox and no other address', async () => {
    google.signInAs('carol@corp.example');
    await complete(google, (await start('google', org.apiKey, org.workspaceId)).body.url);
    const account = (await accountsOf(org.workspaceId)).find((a) => a.email === 'carol@corp.example')!;
    // The grant was revoked: the engine took the mailbox out of rotation.
    await server.db.prisma.emailAccount.update({ where: { id: account.id }, data: { status: 'DISCONNECTED', disconnectReason: 'oauth_revoked', lastError: 'revoked' } });

    const reconnect = async () => {
      const answer = await server.rest('POST', '/account/bulk-reconnect', { key: org.apiKey, body: { workspace_id: org.workspaceId, ids: [account.id] } });
      expect(answer.status).toBe(200);
      expect(answer.body.results).toEqual([{ _id: account.id, id: account.id, email: 'carol@corp.example', status: 'DISCONNECTED', url: expect.any(String) }]);
      return answer.body.results[0].url as string;
    };

    // Signing in as someone else is refused, and changes nothing.
    google.signInAs('mallory@corp.example');
    const wrongUrl = await reconnect();
    expect(new URL(wrongUrl).searchParams.get('login_hint')).toBe('carol@corp.example');
    const wrong = await complete(google, wrongUrl);
    expect(wrong.status).toBe(409);
    expect(wrong.page).toContain('reconnects carol@corp.example');
    expect(await server.db.prisma.emailAccount.findUnique({ where: { id: account.id } })).toMatchObject({ status: 'DISCONNECTED', oauthRefreshTokenEnc: account.oauthRefreshTokenEnc });
    expect((await accountsOf(org.workspaceId)).some((a) => a.email === 'mallory@corp.example')).toBe(false);

    google.signInAs('Carol@corp.example');
    const done = await complete(google, await reconnect());
    expect(done.status).toBe(200);
    expect(done.page).toContain('reconnected');
    const after = await server.db.prisma.emailAccount.findUnique({ where: { id: account.id } });
    expect(after).toMatchObject({ status: 'ACTIVE', disconnectReason: null, lastError: null, email: 'carol@corp.example' });
    expect(after!.oauthRefreshTokenEnc).not.toBe(account.oauthRefreshTokenEnc);
    expect(google.verifyAccessToken(server.deps.service.secrets.decrypt(after!.oauthAccessTokenEnc!))).toEqual({ email: 'Carol@corp.example' });
    expect((await accountsOf(org.workspaceId)).filter((a) => a.email.toLowerCase() === 'carol@corp.example')).toHaveLength(1);
  });
});

describe('settings stored with `outreach settings set`', () => {
  it('are used when the environment does not set them, stored encrypted; the environment wins', async () => {
    const store = { db: server.db.prisma, secrets: server.deps.service.secrets };
    try {
      await storeInstallationSetting({ ...store, key: 'MICROSOFT_SMTP_SERVER', value: '127.0.0.1:2587' });
      await storeInstallationSetting({ ...store, key: 'GOOGLE_OAUTH_CLIENT_ID', value: 'stored-client-id' });
      const raw = await server.db.prisma.installationSetting.findUnique({ where: { key: 'MICROSOFT_SMTP_SERVER' } });
      expect(raw!.valueEnc).not.toContain('127.0.0.1');

      // Not in the environment: the stored value.
      microsoft.signInAs({ email: 'stored@contoso.example', claims: { tid: MS_TENANT } });
      await complete(microsoft, (await start('microsoft', org.apiKey, org.workspaceId)).body.url);
      expect((await accountsOf(org.workspaceId)).find((a) => a.email === 'stored@contoso.example')).toMatchObject({ smtpHost: '127.0.0.1', smtpPort: 2587 });
      // In the environment too: the environment's.
      const started = await start('google', org.apiKey, org.workspaceId);
      expect(new URL(started.body.url).searchParams.get('client_id')).toBe(google.clientId);
    } finally {
      // The suite's database is shared with other files, whose servers have other keys.
      await removeInstallationSetting({ db: server.db.prisma, key: 'MICROSOFT_SMTP_SERVER' });
      await removeInstallationSetting({ db: server.db.prisma, key: 'GOOGLE_OAUTH_CLIENT_ID' });
    }
  });
});

/** The stored hash of the state an authorization URL carries. */
async function stateHashOf(authorizationUrl: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(new URL(authorizationUrl).searchParams.get('state')!).digest('base64url');
}

describe('the OAuth starts with a partner key', () => {
  it('a partner starts the flow on REST, tRPC and GraphQL in a workspace that granted it; the mailbox records the partner; an ungranted workspace is 403', async () => {
    const partner = await createPartnerKey({ db: server.db.prisma, organizationId: org.organizationId, name: 'MailForge', workspaceIds: [org.workspaceId] });
    google.signInAs('partnered@corp.example');
    const started = await start('google', partner.apiKey, org.workspaceId);
    expect(started.status).toBe(200);
    const viaTrpc = await server.trpc(partner.apiKey).emailAccount.oauthMicrosoftStart.mutate({ workspace_id: org.workspaceId });
    expect(viaTrpc.url).toMatch(new RegExp(`^${microsoft.url}/authorize\\?`));
    const viaGraphql = await server.graphql(`mutation($ws: ID!) { startGoogleOAuth(workspaceId: $ws) }`, { key: partner.apiKey, variables: { ws: org.workspaceId } });
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data.startGoogleOAuth).toMatch(new RegExp(`^${google.url}/authorize\\?`));

    const done = await complete(google, started.body.url);
    expect(done.status).toBe(200);
    const account = await server.db.prisma.emailAccount.findFirstOrThrow({ where: { workspaceId: org.workspaceId, email: 'partnered@corp.example' } });
    expect(account).toMatchObject({ authType: 'XOAUTH2', partnerName: 'MailForge' });
    const activity = await server.db.prisma.partnerActivity.findMany({ where: { apiKeyId: partner.id }, orderBy: { occurredAt: 'asc' } });
    expect(activity.map((a) => a.operation)).toEqual(expect.arrayContaining(['emailAccount.oauthGoogleStart', 'emailAccount.oauthMicrosoftStart', 'emailAccount.oauthCallback']));
    expect(activity.find((a) => a.operation === 'emailAccount.oauthCallback')).toMatchObject({ partnerName: 'MailForge', emailAccountId: account.id });

    const other = await server.rest('POST', '/workspaces/add', { key: org.apiKey, body: { workspace_name: 'Not granted' } });
    const refused = await start('google', partner.apiKey, other.body._id);
    expect(refused.status).toBe(403);
  });
});
