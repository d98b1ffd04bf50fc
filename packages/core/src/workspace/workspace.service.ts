import { newId, type PrismaClient, type Tx } from '@outreach/db';
import { issueApiKey } from '../auth/index';
import { SYSTEM_LEAD_LABELS } from './workspace.rules';

/** A workspace row with its system lead labels; call inside the caller's transaction. */
export async function createWorkspaceRecords(options: { tx: Tx; organizationId: string; name: string }) {
  const id = newId();
  const workspace = await options.tx.workspace.create({
    data: { id, organizationId: options.organizationId, name: options.name },
    select: { id: true, name: true },
  });
  await options.tx.leadLabel.createMany({
    data: SYSTEM_LEAD_LABELS.map((label) => ({
      id: newId(),
      workspaceId: id,
      key: label.key,
      name: label.name,
      sentiment: label.sentiment,
      icon: label.icon,
      isSystem: true,
    })),
  });
  return workspace;
}

/**
 * A new organization with its first workspace, inside the caller's transaction; no API key
 * (people set up in the web app: setUpOwner).
 */
export async function createOrganizationRecords(options: { tx: Tx; name: string; workspaceName?: string; leadAllowance?: number }): Promise<{ organizationId: string; workspaceId: string }> {
  const organizationId = newId();
  await options.tx.organization.create({
    data: { id: organizationId, name: options.name, leadAllowance: options.leadAllowance ?? null },
  });
  const workspace = await createWorkspaceRecords({ tx: options.tx, organizationId, name: options.workspaceName ?? 'Default workspace' });
  return { organizationId, workspaceId: workspace.id };
}

/**
 * A new organization with its first workspace and an API key (shown once, stored hashed). It lives
 * here, beside the workspace it creates, so that workspace depends on auth and never the other way.
 */
export async function createOrganization(options: {
  db: PrismaClient;
  name: string;
  workspaceName?: string;
  leadAllowance?: number;
}): Promise<{ organizationId: string; workspaceId: string; apiKeyId: string; apiKey: string }> {
  return options.db.$transaction(async (tx) => {
    const { organizationId, workspaceId } = await createOrganizationRecords({ tx, name: options.name, workspaceName: options.workspaceName, leadAllowance: options.leadAllowance });
    const key = await issueApiKey({ db: tx, organizationId });
    return { organizationId, workspaceId, apiKeyId: key.id, apiKey: key.apiKey };
  });
}
