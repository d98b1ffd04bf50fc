// Partner access (email-infrastructure providers) through REST, tRPC and GraphQL: partner keys
// issued by the organization, the partner operations, and the 403 on everything else. Uploads
// run against a real SMTP server and a real Dovecot on loopback; the CLI as a child process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { createPartnerKey, operations, type Operation } from '@outreach/core';
import { createTestMailbox, imapServerUnavailable, startImapServer, startSmtpServer, type ImapTestServer, type SmtpTestServer } from '@outreach/core/testing';
import { addWorkspace, useTestServer } from './testing/suite';
import { trpcFailure } from './testing/test-server';
import { compiledEntry } from './testing/compiled';
import { routes } from './rest/routes';
import { schema } from './graphql/schema';

const missing = imapServerUnavailable();
if (missing) console.warn(missing);

let smtp: SmtpTestServer;
let imap: ImapTestServer;
const USERS = { 'rest@out.test': 'rest-secret', 'trpc@out.test': 'trpc-secret', 'gql@out.test': 'gql-secret' };

beforeAll(async () => {
  if (missing) return;
  smtp = await startSmtpServer({ users: USERS });
  imap = await startImapServer({ users: USERS });
}, 30_000);
afterAll(async () => {
  await smtp?.close();
  await imap?.close();
});
// Registered after the mail servers' hooks, so the app closes before them. The sweeps below make
// a few hundred calls with one key: a burst that large.
const { server, org, foreign } = useTestServer({ env: { RATE_LIMIT_BURST: '5000' } });

let ws: string;
let ws2: string;
beforeAll(async () => {
  ws = org.workspaceId;
  ws2 = await addWorkspace(server, org.apiKey, 'Not granted');
});

/** A partner key of `organizationId` granted `workspaceIds` (the CLI's and the REST operation's core function). */
const partnerKey = async (organizationId: string, name: string, workspaceIds: string[]) =>
  (await createPartnerKey({ db: server.db.prisma, organizationId, name, workspaceIds })).apiKey;
const partnerKeyWithId = (organizationId: string, name: string, workspaceIds: string[]) => createPartnerKey({ db: server.db.prisma, organizationId, name, workspaceIds });

function account(email: keyof typeof USERS, overrides: Record<string, unknown> = {}) {
  return {
    email,
    smtp_host: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_username: email,
    smtp_password: USERS[email],
    imap_host: '127.0.0.1',
    imap_port: imap.port,
    imap_username: email,
    imap_password: USERS[email],
    ...overrides,
  };
}

const gqlAccount = (a: ReturnType<typeof account>) => ({
  email: a.email,
  smtpHost: a.smtp_host,
  smtpPort: a.smtp_port,
  smtpUsername: a.smtp_username,
  smtpPassword: a.smtp_password,
  imapHost: a.imap_host,
  imapPort: a.imap_port,
  imapUsername: a.imap_username,
  imapPassword: a.imap_password,
});

describe('partner keys over REST', () => {
  it('an organization admin issues, lists, grants, withdraws and revokes them; the key is shown once', async () => {
    const created = await server.rest('POST', '/partner/keys', { key: org.apiKey, body: { name: 'Mailforge', workspace_ids: [ws] } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', partner_key_id: expect.stringMatching(/^[0-9a-f]{24}$/), api_key: expect.stringMatching(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/), name: 'Mailforge', workspace_ids: [ws] });
    const { partner_key_id: id, api_key: key } = created.body;

    const listed = await server.rest('GET', '/partner/keys', { key: org.apiKey });
    expect(listed.body.partner_keys).toEqual([{ partner_key_id: id, name: 'Mailforge', key_prefix: key.slice(0, 8), workspace_ids: [ws], created_at: expect.any(String), revoked_at: null }]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect((await server.db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).keyHash).not.toContain(key.replace(/-/g, ''));

    const workspacesOf = async () => (await server.rest('GET', '/partner/workspaces', { key })).body.workspaces?.map((w: { _id: string }) => w._id);
    expect(await workspacesOf()).toEqual([ws]);
    expect((await server.rest('POST', '/partner/grants', { key: org.apiKey, body: { partner_key_id: id, workspace_id: ws2 } })).body).toEqual({ status: 'success' });
    // Keys are looked up with a 5 s cache: this process drops it, as it would see the change within 5 s.
    server.deps.authenticator.invalidate();
    expect(await workspacesOf()).toEqual([ws, ws2]);
    expect((await server.rest('DELETE', '/partner/grants', { key: org.apiKey, body: { partner_key_id: id, workspace_id: ws } })).body).toEqual({ status: 'success' });
    server.deps.authenticator.invalidate();
    expect(await workspacesOf()).toEqual([ws2]);

    // Bad bodies name the field; a foreign workspace is 403; only an organization key manages partner keys.
    const noName = await server.rest('POST', '/partner/keys', { key: org.apiKey, body: { workspace_ids: [ws] } });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ status: 'error', errors: [{ field: 'name', message: 'is required' }] });
    const foreignGrant = await server.rest('POST', '/partner/grants', { key: org.apiKey, body: { partner_key_id: id, workspace_id: foreign.workspaceId } });
    expect(foreignGrant.status).toBe(403);
    const byPartner = await server.rest('POST', '/partner/keys', { key, body: { name: 'Sneaky' } });
    expect(byPartner.status).toBe(403);
    expect(byPartner.body).toMatchObject({ status: 'error', code: 'auth.partner_forbidden' });
    const otherAdmin = await server.rest('DELETE', '/partner/keys', { key: foreign.apiKey, body: { partner_key_id: id } });
    expect(otherAdmin.status).toBe(404);

    expect((await server.rest('DELETE', '/partner/keys', { key: org.apiKey, body: { partner_key_id: id } })).body).toEqual({ status: 'success' });
    server.deps.authenticator.invalidate();
    expect((await server.rest('GET', '/partner/workspaces', { key })).status).toBe(401);
  });

  it('the organization\'s own keys do not call the partner operations', async () => {
    for (const [method, path, input] of [
      ['GET', '/partner/workspaces', {}],
      ['GET', '/partner/account/list', { workspace_id: ws }],
      ['GET', '/partner/account/exists', { email: 'a@out.test' }],
      ['POST', '/account/partner-upload-regular-accounts', { workspace_id: ws, provider_id: 'p', accounts: [] }],
    ] as const) {
      const answer = await server.rest(method, path, { key: org.apiKey, ...(method === 'GET' ? { query: input as Record<string, string> } : { body: input }) });
      expect(answer.status, path).toBe(403);
      expect(answer.body).toEqual({ status: 'error', code: 'auth.partner_key_required', message: expect.stringContaining('partner API key') });
    }
  });
});

describe.skipIf(missing !== null)('the partner operations on REST, tRPC and GraphQL', () => {
  it('uploads, lists and checks mailboxes in granted workspaces only, each call recorded', async () => {
    const { apiKey: key, id: keyId } = await partnerKeyWithId(org.organizationId, 'Mailforge', [ws]);

    // Upload: REST (one login refused), tRPC, GraphQL.
    const rest = await server.rest('POST', '/account/partner-upload-regular-accounts', {
      key,
      body: { workspace_id: ws, provider_id: 'order-1', enable_warmup: 'yes', accounts: [account('rest@out.test'), account('gql@out.test', { smtp_password: 'wrong' })] },
    });
    expect(rest.status).toBe(200);
    expect(rest.body.added).toEqual([{ email: 'rest@out.test', _id: expect.stringMatching(/^[0-9a-f]{24}$/), id: rest.body.added[0]._id }]);
    expect(rest.body.failed).toEqual([{ email: 'gql@out.test', error: expect.stringMatching(/^SMTP login refused/) }]);
    const viaTrpc = await server.trpc(key).partner.uploadAccounts.mutate({ workspace_id: ws, provider_id: 'order-2', accounts: [account('trpc@out.test')] });
    expect(viaTrpc.added.map((a) => a.email)).toEqual(['trpc@out.test']);
    const gql = await server.graphql(
      `mutation($ws: ID!, $accounts: [NewEmailAccountInput!]!) { partnerUploadEmailAccounts(workspaceId: $ws, providerId: "order-3", accounts: $accounts) { added { id email } failed { email error } } }`,
      { key, variables: { ws, accounts: [gqlAccount(account('gql@out.test'))] } },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.partnerUploadEmailAccounts).toEqual({ added: [{ id: expect.any(String), email: 'gql@out.test' }], failed: [] });

    const rows = await server.db.prisma.emailAccount.findMany({ where: { workspaceId: ws }, orderBy: { email: 'asc' } });
    expect(rows.map((r) => [r.email, r.partnerName, r.partnerProviderId])).toEqual([
      ['gql@out.test', 'Mailforge', 'order-3'],
      ['rest@out.test', 'Mailforge', 'order-1'],
      ['trpc@out.test', 'Mailforge', 'order-2'],
    ]);

    // Not into a workspace that does not grant the key.
    const refused = await server.rest('POST', '/account/partner-upload-regular-accounts', { key, body: { workspace_id: ws2, provider_id: 'p', accounts: [account('rest@out.test')] } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 'error', code: 'auth.workspace_forbidden' });

    // List: the rows of /account/list, on each transport.
    const listed = await server.rest('GET', '/partner/account/list', { key, query: { workspace_id: ws, skip: '0', limit: '10' } });
    expect(listed.status).toBe(200);
    const asAdmin = await server.rest('GET', '/account/list', { key: org.apiKey, query: { workspace_id: ws, limit: '10' } });
    expect(listed.body).toEqual(asAdmin.body);
    expect(listed.body.accounts.map((a: { email: string }) => a.email)).toEqual(['rest@out.test', 'trpc@out.test', 'gql@out.test']);
    expect(JSON.stringify(listed.body)).not.toMatch(/secret|password|username/i);
    const page = await server.rest('GET', '/partner/account/list', { key, query: { workspace_id: ws, skip: '1', limit: '1' } });
    expect(page.body.accounts.map((a: { email: string }) => a.email)).toEqual(['trpc@out.test']);
    expect(await server.trpc(key).partner.accountList.query({ workspace_id: ws, limit: 10 })).toEqual(listed.body);
    const gqlList = await server.graphql(`query($ws: ID!) { partnerEmailAccounts(workspaceId: $ws, first: 2) { edges { node { id email status } } pageInfo { hasNextPage } } }`, { key, variables: { ws } });
    expect(gqlList.body.data.partnerEmailAccounts).toEqual({
      edges: listed.body.accounts.slice(0, 2).map((a: { _id: string; email: string }) => ({ node: { id: a._id, email: a.email, status: 'ACTIVE' } })),
      pageInfo: { hasNextPage: true },
    });
    const ungranted = await server.rest('GET', '/partner/account/list', { key, query: { workspace_id: ws2 } });
    expect(ungranted.status).toBe(403);
    expect((await trpcFailure(() => server.trpc(key).partner.accountList.query({ workspace_id: ws2 })))).toMatchObject({ status: 403, code: 'FORBIDDEN' });

    // Exists: connected somewhere of the organization; only granted workspaces named.
    await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws2, email: 'rest@out.test' });
    await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws2, email: 'hidden@out.test' });
    const exists = await server.rest('GET', '/partner/account/exists', { key, query: { email: 'REST@out.test' } });
    expect(exists.body).toEqual({ status: 'success', exists: true, workspace_ids: [ws] });
    const hidden = await server.rest('GET', '/partner/account/exists', { key, query: { email: 'hidden@out.test' } });
    expect(hidden.body).toEqual({ status: 'success', exists: true, workspace_ids: [] });
    expect(JSON.stringify(hidden.body)).not.toContain(ws2);
    expect(await server.trpc(key).partner.accountExists.query({ email: 'nobody@out.test' })).toEqual({ status: 'success', exists: false, workspace_ids: [] });
    const gqlExists = await server.graphql(`{ partnerEmailAccountExists(email: "hidden@out.test") { exists workspaceIds } }`, { key });
    expect(gqlExists.body.data.partnerEmailAccountExists).toEqual({ exists: true, workspaceIds: [] });
    const badEmail = await server.rest('GET', '/partner/account/exists', { key, query: { email: 'nope' } });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.errors).toEqual([{ field: 'email', message: 'must be an email address' }]);

    // Workspaces, on tRPC and GraphQL.
    expect((await server.trpc(key).partner.workspaces.query({})).workspaces.map((w) => w._id)).toEqual([ws]);
    const gqlWorkspaces = await server.graphql(`{ partnerWorkspaces { id name } }`, { key });
    expect(gqlWorkspaces.body.data.partnerWorkspaces).toEqual([{ id: ws, name: expect.any(String) }]);

    // The organization sees what the partner did: one row per mailbox added, and per call.
    const activity = await server.rest('GET', '/partner/activity', { key: org.apiKey, query: { partner_key_id: keyId, limit: '100' } });
    expect(activity.status).toBe(200);
    const mine = activity.body.activity;
    expect(mine.every((a: { partner_name: string; partner_key_id: string }) => a.partner_name === 'Mailforge' && a.partner_key_id === keyId)).toBe(true);
    const uploads = mine.filter((a: { operation: string }) => a.operation === 'partner.uploadAccounts');
    expect(uploads.map((a: { email_account_id: string }) => a.email_account_id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(uploads.every((a: { workspace_id: string }) => a.workspace_id === ws)).toBe(true);
    const count = (op: string) => mine.filter((a: { operation: string }) => a.operation === op).length;
    expect([count('partner.accountList'), count('partner.accountExists'), count('partner.workspaces')]).toEqual([4, 4, 2]);
    const viaGraphql = await server.graphql(`{ partnerActivity(first: 3) { edges { node { partnerName operation } } } }`, { key: org.apiKey });
    expect(viaGraphql.body.data.partnerActivity.edges.map((e: { node: { operation: string } }) => e.node.operation)).toEqual(['partner.workspaces', 'partner.workspaces', 'partner.accountExists']);
  }, 60_000);

  it('another organization\'s partner key sees nothing of this organization', async () => {
    const theirs = await partnerKey(foreign.organizationId, 'Mailforge', [foreign.workspaceId]);
    await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws, email: 'ours@out.test' });
    expect((await server.rest('GET', '/partner/workspaces', { key: theirs })).body.workspaces.map((w: { _id: string }) => w._id)).toEqual([foreign.workspaceId]);
    expect((await server.rest('GET', '/partner/account/list', { key: theirs, query: { workspace_id: ws } })).status).toBe(403);
    expect((await server.rest('GET', '/partner/account/exists', { key: theirs, query: { email: 'ours@out.test' } })).body).toEqual({ status: 'success', exists: false, workspace_ids: [] });
    const upload = await server.rest('POST', '/account/partner-upload-regular-accounts', { key: theirs, body: { workspace_id: ws, provider_id: 'p', accounts: [account('rest@out.test')] } });
    expect(upload.status).toBe(403);
    const grant = await server.rest('GET', '/partner/keys', { key: foreign.apiKey });
    expect(grant.body.partner_keys.map((k: { workspace_ids: string[] }) => k.workspace_ids)).toEqual([[foreign.workspaceId]]);
  });
});

describe('a partner key can do nothing else', () => {
  const notPartner = (op: Operation) => !op.partner;

  it('403 on every other REST route', async () => {
    const key = await partnerKey(org.organizationId, 'Sweeper', [ws]);
    const swept = routes.filter((r) => !r.public && notPartner(r.op));
    expect(swept.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const r of swept) {
      const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '6654c3f1b8a2d7e96f0a1c53');
      const answer = await server.rest(r.method, path, { key, ...(r.method === 'GET' ? { query: { workspace_id: ws } } : { body: { workspace_id: ws } }) });
      const vendorShape = r.errorShape === 'message' || answer.body.status === 'error';
      if (answer.status !== 403 || answer.body.code !== 'auth.partner_forbidden' || !vendorShape || !String(answer.body.message).includes(r.op.name)) {
        wrong.push(`${r.method} ${r.path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('403 on every other tRPC procedure, before its input is read', async () => {
    const key = await partnerKey(org.organizationId, 'Sweeper', [ws]);
    const publicOps = new Set(routes.filter((r) => r.public).map((r) => r.op));
    const wrong: string[] = [];
    let swept = 0;
    for (const [domain, domainOps] of Object.entries(operations)) {
      for (const [name, op] of Object.entries(domainOps as Record<string, Operation>)) {
        if (!notPartner(op) || publicOps.has(op)) continue;
        swept++;
        // No input at all: a partner key is refused before any validation.
        const url = `${server.url}/trpc/${domain}.${name}`;
        const res = op.kind === 'query' ? await fetch(url, { headers: { 'x-api-key': key } }) : await fetch(url, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: '{}' });
        const body = (await res.json()) as { error?: { message: string; data?: { code: string; domain_code?: string } } };
        if (res.status !== 403 || body.error?.data?.code !== 'FORBIDDEN' || body.error.data.domain_code !== 'auth.partner_forbidden') wrong.push(`${domain}.${name}: ${res.status} ${JSON.stringify(body)}`);
      }
    }
    expect(swept).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
    // The typed client sees the same.
    expect(await trpcFailure(() => server.trpc(key).workspace.list.query({}))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });

  it('FORBIDDEN on every other GraphQL root field', async () => {
    const key = await partnerKey(org.organizationId, 'Sweeper', [ws]);
    // The partner operations' fields, and any field of an operation partner keys may also call
    // (`partner: true`, such as the OAuth starts), known by the operation's description it carries.
    const partnerFields = new Set(['partnerWorkspaces', 'partnerEmailAccounts', 'partnerEmailAccountExists', 'partnerUploadEmailAccounts']);
    const partnerOps = Object.values(operations).flatMap((domain) => Object.values(domain) as Operation[]).filter((op) => op.partner);
    const partnerDescriptions = new Set(partnerOps.map((op) => op.description ?? op.summary));
    const valueOf = (type: GraphQLInputType): unknown => {
      if (isNonNullType(type)) return valueOf(type.ofType);
      if (isListType(type)) return [valueOf(type.ofType)];
      if (isEnumType(type)) return type.getValues()[0]!.value;
      if (isInputObjectType(type)) {
        return Object.fromEntries(Object.values(type.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, valueOf(f.type)]));
      }
      return ({ ID: ws, String: 'x@out.test', Int: 1, Float: 1, Boolean: true, JSON: {} } as Record<string, unknown>)[getNamedType(type).name];
    };
    const wrong: string[] = [];
    let swept = 0;
    for (const [kind, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
      for (const field of Object.values(root.getFields())) {
        if (partnerFields.has(field.name) || partnerDescriptions.has(field.description ?? '')) continue;
        swept++;
        const args = field.args.filter((a: GraphQLArgument) => isNonNullType(a.type));
        const named = getNamedType(field.type);
        const selection = isObjectType(named) || isInterfaceType(named) || isUnionType(named) ? ' { __typename }' : '';
        const variables = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
        const document = `${kind}${variables ? `(${variables})` : ''} { ${field.name}${args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : ''}${selection} }`;
        const answer = await server.graphql(document, { key, variables: Object.fromEntries(args.map((a) => [a.name, valueOf(a.type)])) });
        const error = answer.body.errors?.[0];
        if (error?.extensions?.code !== 'FORBIDDEN' || error.extensions.domain_code !== 'auth.partner_forbidden') wrong.push(`${field.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    expect(swept).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});

// The CLI as a user runs it: a child process on its own embedded database (each run opens PGlite).
describe('keys create --partner', { timeout: 240_000 }, () => {
  const cli = (dataDir: string, args: string[]) => {
    const r = spawnSync(process.execPath, [compiledEntry('cli'), ...args], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('issues a partner key granted the given workspaces, printed once; keys list shows the partner', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-cli-partner-'));
    const init = cli(dataDir, ['init', '--name', 'Acme']);
    expect(init.code, init.stderr).toBe(0);
    const org = JSON.parse(init.stdout) as { organization_id: string; workspace_id: string };

    const created = cli(dataDir, ['keys', 'create', '--partner', '--name', 'Mailforge', '--org', org.organization_id, '--workspace', org.workspace_id]);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { api_key_id: string; api_key: string; partner_name: string; workspace_ids: string[] };
    expect(key).toEqual({ api_key_id: expect.stringMatching(/^[0-9a-f]{24}$/), api_key: expect.stringMatching(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/), organization_id: org.organization_id, partner_name: 'Mailforge', workspace_ids: [org.workspace_id] });

    const list = cli(dataDir, ['keys', 'list', '--org', org.organization_id]);
    expect(list.code, list.stderr).toBe(0);
    const keys = JSON.parse(list.stdout) as { api_key_id: string; partner_name?: string; workspace_ids?: string[] }[];
    expect(keys.find((k) => k.api_key_id === key.api_key_id)).toMatchObject({ partner_name: 'Mailforge', workspace_ids: [org.workspace_id] });
    expect(list.stdout).not.toContain(key.api_key);

    const stranger = cli(dataDir, ['keys', 'create', '--partner', '--name', 'X', '--org', org.organization_id, '--workspace', '6654c3f1b8a2d7e96f0a1c53']);
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain('workspace 6654c3f1b8a2d7e96f0a1c53 is not in organization');
    const nameless = cli(dataDir, ['keys', 'create', '--partner', '--org', org.organization_id]);
    expect(nameless.code).toBe(2);
    expect(nameless.stderr).toContain('--name <provider>');
  });
});
