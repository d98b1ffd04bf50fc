// Workspace and organization deletes over tRPC and GraphQL (no REST path: the vendor has none):
// they answer at once, and from then on the deleted workspace's keys get 401 on REST and the
// workspace itself answers 403 as an unknown one; a wrong confirmation deletes nothing.
import { describe, expect, it } from 'vitest';
import { createOrganization } from '@outreach/core';
import { useTestServer } from './testing/suite';
import { trpcFailure } from './testing/test-server';

const { server, org } = useTestServer();

describe('workspace.delete', () => {
  it('over tRPC: the workspace key answers 401 and the workspace 403 at once; the organization key goes on', async () => {
    const trpc = server.trpc(org.apiKey);
    const created = await trpc.workspace.create.mutate({ workspace_name: 'doomed' });
    const key = await trpc.apiKey.create.mutate({ name: 'doomed key', workspace_id: created._id });
    expect((await server.rest('GET', '/workspaces', { key: key.api_key })).status).toBe(200);

    expect(await trpcFailure(() => trpc.workspace.delete.mutate({ workspace_id: created._id, confirm: org.workspaceId }))).toMatchObject({ status: 400, field: 'confirm' });
    expect((await server.rest('GET', '/workspaces', { key: key.api_key })).status).toBe(200);

    expect(await trpc.workspace.delete.mutate({ workspace_id: created._id, confirm: created._id })).toEqual({ status: 'success' });
    expect((await server.rest('GET', '/workspaces', { key: key.api_key })).status).toBe(401);
    const listAll = await server.rest('GET', `/campaign/list-all?workspace_id=${created._id}`, { key: org.apiKey });
    expect(listAll.status).toBe(403);
    const listed = await server.rest('GET', '/workspaces', { key: org.apiKey });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(created._id);
    expect(JSON.stringify(listed.body)).toContain(org.workspaceId);
  });

  it('over GraphQL: deleteWorkspace answers true and the workspace is gone from the graph', async () => {
    const made = await server.graphql('mutation { createWorkspace(name: "gone") { id } }', { key: org.apiKey });
    const id = made.body.data.createWorkspace.id;
    const deleted = await server.graphql('mutation($id: ID!, $confirm: String!) { deleteWorkspace(workspaceId: $id, confirm: $confirm) }', { key: org.apiKey, variables: { id, confirm: id } });
    expect(deleted.body).toEqual({ data: { deleteWorkspace: true } });
    const workspaces = await server.graphql('{ workspaces { id } }', { key: org.apiKey });
    expect(workspaces.body.data.workspaces.map((w: { id: string }) => w.id)).not.toContain(id);
  });
});

describe('organization.delete', () => {
  it('over GraphQL: every key of the organization answers 401 at once', async () => {
    const doomed = await createOrganization({ db: server.db.prisma, name: 'doomed org' });
    const wrong = await server.graphql('mutation { deleteOrganization(confirm: "nope") }', { key: doomed.apiKey });
    expect(wrong.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', domain_code: 'organization.confirm_mismatch' });
    const deleted = await server.graphql('mutation($id: String!) { deleteOrganization(confirm: $id) }', { key: doomed.apiKey, variables: { id: doomed.organizationId } });
    expect(deleted.body).toEqual({ data: { deleteOrganization: true } });
    expect((await server.rest('GET', '/workspaces', { key: doomed.apiKey })).status).toBe(401);
    expect((await server.rest('GET', '/workspaces', { key: org.apiKey })).status).toBe(200);
  });
});
