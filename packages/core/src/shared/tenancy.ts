import type { PrismaClient, Tx } from '@outreach/db';
import type { Actor, Ctx } from './context';
import { forbidden, invalidField } from './errors';

const notReachable = (workspaceId: string) =>
  forbidden('auth.workspace_forbidden', `workspace_id ${workspaceId} is not accessible with this API key`);

/**
 * What the key itself allows, without a query: a key limited to some workspaces, or a
 * client key with per-workspace grants, reaches only those (and holds the permission).
 */
export function checkActorScope(options: { actor: Actor; workspaceId: string; permission?: string }): void {
  const { actor, workspaceId, permission } = options;
  if (actor.workspaceIds && !actor.workspaceIds.includes(workspaceId)) throw notReachable(workspaceId);
  if (actor.clientGrants) {
    const grant = actor.clientGrants[workspaceId];
    if (!grant) throw notReachable(workspaceId);
    if (permission && !grant.permissions.includes(permission)) {
      throw forbidden('auth.permission_denied', `this API key lacks the ${permission} permission`);
    }
  }
}

/** How long a process trusts a workspace's ownership without asking (the API key cache's time too). */
const OWNER_TTL_MS = 5_000;

/**
 * The caller may act on this workspace: it belongs to the key's organization and the
 * key's own scope allows it. An unknown workspace and another organization's look the
 * same (403): ids never leak. A workspace never changes organization, so ownership is
 * remembered per process once seen, for a few seconds: a workspace may be deleted.
 */
export async function assertWorkspaceAccess(options: { ctx: Ctx; workspaceId: string; permission?: string }): Promise<void> {
  const { ctx, workspaceId } = options;
  checkActorScope({ actor: ctx.actor, workspaceId, permission: options.permission });
  const owners = ctx.caches.workspaceOwner;
  const now = Date.now();
  let owner = owners.get(workspaceId);
  if (owner === undefined || owner.expires <= now) {
    // A deleted workspace (or one of a deleted organization) is unknown from the moment it is
    // deleted: at once in the deleting process, within OWNER_TTL_MS in the others.
    const found = await ctx.db.workspace.findFirst({ where: { id: workspaceId, deletedAt: null, organization: { deletedAt: null } }, select: { organizationId: true } });
    if (!found) throw notReachable(workspaceId);
    owner = { organizationId: found.organizationId, expires: now + OWNER_TTL_MS };
    if (owners.size >= 100_000) owners.clear();
    owners.set(workspaceId, owner);
  }
  if (owner.organizationId !== ctx.actor.organizationId) throw notReachable(workspaceId);
}

/**
 * Workspace-level writes (settings, labels, fields, copies, invitations) are the
 * workspace owner's: a client-access key, even one granted the workspace, may not.
 */
export function assertNotClientKey(actor: Actor): void {
  if (actor.clientGrants !== null) {
    throw forbidden('auth.organization_key_required', 'a client-access API key cannot change workspace settings');
  }
}

/** A `campaign_id` naming no campaign of the workspace is a 400 on that field (ids of other workspaces never leak). */
export async function assertCampaignOfWorkspace(options: { db: PrismaClient | Tx; workspaceId: string; campaignId: string | undefined }): Promise<void> {
  if (!options.campaignId) return;
  const found = await options.db.campaign.findFirst({ where: { id: options.campaignId, workspaceId: options.workspaceId, deletedAt: null }, select: { id: true } });
  if (!found) throw invalidField('campaign_id', `is not a campaign of workspace ${options.workspaceId}`, 'campaign.not_found');
}
