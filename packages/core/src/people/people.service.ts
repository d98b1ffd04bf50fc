// The people of an organization: listing them, changing roles, removing them (admins and owners;
// only owners touch owners; the last owner stays).
import type { Tx } from '@outreach/db';
import type { Ctx, PersonRole } from '../shared/context';
import { conflict, forbidden, notFound } from '../shared/errors';
import { forgetSessions, personOf } from './session.service';
import type { Person } from './people.schemas';

const PERSON_SELECT = { id: true, email: true, name: true, role: true, createdAt: true } as const;

export async function listPeople(ctx: Ctx): Promise<Person[]> {
  const rows = await ctx.db.user.findMany({
    where: { organizationId: ctx.actor.organizationId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: PERSON_SELECT,
  });
  return rows.map(personOf);
}

/** The caller acts as an owner: an OWNER, or a key issued for no person (full access). */
const actsAsOwner = (ctx: Ctx) => ctx.actor.role === undefined || ctx.actor.role === 'OWNER';

/**
 * Loads the target under a lock on the organization (two admins demoting the last two owners at
 * once cannot both succeed), and applies the owner rules.
 */
async function lockedTarget(ctx: Ctx, tx: Tx, id: string, newRole: PersonRole | null) {
  await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${ctx.actor.organizationId} FOR UPDATE`;
  const target = await tx.user.findFirst({ where: { id, organizationId: ctx.actor.organizationId }, select: PERSON_SELECT });
  if (!target) throw notFound('people.not_found', `no person ${id} in this organization`);
  if ((target.role === 'OWNER' || newRole === 'OWNER') && !actsAsOwner(ctx)) {
    throw forbidden('people.owner_required', 'only an owner may change or remove an owner, or make someone an owner');
  }
  if (target.role === 'OWNER' && newRole !== 'OWNER') {
    const owners = await tx.user.count({ where: { organizationId: ctx.actor.organizationId, role: 'OWNER' } });
    if (owners <= 1) throw conflict('people.last_owner', 'the organization\'s last owner can be neither demoted nor removed: make someone else an owner first');
  }
  return target;
}

export async function changePersonRole(ctx: Ctx, input: { id: string; role: PersonRole }): Promise<Person> {
  const person = await ctx.db.$transaction(async (tx) => {
    const target = await lockedTarget(ctx, tx, input.id, input.role);
    if (target.role === input.role) return target;
    return tx.user.update({ where: { id: target.id }, data: { role: input.role }, select: PERSON_SELECT });
  });
  // Sessions read the role when looked up: forget the cached ones so the change applies at once here.
  forgetSessions(ctx.caches);
  return personOf(person);
}

/** Removes the person, their sessions and workspace memberships. */
export async function removePerson(ctx: Ctx, input: { id: string }): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const target = await lockedTarget(ctx, tx, input.id, null);
    await tx.user.delete({ where: { id: target.id } });
  });
  forgetSessions(ctx.caches);
}

/** Ends the caller's session (`everywhere`: every session of the caller). */
export async function endSessions(ctx: Ctx, options: { everywhere: boolean }): Promise<number> {
  const { sessionId, userId } = ctx.actor;
  if (!sessionId || !userId) throw forbidden('people.session_required', 'signing out needs a signed-in session (the session cookie), not an API key');
  const ended = await ctx.db.userSession.deleteMany({ where: options.everywhere ? { userId } : { id: sessionId } });
  forgetSessions(ctx.caches);
  return ended.count;
}
