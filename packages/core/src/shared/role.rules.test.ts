import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import { assertRoleAllows, roleRefusal } from './role.rules';

const query = { name: 'campaign.list', kind: 'query' as const };
const mutation = { name: 'campaign.launch', kind: 'mutation' as const };
const admin = { name: 'webhook.add', kind: 'mutation' as const, role: 'admin' as const };
const adminQuery = { name: 'partner.listKeys', kind: 'query' as const, role: 'admin' as const };
const owner = { name: 'x.owner', kind: 'mutation' as const, role: 'owner' as const };
const anyone = { name: 'people.signOut', kind: 'mutation' as const, role: 'anyone' as const };

describe('what each role may run', () => {
  it.each([
    // role, query, mutation, admin mutation, admin query, owner-only, anyone
    [undefined, true, true, true, true, true, true],
    ['OWNER', true, true, true, true, true, true],
    ['ADMIN', true, true, true, true, false, true],
    ['MEMBER', true, true, false, false, false, true],
    ['READ_ONLY', true, false, false, false, false, true],
  ] as const)('%s', (role, ...allowed) => {
    expect([query, mutation, admin, adminQuery, owner, anyone].map((op) => roleRefusal(op, role) === null)).toEqual(allowed);
  });

  it('refuses with 403 auth.role_forbidden naming the role and the operation', () => {
    let thrown: unknown;
    try {
      assertRoleAllows(mutation, { role: 'READ_ONLY' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ kind: 'forbidden', code: 'auth.role_forbidden' });
    expect((thrown as Error).message).toContain('READ_ONLY');
    expect((thrown as Error).message).toContain('campaign.launch');
    expect(() => assertRoleAllows(admin, { role: 'MEMBER' })).toThrow(/MEMBER may not run webhook\.add/);
  });
});
