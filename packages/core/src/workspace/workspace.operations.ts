import { defineOperation } from '../shared/operation';
import { forbidden } from '../shared/errors';
import {
  CreateWorkspaceInput,
  CreateWorkspaceOutput,
  ListWorkspacesInput,
  ListWorkspacesOutput,
} from './workspace.schemas';
import { createWorkspaceRecords } from './workspace.service';

export const listWorkspaces = defineOperation({
  name: 'workspace.list',
  kind: 'query',
  summary: 'Get workspaces',
  description:
    'Lists the workspaces the API key reaches, oldest first: every workspace of the organization for an organization key, only the granted ones for a workspace-limited or client key. Also answers `GET /authenticate`, which clients use to check a key.',
  input: ListWorkspacesInput,
  output: ListWorkspacesOutput,
  workspace: 'none',
  async run(ctx) {
    const { actor } = ctx;
    const rows = await ctx.db.workspace.findMany({
      where: {
        organizationId: actor.organizationId,
        deletedAt: null,
        ...(actor.workspaceIds ? { id: { in: actor.workspaceIds } } : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, name: true },
    });
    return { status: 'success' as const, workspaces: rows.map((w) => ({ _id: w.id, name: w.name })) };
  },
});

export const createWorkspace = defineOperation({
  name: 'workspace.create',
  kind: 'mutation',
  role: 'admin',
  summary: 'Add a new workspace',
  description:
    'Creates a workspace in the API key\'s organization with the eight system lead labels. Keys limited to some workspaces (invited users, clients) cannot create workspaces (403).',
  input: CreateWorkspaceInput,
  output: CreateWorkspaceOutput,
  workspace: 'none',
  async run(ctx, input) {
    if (ctx.actor.workspaceIds) {
      throw forbidden('auth.organization_key_required', 'only an organization API key can create workspaces');
    }
    const workspace = await ctx.db.$transaction((tx) =>
      createWorkspaceRecords({ tx, organizationId: ctx.actor.organizationId, name: input.workspace_name }),
    );
    return { status: 'success' as const, _id: workspace.id };
  },
});
