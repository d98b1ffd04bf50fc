// Pausing and resuming mailboxes (emailAccount.bulkSetSending), and which OAuth providers the
// installation can connect mailboxes with (emailAccount.oauthProviders): what the mailbox screen
// runs, through GraphQL and tRPC.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer({ env: { GOOGLE_OAUTH_CLIENT_ID: 'google-client', GOOGLE_OAUTH_CLIENT_SECRET: 'google-secret' } });
const ids: Record<'active' | 'paused' | 'disconnected' | 'theirs', string> = { active: '', paused: '', disconnected: '', theirs: '' };

async function mailbox(owner: { organizationId: string; workspaceId: string }, email: string, status: 'ACTIVE' | 'PAUSED' | 'DISCONNECTED') {
  const id = newId();
  const secret = server.deps.service.secrets.encrypt('pw');
  await server.db.prisma.emailAccount.create({
    data: { id, organizationId: owner.organizationId, workspaceId: owner.workspaceId, email, emailNormalized: email, status, smtpHost: 'smtp.example.com', smtpPort: 465, smtpUsername: email, smtpPasswordEnc: secret, imapHost: 'imap.example.com', imapPort: 993, imapUsername: email, imapPasswordEnc: secret },
  });
  return id;
}

beforeAll(async () => {
  ids.active = await mailbox(org, 'on@sending.test', 'ACTIVE');
  ids.paused = await mailbox(org, 'off@sending.test', 'PAUSED');
  ids.disconnected = await mailbox(org, 'broken@sending.test', 'DISCONNECTED');
  ids.theirs = await mailbox(foreign, 'theirs@sending.test', 'ACTIVE');
});

const SET = `mutation($ws: ID!, $ids: [ID!]!, $status: EmailAccountSendingStatus!) { setEmailAccountsSending(workspaceId: $ws, ids: $ids, status: $status) { updatedCount updatedIds } }`;
const statusOf = async (id: string) => (await server.db.prisma.emailAccount.findUniqueOrThrow({ where: { id } })).status;

describe('pausing and resuming mailboxes', () => {
  it('pauses ACTIVE mailboxes of the workspace only, and resumes PAUSED ones; a disconnected one waits for a reconnect', async () => {
    const all = [ids.active, ids.paused, ids.disconnected, ids.theirs];
    const paused = await server.graphql(SET, { key: org.apiKey, variables: { ws: org.workspaceId, ids: all, status: 'PAUSED' } });
    expect(paused.body.errors).toBeUndefined();
    expect(paused.body.data.setEmailAccountsSending).toEqual({ updatedCount: 1, updatedIds: [ids.active] });
    expect([await statusOf(ids.active), await statusOf(ids.disconnected), await statusOf(ids.theirs)]).toEqual(['PAUSED', 'DISCONNECTED', 'ACTIVE']);

    const resumed = await server.trpc(org.apiKey).emailAccount.bulkSetSending.mutate({ workspace_id: org.workspaceId, ids: all, status: 'ACTIVE' });
    expect(resumed.updated_ids.sort()).toEqual([ids.active, ids.paused].sort());
    expect([await statusOf(ids.active), await statusOf(ids.paused), await statusOf(ids.disconnected)]).toEqual(['ACTIVE', 'ACTIVE', 'DISCONNECTED']);
  });

  it('refuses another status by name, and another organization’s workspace', async () => {
    const bad = await server.graphql(`mutation($ws: ID!, $ids: [ID!]!) { setEmailAccountsSending(workspaceId: $ws, ids: $ids, status: DISCONNECTED) { updatedCount } }`, { key: org.apiKey, variables: { ws: org.workspaceId, ids: [ids.active] } });
    expect(bad.body.errors?.length).toBeGreaterThan(0);
    const foreignWs = await server.graphql(SET, { key: org.apiKey, variables: { ws: foreign.workspaceId, ids: [ids.theirs], status: 'PAUSED' } });
    expect(foreignWs.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await statusOf(ids.theirs)).toBe('ACTIVE');
  });
});

describe('the OAuth providers mailboxes can be connected with', () => {
  it('says which ones the installation has a client for, without contacting them', async () => {
    const answer = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { oauthProviders { google microsoft } } }`, { key: org.apiKey, variables: { ws: org.workspaceId } });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.workspace.oauthProviders).toEqual({ google: true, microsoft: false });
  });
});
