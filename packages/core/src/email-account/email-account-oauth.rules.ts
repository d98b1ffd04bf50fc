// The pure rules of connecting mailboxes over OAuth: the state that authorizes a callback, and
// where a finished authorization may send the browser.
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthProvider } from '../shared/oauth/oauth.rules';

/** How long an authorization may take between its start and its callback. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** A new state: 32 random bytes (base64url), and the SHA-256 that is stored in its place. */
export function newOAuthState(): { state: string; hash: string } {
  const state = randomBytes(32).toString('base64url');
  return { state, hash: hashOAuthState(state) };
}

export function hashOAuthState(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('base64url');
}

export type StateRefusal = 'unknown' | 'used' | 'expired' | 'provider';

/** Why a stored state cannot authorize this callback, or null when it can. */
export function stateRefusal(
  row: { provider: string; usedAt: Date | null; expiresAt: Date } | null,
  options: { provider: OAuthProvider; now: Date },
): StateRefusal | null {
  if (!row) return 'unknown';
  if (row.provider !== options.provider) return 'provider';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= options.now.getTime()) return 'expired';
  return null;
}

/**
 * Why `redirect_after` is refused, or null. It must be an absolute http(s) URL without
 * credentials whose origin is PUBLIC_URL's or one of `allowedOrigins` (OAUTH_REDIRECT_ORIGINS),
 * so a start link can never send a browser somewhere the installation did not choose.
 */
export function redirectAfterProblem(value: string, options: { publicUrl: string; allowedOrigins: readonly string[] }): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http:// or https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  const allowed = new Set<string>();
  for (const origin of [options.publicUrl, ...options.allowedOrigins]) {
    try {
      allowed.add(new URL(origin).origin);
    } catch {
      // An unreadable origin allows nothing.
    }
  }
  if (!allowed.has(url.origin)) {
    return `must be on ${[...allowed].join(' or ')} (PUBLIC_URL's origin, or one listed in OAUTH_REDIRECT_ORIGINS)`;
  }
  return null;
}

/** `url` with `params` added to its query (replacing any of the same names). */
export function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.href;
}
