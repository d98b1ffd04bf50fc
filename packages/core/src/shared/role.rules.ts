// What each role may run (docs/api.md, "People and sign-in"): one rule for every transport,
// applied by assertOperationAllowed before the input is read.
import type { Actor, PersonRole } from './context';
import { forbidden } from './errors';

/**
 * The least role an operation needs, marked on its definition (`Operation.role`): `admin`,
 * what changes the organization's set-up (workspaces and their settings, invitations, clients,
 * webhooks, partner keys, automation rules, people); `owner`, what only owners do; `anyone`, a
 * mutation of the caller's own (signing out) that read-only people run too. Unmarked mutations
 * are a member's day-to-day work; queries anyone's, read-only people included.
 */
export type OperationRole = 'admin' | 'owner' | 'anyone';

const RANK: Record<PersonRole, number> = { READ_ONLY: 0, MEMBER: 1, ADMIN: 2, OWNER: 3 };
const NEEDED: Record<OperationRole, PersonRole> = { admin: 'ADMIN', owner: 'OWNER', anyone: 'READ_ONLY' };

/** Whether `role` outranks or equals `other`. */
export function roleAtLeast(role: PersonRole, other: PersonRole): boolean {
  return RANK[role] >= RANK[other];
}

/** Why `role` may not run the operation, or null when it may. A missing role is full access (API keys). */
export function roleRefusal(op: { kind: 'query' | 'mutation'; role?: OperationRole }, role: PersonRole | undefined): string | null {
  if (role === undefined || op.role === 'anyone') return null;
  if (role === 'READ_ONLY' && op.kind !== 'query') return 'READ_ONLY runs queries only';
  if (op.role && !roleAtLeast(role, NEEDED[op.role])) return `${op.role === 'owner' ? 'only an OWNER' : 'only an OWNER or ADMIN'} may run it`;
  return null;
}

/** 403 `auth.role_forbidden`, naming the role and the operation. */
export function assertRoleAllows(op: { name: string; kind: 'query' | 'mutation'; role?: OperationRole }, actor: Pick<Actor, 'role'>): void {
  const refusal = roleRefusal(op, actor.role);
  if (refusal) throw forbidden('auth.role_forbidden', `the role ${actor.role} may not run ${op.name}: ${refusal}`);
}
