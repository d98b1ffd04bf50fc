import { newId, type PrismaClient, type Tx } from '@outreach/db';
import { createWorkspaceRecords } from '../workspace/workspace.service';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key.rules';



export async function issueApiKey(options: {
  db: PrismaClient | Tx;
  organizationId: string;
  name?: string;
  workspaceId?: string;
  clientId?: string;
}): Promise<{ id: string; apiKey: string }> {
  const apiKey = generateApiKey();
  const id = newId();
  await options.db.apiKey.create({
    data: {
      id,
      organizationId: options.organizationId,
      name: options.name ?? 'default',
      keyHash: hashApiKey(apiKey),
      keyPrefix: apiKeyPrefix(apiKey),
      workspaceId: options.workspaceId ?? null,
      clientId: options.clientId ?? null,
    },
  });
  return { id, apiKey };
}

/** A new organization with its first workspace and an API key (shown once, stored hashed). */
export async function createOrganization(options: {
  db: PrismaClient;
  name: string;
  workspaceName?: string;
  leadAllowance?: number;
}): Promise<{ organizationId: string; workspaceId: string; apiKeyId: string; apiKey: string }> {
  return options.db.$transaction(async (tx) => {
    const organizationId = newId();
    await tx.organization.create({
      data: { id: organizationId, name: options.name, leadAllowance: options.leadAllowance ?? null },
    });
    const workspace = await createWorkspaceRecords({
      tx,
      organizationId,
      name: options.workspaceName ?? 'Default workspace',
    });
    const key = await issueApiKey({ db: tx, organizationId });
    return { organizationId, workspaceId: workspace.id, apiKeyId: key.id, apiKey: key.apiKey };
  });
}

export async function revokeApiKey(options: { db: PrismaClient; keyId: string }): Promise<boolean> {
  const result = await options.db.apiKey.updateMany({
    where: { id: options.keyId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return result.count > 0;
}
