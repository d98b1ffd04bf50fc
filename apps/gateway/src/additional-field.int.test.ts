// Additional fields over REST.
import { describe, expect, it } from 'vitest';
import { addWorkspace, useTestServer } from './testing/suite';

const { server, org } = useTestServer();

const newWorkspace = (name: string) => addWorkspace(server, org.apiKey, name);

describe('additional fields over REST', () => {
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
});
