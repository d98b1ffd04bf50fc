// Starting a session: signing in, setting up the owner from a setup link, accepting an invitation
// as a person. Each answers the session for the transport to put in a cookie (SessionStart).
import { newId, type Tx } from '@outreach/db';
import type { Ctx } from '../shared/context';
import { conflict, DomainError, invalid } from '../shared/errors';
import { createOrganizationRecords, hashInviteToken, invalidInviteToken } from '../workspace/index';
import { dummyPasswordHash, hashPassword, passwordProblem, verifyPassword } from './password.rules';
import { signInThrottle, SIGN_IN_WINDOW_MS } from './sign-in-throttle.rules';
import { hashSecretToken } from './session.rules';
import { startSession } from './session.service';
import type { SessionStart } from './people.schemas';

/** One answer whether the address is unknown or the password wrong. */
export function invalidCredentials(): DomainError {
  return new DomainError({
    kind: 'unauthenticated',
    code: 'people.invalid_credentials',
    message: 'the e-mail address or the password is wrong',
    fieldErrors: [{ field: 'password', message: 'the e-mail address or the password is wrong' }],
  });
}

function tooManyFailures(retryAfter: number): DomainError {
  return new DomainError({
    kind: 'rate_limited',
    code: 'people.too_many_failures',
    message: `too many failed sign-ins for this e-mail address; retry after ${retryAfter} s`,
    retryAfter,
  });
}

/** 429 once the address has failed 10 times in 15 minutes (sign-in-throttle.rules.ts). */
async function assertNotThrottled(ctx: Ctx, email: string, now: Date): Promise<void> {
  const recent = await ctx.db.signInFailure.findMany({
    where: { email, failedAt: { gt: new Date(now.getTime() - SIGN_IN_WINDOW_MS) } },
    select: { failedAt: true },
    orderBy: { failedAt: 'desc' },
    take: 50,
  });
  const decision = signInThrottle({ failures: recent.map((r) => r.failedAt), now });
  if (!decision.allowed) throw tooManyFailures(decision.retryAfterSeconds);
}

/** Records a failure (its own write: the failure must outlive the refused request) and sweeps expired ones. */
async function recordFailure(ctx: Ctx, email: string, now: Date): Promise<void> {
  await ctx.db.$transaction([
    ctx.db.signInFailure.deleteMany({ where: { failedAt: { lte: new Date(now.getTime() - SIGN_IN_WINDOW_MS) } } }),
    ctx.db.signInFailure.create({ data: { id: newId(), email, failedAt: now } }),
  ]);
}

/**
 * Checks a person's password, throttled per address; the same answer for an unknown address (which
 * costs the same time: a dummy hash is verified) and a wrong password.
 */
async function checkPassword(ctx: Ctx, email: string, password: string, hash: string | null, now: Date): Promise<void> {
  await assertNotThrottled(ctx, email, now);
  const ok = await verifyPassword(password, hash ?? (await dummyPasswordHash()));
  if (ok && hash !== null) return;
  await recordFailure(ctx, email, now);
  throw invalidCredentials();
}

const USER_SELECT = { id: true, email: true, name: true, role: true, createdAt: true, organizationId: true, passwordHash: true, organization: { select: { name: true } } } as const;

export async function signIn(ctx: Ctx, input: { email: string; password: string; user_agent?: string; ip?: string }): Promise<SessionStart> {
  const now = ctx.ports.clock.now();
  const user = await ctx.db.user.findUnique({ where: { email: input.email }, select: USER_SELECT });
  await checkPassword(ctx, input.email, input.password, user?.passwordHash ?? null, now);
  return ctx.db.$transaction(async (tx) => {
    await tx.signInFailure.deleteMany({ where: { email: input.email } });
    return startSession({ tx, user: user!, organizationName: user!.organization.name, now, userAgent: input.user_agent, ip: input.ip });
  });
}

/** Marks a setup token used (single use even against a concurrent request) and answers it; invalid otherwise. */
async function claimSetupToken(tx: Tx, token: string, now: Date) {
  const tokenHash = hashSecretToken(token);
  const claimed = await tx.setupToken.updateMany({ where: { tokenHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (claimed.count === 0) {
    throw invalid('people.invalid_setup_token', 'the setup link is invalid, expired or already used: print a new one with `npm run cli -- people setup-link`', [
      { field: 'token', message: 'is invalid, expired or already used' },
    ]);
  }
  return tx.setupToken.findUniqueOrThrow({ where: { tokenHash }, select: { organizationId: true } });
}

function emailTaken(): DomainError {
  return new DomainError({
    kind: 'conflict',
    code: 'people.email_taken',
    message: 'a person with this e-mail address exists already',
    fieldErrors: [{ field: 'email', message: 'is already used by another person' }],
  });
}

/**
 * Creates the owner from a setup link: with the link's organization (one made with `init`, or the
 * first start's), renamed to `organization_name`; without one, a new organization with its first
 * workspace. One transaction: the link, the organization, the person and the session.
 */
export async function setUpOwner(
  ctx: Ctx,
  input: { token: string; email: string; name: string; password: string; organization_name: string; user_agent?: string; ip?: string },
): Promise<SessionStart> {
  const now = ctx.ports.clock.now();
  const passwordHash = await hashPassword(input.password);
  return ctx.db.$transaction(async (tx) => {
    const link = await claimSetupToken(tx, input.token, now);
    if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) throw emailTaken();
    let organizationId: string;
    if (link.organizationId) {
      organizationId = link.organizationId;
      await tx.organization.update({ where: { id: organizationId }, data: { name: input.organization_name } });
    } else {
      organizationId = (await createOrganizationRecords({ tx, name: input.organization_name })).organizationId;
    }
    const user = await tx.user.create({
      data: { id: newId(), organizationId, email: input.email, name: input.name, passwordHash, role: 'OWNER', createdAt: now, passwordChangedAt: now },
      select: { id: true, email: true, name: true, role: true, createdAt: true, organizationId: true },
    });
    return startSession({ tx, user, organizationName: input.organization_name, now, userAgent: input.user_agent, ip: input.ip });
  });
}

/**
 * Accepts a workspace invitation as a person: a new person gets the invitation's role and the
 * workspace, and sets a password; a person of the organization with the invited address gives their
 * password and gets the workspace (their role stays). The invitation is used once.
 */
export async function acceptInvitation(ctx: Ctx, input: { token: string; name: string; password: string; user_agent?: string; ip?: string }): Promise<SessionStart> {
  const now = ctx.ports.clock.now();
  const tokenHash = hashInviteToken(input.token);
  const invite = await ctx.db.workspaceInvite.findFirst({
    where: { tokenHash, acceptedAt: null, expiresAt: { gt: now } },
    select: { id: true, organizationId: true, workspaceId: true, email: true, role: true },
  });
  if (!invite) throw invalidInviteToken();
  const existing = await ctx.db.user.findUnique({ where: { email: invite.email }, select: USER_SELECT });
  if (existing && existing.organizationId !== invite.organizationId) {
    throw conflict('people.other_organization', 'this e-mail address belongs to a person of another organization; invite another address');
  }
  if (existing) {
    await checkPassword(ctx, invite.email, input.password, existing.passwordHash, now);
  } else {
    const problem = passwordProblem(input.password);
    if (problem) throw invalid('request.invalid', `password ${problem}`, [{ field: 'password', message: problem }]);
  }
  const passwordHash = existing ? null : await hashPassword(input.password);
  return ctx.db.$transaction(async (tx) => {
    const claimed = await tx.workspaceInvite.updateMany({ where: { id: invite.id, acceptedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
    if (claimed.count === 0) throw invalidInviteToken();
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: invite.organizationId }, select: { name: true } });
    const user =
      existing ??
      (await tx.user.create({
        data: { id: newId(), organizationId: invite.organizationId, email: invite.email, name: input.name, passwordHash: passwordHash!, role: invite.role, createdAt: now, passwordChangedAt: now },
        select: { id: true, email: true, name: true, role: true, createdAt: true, organizationId: true },
      }));
    await tx.userWorkspace.createMany({ data: [{ userId: user.id, workspaceId: invite.workspaceId, createdAt: now }], skipDuplicates: true });
    if (existing) await tx.signInFailure.deleteMany({ where: { email: invite.email } });
    return startSession({ tx, user, organizationName: organization.name, now, userAgent: input.user_agent, ip: input.ip });
  });
}
