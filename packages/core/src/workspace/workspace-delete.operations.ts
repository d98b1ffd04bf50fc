import { defineOperation } from '../shared/operation';
import { forbidden, invalidField } from '../shared/errors';
import { deleteOrganization, tombstoneWorkspace } from '../purge/index';
import { countCampaignLeads } from '../campaign/index';
import { DeleteOrganizationInput, DeleteOrganizationOutput, DeleteWorkspaceInput, DeleteWorkspaceOutput } from './workspace-delete.schemas';

export const deleteWorkspace = defineOperation({
  name: 'workspace.delete',
  kind: 'mutation',
  role: 'admin',
  summary: 'Delete a workspace',
  description: [
    'Deletes a workspace with everything in it (`confirm` repeats `workspace_id`, or 400): campaigns, leads, sends, mailboxes, webhooks, labels, the unified inbox and the API keys limited to it. It answers at once: from then on the workspace is unreachable (403 `auth.workspace_forbidden`, as an unknown one), its keys answer 401, nothing more is sent, read or delivered for it, and its leads no longer count towards the organization\'s allowance; the worker role removes its rows in the background, a few thousand at a time.',
    'Only an organization API key (or an OWNER or ADMIN) may delete a workspace: a key limited to some workspaces, or a client key, answers 403 `auth.organization_key_required`.',
  ].join('\n\n'),
  input: DeleteWorkspaceInput,
  output: DeleteWorkspaceOutput,
  workspace: 'required',
  async run(ctx, input) {
    if (ctx.actor.workspaceIds) throw forbidden('auth.organization_key_required', 'only an organization API key can delete workspaces');
    await ctx.db.$transaction(async (tx) => {
      // The lock lead uploads take first: the leads counted off the organization stay counted off.
      await tx.$queryRawUnsafe('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', ctx.actor.organizationId);
      // Its live campaigns' leads (subsequences' too), from the kept counters: one probe per
      // campaign whatever the number of leads. A campaign deleted before had its leads taken off then.
      const live = await tx.campaign.findMany({ where: { workspaceId: input.workspace_id, deletedAt: null }, select: { id: true } });
      const leads = await countCampaignLeads({ db: tx, workspaceId: input.workspace_id, campaignIds: live.map((c) => c.id) });
      await tombstoneWorkspace({ tx, workspaceId: input.workspace_id, now: ctx.ports.clock.now() });
      if (leads) await tx.organization.update({ where: { id: ctx.actor.organizationId }, data: { leadCount: { decrement: leads } } });
    });
    // This process forgets at once; other processes' caches expire within seconds (authenticate.service).
    ctx.caches.workspaceOwner.delete(input.workspace_id);
    ctx.caches.apiKeys.clear();
    return { status: 'success' as const };
  },
});

export const deleteOwnOrganization = defineOperation({
  name: 'organization.delete',
  kind: 'mutation',
  role: 'owner',
  summary: 'Delete the organization',
  description:
    'Deletes the caller\'s organization with all its workspaces, people and API keys (`confirm` is the organization id, or 400 `organization.confirm_mismatch`). It answers at once: from then on none of its keys or sessions reaches anything (401), and the worker role removes its rows in the background. Only an organization API key or an OWNER may; a key limited to some workspaces answers 403 `auth.organization_key_required`. Operators delete any organization with `outreach org delete <id>`.',
  input: DeleteOrganizationInput,
  output: DeleteOrganizationOutput,
  workspace: 'none',
  async run(ctx, input) {
    if (ctx.actor.workspaceIds) throw forbidden('auth.organization_key_required', 'only an organization API key can delete the organization');
    if (input.confirm !== ctx.actor.organizationId) throw invalidField('confirm', 'must be the organization id', 'organization.confirm_mismatch');
    await deleteOrganization({ db: ctx.db, organizationId: ctx.actor.organizationId, now: ctx.ports.clock.now() });
    ctx.caches.workspaceOwner.clear();
    ctx.caches.apiKeys.clear();
    ctx.caches.sessions.clear();
    return { status: 'success' as const };
  },
});
