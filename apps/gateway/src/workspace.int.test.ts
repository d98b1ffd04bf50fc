// Workspace operations over REST: copying settings to other workspaces, and invitations.
import { describe, expect, it } from 'vitest';
import { createTestOrganization } from '@outreach/core/testing';
import { addWorkspace, useTestServer } from './testing/suite';

const { server, org } = useTestServer();

const newWorkspace = (name: string) => addWorkspace(server, org.apiKey, name);

describe('workspace operations over REST', () => {
  it('copies settings to other workspaces, refusing a foreign one', async () => {
    const source = await newWorkspace('Copy source');
    const target = await newWorkspace('Copy target');
    await server.rest('PATCH', '/workspace-settings', { key: org.apiKey, body: { workspace_id: source, unsubscribe_text: 'Bye.' } });
    await server.rest('POST', '/workspaces/additional-fields', { key: org.apiKey, body: { workspace_id: source, name: 'Tier' } });
    const copied = await server.rest('POST', '/workspaces/copy-settings', { key: org.apiKey, body: { workspace_id: source, to_workspace_ids: [target] } });
    expect([copied.status, copied.body]).toEqual([200, { status: 'success', copied: 1 }]);
    const settings = await server.rest('GET', '/workspace-settings', { key: org.apiKey, query: { workspace_id: target } });
    expect(settings.body.unsubscribe_text).toBe('Bye.');
    const fields = await server.rest('GET', '/workspaces/additional-fields', { key: org.apiKey, query: { workspace_id: target } });
    expect(fields.body).toEqual([{ name: 'Tier', default_value: '' }]);
    const foreign = (await createTestOrganization({ db: server.db })).workspaceId;
    const refused = await server.rest('POST', '/workspaces/copy-settings', { key: org.apiKey, body: { workspace_id: source, to_workspace_ids: [foreign] } });
    expect(refused.status).toBe(403);
  });

  it('invites a user who accepts the invitation (with and without an API key)', async () => {
    const ws = await newWorkspace('Invite REST');
    const invited = await server.rest('POST', '/workspaces/invite-user', { key: org.apiKey, body: { workspace_id: ws, email: 'guest@example.com', role: 'MEMBER' } });
    expect(invited.status).toBe(200);
    expect(invited.body).toEqual({ status: 'success', invite_id: expect.any(String), token: expect.any(String), expires_at: expect.any(String) });
    const accepted = await server.rest('POST', '/workspaces/accept-invite', { key: org.apiKey, body: { token: invited.body.token } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ status: 'success', workspace_id: ws, api_key: expect.stringMatching(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/) });
    const listed = await server.rest('GET', '/workspaces', { key: accepted.body.api_key });
    expect(listed.body.workspaces.map((w: { _id: string }) => w._id)).toEqual([ws]);
    const reused = await server.rest('POST', '/workspaces/accept-invite', { body: { token: invited.body.token } });
    expect([reused.status, reused.body.code]).toEqual([400, 'invite.invalid_token']);
    // The route is public: the invited person has no key.
    const second = await server.rest('POST', '/workspaces/invite-user', { key: org.apiKey, body: { workspace_id: ws, email: 'other@example.com', role: 'ADMIN' } });
    const anonymous = await server.rest('POST', '/workspaces/accept-invite', { body: { token: second.body.token } });
    expect([anonymous.status, anonymous.body.workspace_id]).toEqual([200, ws]);
  });
});
