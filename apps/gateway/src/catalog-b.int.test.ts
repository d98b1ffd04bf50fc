// Workspace settings, lead labels, additional fields, settings copies and invitations through the transports.
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '@outreach/core';
import { createTestOrganization } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server, org } = useTestServer();

async function newWorkspace(name: string): Promise<string> {
  const created = await server.rest('POST', '/workspaces/add', { key: org.apiKey, body: { workspace_name: name } });
  expect(created.status).toBe(200);
  return created.body._id;
}

describe('REST', () => {
  it('reads and patches workspace settings', async () => {
    const ws = await newWorkspace('Settings REST');
    const got = await server.rest('GET', '/workspace-settings', { key: org.apiKey, query: { workspace_id: ws } });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ workspace_id: ws, name: 'Settings REST', timezone: 'UTC', default_daily_limit: 30, default_sending_gap: 10 });
    const patched = await server.rest('PATCH', '/workspace-settings', { key: org.apiKey, body: { workspace_id: ws, timezone: 'Europe/Berlin', default_sending_gap: 5 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...got.body, timezone: 'Europe/Berlin', default_sending_gap: 5 });
    const unknown = await server.rest('PATCH', '/workspace-settings', { key: org.apiKey, body: { workspace_id: ws, colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: '(body)', message: 'has unknown field(s): colour' }]);
    const missing = await server.rest('GET', '/workspace-settings', { key: org.apiKey });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('workspace_id');
  });

  it('adds and deletes lead labels', async () => {
    const ws = await newWorkspace('Labels REST');
    const added = await server.rest('POST', '/workspace-settings/lead-labels/add', { key: org.apiKey, body: { workspace_id: ws, name: 'Demo scheduled!', sentiment: 'POSITIVE' } });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ key: 'DEMO_SCHEDULED', name: 'Demo scheduled!', sentiment: 'POSITIVE', icon: '', is_system: 0, is_ai_label: 0 });
    const dup = await server.rest('POST', '/workspace-settings/lead-labels/add', { key: org.apiKey, body: { workspace_id: ws, name: 'demo  scheduled', sentiment: 'NEUTRAL' } });
    expect([dup.status, dup.body.code]).toEqual([409, 'label.duplicate']);
    const deleted = await server.rest('DELETE', '/workspace-settings/lead-labels/delete', { key: org.apiKey, body: { workspace_id: ws, ids: [added.body.id] } });
    expect([deleted.status, deleted.body]).toEqual([200, { deleted_count: 1 }]);
    const labels = await server.rest('GET', '/workspace-settings/lead-labels', { key: org.apiKey, query: { workspace_id: ws } });
    expect(labels.body).toHaveLength(8);
    const system = await server.rest('DELETE', '/workspace-settings/lead-labels/delete', { key: org.apiKey, body: { workspace_id: ws, ids: [labels.body[0].id] } });
    expect([system.status, system.body.errors]).toEqual([400, [{ field: 'ids.0', message: 'is a system label, which cannot be deleted' }]]);
  });

  it('creates, lists, updates and deletes additional fields', async () => {
    const ws = await newWorkspace('Fields REST');
    const created = await server.rest('POST', '/workspaces/additional-fields', { key: org.apiKey, body: { workspace_id: ws, name: 'Deal size', default_value: '0' } });
    expect([created.status, created.body]).toEqual([200, { status: 'success', name: 'Deal_size' }]);
    const builtIn = await server.rest('POST', '/workspaces/additional-fields', { key: org.apiKey, body: { workspace_id: ws, name: 'city' } });
    expect([builtIn.status, builtIn.body.errors?.[0]?.field]).toEqual([400, 'name']);
    const dup = await server.rest('POST', '/workspaces/additional-fields', { key: org.apiKey, body: { workspace_id: ws, name: 'deal_size' } });
    expect(dup.status).toBe(409);
    const updated = await server.rest('PATCH', '/workspaces/additional-fields', { key: org.apiKey, body: { workspace_id: ws, name: 'Deal_size', default_value: '5' } });
    expect([updated.status, updated.body]).toEqual([200, { status: 'success' }]);
    const unknown = await server.rest('PATCH', '/workspaces/additional-fields', { key: org.apiKey, body: { workspace_id: ws, name: 'Nope', default_value: '5' } });
    expect(unknown.status).toBe(404);
    const listed = await server.rest('GET', '/workspaces/additional-fields', { key: org.apiKey, query: { workspace_id: ws } });
    expect([listed.status, listed.body]).toEqual([200, [{ name: 'Deal_size', default_value: '5' }]]);
    const deleted = await server.rest('DELETE', '/workspaces/additional-fields', { key: org.apiKey, body: { workspace_id: ws, names: ['Deal_size', 'missing'] } });
    expect([deleted.status, deleted.body]).toEqual([200, { status: 'success', deleted_count: 1 }]);
  });

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

  it('a workspace-limited key cannot patch another workspace\'s settings', async () => {
    const ws = await newWorkspace('Limited');
    const limited = await issueApiKey({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws });
    const own = await server.rest('PATCH', '/workspace-settings', { key: limited.apiKey, body: { workspace_id: ws, default_daily_limit: 40 } });
    expect([own.status, own.body.default_daily_limit]).toEqual([200, 40]);
    const other = await server.rest('PATCH', '/workspace-settings', { key: limited.apiKey, body: { workspace_id: org.workspaceId, default_daily_limit: 40 } });
    expect(other.status).toBe(403);
    const row = await server.db.prisma.workspace.findUniqueOrThrow({ where: { id: org.workspaceId } });
    expect((row.settings as Record<string, unknown>)['default_daily_limit']).toBeUndefined();
  });
});

describe('tRPC', () => {
  it('gets and updates settings, adds a label and creates a field', async () => {
    const ws = await newWorkspace('Settings tRPC');
    const client = server.trpc(org.apiKey);
    const updated = await client.workspaceSettings.update.mutate({ workspace_id: ws, tracking_domain: 'Track.Example.com' });
    expect(updated.tracking_domain).toBe('track.example.com');
    expect(await client.workspaceSettings.get.query({ workspace_id: ws })).toEqual(updated);
    const label = await client.leadLabel.add.mutate({ workspace_id: ws, name: 'Hot lead', sentiment: 'POSITIVE' });
    expect(label.key).toBe('HOT_LEAD');
    expect(await client.additionalField.create.mutate({ workspace_id: ws, name: 'Deal size' })).toEqual({ status: 'success', name: 'Deal_size' });
    const bad = await trpcFailure(() => client.workspaceSettings.update.mutate({ workspace_id: ws, timezone: 'Nowhere/Else' }));
    expect(bad).toEqual({ status: 400, code: 'BAD_REQUEST', field: 'timezone' });
  });
});

describe('GraphQL', () => {
  it('reads settings and fields on Workspace, updates settings, adds a label and creates a field', async () => {
    const ws = await newWorkspace('Settings GraphQL');
    const update = await server.graphql(
      `mutation($ws: ID!) { updateWorkspaceSettings(workspaceId: $ws, timezone: "Asia/Tokyo", dkimSelectors: ["S1"], defaultDailyLimit: 12) { workspaceId timezone dkimSelectors defaultDailyLimit trackingDomain } }`,
      { key: org.apiKey, variables: { ws } },
    );
    expect(update.body.errors).toBeUndefined();
    expect(update.body.data.updateWorkspaceSettings).toEqual({ workspaceId: ws, timezone: 'Asia/Tokyo', dkimSelectors: ['s1'], defaultDailyLimit: 12, trackingDomain: '' });
    const label = await server.graphql(`mutation($ws: ID!) { addLeadLabel(workspaceId: $ws, name: "Call back", sentiment: NEUTRAL) { key name isSystem } }`, {
      key: org.apiKey,
      variables: { ws },
    });
    expect(label.body.data.addLeadLabel).toEqual({ key: 'CALL_BACK', name: 'Call back', isSystem: false });
    const field = await server.graphql(`mutation($ws: ID!) { createAdditionalField(workspaceId: $ws, name: "Deal size", defaultValue: "1") { name defaultValue } }`, {
      key: org.apiKey,
      variables: { ws },
    });
    expect(field.body.data.createAdditionalField).toEqual({ name: 'Deal_size', defaultValue: '1' });
    const read = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { settings { timezone unsubscribeText defaultSendingGap } additionalFields { name defaultValue } } }`, {
      key: org.apiKey,
      variables: { ws },
    });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.workspace).toEqual({
      settings: { timezone: 'Asia/Tokyo', unsubscribeText: "If you'd rather not hear from me, let me know.", defaultSendingGap: 10 },
      additionalFields: [{ name: 'Deal_size', defaultValue: '1' }],
    });
    const bad = await server.graphql(`mutation($ws: ID!) { updateWorkspaceSettings(workspaceId: $ws, defaultSendingGap: 5000) { timezone } }`, { key: org.apiKey, variables: { ws } });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
