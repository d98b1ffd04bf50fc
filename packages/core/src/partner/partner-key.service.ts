// Issuing partner keys (the CLI's `keys create --partner` and POST /partner/keys).
import type { PrismaClient, Tx } from '@outreach/db';
import { issueApiKey } from '../auth/index';
import { forbidden, invalidField } from '../shared/errors';

/** Every id must be a workspace of the organization; an unknown one and another's look the same (403). */
export async function assertWorkspacesOfOrganization(options: { db: PrismaClient | Tx; organizationId: string; workspaceIds: string[]; field: string }): Promise<void> {
  if (!options.workspaceIds.length) return;
  const found = await options.db.workspace.findMany({ where: { organizationId: options.organizationId, id: { in: options.workspaceIds } }, select: { id: true } });
  const known = new Set(found.map((w) => w.id));
  const missing = options.workspaceIds.findIndex((id) => !known.has(id));
  if (missing >= 0) {
    throw forbidden('auth.workspace_forbidden', `${options.field}.${missing} ${options.workspaceIds[missing]} is not accessible with this API key`);
  }
}

/**
 * Issues a partner key named after the partner, granted `workspaceIds` (workspaces of the
 * organization: 403 otherwise), in one transaction. The key is answered once and stored hashed.
 */
export async function createPartnerKey(options: {
  db: PrismaClient;
  organizationId: string;
  name: string;
  workspaceIds?: string[];
}): Promise<{ id: string; apiKey: string; name: string; workspaceIds: string[] }> {
  const name = options.name.trim();
  if (!name) throw invalidField('name', 'must not be empty');
  const workspaceIds = [...new Set((options.workspaceIds ?? []).map((id) => id.toLowerCase()))];
  return options.db.$transaction(async (tx) => {
    await assertWorkspacesOfOrganization({ db: tx, organizationId: options.organizationId, workspaceIds, field: 'workspace_ids' });
    const key = await issueApiKey({ db: tx, organizationId: options.organizationId, name, partnerName: name });
    if (workspaceIds.length) await tx.partnerGrant.createMany({ data: workspaceIds.map((workspaceId) => ({ apiKeyId: key.id, workspaceId })) });
    return { ...key, name, workspaceIds };
  });
}
