// Workspace settings through the transports: read and patch over REST, a workspace-limited key, tRPC and GraphQL.
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '@outreach/core';
import { trpcFailure } from './testing/test-server';
import { addWorkspace, useTestServer } from './testing/suite';

const { server, org } = useTestServer();

const newWorkspace = (name: string) => addWorkspace(server, org.apiKey, name);

describe('workspace settings over REST', () => {
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

describe('workspace settings over tRPC', () => {
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

describe('workspace settings over GraphQL', () => {
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
