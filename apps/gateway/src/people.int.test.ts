import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createSetupLink } from '@outreach/core';
import { createTRPCClient, httpLink } from '@trpc/client';
import { useTestServer } from './testing/suite';
import { trpcFailure } from './testing/test-server';
import type { AppRouter } from './trpc/router';

/** Everything the server logs, at debug level: no session or setup token may be in it. */
const logged: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logged.push(String(chunk));
    done();
  },
});
const { server, org } = useTestServer({ log: pino({ level: 'debug' }, sink) });

const VIEWER = 'person { id email name role createdAt } organizationId organizationName csrfToken workspaces { id name }';
let addresses = 0;
/** A client address of its own (the app trusts x-forwarded-for from loopback): each test keeps its own failure budget. */
const freshAddress = () => `198.51.100.${100 + ++addresses}`;

/** A browser: keeps the session cookie, sends the CSRF token it was given when asked to. */
function browser(address = freshAddress()) {
  let cookie: string | undefined;
  let csrf: string | undefined;
  const headers = (withCsrf: boolean): Record<string, string> => ({
    'x-forwarded-for': address,
    ...(cookie ? { cookie } : {}),
    ...(withCsrf && csrf ? { 'x-csrf-token': csrf } : {}),
  });
  const remember = (response: Response) => {
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!.endsWith('=') ? undefined : set.split(';')[0];
    return set;
  };
  return {
    get cookie() {
      return cookie;
    },
    set cookie(value) {
      cookie = value;
    },
    get csrf() {
      return csrf;
    },
    async graphql(query: string, variables: Record<string, unknown> = {}, options: { csrf?: boolean } = {}) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers(options.csrf ?? true) },
        body: JSON.stringify({ query, variables }),
      });
      const setCookie = remember(response);
      const body = (await response.json()) as any;
      const viewer = body.data && Object.values(body.data).find((v: any) => v?.csrfToken) as any;
      if (viewer) csrf = viewer.csrfToken;
      return { status: response.status, body, setCookie, retryAfter: response.headers.get('retry-after') };
    },
    rest(method: string, path: string, body?: unknown, options: { csrf?: boolean; query?: Record<string, string> } = {}) {
      return server.rest(method, path, { body, query: options.query, headers: headers(options.csrf ?? true) });
    },
    trpc(options: { csrf?: boolean } = {}) {
      return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc`, headers: () => headers(options.csrf ?? true) })] });
    },
  };
}

async function setUpOwner(b = browser(), organizationId?: string) {
  const setup = await createSetupLink({ db: server.db.prisma, publicUrl: 'http://localhost', organizationId });
  const token = new URL(setup.link).hash.replace('#token=', '');
  const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
  const answer = await b.graphql(
    `mutation($token: String!, $email: String!) { setUpOwner(token: $token, email: $email, name: "Olga Owner", password: "correct horse battery", organizationName: "Acme") { ${VIEWER} } }`,
    { token, email: email.toUpperCase() },
  );
  return { browser: b, answer, email, token, link: setup.link };
}

async function invite(options: { key: string; workspaceId: string; email: string; role: string }) {
  const invited = await server.rest('POST', '/workspaces/invite-user', { key: options.key, body: { workspace_id: options.workspaceId, email: options.email, role: options.role } });
  expect(invited.status).toBe(200);
  return invited.body.token as string;
}

describe('the owner\'s set-up link', () => {
  it('creates the organization and the owner, and signs them in with an HttpOnly, SameSite=Lax cookie', async () => {
    const { browser: b, answer, email, token } = await setUpOwner();
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.setUpOwner).toMatchObject({ person: { email, name: 'Olga Owner', role: 'OWNER' }, organizationName: 'Acme', csrfToken: expect.any(String), workspaces: [{ name: 'Default workspace' }] });
    const cookie = answer.setCookie!;
    expect(cookie).toMatch(/^outreach_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure'); // PUBLIC_URL is http here
    expect(JSON.stringify(answer.body)).not.toContain(b.cookie!.split('=')[1]);

    // The cookie alone works for queries: the new organization's first workspace.
    const workspaces = await b.graphql('{ workspaces { id name } viewer { person { email } } people { email role } }');
    expect(workspaces.body.data.workspaces).toEqual([{ id: expect.any(String), name: 'Default workspace' }]);
    expect(workspaces.body.data.viewer.person.email).toBe(email);
    expect(workspaces.body.data.people).toEqual([{ email, role: 'OWNER' }]);

    // The link works once.
    const again = await browser().graphql(`mutation { setUpOwner(token: "${token}", email: "other@example.com", name: "X", password: "correct horse battery", organizationName: "Y") { csrfToken } }`);
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', domain_code: 'people.invalid_setup_token', errors: [{ field: 'token', message: 'is invalid, expired or already used' }] });
  });

  it('names the field of a bad input, and joins an existing organization when the link names one', async () => {
    const short = await browser().graphql('mutation { setUpOwner(token: "t", email: "not-an-address", name: "X", password: "short", organizationName: "Y") { csrfToken } }');
    expect(short.body.errors[0].extensions.errors).toEqual(expect.arrayContaining([
      { field: 'email', message: 'must be a valid e-mail address' },
      { field: 'password', message: 'must be at least 10 characters' },
    ]));
    const { answer } = await setUpOwner(browser(), org.organizationId);
    expect(answer.body.data.setUpOwner).toMatchObject({ organizationId: org.organizationId, organizationName: 'Acme' });
  });

  it('viewer is null without a session, and answers without credentials', async () => {
    const anonymous = await browser().graphql('{ viewer { csrfToken } }');
    expect(anonymous).toMatchObject({ status: 200, body: { data: { viewer: null } } });
    const stale = browser();
    stale.cookie = `outreach_session=${'A'.repeat(43)}`;
    expect((await stale.graphql('{ viewer { csrfToken } }')).body.data.viewer).toBeNull();
    expect((await stale.graphql('{ workspaces { id } }')).body.errors[0].extensions.domain_code).toBe('auth.invalid_session');
  });
});

describe('CSRF', () => {
  it('refuses a cookie-authenticated write without the session\'s token on every transport, and writes nothing', async () => {
    const { browser: b } = await setUpOwner();
    const [ws] = (await b.graphql('{ workspaces { id } }')).body.data.workspaces;
    const count = () => server.db.prisma.workspace.count({ where: { id: { not: ws.id }, organization: { workspaces: { some: { id: ws.id } } } } });

    const gql = await b.graphql('mutation { createWorkspace(name: "Sneaky") { id } }', {}, { csrf: false });
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', domain_code: 'auth.csrf_failed' });
    const rest = await b.rest('POST', '/workspaces/add', { workspace_name: 'Sneaky' }, { csrf: false });
    expect(rest).toMatchObject({ status: 403, body: { code: 'auth.csrf_failed' } });
    expect(await trpcFailure(() => b.trpc({ csrf: false }).workspace.create.mutate({ workspace_name: 'Sneaky' }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await count()).toBe(0);

    // With the token, the same writes go through; reads never need it.
    expect((await b.graphql('mutation { createWorkspace(name: "Second") { id } }')).body.data.createWorkspace.id).toMatch(/^[0-9a-f]{24}$/);
    expect((await b.rest('POST', '/workspaces/add', { workspace_name: 'Third' })).status).toBe(200);
    expect((await b.rest('GET', '/workspaces', undefined, { csrf: false })).body.workspaces).toHaveLength(3);
    expect((await b.trpc({ csrf: false }).people.list.query({})).people).toHaveLength(1);
    expect(await count()).toBe(2);
  });

  it('does not apply to API keys, which win over a cookie', async () => {
    const { browser: b } = await setUpOwner();
    const answer = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: b.cookie!, 'x-api-key': org.apiKey },
      body: JSON.stringify({ query: '{ workspaces { id } viewer { csrfToken } }' }),
    });
    const body = (await answer.json()) as any;
    expect(body.data.workspaces.map((w: { id: string }) => w.id)).toContain(org.workspaceId);
    expect(body.data.viewer).toBeNull();
  });
});

describe('signing in', () => {
  it('answers one generic error for a wrong password and an unknown address, and 429 with Retry-After on the 11th failure', async () => {
    const { email } = await setUpOwner();
    const b = browser();
    const signIn = (address: string, password: string) =>
      b.graphql('mutation($email: String!, $password: String!) { signIn(email: $email, password: $password) { csrfToken } }', { email: address, password });
    const wrong = await signIn(email, 'not the password');
    const unknown = await signIn('nobody@example.com', 'not the password');
    for (const failed of [wrong, unknown]) {
      expect(failed.setCookie).toBeNull();
      expect(failed.body.errors[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', domain_code: 'people.invalid_credentials' });
    }
    expect(wrong.body.errors[0].message).toBe(unknown.body.errors[0].message);
    for (let n = 2; n <= 10; n++) expect((await signIn(email, `wrong ${n}`)).body.errors[0].extensions.domain_code).toBe('people.invalid_credentials');
    // The 11th attempt is refused before the password is checked, even the right one.
    const refused = await signIn(email.toUpperCase(), 'correct horse battery');
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', domain_code: 'people.too_many_failures' });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.setCookie).toBeNull();
    // Another address of the same person's organization is not affected.
    expect((await signIn('nobody-else@example.com', 'x')).body.errors[0].extensions.domain_code).toBe('people.invalid_credentials');
  });

  it('signs in with the right password; signing out everywhere ends the other sessions at once', async () => {
    const { email, browser: first } = await setUpOwner();
    const second = browser();
    const signedIn = await second.graphql(`mutation { signIn(email: "${email}", password: "correct horse battery") { ${VIEWER} } }`);
    expect(signedIn.body.data.signIn.person.email).toBe(email);
    expect(second.cookie).not.toBe(first.cookie);
    expect((await second.graphql('{ workspaces { id } }')).body.data.workspaces).toHaveLength(1);

    const out = await first.graphql('mutation { signOutEverywhere }');
    expect(out.body.data.signOutEverywhere).toBe(true);
    expect(out.setCookie).toMatch(/^outreach_session=; .*Max-Age=0/);
    const ended = await second.graphql('{ workspaces { id } }');
    expect(ended.status).toBe(401);
    expect(ended.body.errors[0].extensions.domain_code).toBe('auth.invalid_session');
    expect((await second.graphql('{ viewer { csrfToken } }')).body.data.viewer).toBeNull();

    // signOut ends only its own session.
    const third = browser();
    const fourth = browser();
    await third.graphql(`mutation { signIn(email: "${email}", password: "correct horse battery") { csrfToken } }`);
    await fourth.graphql(`mutation { signIn(email: "${email}", password: "correct horse battery") { csrfToken } }`);
    const cookie = third.cookie;
    expect((await third.graphql('mutation { signOut }')).body.data.signOut).toBe(true);
    third.cookie = cookie;
    expect((await third.graphql('{ workspaces { id } }')).status).toBe(401);
    expect((await fourth.graphql('{ workspaces { id } }')).status).toBe(200);
  });
});

describe('roles', () => {
  it('a READ_ONLY person reads their workspace, and no write runs on GraphQL, tRPC or REST', async () => {
    const { browser: owner } = await setUpOwner();
    const [ws] = (await owner.graphql('{ workspaces { id } }')).body.data.workspaces;
    const second = (await owner.graphql('mutation { createWorkspace(name: "Not theirs") { id } }')).body.data.createWorkspace.id;
    // Neither a key nor a cookie: 401, as ever.
    expect((await server.rest('POST', '/workspaces/invite-user', { body: {} })).status).toBe(401);
    const invited = await owner.rest('POST', '/workspaces/invite-user', { workspace_id: ws.id, email: 'Reader@Example.com', role: 'read-only' });
    expect(invited.status).toBe(200);

    const reader = browser();
    const accepted = await reader.graphql(`mutation($t: String!) { acceptInvitation(token: $t, name: "Rita Reader", password: "reading is fun") { ${VIEWER} } }`, { t: invited.body.token });
    expect(accepted.body.data.acceptInvitation.person).toMatchObject({ email: 'reader@example.com', name: 'Rita Reader', role: 'READ_ONLY' });
    // The answer's workspaces are the ones the person now signed in reaches (not the caller's before: nobody).
    expect(accepted.body.data.acceptInvitation.workspaces).toEqual([{ id: ws.id, name: 'Default workspace' }]);
    expect((await reader.graphql('{ workspaces { id } viewer { workspaces { id } } }')).body.data).toEqual({ workspaces: [{ id: ws.id }], viewer: { workspaces: [{ id: ws.id }] } });
    expect((await reader.graphql(`{ workspace(id: "${second}") { id } }`)).body.errors[0].extensions.code).toBe('FORBIDDEN');

    const gql = await reader.graphql(`mutation { createTag(workspaceId: "${ws.id}", name: "nope", color: "#000") { id } }`);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', domain_code: 'auth.role_forbidden' });
    expect(gql.body.errors[0].message).toMatch(/READ_ONLY.*tag\.create/);
    expect(await trpcFailure(() => reader.trpc().tag.create.mutate({ workspace_id: ws.id, name: 'nope', color: '#000' } as never))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await reader.rest('POST', '/tags/create', { workspace_id: ws.id, name: 'nope', color: '#000' })).toMatchObject({ status: 403, body: { code: 'auth.role_forbidden' } });
    expect(await server.db.prisma.tag.count({ where: { workspaceId: ws.id } })).toBe(0);
    // Reading is fine, and so is signing out.
    expect((await reader.rest('GET', '/tags/list', undefined, { csrf: false, query: { workspace_id: ws.id } })).status).toBe(200);
    expect((await reader.graphql('mutation { signOut }')).body.data.signOut).toBe(true);

    // An invitation accepted through the API issues a key carrying the role.
    const viaApi = await owner.rest('POST', '/workspaces/invite-user', { workspace_id: ws.id, email: 'reader-key@example.com', role: 'READ_ONLY' });
    const key = (await server.rest('POST', '/workspaces/accept-invite', { body: { token: viaApi.body.token } })).body.api_key as string;
    expect((await server.rest('GET', '/tags/list', { key, query: { workspace_id: ws.id } })).status).toBe(200);
    expect(await server.rest('POST', '/tags/create', { key, body: { workspace_id: ws.id, name: 'nope', color: '#000' } })).toMatchObject({ status: 403, body: { code: 'auth.role_forbidden' } });
    expect(await trpcFailure(() => server.trpc(key).tag.create.mutate({ workspace_id: ws.id, name: 'nope', color: '#000' } as never))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await server.graphql(`mutation { createTag(workspaceId: "${ws.id}", name: "nope", color: "#000") { id } }`, { key })).body.errors[0].extensions.domain_code).toBe('auth.role_forbidden');
  });

  it('a MEMBER runs day-to-day writes but no admin operation; only owners touch owners; the last owner stays', async () => {
    const { browser: owner, answer } = await setUpOwner();
    const ownerId = answer.body.data.setUpOwner.person.id;
    const [ws] = (await owner.graphql('{ workspaces { id } }')).body.data.workspaces;
    const memberToken = (await owner.rest('POST', '/workspaces/invite-user', { workspace_id: ws.id, email: 'member@example.net', role: 'MEMBER' })).body.token;
    const adminToken = (await owner.rest('POST', '/workspaces/invite-user', { workspace_id: ws.id, email: 'admin@example.net', role: 'ADMIN' })).body.token;
    const member = browser();
    const admin = browser();
    const memberId = (await member.graphql(`mutation { acceptInvitation(token: "${memberToken}", name: "Max", password: "member password") { ${VIEWER} } }`)).body.data.acceptInvitation.person.id;
    await admin.graphql(`mutation { acceptInvitation(token: "${adminToken}", name: "Ada", password: "admin password") { ${VIEWER} } }`);

    expect((await member.graphql(`mutation { createTag(workspaceId: "${ws.id}", name: "ok", color: "#000") { id } }`)).body.data.createTag.id).toBeTruthy();
    const workspace = await member.graphql('mutation { createWorkspace(name: "Mine") { id } }');
    expect(workspace.body.errors[0].extensions.domain_code).toBe('auth.role_forbidden');
    // Refused before the input is read.
    expect(await member.rest('POST', '/hook/add', {})).toMatchObject({ status: 403, body: { code: 'auth.role_forbidden' } });
    expect((await member.graphql(`mutation { changePersonRole(id: "${memberId}", role: ADMIN) { role } }`)).body.errors[0].extensions.domain_code).toBe('auth.role_forbidden');

    // An admin manages members, but not owners.
    expect((await admin.graphql(`mutation { changePersonRole(id: "${memberId}", role: READ_ONLY) { role } }`)).body.data.changePersonRole.role).toBe('READ_ONLY');
    expect((await member.graphql(`mutation { createTag(workspaceId: "${ws.id}", name: "again", color: "#000") { id } }`)).body.errors[0].extensions.domain_code).toBe('auth.role_forbidden');
    expect((await admin.graphql(`mutation { removePerson(id: "${ownerId}") }`)).body.errors[0].extensions.domain_code).toBe('people.owner_required');
    expect((await admin.graphql(`mutation { changePersonRole(id: "${memberId}", role: OWNER) { role } }`)).body.errors[0].extensions.domain_code).toBe('people.owner_required');
    // The last owner can be neither demoted nor removed, even by themselves.
    expect((await owner.graphql(`mutation { changePersonRole(id: "${ownerId}", role: ADMIN) { role } }`)).body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', domain_code: 'people.last_owner' });
    expect((await owner.graphql(`mutation { removePerson(id: "${ownerId}") }`)).body.errors[0].extensions.domain_code).toBe('people.last_owner');
    // Removing a person ends their sessions at once.
    expect((await owner.graphql(`mutation { removePerson(id: "${memberId}") }`)).body.data.removePerson).toBe(true);
    expect((await member.graphql('{ workspaces { id } }')).status).toBe(401);
    expect((await owner.graphql('{ people { email role } }')).body.data.people.map((p: { role: string }) => p.role).sort()).toEqual(['ADMIN', 'OWNER']);
  });

  it('a person invited to a second workspace gives their own password and keeps their role', async () => {
    const { browser: owner, email: ownerEmail } = await setUpOwner();
    const [ws] = (await owner.graphql('{ workspaces { id } }')).body.data.workspaces;
    const second = (await owner.graphql('mutation { createWorkspace(name: "Two") { id } }')).body.data.createWorkspace.id;
    const t1 = (await owner.rest('POST', '/workspaces/invite-user', { workspace_id: ws.id, email: 'two@example.org', role: 'MEMBER' })).body.token;
    const t2 = (await owner.rest('POST', '/workspaces/invite-user', { workspace_id: second, email: 'two@example.org', role: 'READ_ONLY' })).body.token;
    const b = browser();
    await b.graphql(`mutation { acceptInvitation(token: "${t1}", name: "Two", password: "first password") { csrfToken } }`);
    const wrong = await b.graphql(`mutation { acceptInvitation(token: "${t2}", name: "Two", password: "not my password") { csrfToken } }`);
    expect(wrong.body.errors[0].extensions.domain_code).toBe('people.invalid_credentials');
    const right = await b.graphql(`mutation { acceptInvitation(token: "${t2}", name: "Ignored", password: "first password") { ${VIEWER} } }`);
    expect(right.body.data.acceptInvitation.person).toMatchObject({ name: 'Two', role: 'MEMBER' });
    expect((await b.graphql('{ workspaces { id } }')).body.data.workspaces.map((w: { id: string }) => w.id).sort()).toEqual([ws.id, second].sort());
    // An address of another organization's person cannot be invited in as a person here.
    const t3 = await invite({ key: org.apiKey, workspaceId: org.workspaceId, email: ownerEmail, role: 'MEMBER' });
    const taken = await browser().graphql(`mutation { acceptInvitation(token: "${t3}", name: "X", password: "whatever password") { csrfToken } }`);
    expect(taken.body.errors[0].extensions.domain_code).toBe('people.other_organization');
  });
});

describe('logs', () => {
  it('never hold a session token, a CSRF token or a setup token', async () => {
    const { browser: b, token } = await setUpOwner();
    await b.graphql('{ workspaces { id } }');
    await b.rest('GET', '/workspaces');
    const session = b.cookie!.split('=')[1]!;
    const all = logged.join('');
    expect(all.length).toBeGreaterThan(0);
    for (const secret of [session, b.csrf!, token]) expect(all).not.toContain(secret);
  });
});
