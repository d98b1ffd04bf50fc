// Lead labels over REST.
import { describe, expect, it } from 'vitest';
import { addWorkspace, useTestServer } from './testing/suite';

const { server, org } = useTestServer();

const newWorkspace = (name: string) => addWorkspace(server, org.apiKey, name);

describe('lead labels over REST', () => {
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
});
