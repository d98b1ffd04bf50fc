// Issuing and revoking API keys (the key is shown once and stored as its SHA-256).
import { newId, type PrismaClient, type Tx } from '@outreach/db';
import type { PersonRole } from '../shared/context';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key.rules';

export async function issueApiKey(options: {
  db: PrismaClient | Tx;
  organizationId: string;
  name?: string;
  workspaceId?: string;
  clientId?: string;
  /** A partner key: the partner's name (it reaches only the workspaces that grant it). */
  partnerName?: string;
  /** The role the key acts with (an invitation's); none: full access. */
  role?: PersonRole;
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
      partnerName: options.partnerName ?? null,
      role: options.role ?? null,
    },
  });
  return { id, apiKey };
}

/** Revokes an unrevoked key (of `organizationId` when given); whether it did. */
export async function revokeApiKey(options: { db: PrismaClient | Tx; keyId: string; organizationId?: string }): Promise<boolean> {
  const result = await options.db.apiKey.updateMany({
    where: { id: options.keyId, revokedAt: null, ...(options.organizationId ? { organizationId: options.organizationId } : {}) },
    data: { revokedAt: new Date() },
  });
  return result.count > 0;
}
