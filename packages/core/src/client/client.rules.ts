import type { Actor } from '../shared/context';
import { forbidden } from '../shared/errors';

const RESOURCES = ['CAMPAIGN', 'EMAILACCOUNT', 'TAG', 'BLOCKLIST', 'TEMPLATE'] as const;
const ACTIONS = ['CREATE', 'EDIT', 'LIST', 'DELETE'] as const;

/** The vendor's client-access permissions: 20 resource/action pairs plus HOOK_CREATE. */
const permissions: string[] = [...RESOURCES.flatMap((r) => ACTIONS.map((a) => `${r}_${a}`)), 'HOOK_CREATE'];
export const CLIENT_PERMISSIONS = permissions as [string, ...string[]];

/** Managing clients is the organization's business: workspace-limited and client keys may not. */
export function assertOrganizationKey(actor: Actor): void {
  if (actor.clientGrants !== null || actor.workspaceIds !== null) {
    throw forbidden('auth.organization_key_required', 'only an organization API key can manage client access');
  }
}
