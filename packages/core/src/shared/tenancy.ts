import type { Ctx } from './context';
import { forbidden } from './errors';

/**
 * The caller may act on this workspace: it belongs to the key's organization, the
 * key is not limited to other workspaces, and a client key holds the permission.
 * An unknown workspace and another organization's look the same (403): ids never leak.
 */
export async function assertWorkspaceAccess(options: { ctx: Ctx; workspaceId: string; permission?: string }): Promise<void> {
  const { ctx, workspaceId, permission } = options;
  const { actor } = ctx;
  if (actor.workspaceIds && !actor.workspaceIds.includes(workspaceId)) {
    throw forbidden('auth.workspace_forbidden', `workspace_id ${workspaceId} is not accessible with this API key`);
  }
  if (actor.clientGrants) {
    const grant = actor.clientGrants[workspaceId];
    if (!grant) throw forbidden('auth.workspace_forbidden', `workspace_id ${workspaceId} is not accessible with this API key`);
    if (permission && !grant.permissions.includes(permission)) {
      throw forbidden('auth.permission_denied', `this API key lacks the ${permission} permission`);
    }
  }
  const found = await ctx.db.workspace.findFirst({
    where: { id: workspaceId, organizationId: actor.organizationId },
    select: { id: true },
  });
  if (!found) throw forbidden('auth.workspace_forbidden', `workspace_id ${workspaceId} is not accessible with this API key`);
}
