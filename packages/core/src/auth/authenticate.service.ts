import type { PrismaClient } from '@outreach/db';
import type { Actor } from '../shared/context';
import { DomainError } from '../shared/errors';
import { hashApiKey, isWellFormedApiKey } from './api-key.rules';

export function unauthenticated(code: string, message: string): DomainError {
  return new DomainError({ kind: 'unauthenticated', code, message });
}

/** How stale a key's `last_used_at` may get before a lookup writes it again: it is told to the minute. */
const LAST_USED_PRECISION_MS = 60_000;

/**
 * Notes that a key was used (`last_used_at`, shown in the key listing), when what is stored is
 * older than LAST_USED_PRECISION_MS: at most one write per key a minute, whatever the traffic, and
 * none while the lookup is cached. The condition in SQL keeps processes that look the key up at
 * the same time from writing it twice. Bookkeeping: a failure here never fails the request.
 */
async function noteUsed(db: PrismaClient, key: { id: string; lastUsedAt: Date | null }, now: number): Promise<void> {
  if (key.lastUsedAt && now - key.lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return;
  const stale = new Date(now - LAST_USED_PRECISION_MS);
  await db.apiKey
    .updateMany({ where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] }, data: { lastUsedAt: new Date(now) } })
    .catch(() => undefined);
}

async function loadActor(db: PrismaClient, apiKey: string, now: number): Promise<Actor | null> {
  const key = await findKey(db, apiKey);
  const actor = key ? actorOf(key) : null;
  if (key && actor) await noteUsed(db, key, now);
  return actor;
}

function findKey(db: PrismaClient, apiKey: string) {
  return db.apiKey.findUnique({
    where: { keyHash: hashApiKey(apiKey) },
    select: {
      id: true,
      lastUsedAt: true,
      organizationId: true,
      workspaceId: true,
      revokedAt: true,
      partnerName: true,
      role: true,
      partnerGrants: { select: { workspaceId: true }, orderBy: { workspaceId: 'asc' } },
      client: { select: { status: true, grants: { select: { workspaceId: true, permissions: true, hideLabels: true } } } },
      organization: { select: { deletedAt: true } },
      workspace: { select: { deletedAt: true } },
    },
  });
}

/** Who a key acts as; null when it is revoked or no longer reaches anything. */
function actorOf(key: NonNullable<Awaited<ReturnType<typeof findKey>>>): Actor | null {
  if (key.revokedAt) return null;
  // A key of a deleted organization or workspace answers as a revoked one, from the delete on.
  if (key.organization.deletedAt || key.workspace?.deletedAt) return null;
  if (key.partnerName !== null) {
    // A partner key reaches the workspaces that granted it, and only the partner operations.
    return {
      organizationId: key.organizationId,
      apiKeyId: key.id,
      workspaceIds: key.partnerGrants.map((g) => g.workspaceId),
      clientGrants: null,
      partnerName: key.partnerName,
    };
  }
  if (key.client) {
    if (key.client.status !== 'ACTIVE') return null;
    const clientGrants = Object.fromEntries(
      key.client.grants.map((g) => [g.workspaceId, { permissions: g.permissions, hideLabels: g.hideLabels }]),
    );
    return {
      organizationId: key.organizationId,
      apiKeyId: key.id,
      workspaceIds: Object.keys(clientGrants),
      clientGrants,
    };
  }
  return {
    organizationId: key.organizationId,
    apiKeyId: key.id,
    workspaceIds: key.workspaceId ? [key.workspaceId] : null,
    clientGrants: null,
    ...(key.role ? { role: key.role } : {}),
  };
}

export interface Authenticator {
  /** Resolves a key to its actor; throws `unauthenticated` for a missing, unknown or revoked key. */
  authenticate(apiKey: string | undefined): Promise<Actor>;
  /**
   * Whether authenticating this key would query the database: a well-formed key without
   * a fresh cached lookup. A missing, malformed or recently looked-up key costs no query.
   */
  needsLookup(apiKey: string | undefined): boolean;
  /** Drops cached lookups, e.g. after a key was revoked or a client deactivated in this process. */
  invalidate(): void;
}

/**
 * Key lookups are cached for `ttlMs` (default 5 s) so a burst of requests costs one
 * query; a revocation made through another process takes effect within that time.
 */
export function createAuthenticator(options: {
  db: PrismaClient;
  ttlMs?: number;
  maxEntries?: number;
  /** The process's cache (`Caches.apiKeys`), which apiKey.revoke clears; a private one otherwise. */
  cache?: Map<string, { actor: Actor | null; expires: number }>;
  /** Milliseconds since the epoch (Date.now by default): the cache's expiry and a key's `last_used_at`. */
  now?: () => number;
}): Authenticator {
  const clock = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 5_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = options.cache ?? new Map<string, { actor: Actor | null; expires: number }>();
  return {
    async authenticate(apiKey) {
      const key = apiKey?.trim().toLowerCase();
      if (!key) throw unauthenticated('auth.missing_key', 'API key is required: send it in the x-api-key header');
      if (!isWellFormedApiKey(key)) throw unauthenticated('auth.invalid_key', 'API key is invalid');
      const now = clock();
      let entry = cache.get(key);
      if (!entry || entry.expires <= now) {
        entry = { actor: await loadActor(options.db, key, now), expires: now + ttlMs };
        if (cache.size >= maxEntries) cache.clear();
        cache.set(key, entry);
      }
      if (!entry.actor) throw unauthenticated('auth.invalid_key', 'API key is invalid or revoked');
      return entry.actor;
    },
    needsLookup(apiKey) {
      const key = apiKey?.trim().toLowerCase();
      if (!key || !isWellFormedApiKey(key)) return false;
      const entry = cache.get(key);
      return !entry || entry.expires <= clock();
    },
    invalidate() {
      cache.clear();
    },
  };
}
