// The record of what partner keys do (partner_activity): one row per call, or one per email
// account a call touched, written in the transaction of the call's own writes.
import { newId, type PrismaClient, type Tx } from '@outreach/db';
import type { Actor } from './context';

/**
 * Records a partner key's call: one row per id of `emailAccountIds`, or one row without an
 * account when it names none. Nothing for a key that is not a partner's.
 */
export async function recordPartnerActivity(options: {
  db: PrismaClient | Tx;
  actor: Actor;
  operation: string;
  workspaceId: string | null;
  emailAccountIds?: string[];
}): Promise<void> {
  const { actor } = options;
  if (actor.partnerName === undefined) return;
  const accounts = options.emailAccountIds?.length ? options.emailAccountIds : [null];
  await options.db.partnerActivity.createMany({
    data: accounts.map((emailAccountId) => ({
      id: newId(),
      organizationId: actor.organizationId,
      apiKeyId: actor.apiKeyId,
      partnerName: actor.partnerName!,
      operation: options.operation,
      workspaceId: options.workspaceId,
      emailAccountId,
    })),
  });
}
