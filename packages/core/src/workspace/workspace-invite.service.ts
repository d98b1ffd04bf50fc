import type { PrismaClient } from '@outreach/db';
import { invalid } from '../shared/errors';
import { issueApiKey } from '../auth/index';
import { hashInviteToken } from './workspace-invite.rules';

/** One answer for an unknown, expired or used token: which one it was is nobody's business. */
export function invalidInviteToken() {
  return invalid('invite.invalid_token', 'the invitation token is invalid, expired or already used', [
    { field: 'token', message: 'is invalid, expired or already used' },
  ]);
}

/**
 * Accepts an invitation: marks it accepted and issues an API key limited to its
 * workspace, in one transaction. The conditional update is what makes a token
 * single-use: of two concurrent accepts, one finds the row already accepted.
 */
export async function acceptInvite(options: { db: PrismaClient; token: string; now: Date }): Promise<{ workspaceId: string; apiKey: string; apiKeyId: string }> {
  const tokenHash = hashInviteToken(options.token);
  return options.db.$transaction(async (tx) => {
    const claimed = await tx.workspaceInvite.updateMany({
      where: { tokenHash, acceptedAt: null, expiresAt: { gt: options.now } },
      data: { acceptedAt: options.now },
    });
    if (claimed.count === 0) throw invalidInviteToken();
    const invite = await tx.workspaceInvite.findUniqueOrThrow({
      where: { tokenHash },
      select: { id: true, organizationId: true, workspaceId: true, email: true, role: true },
    });
    const key = await issueApiKey({
      db: tx,
      organizationId: invite.organizationId,
      workspaceId: invite.workspaceId,
      name: `invite ${invite.email} (${invite.role})`,
      role: invite.role,
    });
    await tx.workspaceInvite.update({ where: { id: invite.id }, data: { apiKeyId: key.id } });
    return { workspaceId: invite.workspaceId, apiKey: key.apiKey, apiKeyId: key.id };
  });
}
