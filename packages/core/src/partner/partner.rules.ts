import type { Actor } from '../shared/context';
import { forbidden } from '../shared/errors';

/**
 * Partner keys are the organization's business: only an organization-wide key (not limited to
 * a workspace, not a client's, not a partner's) issues, grants, revokes and audits them.
 */
export function assertOrganizationAdmin(actor: Actor): void {
  if (actor.clientGrants !== null || actor.workspaceIds !== null || actor.partnerName !== undefined) {
    throw forbidden('auth.organization_key_required', 'only an organization API key can manage partner keys');
  }
}

/** The partner's name of a partner key (the operations marked `partner: 'only'` run with one). */
export function partnerNameOf(actor: Actor): string {
  if (actor.partnerName === undefined) throw forbidden('auth.partner_key_required', 'call this operation with a partner API key');
  return actor.partnerName;
}
