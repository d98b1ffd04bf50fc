// Sessions of signed-in people: started by the operations that sign in, looked up by the gateway
// for every cookie-authenticated request, ended by signing out (people.operations.ts).
import { newId, type PrismaClient, type Tx } from '@outreach/db';
import type { Actor, Caches, PersonRole } from '../shared/context';
import type { Clock } from '../shared/ports';
import { generateSecretToken, hashSecretToken, isWellFormedSecretToken, sessionExpiry, SESSION_TOUCH_MS } from './session.rules';
import type { SessionStart, Viewer } from './people.schemas';

/** A cookie's session: who acts, and the token its writes must carry (x-csrf-token). */
export interface SessionPrincipal {
  actor: Actor;
  csrfToken: string;
}

/** Session lookups are cached this long per process; the people operations clear the cache when they end sessions or change roles. */
const SESSION_CACHE_MS = 5_000;

/** The actor of a person: owners and admins reach every workspace, members and read-only people their own. */
export function personActor(options: { organizationId: string; userId: string; sessionId?: string; role: PersonRole; workspaceIds: string[] }): Actor {
  const everywhere = options.role === 'OWNER' || options.role === 'ADMIN';
  return {
    organizationId: options.organizationId,
    apiKeyId: '',
    workspaceIds: everywhere ? null : [...options.workspaceIds].sort(),
    clientGrants: null,
    role: options.role,
    userId: options.userId,
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
  };
}

/** Starts a session for the person inside the caller's transaction, and answers what the transport needs. */
export async function startSession(options: {
  tx: Tx;
  user: { id: string; email: string; name: string; role: PersonRole; createdAt: Date; organizationId: string };
  organizationName: string;
  now: Date;
  userAgent?: string;
  ip?: string;
}): Promise<SessionStart> {
  const { tx, user, now } = options;
  const token = generateSecretToken();
  const csrfToken = generateSecretToken();
  const expiresAt = sessionExpiry({ createdAt: now, now });
  // The person's ended sessions go when a new one starts (the expires_at index serves a wider sweep).
  await tx.userSession.deleteMany({ where: { userId: user.id, expiresAt: { lte: now } } });
  await tx.userSession.create({
    data: {
      id: newId(),
      userId: user.id,
      tokenHash: hashSecretToken(token),
      csrfToken,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      userAgent: options.userAgent ?? '',
      ip: options.ip ?? '',
    },
  });
  return {
    viewer: viewerOf({ user, organizationName: options.organizationName, csrfToken }),
    session: { token, expires_at: expiresAt.toISOString() },
  };
}

export function personOf(user: { id: string; email: string; name: string; role: PersonRole; createdAt: Date }) {
  return { id: user.id, email: user.email, name: user.name, role: user.role, created_at: user.createdAt.toISOString() };
}

export function viewerOf(options: { user: { id: string; email: string; name: string; role: PersonRole; createdAt: Date; organizationId: string }; organizationName: string; csrfToken: string }): Viewer {
  return { person: personOf(options.user), organization_id: options.user.organizationId, organization_name: options.organizationName, csrf_token: options.csrfToken };
}

async function loadSession(options: { db: PrismaClient; tokenHash: string; now: Date }): Promise<SessionPrincipal | null> {
  const { db, tokenHash, now } = options;
  const session = await db.userSession.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      csrfToken: true,
      createdAt: true,
      lastSeenAt: true,
      expiresAt: true,
      user: { select: { id: true, organizationId: true, role: true, organization: { select: { deletedAt: true } }, workspaces: { select: { workspaceId: true } } } },
    },
  });
  if (!session || session.expiresAt <= now) return null;
  // The people of a deleted organization are signed out with it.
  if (session.user.organization.deletedAt) return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_MS) {
    // Sliding expiry: written back at most once a minute, never past the session's 90 days.
    await db.userSession.updateMany({ where: { id: session.id }, data: { lastSeenAt: now, expiresAt: sessionExpiry({ createdAt: session.createdAt, now }) } });
  }
  const { user } = session;
  return {
    actor: personActor({ organizationId: user.organizationId, userId: user.id, sessionId: session.id, role: user.role, workspaceIds: user.workspaces.map((w) => w.workspaceId) }),
    csrfToken: session.csrfToken,
  };
}

/**
 * The session of a cookie's token, or null for a malformed, unknown, expired or ended one. Lookups
 * are cached per process for 5 s (`caches.sessions`); signing out and role changes clear the cache,
 * so they take effect at once in the process that made them and within 5 s in the others.
 */
export async function authenticateSession(options: { db: PrismaClient; caches: Caches; clock: Clock; token: string | undefined }): Promise<SessionPrincipal | null> {
  const token = options.token?.trim();
  if (!token || !isWellFormedSecretToken(token)) return null;
  const tokenHash = hashSecretToken(token);
  const now = options.clock.now();
  const cache = options.caches.sessions;
  const cached = cache.get(tokenHash);
  if (cached && cached.expires > now.getTime()) return cached.value as SessionPrincipal | null;
  const value = await loadSession({ db: options.db, tokenHash, now });
  if (cache.size >= 10_000) cache.clear();
  cache.set(tokenHash, { value, expires: now.getTime() + SESSION_CACHE_MS });
  return value;
}

/** Forgets every cached session lookup of this process (after sessions ended or roles changed). */
export function forgetSessions(caches: Caches): void {
  caches.sessions.clear();
}
